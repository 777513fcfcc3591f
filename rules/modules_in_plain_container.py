"""TL721 modules-in-plain-container: `self.layers = [nn.Linear(...) for _ in range(n)]`."""

from __future__ import annotations

import libcst as cst

from torchlint.scopes import is_first_param
from torchlint.rule import Invalid, Rule
from torchlint.rules._training import spelled
from torchlint.rules.registry import register
from torchlint.torch_api import PARAMETER_CLASSES
from torchlint.walk import descendants

# Calls that only read a container, so passing it to them registers nothing.
_REGISTERS = frozenset({"add_module", "register_module", "register_parameter"})
# tensors a loss module keeps as buffers; without them it has no state to register
_LOSS_STATE = frozenset({"weight", "pos_weight"})
_READERS = frozenset({"len", "enumerate", "zip", "reversed", "range", "iter", "list", "tuple", "isinstance", "print"})
T = "import torch\nimport torch.nn as nn\n"


def _net(body: str) -> str:
    return T + "class Net(nn.Module):\n    def __init__(self, n=2):\n        super().__init__()\n" + body


@register
class ModulesInPlainContainer(Rule):
    """
    ## What it does
    Flags an attribute of an `nn.Module` assigned a plain list, tuple or dict (or a list or dict
    comprehension) of freshly built modules (`nn.Linear(...)`, instances of module classes) or of
    `nn.Parameter(...)`s: `self.heads = [nn.Linear(d, 1) for _ in range(k)]`, or an empty list
    that the class fills with `self.heads.append(nn.Linear(...))`.

    ## Why is this bad?
    `nn.Module.__setattr__` registers a submodule or parameter only when the value itself is a
    Module or Parameter. Inside a plain container they are invisible: `model.parameters()` leaves
    them out (so the optimizer never updates them), `model.to(device)`/`.cuda()`/`.half()` do not
    move them (a device mismatch at run time), `state_dict()` does not save them, and
    `model.train()`/`eval()` do not reach them.

    ## Example
    ```python
    self.heads = [nn.Linear(d, 1) for _ in range(k)]
    ```

    ## Use instead
    ```python
    self.heads = nn.ModuleList([nn.Linear(d, 1) for _ in range(k)])
    ```

    ## Fix safety
    The fix wraps the container in `nn.ModuleList` (a list or tuple of modules), `nn.ModuleDict`
    (a dict of modules) or `nn.ParameterList`/`nn.ParameterDict` (of parameters), spelled with the
    file's own torch import, and is **unsafe**: the parameters become visible to the optimizer,
    to `.to()` and to `state_dict()`, whose keys change (old checkpoints lack them, so a strict
    `load_state_dict` fails). That is the point of the fix, but it changes what later code sees.
    A dict whose keys are not all string literals gets no fix (ModuleDict needs string keys).

    Not flagged: containers of existing attributes (`[self.conv1, self.conv2]`, already
    registered), containers later handed to a call that may register them
    (`nn.Sequential(*self.layers)`; a tensor function such as `torch.stack(self.prompts)` only
    reads it, so it does not count), containers the class registers itself by iterating them into
    `self.add_module(...)`/`register_module`/`register_parameter`, containers of torch loss
    modules built without a `weight`/`pos_weight` (they hold no state: nothing to train, move or
    save, and no mode), plain values (`[3, 4]`), local lists, and classes that are not modules.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), 6 findings, 2 judged correct (the false positives led to changes; after
    them, 2 of 2 on the same files); fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [nn.ModuleList](https://pytorch.org/docs/stable/generated/torch.nn.ModuleList.html)
    - [PyTorch forums: "Parameters of modules in a python list are not registered"](https://discuss.pytorch.org/t/the-difference-in-usage-between-nn-modulelist-and-python-list/7744)
    """

    code = "TL721"
    name = "modules-in-plain-container"
    summary = "Modules or Parameters kept in a plain list/dict are not registered"
    severity = "error"
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("self.",)
    scope_tokens = ("self",)

    valid = (
        _net("        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(n)])\n"),
        _net("        self.sizes = [4, 8, 16]\n"),
        _net("        self.conv1 = nn.Conv2d(1, 1, 3)\n        self.conv2 = nn.Conv2d(1, 1, 3)\n"
             "        self.convs = [self.conv1, self.conv2]\n"),
        _net("        self.layers = [nn.Linear(4, 4) for _ in range(n)]\n        self.net = nn.Sequential(*self.layers)\n"),
        _net("        layers = [nn.Linear(4, 4) for _ in range(n)]\n        self.net = nn.Sequential(*layers)\n"),
        T + "class Holder:\n    def __init__(self):\n        self.models = [nn.Linear(2, 2), nn.Linear(2, 2)]\n",
        _net("        self.heads = {k: nn.Linear(4, 1) for k in ('a', 'b')}\n        self.all = nn.ModuleDict(self.heads)\n"),
        _net("        self.acts = [make_act() for _ in range(n)]\n"),
        _net("        self.history = []\n        self.history.append(3)\n"),
        _net("        self.blocks = nn.ModuleList()\n        self.blocks.append(nn.Linear(4, 4))\n"),
        # registered by hand, as transformers' MaskFormer and UperNet blocks do
        _net("        self.layers = [nn.Conv2d(1, 1, 3), nn.ReLU()]\n        for i, layer in enumerate(self.layers):\n"
             "            self.add_module(str(i), layer)\n"),
        _net("        self.heads = {'a': nn.Linear(4, 1)}\n        for name, head in self.heads.items():\n"
             "            self.register_module(name, head)\n"),
        # stateless loss modules (transformers' LXMERT `self.loss_fcts`)
        _net("        self.losses = {'l2': nn.SmoothL1Loss(reduction='none'), 'ce': nn.CrossEntropyLoss()}\n"),
    )
    invalid = (
        # `torch.stack` reads the list of Parameters; it does not register them
        Invalid(
            _net("        self.prompts = [nn.Parameter(torch.ones(4)) for _ in range(n)]\n"
                 "        self.mean = torch.stack(self.prompts).mean(0)\n"),
            _net("        self.prompts = nn.ParameterList([nn.Parameter(torch.ones(4)) for _ in range(n)])\n"
                 "        self.mean = torch.stack(self.prompts).mean(0)\n"),
        ),
        Invalid(
            _net("        self.layers = [nn.Linear(4, 4) for _ in range(n)]\n"),
            _net("        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(n)])\n"),
        ),
        Invalid(
            _net("        self.heads = {'cls': nn.Linear(4, 2), 'box': nn.Linear(4, 4)}\n"),
            _net("        self.heads = nn.ModuleDict({'cls': nn.Linear(4, 2), 'box': nn.Linear(4, 4)})\n"),
        ),
        Invalid(
            _net("        self.scales = [nn.Parameter(torch.ones(4)) for _ in range(n)]\n"),
            _net("        self.scales = nn.ParameterList([nn.Parameter(torch.ones(4)) for _ in range(n)])\n"),
        ),
        Invalid(
            "import torch\nclass Block(torch.nn.Module):\n    pass\nclass Net(torch.nn.Module):\n"
            "    def __init__(self):\n        super().__init__()\n        self.blocks = (Block(), Block())\n",
            "import torch\nclass Block(torch.nn.Module):\n    pass\nclass Net(torch.nn.Module):\n"
            "    def __init__(self):\n        super().__init__()\n        self.blocks = torch.nn.ModuleList((Block(), Block()))\n",
        ),
        Invalid(_net("        self.heads = {name: nn.Linear(4, 1) for name in names}\n")),
        # a class weight is a buffer: `.to(device)` does not move it
        Invalid(
            _net("        self.losses = [nn.CrossEntropyLoss(weight=w), nn.MSELoss()]\n"),
            _net("        self.losses = nn.ModuleList([nn.CrossEntropyLoss(weight=w), nn.MSELoss()])\n"),
        ),
        # iterated, but only to initialise: nothing registers them
        Invalid(
            _net("        self.layers = [nn.Linear(4, 4), nn.Linear(4, 4)]\n        for layer in self.layers:\n"
                 "            nn.init.zeros_(layer.bias)\n"),
            _net("        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])\n        for layer in self.layers:\n"
                 "            nn.init.zeros_(layer.bias)\n"),
        ),
        Invalid(
            _net("        self.blocks = []\n        for _ in range(n):\n            self.blocks.append(nn.Linear(4, 4))\n"),
            _net("        self.blocks = nn.ModuleList()\n        for _ in range(n):\n            self.blocks.append(nn.Linear(4, 4))\n"),
        ),
    )

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) != 1:
            return
        target = node.targets[0].target
        if not (isinstance(target, cst.Attribute) and self._is_self(target.value)):
            return
        contents = self._contents(node.value)
        if contents is None and isinstance(node.value, cst.List) and not node.value.elements:
            contents = self._appended(target.attr.value) or None
        if contents is None:
            return
        wrapper = self._wrapper(node.value, contents)
        if wrapper is None or self._handed_on(target.attr.value) or self._registered(target.attr.value):
            return
        what = "Parameters" if wrapper.startswith("Parameter") else "Modules"
        fix = None
        container = spelled(self.ctx, f"torch.nn.{wrapper}")
        if container is not None and self._fixable(node.value):
            args = [cst.Arg(node.value)] if self._contents(node.value) is not None else []
            fix = self.replace(
                node.value,
                cst.Call(func=container, args=args),
                f"Wrap in `{wrapper}`",
                "unsafe",
            )
        self.report(
            node.value,
            f"{what} in a plain {type(node.value).__name__.replace('Comp', '').lower()} are not registered: "
            f"not trained, moved or saved; use `nn.{wrapper}`",
            fix,
        )

    def _appended(self, attribute: str) -> list[cst.CSTNode]:
        """What the class appends to `self.<attribute>` (`self.layers.append(nn.Linear(...))`)."""
        owner = self.ctx.enclosing(cst.ClassDef)
        found = []
        for call in descendants(owner) if owner is not None else ():
            if (
                isinstance(call, cst.Call)
                and isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "append"
                and isinstance(call.func.value, cst.Attribute)
                and call.func.value.attr.value == attribute
                and isinstance(call.func.value.value, cst.Name)
                and call.args
            ):
                found.append(call.args[0].value)
        return found

    def _is_self(self, expr: cst.CSTNode) -> bool:
        function = self.ctx.enclosing(cst.FunctionDef)
        if function is None or not isinstance(expr, cst.Name) or not self.ctx.is_module(expr):
            return False
        params = function.params.params
        return bool(params) and params[0].name.value == expr.value and is_first_param(function, params[0])

    @staticmethod
    def _contents(value: cst.CSTNode) -> list[cst.CSTNode] | None:
        if isinstance(value, (cst.List, cst.Tuple)) and value.elements:
            return [element.value for element in value.elements]
        if isinstance(value, cst.Dict) and value.elements:
            return [getattr(element, "value", None) for element in value.elements]
        if isinstance(value, cst.ListComp):
            return [value.elt]
        if isinstance(value, cst.DictComp):
            return [value.value]
        return None

    def _wrapper(self, value: cst.CSTNode, contents: list) -> str | None:
        """The container class these fresh modules or parameters need, or None."""
        if not all(isinstance(item, cst.Call) for item in contents):
            return None
        mapping = isinstance(value, (cst.Dict, cst.DictComp))
        if all(self.ctx.qualify(item.func) in PARAMETER_CLASSES for item in contents):
            return "ParameterDict" if mapping else "ParameterList"
        if all(self._stateless_loss(item) for item in contents):
            return None
        if all(self.ctx.is_module(item) for item in contents):
            return "ModuleDict" if mapping else "ModuleList"
        return None

    def _stateless_loss(self, call: cst.Call) -> bool:
        """`nn.CrossEntropyLoss(reduction="none")`: a torch loss module with no tensor state."""
        qualified = self.ctx.qualify(call.func) or ""
        return (
            qualified.startswith("torch.nn.")
            and qualified.endswith("Loss")
            and all(arg.keyword is not None and arg.keyword.value not in _LOSS_STATE for arg in call.args)
        )

    def _registered(self, attribute: str) -> bool:
        """The class iterates `self.<attribute>` into `self.add_module(...)` (or `register_module`,
        `register_parameter`), registering the elements itself."""
        owner = self.ctx.enclosing(cst.ClassDef)
        for loop in descendants(owner) if owner is not None else ():
            if not isinstance(loop, cst.For) or not any(
                isinstance(n, cst.Attribute) and n.attr.value == attribute and isinstance(n.value, cst.Name)
                for n in descendants(loop.iter)
            ):
                continue
            if any(
                isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in _REGISTERS
                for call in descendants(loop.body)
            ):
                return True
        return False

    @staticmethod
    def _fixable(value: cst.CSTNode) -> bool:
        if isinstance(value, cst.Dict):
            return all(isinstance(getattr(e, "key", None), cst.SimpleString) for e in value.elements)
        return not isinstance(value, cst.DictComp)

    def _handed_on(self, attribute: str) -> bool:
        """`self.<attribute>` passed to a call other than a mere reader anywhere in the class."""
        owner = self.ctx.enclosing(cst.ClassDef)
        if owner is None:
            return False
        for call in descendants(owner):
            if not isinstance(call, cst.Call) or (isinstance(call.func, cst.Name) and call.func.value in _READERS):
                continue
            qualified = self.ctx.qualify(call.func) or ""
            if qualified.startswith("torch.") and (not qualified.startswith("torch.nn.") or ".functional." in qualified):
                continue  # `torch.stack(self.prompts)`: a tensor function reads the list, it does not register it
            for arg in call.args:
                value = arg.value
                if isinstance(value, cst.Attribute) and value.attr.value == attribute and isinstance(value.value, cst.Name):
                    return True
        return False
