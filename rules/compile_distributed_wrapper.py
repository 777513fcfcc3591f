"""TL727 compile-distributed-wrapper: `torch.compile` applied to a DDP or FSDP wrapper."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import last_assignment_before
from torchlint.rules.registry import register

_WRAPPERS = frozenset({
    "torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel",
    "torch.distributed.fsdp.FullyShardedDataParallel",
    "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
})
T = "import torch\nfrom torch.nn.parallel import DistributedDataParallel as DDP\n"


@register
class CompileDistributedWrapper(Rule):
    """
    ## What it does
    Flags `torch.compile(w)` where `w` is a `DistributedDataParallel` or (FSDP1)
    `FullyShardedDataParallel` wrapper, built in the call or last assigned to the variable before it.

    ## Why is this bad?
    Compiling the wrapper makes Dynamo trace the wrapper's Python forward and hooks: DDP's
    communication hooks force graph breaks at bucket boundaries (handled by DDPOptimizer, with
    slower graphs and more recompiles), and FSDP1's flat-parameter wrapper is not supported by
    Dynamo at all in many configurations. The torch.compile and FSDP docs recommend compiling
    the model and wrapping after (`DDP(torch.compile(model))`), or using FSDP2's `fully_shard`
    with a compiled module.

    ## Example
    ```python
    model = torch.compile(DDP(model, device_ids=[rank]))
    ```

    ## Use instead
    ```python
    model = DDP(torch.compile(model), device_ids=[rank])
    ```

    ## Fix safety
    There is no fix: the order changes the state_dict keys and which object later code uses.
    This rule is off by default: compiling a DDP wrapper is supported (with graph breaks), so a
    finding is a performance and robustness hint rather than a bug.

    Not flagged: `DDP(torch.compile(model))`, compiling plain modules, and objects of unknown type.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), 2 findings, 0 judged correct; fewer than the 10 judged findings a rule
    needs to be on by default. See docs/new-rules-precision.md.

    ## References
    - [torch.compile and DDP (DDPOptimizer)](https://pytorch.org/docs/stable/torch.compiler_ddp.html)
    - [FSDP2 fully_shard with torch.compile](https://pytorch.org/docs/stable/distributed.fsdp.fully_shard.html)
    """

    code = "TL727"
    name = "compile-distributed-wrapper"
    summary = "`torch.compile` applied to a DDP/FSDP wrapper instead of the model"
    severity = "info"
    default_enabled = False
    trigger_tokens = ("compile",)
    scope_tokens = ("compile",)

    valid = (
        T + "model = DDP(torch.compile(model), device_ids=[0])\n",
        T + "model = torch.compile(torch.nn.Linear(2, 2))\n",
        T + "model = torch.compile(model)\n",
    )
    invalid = (
        Invalid(T + "model = torch.compile(DDP(model, device_ids=[rank]))\n"),
        Invalid(T + "ddp = DDP(net)\nfast = torch.compile(ddp, mode='reduce-overhead')\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) != "torch.compile" or not node.args:
            return
        target = node.args[0].value
        if isinstance(target, cst.Name):
            target = last_assignment_before(self.ctx, target.value)
        if isinstance(target, cst.Call) and self.ctx.qualify(target.func) in _WRAPPERS:
            self.report(node, "`torch.compile` of a DDP/FSDP wrapper traces its hooks; compile the model, then wrap it")
