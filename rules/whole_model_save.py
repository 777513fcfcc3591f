"""TL004 whole-model-save: `torch.save(model, path)` pickles the whole module."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.analysis import argument, calls_in, walk_statements
from torchlint.codemod import method_call
from torchlint.rule import FixSpec, Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import SELF_RETURNING_METHODS

_SAVE = "torch.save"
_LOAD = "torch.load"
# What a loaded model is used for, proving the loaded object is meant to be a module.
_MODULE_USES = frozenset(
    {"eval", "train", "to", "cuda", "cpu", "forward", "parameters", "named_parameters", "state_dict",
     "modules", "children", "half", "float", "requires_grad_"}
)
_LITERALS = (cst.Integer, cst.Float, cst.SimpleString, cst.Name)

T = "import torch\nimport torch.nn as nn\n"
NET = T + "class Net(nn.Module):\n    def __init__(self, width=4):\n        super().__init__()\n        self.fc = nn.Linear(width, 2)\n"


@register
class WholeModelSave(Rule):
    """
    ## What it does
    Flags `torch.save(m, path)` where `m` is an `nn.Module` instance: a model constructed in the
    file, a torchvision or timm model, an `nn.Sequential`, `model.module` of a wrapper, or `self`
    inside an `nn.Module` subclass.

    ## Why is this bad?
    Saving the module object pickles a reference to its class by import path, plus every attribute
    it holds. The checkpoint breaks when the class is renamed, moved or refactored, cannot be
    loaded without the exact code, and loading it runs arbitrary pickled code. Since torch 2.6,
    `torch.load` defaults to `weights_only=True` and refuses such a file unless the caller opts
    back into unsafe unpickling. A `state_dict` holds only tensors and loads with
    `weights_only=True`.

    ## Example
    ```python
    torch.save(model, "model.pt")
    restored = torch.load("model.pt")
    ```

    ## Use instead
    ```python
    torch.save(model.state_dict(), "model.pt")
    restored = Net()
    restored.load_state_dict(torch.load("model.pt", weights_only=True))
    ```

    ## Fix safety
    The fix is **unsafe**: whoever loads the file must change too, because it now holds a
    `state_dict` instead of a module. It rewrites `torch.save(m, p)` to
    `torch.save(m.state_dict(), p)`. When the same file loads that path back into a model
    (`m2 = torch.load(p)` with `m2` then used as a module) and the model's constructor is visible
    with literal arguments, the load becomes `m2 = Net(...)` followed by
    `m2.load_state_dict(torch.load(p, weights_only=True))`. Otherwise the fix covers the save and
    the message names the load sites (by line) that must follow.

    Not flagged: `torch.save(model.state_dict(), p)`, dicts of state_dicts, tensors,
    `best = model.state_dict(); torch.save(best, p)`, `torch.jit.save`, `torch.save(self, p)` in a
    class that is not a module, and objects of unknown type.

    ## References
    - [Saving and loading models](https://pytorch.org/tutorials/beginner/saving_loading_models.html)
    - [torch.load and weights_only (torch 2.6 default)](https://pytorch.org/docs/stable/generated/torch.load.html)
    """

    code = "TL004"
    name = "whole-model-save"
    summary = "`torch.save(model)` pickles the whole module instead of its state_dict"
    severity = "warning"
    fix_safety = ("unsafe",)
    trigger_tokens = ("save",)
    scope_tokens = ("save",)  # calls of `torch.save`, by this name or an alias
    # `torch.save(` (or `th.`/`pt.`), or `save` imported from torch
    trigger_patterns = (
        re.compile(r"\.save(?:(?<=\btorch\.save)|(?<=\bth\.save)|(?<=\bpt\.save))\s*\("),
        re.compile(r"from\s+torch\s+import[^\n]*\bsave\b"),
    )

    valid = (
        NET + "model = Net()\ntorch.save(model.state_dict(), 'm.pt')\n",
        NET + "model = Net()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': 3}, 'ckpt.pt')\n",
        T + "torch.save(torch.randn(3), 't.pt')\n",
        NET + "model = Net()\nbest = model.state_dict()\ntorch.save(best, 'best.pt')\n",
        NET + "model = Net()\nscripted = torch.jit.script(model)\ntorch.jit.save(scripted, 'm.pt')\n",
        T + "class Config:\n    def save(self, path):\n        torch.save(self, path)\n",
        T + "def save(model, path):\n    torch.save(model, path)\n",
        NET + "model = Net()\nnp.save('weights.npy', model)\n",
    )

    invalid = (
        Invalid(
            NET + "model = Net()\ntorch.save(model, 'model.pt')\n",
            NET + "model = Net()\ntorch.save(model.state_dict(), 'model.pt')\n",
        ),
        Invalid(
            T + "import torchvision\nmodel = torchvision.models.resnet18()\ntorch.save(obj=model, f='r.pt')\n",
            T + "import torchvision\nmodel = torchvision.models.resnet18()\ntorch.save(obj=model.state_dict(), f='r.pt')\n",
        ),
        Invalid(
            T + "model = nn.Sequential(nn.Linear(2, 2))\nwrapped = nn.DataParallel(model)\n"
            "torch.save(wrapped.module, 'm.pt')\n",
            T + "model = nn.Sequential(nn.Linear(2, 2))\nwrapped = nn.DataParallel(model)\n"
            "torch.save(wrapped.module.state_dict(), 'm.pt')\n",
        ),
        Invalid(
            NET + "    def checkpoint(self, path):\n        torch.save(self, path)\n",
            NET + "    def checkpoint(self, path):\n        torch.save(self.state_dict(), path)\n",
        ),
        # the same file loads it back into a model whose constructor is visible
        Invalid(
            NET + "model = Net(width=4)\ntorch.save(model, 'net.pt')\n"
            "restored = torch.load('net.pt')\nrestored.eval()\nprint(restored(torch.zeros(1, 4)))\n",
            NET + "model = Net(width=4)\ntorch.save(model.state_dict(), 'net.pt')\n"
            "restored = Net(width=4)\nrestored.load_state_dict(torch.load('net.pt', weights_only=True))\n"
            "restored.eval()\nprint(restored(torch.zeros(1, 4)))\n",
        ),
        # the constructor is followed by calls that return the model
        Invalid(
            NET + "model = Net(4).to('cpu').eval()\ntorch.save(model, 'net.pt')\n"
            "restored = torch.load('net.pt', map_location='cpu')\nrestored.eval()\n",
            NET + "model = Net(4).to('cpu').eval()\ntorch.save(model.state_dict(), 'net.pt')\n"
            "restored = Net(4)\nrestored.load_state_dict(torch.load('net.pt', map_location='cpu', weights_only=True))\n"
            "restored.eval()\n",
        ),
        # a load that cannot be rewritten: the save is fixed, the message names the load
        Invalid(
            NET + "model = Net(args.width)\n"
            "torch.save(model, PATH)\nother = torch.load(PATH, map_location='cpu')\nother.eval()\n",
            NET + "model = Net(args.width)\n"
            "torch.save(model.state_dict(), PATH)\nother = torch.load(PATH, map_location='cpu')\nother.eval()\n",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) != _SAVE or not node.args:
            return
        saved = argument(node, 0, "obj")
        if saved is None or not self.ctx.is_module(saved.value):
            return
        path = argument(node, 1, "f")
        loads = self._load_sites(path.value) if path is not None else []
        message = (
            "`torch.save` of a module pickles the whole object, bound to its class's import path; since "
            "torch 2.6 `torch.load` refuses it by default; save `state_dict()` instead"
        )
        if loads:
            lines = ", ".join(str(self.ctx.line_of(load)) for load in loads)
            message += f" (and load it with `load_state_dict`: `torch.load` on line {lines})"
        self.report(node, message, self._fix(node, saved, loads))

    def _fix(self, node: cst.Call, saved: cst.Arg, loads: list[cst.Call]) -> FixSpec:
        replacements = [(saved.value, method_call(saved.value, "state_dict"))]
        rewrite = self._load_rewrite(saved.value, loads)
        if rewrite is not None:
            replacements.append(rewrite)
        message = "Save the `state_dict()`" + (" and load it into a new model" if rewrite else "")
        return FixSpec("unsafe", message, tuple(replacements))

    def _load_sites(self, path: cst.BaseExpression) -> list[cst.Call]:
        wanted = self.ctx.module.code_for_node(path)
        return [
            call for call in calls_in(self.ctx.module)
            if self.ctx.qualify(call.func) == _LOAD and call.args
            and self.ctx.module.code_for_node(argument(call, 0, "f").value) == wanted
        ]

    def _load_rewrite(self, saved: cst.BaseExpression, loads: list[cst.Call]):
        """`m2 = torch.load(p)` → `m2 = Net(...)` + `m2.load_state_dict(torch.load(p, weights_only=True))`."""
        constructor = self._literal_constructor(saved)
        if constructor is None or len(loads) != 1:
            return None
        (load,) = loads
        line = _line_assigning(self.ctx.module, load)
        if line is None:
            return None
        target = line.body[0].targets[0].target
        if not _used_as_module(self.ctx.module, target.value):
            return None
        keywords = [arg for arg in load.args if arg.keyword is None or arg.keyword.value != "weights_only"]
        keywords[-1] = keywords[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        weights_only = cst.Arg(keyword=cst.Name("weights_only"), value=cst.Name("True"),
                               equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
        safe_load = load.with_changes(args=[*keywords, weights_only])
        build = line.with_changes(body=[line.body[0].with_changes(value=constructor)])
        restore = cst.SimpleStatementLine(
            body=[cst.Expr(cst.Call(func=cst.Attribute(target, cst.Name("load_state_dict")), args=[cst.Arg(safe_load)]))]
        )
        block = self._block_holding(line)
        if block is None:
            return None
        index = next(i for i, statement in enumerate(block.body) if statement is line)
        body = [*block.body[:index], build, restore, *block.body[index + 1 :]]
        return block, block.with_changes(body=body)

    def _literal_constructor(self, saved: cst.BaseExpression) -> cst.Call | None:
        """The `Net(4)` call that built the saved name, when it is its only binding."""
        if not isinstance(saved, cst.Name):
            return None
        bindings = self.ctx.oracle.bindings_of(saved.value, self.ctx.stack) or []
        values = [b.value for b in bindings if b.how == "value"]
        if len(values) != len(bindings) or not values:
            return None
        constructor = _strip_self_returning(values[-1])
        if not isinstance(constructor, cst.Call) or not all(isinstance(a.value, _LITERALS) for a in constructor.args):
            return None
        kind = self.ctx.oracle.binding_kind(bindings[-1])
        return constructor if kind is not None and kind.base == "module" and isinstance(constructor.func, cst.Name) else None

    def _block_holding(self, line: cst.SimpleStatementLine):
        for statement in walk_statements(self.ctx.module):
            body = getattr(statement, "body", None)
            if isinstance(body, cst.IndentedBlock) and any(s is line for s in body.body):
                return body
        return self.ctx.module if any(s is line for s in self.ctx.module.body) else None


def _strip_self_returning(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`Net(8)` from `Net(8).to(device).eval()`: the calls after the constructor return the model."""
    while (
        isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)
        and expr.func.attr.value in SELF_RETURNING_METHODS and isinstance(expr.func.value, cst.Call)
    ):
        expr = expr.func.value
    return expr


def _line_assigning(module: cst.Module, call: cst.Call) -> cst.SimpleStatementLine | None:
    """The line `name = <call>` whose whole value is `call`."""
    for statement in walk_statements(module):
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            assign = statement.body[0]
            if (
                isinstance(assign, cst.Assign) and assign.value is call and len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)
            ):
                return statement
    return None


def _used_as_module(module: cst.Module, name: str) -> bool:
    for call in calls_in(module):
        func = call.func
        if isinstance(func, cst.Name) and func.value == name:
            return True
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name:
            if func.attr.value in _MODULE_USES:
                return True
    return False
