"""TL002 data-parallel: `nn.DataParallel` instead of DistributedDataParallel."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.analysis import calls_in, dotted_name, walk_statements
from torchlint.kinds import CLASS, OBJECT
from torchlint.project.index import ProjectClass
from torchlint.scopes import all_params
from torchlint.rule import FixSpec, Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import DATA_PARALLEL_FUNCTIONS, SELF_RETURNING_METHODS
from torchlint.walk import SCOPE_NODES, children, descendants, outside_nested_scopes, paths

DATA_PARALLEL_CLASSES = frozenset(
    {"torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel"}
)
# DataParallel arguments that DistributedDataParallel takes with the same meaning.
_KEPT_KEYWORDS = frozenset({"dim"})
# Libraries' classes built on nn.DataParallel (PyG's scatters lists of graphs): one process, every
# GPU, as DataParallel's; no fix (the move to DDP differs for them).
LIBRARY_DATA_PARALLEL_CLASSES = frozenset({"torch_geometric.nn.DataParallel", "torch_geometric.nn.data_parallel.DataParallel"})
# What a wrapper built only to load a checkpoint is used for (as statements of their own)
_UNRUN_USES = SELF_RETURNING_METHODS | {"load_state_dict"}
_DEVICE_MOVES = frozenset({"to", "cuda", "cpu", "xpu", "half", "float", "double", "bfloat16", "to_empty"})

# What differs between the wrapper and the bare module: `.module`, and every view that names
# parameters (a state dict's keys and `named_*` names carry the `module.` prefix) or children.
_WRAPPER_VIEWS = frozenset(
    {"module", "load_state_dict", "state_dict", "named_parameters", "named_buffers", "named_modules",
     "named_children", "children",
     # the wrapper's own attributes, which the bare module lacks
     "device_ids", "output_device", "src_device_obj", "dim", "gather", "scatter", "replicate", "parallel_apply"}
)
# Builtins that neither keep the wrapper nor tell it from the module in a way the program relies on
# (`isinstance(m, nn.DataParallel)` is the unwrapping idiom, which works on the bare module too;
# `type(m)` names the wrapper's class, whose change is the fix's point).
_HARMLESS_CALLEES = frozenset({"print", "isinstance", "type", "hasattr", "len", "id", "str", "repr"})

_MESSAGE = "`nn.DataParallel` drives every GPU from one process; use DistributedDataParallel"
_FUNCTION_MESSAGE = "`data_parallel()` runs DataParallel: every GPU driven from one process; use DistributedDataParallel"
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
    longer has: `.module` (or the wrapper's own `device_ids`, `output_device`, `dim`, `gather`,
    ...) read through any name the wrapper is bound to (or its argument, or an alias), the wrapper handed to a function of the file that reads `.module` of that parameter
    or to `getattr(w, "module")` without a default, the wrapper moved to a device after it is
    built, a state dict loaded into it or taken from it (its keys carry the `module.` prefix, the
    bare model's do not; so do `named_parameters()` and the other `named_*` names, and
    `children()` differs), or the wrapper going where the linter cannot follow (returned or
    yielded, alone or in a tuple, stored in a container, an attribute or an item (built straight
    into an item, or into an attribute of what is or may be a module, whose own state dict then
    carries `module.`), another method chained on it, passed to a function that is not a function of the file leaving it alone or a
    builtin such as `print`/`isinstance`). Nor for the functional `data_parallel(...)`.
    `isinstance(m, nn.DataParallel)` does not block the fix: it is the unwrapping idiom, which
    takes the other branch on the bare model and works the same. Nor does `type(m)`, which names
    the wrapper's class: that it changes is the point of the fix.

    A class of the file or the project built on `nn.DataParallel` whose name says so
    (`BalancedDataParallel(model)`, `DataParallelModel(model)`), and PyTorch Geometric's
    `torch_geometric.nn.DataParallel` (a subclass of it), are flagged too, without a fix.

    Not flagged: `isinstance(m, nn.DataParallel)`, unwrapping `.module`, annotations, strings, and
    a class named DataParallel that is not torch's. Nor a wrapper built only to load a checkpoint
    saved from one (its keys carry `module.`) and never run: bound to a function's local name (or
    a script's, under `if __name__ == "__main__":`) whose every use that the binding reaches reads
    `.module` (or takes `next(model.children())`, its one child), or loads a state dict into it,
    moves it or sets its mode as a statement of its own
    (`model.load_state_dict(sd)`, `model.eval()`), at least one loading into it or reading
    `.module` (a wrapper only built and moved is flagged).
    A wrapper called, handed on, returned, rebound from a method (`model = model.cuda()`), read in
    a nested function (or, for a script's name, a function of the script that does not bind it
    itself) or bound at module level outside the main guard (another file may import it) is
    flagged.

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
    # a call, or an import under another name; not DistributedDataParallel, not isinstance checks;
    # a call of a class named after it (`DataParallelWithCallback(model)`, a subclass)
    trigger_patterns = (
        re.compile(r"DataParallel(?<!DistributedDataParallel)\w*\s*(?:\(|as\b)"),
        re.compile(r"data_parallel\s*\("),
    )

    valid = (
        # PyG's DataParallel only named: the unwrapping test, and the class of another library
        "from torch_geometric.nn import DataParallel\nif isinstance(model, DataParallel):\n    model = model.module\n",
        "from dgl.nn import DataParallel\nmodel = DataParallel(model)\n",
        # PyG's wrapper built only to load a checkpoint saved from one, as torch's
        "from torch_geometric.nn import DataParallel\ndef load(net, path):\n    model = DataParallel(net)\n"
        "    model.load_state_dict(torch.load(path))\n    return model.module\n",
        # a class named like one that is not built on torch's DataParallel
        "import torch.nn as nn\nclass ShardedDataParallel:\n    def __init__(self, m):\n        self.m = m\n"
        "model = ShardedDataParallel(nn.Linear(2, 2))\n",
        "from fairscale.nn import ShardedDataParallel\nmodel = ShardedDataParallel(net, optimizer)\n",
        T + "def unwrap(m):\n    return m.module if isinstance(m, nn.DataParallel) else m\n",
        T + "def f(m: nn.DataParallel) -> nn.Module:\n    return m.module\n",
        T + "NAME = 'nn.DataParallel(model)'\n",
        T + "class DataParallel:\n    def __init__(self, m):\n        self.m = m\nwrapped = DataParallel(model)\n",
        T + "from torch.nn.parallel import DistributedDataParallel as DDP\nmodel = DDP(model)\n",
        T + "if isinstance(model, (nn.DataParallel, nn.parallel.DistributedDataParallel)):\n    model = model.module\n",
        # built only to load a checkpoint saved from a wrapper, then unwrapped: never run
        T + "def load(path):\n    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(path))\n"
        "    model = model.module\n    model.eval()\n    return model(torch.ones(1, 4))\n",
        T + "def evaluate(path):\n    wrapped = nn.DataParallel(Net()).cuda()\n    wrapped.load_state_dict(torch.load(path))\n"
        "    wrapped.eval()\n    return score(wrapped.module)\n",
        # a script's own name, under the main guard; `args.model` and a function's own `model`
        # are other names
        T + "def validate(model):\n    return model(x)\nif __name__ == '__main__':\n"
        "    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(args.model))\n    model.eval()\n"
        "    validate(model.module)\n",
        # the wrapper's one child taken out of it
        T + "def load(path):\n    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(path))\n"
        "    encoder = next(model.children()).encoder\n    return encoder(torch.ones(1, 4))\n",
    )

    invalid = (
        # PyTorch Geometric's DataParallel, a subclass of torch's: flagged, no fix
        Invalid("from torch_geometric.nn import DataParallel\nmodel = DataParallel(model)\n", None),
        # its child taken out, but the wrapper is run too
        Invalid(
            T + "def load(path):\n    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(path))\n"
            "    first = next(model.children())\n    return model(torch.ones(1, 4)), first\n",
            None,
        ),
        # its children listed, not unwrapped: the wrapper is what is kept
        Invalid(
            T + "def load(path):\n    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(path))\n"
            "    return list(model.children())\n",
            None,
        ),
        # a subclass of DataParallel, of this file: the same one-process design, no fix
        Invalid(
            "import torch.nn as nn\nclass BalancedDataParallel(nn.DataParallel):\n    pass\n"
            "model = BalancedDataParallel(nn.Linear(2, 2), device_ids=[0, 1])\n",
            None,
        ),
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
        # the wrapper held by a module (or an item): the holder's state dict keys change
        Invalid(T + "model = nn.Sequential()\nmodel.features = nn.Linear(2, 2)\n"
                "model.features = nn.DataParallel(model.features)\n", None),
        Invalid(T + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.body = nn.DataParallel(nn.Linear(2, 2))\n", None),
        Invalid(T + "blocks = nn.ModuleDict()\nblocks['a'] = nn.DataParallel(net)\n", None),
        # the wrapper's own attributes, which the bare module lacks
        Invalid(T + "model = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\nprint(model.device_ids)\n", None),
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
        # a state dict taken from the wrapper: its `module.` keys would change for its consumers
        Invalid(T + "model = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\ntorch.save(model.state_dict(), 'm.pt')\n", None),
        # returned in a tuple, or handed to a function the linter cannot see
        Invalid(T + "def build(net):\n    net = nn.DataParallel(net)\n    return net, 1\n", None),
        Invalid(T + "from engine import train\nmodel = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\ntrain(model)\n", None),
        # handed to a function of the file that only calls it: fixed
        Invalid(
            T + "def step(m, x):\n    return m(x).sum()\nmodel = nn.Linear(2, 2)\nmodel = nn.DataParallel(model)\n"
            "loss = step(model, torch.ones(1, 2))\n",
            T + "def step(m, x):\n    return m(x).sum()\nmodel = nn.Linear(2, 2)\n"
            "model = torch.nn.parallel.DistributedDataParallel(model) if torch.distributed.is_initialized() else model\n"
            "loss = step(model, torch.ones(1, 2))\n",
        ),
        # only built and moved, never loaded into nor unwrapped: flagged as before
        Invalid(T + "def build():\n    model = nn.DataParallel(Net())\n    model.to(device)\n", None),
        # a wrapper loaded into and then run, handed on, returned or rebound from a method: it runs
        Invalid(
            T + "def load(path):\n    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(path))\n"
            "    model.eval()\n    return model(torch.ones(1, 4))\n",
            None,
        ),
        Invalid(T + "def load(path):\n    model = nn.DataParallel(Net())\n    model.eval()\n    run(model)\n", None),
        Invalid(T + "def load(path):\n    model = nn.DataParallel(Net())\n    model.eval()\n    return model\n", None),
        Invalid(T + "def load(path):\n    model = nn.DataParallel(Net())\n    model = model.cuda()\n    model(x)\n", None),
        Invalid(
            T + "def load(path):\n    model = nn.DataParallel(Net())\n    model.load_state_dict(sd)\n"
            "    def step(x):\n        return model(x)\n    return step\n",
            None,
        ),
        # in the main guard's else, or a guard that is not one: another file may import it
        Invalid(
            T + "if __name__ == '__main__':\n    pass\nelse:\n"
            "    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(path))\n    model.eval()\n",
            None,
        ),
        Invalid(
            T + "if __name__ != '__main__':\n"
            "    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(path))\n    model.eval()\n",
            None,
        ),
        # under the main guard, read by a function of the script as its global: it may run it
        Invalid(
            T + "def validate():\n    return model(x)\nif __name__ == '__main__':\n"
            "    model = nn.DataParallel(Net())\n    model.load_state_dict(torch.load(path))\n    validate()\n",
            None,
        ),
        # the functional form has no fix
        Invalid(T + "out = torch.nn.parallel.data_parallel(model, inputs, device_ids=[0, 1])\n", None),
    )

    def __init__(self, ctx):
        super().__init__(ctx)
        self._calls_by_arg: dict[int, cst.Call] | None = None  # see _escapes

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func)
        if qualified in DATA_PARALLEL_FUNCTIONS:
            self.report(node, _FUNCTION_MESSAGE)
        elif qualified in DATA_PARALLEL_CLASSES:
            if not self._never_run(node):
                self.report(node, _MESSAGE, self._fix(node))
        elif qualified in LIBRARY_DATA_PARALLEL_CLASSES:
            if not self._never_run(node):
                self.report(node, _MESSAGE)  # no fix: the move to DDP differs for it
        elif ("DataParallel" in (dotted_name(node.func) or "") and not (qualified or "").startswith("torch.")
              and self._subclass_of_data_parallel(node.func)):
            self.report(node, _MESSAGE)  # a class of the project built on DataParallel: no fix

    def _never_run(self, node: cst.Call) -> bool:
        """A wrapper built only to load a checkpoint saved from one: bound to a name whose every
        use that binding reaches reads `.module` or is a statement loading, moving or setting
        the mode of the wrapper (see the docs)."""
        built, _ = self._wrapped_expression(node)
        parent = self.ctx.stack[self.ctx.stack.index(built) - 1] if built is not None else None
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
            return False
        name = parent.targets[0].target.value
        binding = next((b for b in self.ctx.oracle.bindings_of(name, self.ctx.stack) or [] if b.value is built), None)
        if binding is None or not (isinstance(binding.scope.node, cst.FunctionDef) or _under_main_guard(self.ctx.stack)):
            return False  # a module's name may be imported and run elsewhere
        scope = binding.scope.node
        if any(_reads_free(inner, name) for inner in descendants(scope) if isinstance(inner, SCOPE_NODES) and inner is not scope):
            return False  # read in a nested function: a closure, or the script's global
        adapted = False  # a state dict loaded into it, or the module taken out of it
        for path in paths(scope, outside_nested_scopes):
            if not _names(path, name) or isinstance(path[-2], cst.AssignTarget):
                continue
            reached = self.ctx.oracle.reaching_bindings(name, path) or []
            if any(b is binding for b in reached):
                if not _leaves_wrapper_unrun(path):
                    return False
                adapted = adapted or path[-2].attr.value == "load_state_dict" or _takes_module_out(path)
        return adapted

    def _subclass_of_data_parallel(self, func: cst.CSTNode) -> bool:
        """`BalancedDataParallel(model)`, a class of the file or the project whose bases reach
        `nn.DataParallel` (one whose name says DataParallel, as such subclasses' names do: the
        rule runs only on files that mention it)."""
        kind = self.ctx.kind(func)
        if kind is None or kind.base != CLASS:
            return False
        if isinstance(kind.cls, cst.ClassDef):
            return self.ctx.classes.is_subclass_of(kind.cls.name.value, DATA_PARALLEL_CLASSES)
        return isinstance(kind.cls, ProjectClass) and self.ctx.project.inherits_from(kind.cls, DATA_PARALLEL_CLASSES)

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
        if any(self._held_by_a_module(target.target) for target in parent.targets):
            return True
        names = {self.ctx.module.code_for_node(target.target) for target in parent.targets}
        names.add(self.ctx.module.code_for_node(module))
        names |= _aliases(self.ctx.module, names)
        if self._unwrapped_elsewhere(names):
            return True
        wrap_line = self.ctx.line_of(node)
        code = self.ctx.module.code_for_node
        for found in descendants(self.ctx.module):
            if not isinstance(found, cst.Attribute) or code(found.value) not in names:
                continue
            attribute = found.attr.value
            if attribute in _WRAPPER_VIEWS:
                return True
            if attribute in _DEVICE_MOVES and self.ctx.line_of(found) > wrap_line:
                return True
        return any(
            self._escapes(found, parent)
            for found, parent in _with_parents(self.ctx.module)
            if isinstance(found, (cst.Name, cst.Attribute)) and self.ctx.line_of(found) > wrap_line and code(found) in names
        )

    def _held_by_a_module(self, target: cst.BaseExpression) -> bool:
        """`model.features = DataParallel(model.features)`, `self.body = ...` in a module,
        `blocks["x"] = ...`: the wrapper becomes a submodule of what holds it (unless that is known
        to be no module: a trainer's `self.model`), whose state dict then carries `module.` in its
        keys, so checkpoints saved before or after no longer load into the other."""
        if isinstance(target, cst.Subscript):
            return True
        if not isinstance(target, cst.Attribute):
            return False
        owner = self.ctx.kind(target.value)
        return owner is None or owner.base != OBJECT

    def _escapes(self, found: cst.CSTNode, parent: cst.CSTNode) -> bool:
        """The wrapper goes where the linter cannot follow: returned or yielded, put in a
        container, stored in an attribute or item, or passed to a function that is neither a
        harmless builtin nor a function of this file that leaves the wrapper alone."""
        if isinstance(parent, (cst.Return, cst.Yield, cst.Element, cst.DictElement, cst.StarredElement, cst.Lambda)):
            return True
        if isinstance(parent, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and parent.value is found:
            targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
            return any(not isinstance(target, cst.Name) for target in targets)
        if isinstance(parent, cst.Arg):
            if self._calls_by_arg is None:
                self._calls_by_arg = {id(arg): call for call in calls_in(self.ctx.module) for arg in call.args}
            call = self._calls_by_arg.get(id(parent))
            if call is None:
                return True
            callee = dotted_name(call.func)
            if callee in _HARMLESS_CALLEES or (callee == "getattr" and len(call.args) == 3):
                return False
            if self.ctx.qualify(call.func) in DATA_PARALLEL_CLASSES:
                return False  # wrapped again (another branch): that call is judged on its own
            function = self._local_function(callee)
            return function is None or _needs_wrapper_parameter(function, _parameter_of(function, call, parent))
        return False

    def _local_function(self, name: str | None) -> cst.FunctionDef | None:
        found = [
            statement for statement in self.ctx.module.body
            if isinstance(statement, cst.FunctionDef) and statement.name.value == name
        ]
        return found[0] if len(found) == 1 else None


def _names(path: list[cst.CSTNode], name: str) -> bool:
    """The node at the end of `path` reads or binds the variable `name` (not `args.name`, not a
    keyword `name=`)."""
    node, parent = path[-1], path[-2] if len(path) > 1 else None
    if not (isinstance(node, cst.Name) and node.value == name):
        return False
    return not ((isinstance(parent, cst.Attribute) and parent.attr is node)
                or (isinstance(parent, cst.Arg) and parent.keyword is node))


def _reads_free(scope: cst.CSTNode, name: str) -> bool:
    """Whether a function (or class, lambda) may read the enclosing `name`: it mentions it and
    neither takes it as a parameter nor binds it itself (`def validate(model):` is its own)."""
    mentions = [path[-1] for path in paths(scope, lambda _: False) if _names(path, name)]
    if not mentions:
        return False
    if any(isinstance(node, (cst.Global, cst.Nonlocal)) and any(n.name.value == name for n in node.names)
           for node in descendants(scope)):
        return True
    params = scope.params if isinstance(scope, (cst.FunctionDef, cst.Lambda)) else None
    if params is not None and name in {param.name.value for param in all_params(params)}:
        return False
    bound = {id(target.target) for node in descendants(scope) if isinstance(node, cst.Assign) for target in node.targets}
    return not any(id(node) in bound for node in mentions)


def _under_main_guard(stack) -> bool:
    """In the body of a module-level `if __name__ == "__main__":` (not its `else`): a script's own
    names, which no other file imports."""
    if len(stack) < 3 or not isinstance(stack[1], cst.If) or stack[2] is not stack[1].body:
        return False
    test = stack[1].test
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.Equal)):
        return False
    sides = {cst.Module([]).code_for_node(side).strip("'\"") for side in (test.left, test.comparisons[0].comparator)}
    return sides == {"__name__", "__main__"}


def _takes_module_out(path: list[cst.CSTNode]) -> bool:
    """`w.module`, or `next(w.children())` (the wrapper's one child is the module it wraps)."""
    attribute = path[-2]
    if not (isinstance(attribute, cst.Attribute) and attribute.value is path[-1]):
        return False
    if attribute.attr.value == "module":
        return True
    if attribute.attr.value != "children" or len(path) < 6:
        return False
    call, arg, outer = path[-3], path[-4], path[-5]
    return (isinstance(call, cst.Call) and call.func is attribute and not call.args and isinstance(arg, cst.Arg)
            and isinstance(outer, cst.Call) and dotted_name(outer.func) == "next" and len(outer.args) == 1
            and outer.args[0] is arg and arg.keyword is None and not arg.star)


def _leaves_wrapper_unrun(path: list[cst.CSTNode]) -> bool:
    """`w.module` or `next(w.children())` read, or `w.load_state_dict(sd)` / `w.cuda()` /
    `w.eval()` as a statement."""
    attribute = path[-2]
    if not (isinstance(attribute, cst.Attribute) and attribute.value is path[-1]):
        return False
    if _takes_module_out(path):
        return True
    call, statement = (path[-3], path[-4]) if len(path) >= 4 else (None, None)
    return (attribute.attr.value in _UNRUN_USES and isinstance(call, cst.Call) and call.func is attribute
            and isinstance(statement, cst.Expr))


def _parameter_of(function: cst.FunctionDef, call: cst.Call, arg: cst.Arg) -> str | None:
    """The name of the parameter of `function` that `arg` of `call` binds; None when unclear."""
    if arg.keyword is not None:
        return arg.keyword.value
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in positional):
        return None
    index = next(i for i, a in enumerate(positional) if a is arg)
    params = [*function.params.posonly_params, *function.params.params]
    return params[index].name.value if index < len(params) else None


def _needs_wrapper_parameter(function: cst.FunctionDef, name: str | None) -> bool:
    """The parameter's wrapper-only view is read (`.module`, `.state_dict()`, ...), or it is
    returned, yielded or handed on to another call (where the linter stops following it), or it
    is reassigned (flow the check does not follow). No name: the parameter is not known."""
    if name is None:
        return True
    for node, parent in _with_parents(function.body):
        if isinstance(node, (cst.Global, cst.Nonlocal)):
            return True
        if not (isinstance(node, cst.Name) and node.value == name):
            continue
        if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in _WRAPPER_VIEWS:
            return True
        if isinstance(parent, (cst.Return, cst.Yield, cst.Element, cst.DictElement, cst.StarredElement)):
            return True
        if isinstance(parent, (cst.Arg, cst.AssignTarget, cst.AugAssign)):
            return True
    return False


def _with_parents(root: cst.CSTNode):
    """Every node below `root` with its parent (iterative: deep trees do not recurse)."""
    pending = [(child, root) for child in children(root)]
    while pending:
        node, parent = pending.pop()
        yield node, parent
        pending.extend((child, node) for child in children(node))


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
