"""TL002 data-parallel: `nn.DataParallel` instead of DistributedDataParallel."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.analysis import calls_in, dotted_name, walk_statements
from torchlint.oracle import all_params
from torchlint.rule import FixSpec, Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import SELF_RETURNING_METHODS
from torchlint.walk import descendants

DATA_PARALLEL_CLASSES = frozenset(
    {"torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel"}
)
DATA_PARALLEL_FUNCTIONS = frozenset({"torch.nn.parallel.data_parallel", "torch.nn.parallel.data_parallel.data_parallel"})
# DataParallel arguments that DistributedDataParallel takes with the same meaning.
_KEPT_KEYWORDS = frozenset({"dim"})
_DEVICE_MOVES = frozenset({"to", "cuda", "cpu", "xpu", "half", "float", "double", "bfloat16", "to_empty"})

_MESSAGE = "`nn.DataParallel` drives every GPU from one process; use DistributedDataParallel"
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
    of a single-device module), `dim` is kept. Device and dtype moves chained on the wrapper
    (`DataParallel(m).cuda()`) move onto the module, before DDP is built:
    `DDP(m.cuda()) if ... else m.cuda()`, since DDP built on a module and moved afterwards is
    unsupported. The fix needs a name for `torch` imported where the call stands and a plain name
    or attribute as the module argument (it is evaluated on both branches).

    There is no fix when the program relies on the wrapper itself, which a single-process run no
    longer has: `.module` read through any name the wrapper is bound to (or its argument, or an
    alias), the wrapper handed to a function of the file that reads `.module` of that parameter
    or to `getattr(w, "module")` without a default, the wrapper moved to a device after it is
    built, a state dict loaded into it (its keys carry the `module.` prefix, the bare model's do
    not), or the wrapper going where the linter cannot follow (returned, passed on, stored in a
    container, another method chained on it). Nor for the functional `data_parallel(...)`.

    Not flagged: `isinstance(m, nn.DataParallel)`, unwrapping `.module`, annotations, strings, and
    a class named DataParallel that is not torch's.

    ## References
    - [DataParallel: "use DistributedDataParallel instead"](https://pytorch.org/docs/stable/generated/torch.nn.DataParallel.html)
    - [DistributedDataParallel](https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html)
    - [torchrun](https://pytorch.org/docs/stable/elastic/run.html)
    """

    code = "TL002"
    preview = False  # released
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
        # a device move chained on the wrapper goes onto the module, before DDP is built
        Invalid(
            "import torch\nfrom torch.nn.parallel import DataParallel as DP\n"
            "class Trainer:\n    def setup(self):\n        self.model = DP(self.model, dim=1).cuda()\n",
            "import torch\nfrom torch.nn.parallel import DataParallel as DP\n"
            "class Trainer:\n    def setup(self):\n"
            "        self.model = torch.nn.parallel.DistributedDataParallel(self.model.cuda(), dim=1) "
            "if torch.distributed.is_initialized() else self.model.cuda()\n",
        ),
        # `.module` read through another name the wrapper is bound to
        Invalid(T + "net = nn.Linear(2, 2)\ndp = nn.DataParallel(net)\nprint(dp.module)\n", None),
        Invalid(T + "net = nn.Linear(2, 2)\ndp = nn.DataParallel(net)\nother = dp\nother.module.eval()\n", None),
        # moved after wrapping: DDP would be built on the module where it stands
        Invalid(T + "model = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\nmodel.to('cuda')\n", None),
        # a state dict loaded into the wrapper has `module.`-prefixed keys
        Invalid(
            T + "model = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\n"
            "model.load_state_dict(torch.load('m.pt', weights_only=True))\n",
            None,
        ),
        # unwrapped by a function of the file, or by getattr without a default
        Invalid(
            T + "def unwrap(net):\n    return net.module\nmodel = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\n"
            "inner = unwrap(model)\n",
            None,
        ),
        Invalid(T + "model = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\ninner = getattr(model, 'module')\n", None),
        # the wrapper goes where the linter cannot follow
        Invalid(T + "def wrap(model):\n    return nn.DataParallel(model)\n", None),
        # `torch` imported only inside another function
        Invalid(
            "from torch import nn\ndef seed():\n    import torch\n    torch.manual_seed(0)\n"
            "model = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\n",
            None,
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

    def _fix(self, node: cst.Call):
        torch_name = self.ctx.local_name("torch")
        positional = [arg for arg in node.args if arg.keyword is None]
        if torch_name is None or len(positional) != 1 or positional[0].star:
            return None
        module = positional[0].value
        replaced, moves = self._wrapped_expression(node)
        if replaced is None or not _is_reference(module) or self._wrapper_needed(node, replaced, module):
            return None
        # Device moves chained on the wrapper go onto the module, before DDP is built: DDP takes
        # the device of the module it is given, and moving it afterwards is unsupported.
        moved = module
        for method in moves:
            moved = method.with_changes(func=method.func.with_changes(value=moved))
        kept = [arg for arg in node.args if arg.keyword is not None and arg.keyword.value in _KEPT_KEYWORDS]
        args = [cst.Arg(moved), *kept]
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        ddp = cst.Call(func=cst.parse_expression(f"{torch_name}.nn.parallel.DistributedDataParallel"), args=args)
        initialized = cst.parse_expression(f"{torch_name}.distributed.is_initialized()")
        choice = cst.IfExp(test=initialized, body=ddp, orelse=moved)
        if not isinstance(self.ctx.stack[self.ctx.stack.index(replaced) - 1], cst.Assign):
            choice = choice.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return FixSpec("unsafe", "Use DistributedDataParallel when a process group is initialised", ((replaced, choice),))

    def _unwrapped_elsewhere(self, names: set[str]) -> bool:
        """The wrapper handed to a function of this file that reads `<parameter>.module`, or to
        `getattr(wrapper, "module")` without a default."""
        code = self.ctx.module.code_for_node
        unwrapping = {
            statement.name.value for statement in walk_statements(self.ctx.module)
            if isinstance(statement, cst.FunctionDef) and _reads_module_of_parameter(statement)
        }
        for call in calls_in(self.ctx.module):
            passed = [code(arg.value) for arg in call.args]
            callee = (dotted_name(call.func) or "").rsplit(".", 1)[-1]
            if callee in unwrapping and names.intersection(passed):
                return True
            if callee == "getattr" and len(passed) == 2 and passed[0] in names and passed[1] in ("'module'", '"module"'):
                return True
        return False

    def _wrapped_expression(self, node: cst.Call) -> tuple[cst.CSTNode | None, list[cst.Call]]:
        """The wrapper call with the self-returning methods chained on it (`DP(m).cuda()`), and
        those method calls, innermost first; None when another method is chained."""
        current, moves = node, []
        stack = self.ctx.stack
        index = len(stack) - 1
        while index >= 2:
            attribute, call = stack[index - 1], stack[index - 2]
            if not (isinstance(attribute, cst.Attribute) and attribute.value is current):
                break
            if not (isinstance(call, cst.Call) and call.func is attribute) or attribute.attr.value not in SELF_RETURNING_METHODS:
                return None, []
            moves.append(call)
            current, index = call, index - 2
        return current, moves

    def _wrapper_needed(self, node: cst.Call, wrapped: cst.CSTNode, module: cst.BaseExpression) -> bool:
        """Whether the program relies on the wrapper itself, which a single-process run no longer
        has: `.module` read through any name it is bound to, the wrapper moved to a device after it
        is built, a state dict loaded into it (its keys carry the `module.` prefix), or the
        wrapper going where the linter cannot see (returned, passed on, stored in a container)."""
        parent = self.ctx.stack[self.ctx.stack.index(wrapped) - 1]
        if not (isinstance(parent, cst.Assign) and parent.value is wrapped):
            return True
        names = {self.ctx.module.code_for_node(target.target) for target in parent.targets}
        names.add(self.ctx.module.code_for_node(module))
        names |= _aliases(self.ctx.module, names)
        if self._unwrapped_elsewhere(names):
            return True
        wrap_line = self.ctx.line_of(node)
        for found in descendants(self.ctx.module):
            if not isinstance(found, cst.Attribute) or self.ctx.module.code_for_node(found.value) not in names:
                continue
            attribute = found.attr.value
            if attribute in ("module", "load_state_dict"):
                return True
            if attribute in _DEVICE_MOVES and self.ctx.line_of(found) > wrap_line:
                return True
        return False


def _reads_module_of_parameter(function: cst.FunctionDef) -> bool:
    params = {param.name.value for param in all_params(function.params)}
    return any(
        isinstance(node, cst.Attribute) and node.attr.value == "module"
        and isinstance(node.value, cst.Name) and node.value.value in params
        for node in descendants(function.body)
    )


def _aliases(module: cst.Module, names: set[str]) -> set[str]:
    """Names assigned from any of `names` (`net = model`), transitively."""
    aliases = set(names)
    assignments = [
        (target.target.value, module.code_for_node(statement.value))
        for statement in walk_statements(module)
        if isinstance(statement, cst.Assign)
        for target in statement.targets
        if isinstance(target.target, cst.Name)
    ]
    changed = True
    while changed:
        changed = False
        for target, value in assignments:
            if value in aliases and target not in aliases:
                aliases.add(target)
                changed = True
    return aliases


def _is_reference(expr: cst.CSTNode) -> bool:
    """A name or attribute chain: cheap and side-effect free to evaluate twice."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name)
