"""TL002 data-parallel: `nn.DataParallel` instead of DistributedDataParallel."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register
from torchlint.walk import descendants

DATA_PARALLEL_CLASSES = frozenset(
    {"torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel"}
)
DATA_PARALLEL_FUNCTIONS = frozenset({"torch.nn.parallel.data_parallel", "torch.nn.parallel.data_parallel.data_parallel"})
# DataParallel arguments that DistributedDataParallel takes with the same meaning.
_KEPT_KEYWORDS = frozenset({"dim"})

_MESSAGE = (
    "`nn.DataParallel` runs every GPU from one process, replicating the module each step; use "
    "DistributedDataParallel with one process per GPU (launch with torchrun, call "
    "`init_process_group`, use a DistributedSampler, save on rank 0, strip the `module.` prefix)"
)
T = "import torch\nimport torch.nn as nn\n"


@register
class DataParallelRule(Rule):
    """
    ## What it does
    Flags a call that constructs `torch.nn.DataParallel` (through any import path or alias, such as
    `from torch.nn.parallel import DataParallel as DP`) or calls `torch.nn.parallel.data_parallel`.

    ## Why is this bad?
    DataParallel drives every GPU from one Python process: it replicates the module onto each
    device at every forward pass, scatters the inputs and gathers the outputs on one device, and its
    threads contend for the GIL. DistributedDataParallel runs one process per GPU, replicates only
    once, overlaps the gradient all-reduce with the backward pass, and is what PyTorch recommends
    even on a single machine.

    ## Example
    ```python
    model = nn.DataParallel(model, device_ids=[0, 1])
    ```

    ## Use instead
    ```python
    model = torch.nn.parallel.DistributedDataParallel(model) if torch.distributed.is_initialized() else model
    ```

    ### Migration guide
    1. Launch with `torchrun --nproc-per-node=N train.py` instead of `python train.py`.
    2. At start-up: `torch.distributed.init_process_group("nccl")` (`"gloo"` on CPU) and
       `torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))`; move the model to that device.
    3. Give each loader a `DistributedSampler` (and call `sampler.set_epoch(epoch)` every epoch,
       see TL006); each process sees `1/N` of the data, so the per-process batch size is the
       global batch divided by N.
    4. Save and log on rank 0 only (`if torch.distributed.get_rank() == 0:`).
    5. Checkpoints: both wrappers prefix parameter names with `module.`; save
       `model.module.state_dict()` to keep them loadable without a wrapper.

    ## Fix safety
    The fix is **unsafe**. `model = nn.DataParallel(model, ...)` becomes
    `model = torch.nn.parallel.DistributedDataParallel(model) if torch.distributed.is_initialized() else model`:
    under `torchrun` with a process group the model is wrapped in DDP, and a plain `python train.py`
    keeps the bare model, which on one device computes exactly what DataParallel computed. It is
    unsafe because a script that counted on DataParallel to use several GPUs from one process now
    uses one until it is launched with torchrun and initialises a process group, and because DDP
    needs the other steps above. `device_ids`/`output_device` are dropped (DDP takes the device
    of a single-device module), `dim` is kept. The fix needs a name for `torch` in the file and a
    plain name or attribute as the module argument (it is evaluated on both branches). There is no
    fix when the file reads `model.module` (a single-process run keeps the bare model, which has no
    `.module`), nor for the functional `data_parallel(...)`.

    Not flagged: `isinstance(m, nn.DataParallel)`, unwrapping `.module`, annotations, strings, and
    a class named DataParallel that is not torch's.

    ## References
    - [DataParallel: "use DistributedDataParallel instead"](https://pytorch.org/docs/stable/generated/torch.nn.DataParallel.html)
    - [DistributedDataParallel](https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html)
    - [torchrun](https://pytorch.org/docs/stable/elastic/run.html)
    """

    code = "TL002"
    name = "data-parallel"
    summary = "`nn.DataParallel` instead of DistributedDataParallel"
    severity = "warning"
    fix_safety = ("unsafe",)
    trigger_tokens = ("DataParallel", "data_parallel")
    scope_tokens = ("DataParallel", "data_parallel")  # calls of them, by these names or aliases
    # a call, or an import under another name; not DistributedDataParallel, not isinstance checks
    trigger_patterns = (
        re.compile(r"DataParallel(?<!DistributedDataParallel)\s*(?:\(|as\b)"),
        re.compile(r"data_parallel\s*\("),
    )

    valid = (
        T + "def unwrap(m):\n    return m.module if isinstance(m, nn.DataParallel) else m\n",
        T + "def f(m: nn.DataParallel) -> nn.Module:\n    return m.module\n",
        T + "NAME = 'nn.DataParallel(model)'\n",
        T + "class DataParallel:\n    def __init__(self, m):\n        self.m = m\nwrapped = DataParallel(model)\n",
        T + "from torch.nn.parallel import DistributedDataParallel as DDP\nmodel = DDP(model)\n",
        T + "if isinstance(model, (nn.DataParallel, nn.parallel.DistributedDataParallel)):\n    model = model.module\n",
    )

    invalid = (
        Invalid(
            T + "model = nn.Linear(4, 4)\nmodel = nn.DataParallel(model, device_ids=[0, 1])\n",
            T + "model = nn.Linear(4, 4)\n"
            "model = torch.nn.parallel.DistributedDataParallel(model) if torch.distributed.is_initialized() else model\n",
        ),
        Invalid(
            "import torch\nfrom torch.nn.parallel import DataParallel as DP\n"
            "class Trainer:\n    def setup(self):\n        self.model = DP(self.model, dim=1).cuda()\n",
            "import torch\nfrom torch.nn.parallel import DataParallel as DP\n"
            "class Trainer:\n    def setup(self):\n"
            "        self.model = (torch.nn.parallel.DistributedDataParallel(self.model, dim=1) "
            "if torch.distributed.is_initialized() else self.model).cuda()\n",
        ),
        Invalid(
            T + "if torch.cuda.device_count() > 1:\n    model = torch.nn.DataParallel(model)\n",
            T + "if torch.cuda.device_count() > 1:\n"
            "    model = torch.nn.parallel.DistributedDataParallel(model) if torch.distributed.is_initialized() else model\n",
        ),
        # the module argument is a call: evaluating it on both branches would build two models
        Invalid(T + "model = nn.DataParallel(build_model())\n", None),
        # no name for torch in the file
        Invalid("from torch.nn import DataParallel\nmodel = DataParallel(model)\n", None),
        # the file unwraps `.module` later, which the bare model of a single-process run lacks
        Invalid(T + "model = nn.DataParallel(model)\ntorch.save(model.module.state_dict(), 'm.pt')\n", None),
        # the functional form has no fix
        Invalid(T + "out = torch.nn.parallel.data_parallel(model, inputs, device_ids=[0, 1])\n", None),
    )

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func)
        if qualified in DATA_PARALLEL_FUNCTIONS:
            self.report(node, _MESSAGE)
        elif qualified in DATA_PARALLEL_CLASSES:
            self.report(node, _MESSAGE, self._fix(node))

    def _unwrapped_later(self, module: cst.BaseExpression) -> bool:
        """The file reads `<name>.module`: with the bare model of a single-process run, it would fail."""
        wanted = self.ctx.module.code_for_node(module)
        return any(
            isinstance(node, cst.Attribute) and node.attr.value == "module"
            and self.ctx.module.code_for_node(node.value) == wanted
            for node in descendants(self.ctx.module)
        )

    def _fix(self, node: cst.Call):
        torch_name = self.ctx.imports.local_name("torch")
        positional = [arg for arg in node.args if arg.keyword is None]
        if torch_name is None or len(positional) != 1 or positional[0].star:
            return None
        module = positional[0].value
        if not _is_reference(module) or self._unwrapped_later(module):
            return None
        kept = [arg for arg in node.args if arg.keyword is not None and arg.keyword.value in _KEPT_KEYWORDS]
        args = [cst.Arg(module), *kept]
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        ddp = cst.Call(func=cst.parse_expression(f"{torch_name}.nn.parallel.DistributedDataParallel"), args=args)
        initialized = cst.parse_expression(f"{torch_name}.distributed.is_initialized()")
        choice = cst.IfExp(test=initialized, body=ddp, orelse=module)
        if not isinstance(self.ctx.stack[-2], cst.Assign):
            choice = choice.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return self.replace(node, choice, "Use DistributedDataParallel when a process group is initialised", "unsafe")


def _is_reference(expr: cst.CSTNode) -> bool:
    """A name or attribute chain: cheap and side-effect free to evaluate twice."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name)
