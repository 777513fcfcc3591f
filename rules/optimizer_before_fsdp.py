"""TL624 optimizer-before-fsdp: the optimizer holds the parameters FSDP then replaces."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import calls_in_order, is_optimizer
from torchlint.rules.registry import register
from torchlint.walk import descendants

_SHARDERS = frozenset({
    "torch.distributed.fsdp.FullyShardedDataParallel",
    "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
    "torch.distributed.fsdp.fully_shard",
    "torch.distributed._composable.fsdp.fully_shard",
    "torch.distributed._composable.fsdp.fully_shard.fully_shard",
})
T = "import torch\nfrom torch.distributed.fsdp import FullyShardedDataParallel as FSDP, fully_shard\n"


@register
class OptimizerBeforeFsdp(Rule):
    """
    ## What it does
    Flags an optimizer of `torch.optim` built from `model.parameters()` (or
    `model.named_parameters()`) when `FSDP(model)` / `fully_shard(model)` of the same `model`
    comes later in the same function (or module). The finding is on the optimizer, the
    statement to move.

    ## Why is this bad?
    FSDP replaces the module's parameters: FSDP1 flattens them into `FlatParameter`s, FSDP2
    (`fully_shard`) turns them into sharded `DTensor`s. An optimizer built before holds the old,
    unsharded tensors, which no longer receive gradients: `step()` updates nothing the model
    uses (or runs out of memory holding full copies). The FSDP docs say to build the optimizer
    after wrapping.

    ## Example
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model = FSDP(model)
    ```

    ## Use instead
    ```python
    model = FSDP(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ```

    ## Fix safety
    There is no fix: moving the optimizer may move other code that uses it (schedulers, loaded
    optimizer state).

    Not flagged: an optimizer built after sharding, over another model's parameters, or of
    unknown type.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [FullyShardedDataParallel: "the optimizer must be initialized after the module has been wrapped with FSDP"](https://pytorch.org/docs/stable/fsdp.html)
    - [FSDP2 fully_shard: parameters become DTensors](https://pytorch.org/docs/stable/distributed.fsdp.fully_shard.html)
    """

    code = "TL624"
    name = "optimizer-before-fsdp"
    summary = "Optimizer built before FSDP/fully_shard replaces the model's parameters"
    severity = "error"
    default_enabled = False
    trigger_tokens = ("FullyShardedDataParallel", "fully_shard")
    scope_tokens = ("FullyShardedDataParallel", "fully_shard", "FSDP")

    valid = (
        T + "model = torch.nn.Linear(2, 2)\nmodel = FSDP(model)\nopt = torch.optim.AdamW(model.parameters())\n",
        T + "model = torch.nn.Linear(2, 2)\nfully_shard(model)\nopt = torch.optim.AdamW(model.parameters())\n",
        T + "teacher = torch.nn.Linear(2, 2)\nstudent = torch.nn.Linear(2, 2)\n"
        "opt = torch.optim.AdamW(student.parameters())\nteacher = FSDP(teacher)\n",
        T + "opt = make_optimizer(model.parameters())\nmodel = FSDP(model)\n",
    )
    invalid = (
        Invalid(T + "model = torch.nn.Linear(2, 2)\nopt = torch.optim.AdamW(model.parameters(), lr=1e-4)\nmodel = FSDP(model)\n"),
        Invalid(
            T + "def setup(model):\n    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
            "    for layer in model.layers:\n        fully_shard(layer)\n    fully_shard(model)\n    return optimizer\n"
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) not in _SHARDERS or not node.args:
            return
        wrapped = node.args[0].value
        if not isinstance(wrapped, cst.Name):
            return
        scope = self.ctx.enclosing(cst.FunctionDef)
        for call in calls_in_order(scope.body if scope is not None else self.ctx.module):
            if call is node:
                return
            if self._optimizer_over(call, wrapped.value):
                self.report(call, "An optimizer built before FSDP/fully_shard holds the unsharded parameters; build it after")
                return

    def _optimizer_over(self, call: cst.Call, model: str) -> bool:
        if not call.args or not is_optimizer(self.ctx, call):
            return False
        for child in descendants(call.args[0].value):
            if (
                isinstance(child, cst.Call)
                and isinstance(child.func, cst.Attribute)
                and child.func.attr.value in ("parameters", "named_parameters")
                and isinstance(child.func.value, cst.Name)
                and child.func.value.value == model
            ):
                return True
        return False
