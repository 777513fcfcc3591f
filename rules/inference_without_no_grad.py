"""TL626 inference-without-no-grad: an evaluation function keeps model outputs with autograd on."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.kinds import OBJECT
from torchlint.rule import Invalid, Rule
from torchlint.rules._modes import EVAL, ModeTracker
from torchlint.rules._training import (
    follows_training, grad_disabled_at, has_backward, model_calls, put_in_eval_mode,
)
from torchlint.rules.registry import register
from torchlint.walk import descendants, path_to

_EVAL_FUNCTION = re.compile(
    r"(?i)^_*(eval|evaluate|validate|validation|valid|predict|inference|infer)(_|$)"
    r"|_(eval|evaluate|validate|validation|predict|inference)$|^(test|test_epoch|test_one_epoch|test_model|run_test)$"
)
_GRAD_WORDS = frozenset({"grad", "requires_grad", "requires_grad_", "backward", "enable_grad", "set_grad_enabled"})
T = "import torch\nimport torch.nn as nn\n"
NET = "class Net(nn.Module):\n    pass\n"


@register
class InferenceWithoutNoGrad(Rule):
    """
    ## What it does
    Flags an evaluation pass that keeps model outputs (appends, accumulates or yields them, or a
    name bound to them) with autograd on, no `torch.no_grad()`/`inference_mode()` around the
    call and no decorator:
    - in a function named like an evaluation (`evaluate`, `validate`, `predict`, `inference`,
      `eval_epoch`, `run_validation`, `test`, ...) that calls a model in a loop and has nothing
      that needs gradients (`backward`, `autograd.grad`, `requires_grad`, `enable_grad`); a
      parameter the function calls `.eval()` on counts as a model even when its class is unknown
      (`model.eval()` ... `model(**batch)`);
    - in any loop without `backward()` over a model that is in eval mode there (`model.eval()`
      before it, followed as TL625 does) or that follows a loop of the same scope training the
      same model (the test pass at the end of a script); this case has no fix.

    ## Why is this bad?
    Every output computed with autograd on holds its graph, with all the activations the forward
    saved. Kept across a loop (appended to a list of predictions, summed into a metric) they keep
    every batch's activations alive: evaluation uses several times the memory of a no-grad pass,
    runs slower, and runs out of memory on data sizes that train fine.

    ## Example
    ```python
    def evaluate(model, loader):
        model.eval()
        preds = []
        for x, _ in loader:
            preds.append(model(x))
        return torch.cat(preds)
    ```

    ## Use instead
    ```python
    @torch.no_grad()
    def evaluate(model, loader):
        model.eval()
        preds = []
        for x, _ in loader:
            preds.append(model(x))
        return torch.cat(preds)
    ```

    ## Fix safety
    The fix adds `@torch.no_grad()` above the function and is **unsafe**: what it returns no
    longer requires grad, so a caller that backpropagates through it (rare for a function named
    so, but possible) now fails. The values are the same. It is offered only when the file
    imports `torch`.

    Not flagged: methods of `nn.Module` subclasses, or of classes whose bases cannot be read
    (`Model.predict`, `infer`: the trainer that calls them sets the grad mode, and `forward` may
    call them on the training path), outputs kept only through `.detach()`/`.item()`/`.numpy()`,
    functions that use gradients (adversarial evaluation, saliency maps), calls
    already under no_grad/inference_mode, functions whose outputs are not kept, models of
    unknown type, and functions named otherwise (a loop in `train` may be both).

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), 1 finding, 0 judged correct; fewer than the 10 judged findings a rule
    needs to be on by default. See docs/new-rules-precision.md.

    ## References
    - [torch.no_grad: "reduces memory consumption for computations that would otherwise have requires_grad=True"](https://pytorch.org/docs/stable/generated/torch.no_grad.html)
    - [Autograd mechanics: locally disabling gradient computation](https://pytorch.org/docs/stable/notes/autograd.html#locally-disable-grad-doc)
    """

    code = "TL626"
    name = "inference-without-no-grad"
    summary = "An evaluation function keeps model outputs with autograd on"
    severity = "warning"
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("eval", "valid", "predict", "infer", "backward")
    scope_tokens = ("for", "while")  # an evaluation pass is a loop; the name may be in the def line only

    valid = (
        T + NET + "@torch.no_grad()\ndef evaluate(loader):\n    model = Net()\n    outs = []\n"
        "    for x in loader:\n        outs.append(model(x))\n    return outs\n",
        T + NET + "def evaluate(loader):\n    model = Net()\n    outs = []\n    with torch.inference_mode():\n"
        "        for x in loader:\n            outs.append(model(x))\n    return outs\n",
        T + NET + "def evaluate_robustness(loader):\n    model = Net()\n    for x in loader:\n"
        "        x.requires_grad_(True)\n        out = model(x)\n        out.sum().backward()\n",
        T + NET + "def train(loader):\n    model = Net()\n    for x in loader:\n        out = model(x)\n",
        T + "def evaluate(model, loader):\n    outs = []\n    for x in loader:\n        outs.append(model(x))\n",
        T + NET + "def validate(loader):\n    model = Net()\n    for x in loader:\n        model(x)\n",
        # a method of a class whose base cannot be read (kornia's `Module = torch.nn.Module`): maybe a module's
        T + NET + "from core import Module\nclass Decoder(Module):\n    def predict_masks(self, xs):\n        model = Net()\n"
        "        outs = []\n        for x in xs:\n            outs.append(model(x))\n        return outs\n",
        # a module's own predict method: its caller sets the grad mode (recbole, speechbrain)
        T + "class Rec(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.emb = nn.Embedding(9, 4)\n"
        "    def predict(self, items):\n        out = []\n        for i in items:\n            out.append(self.emb(i))\n        return out\n",
        # outputs kept only detached (pytorch-tabnet)
        T + NET + "def predict(loader):\n    model = Net()\n    results = []\n    for x in loader:\n"
        "        output = model(x)\n        results.append(output.cpu().detach().numpy())\n    return results\n",
        # loops over an eval-mode model under no_grad, or whose outputs are not kept, or that train
        T + NET + "model = Net()\nmodel.eval()\npreds = []\nwith torch.no_grad():\n    for x in test_loader:\n"
        "        preds.append(model(x))\n",
        T + NET + "model = Net()\nmodel.eval()\nfor x in test_loader:\n    print(model(x).argmax().item())\n",
        T + NET + "model = Net()\nmodel.eval()\nfor x in loader:\n    out = model(x)\n    out.sum().backward()\n",
        T + NET + "model = Net()\npreds = []\nfor x in loader:\n    preds.append(model(x))\n",
        T + NET + "def test_forward_shape():\n    model = Net()\n    for n in (1, 2):\n        out = model(torch.zeros(n, 4))\n",
        # `.eval()` on a parameter, outputs kept detached; an `eval` that takes an argument is not a module's
        T + "def evaluate(model, loader):\n    model.eval()\n    outs = []\n    for b in loader:\n"
        "        outs.append(model(**b).logits.detach())\n",
        T + "def evaluate(env, policy):\n    env.eval(policy)\n    outs = []\n    for s in range(3):\n        outs.append(env(s))\n",
        # after training, the test pass runs under no_grad, or keeps only numbers
        T + NET + "model = Net()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor x in loader:\n"
        "    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\nscores = []\nfor x in test_loader:\n"
        "    scores.append(model(x).sum().item())\n",
    )
    invalid = (
        Invalid(
            T + "def evaluate(model, loader):\n    model.eval()\n    outs = []\n    for b in loader:\n"
            "        outs.append(model(**b).logits)\n",
            T + "@torch.no_grad()\ndef evaluate(model, loader):\n    model.eval()\n    outs = []\n    for b in loader:\n"
            "        outs.append(model(**b).logits)\n",
        ),
        Invalid(
            T + NET + "model = Net()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor x in loader:\n"
            "    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\nlogits = []\nfor x in test_loader:\n"
            "    logits.append(model(x))\n"
        ),
        Invalid(
            T + NET + "def evaluate(loader):\n    model = Net()\n    outs = []\n    for x in loader:\n"
            "        outs.append(model(x))\n    return outs\n",
            T + NET + "@torch.no_grad()\ndef evaluate(loader):\n    model = Net()\n    outs = []\n    for x in loader:\n"
            "        outs.append(model(x))\n    return outs\n",
        ),
        Invalid(
            T + "class Trainer:\n    def __init__(self):\n        self.model = nn.Linear(4, 1)\n"
            "    @staticmethod\n    def helper():\n        pass\n"
            "    def run_validation(self, loader):\n        total = 0\n        for x, y in loader:\n"
            "            pred = self.model(x)\n            total += (pred - y).abs().sum()\n        return total\n",
            T + "class Trainer:\n    def __init__(self):\n        self.model = nn.Linear(4, 1)\n"
            "    @staticmethod\n    def helper():\n        pass\n"
            "    @torch.no_grad()\n    def run_validation(self, loader):\n        total = 0\n        for x, y in loader:\n"
            "            pred = self.model(x)\n            total += (pred - y).abs().sum()\n        return total\n",
        ),
        Invalid(T + NET + "model = Net()\nmodel.eval()\npreds = []\nfor x in test_loader:\n    preds.append(model(x))\n"),
        Invalid(
            "import torch.nn as nn\nmodel = nn.Linear(2, 2)\ndef predict(batches):\n    for b in batches:\n        yield model(b)\n"
        ),
    )

    def __init__(self, ctx):
        super().__init__(ctx)
        self.modes = ModeTracker(ctx)

    def visit_For(self, node: cst.For) -> None:
        self._check_eval_mode_loop(node)

    def visit_While(self, node: cst.While) -> None:
        self._check_eval_mode_loop(node)

    def _check_eval_mode_loop(self, loop: cst.CSTNode) -> None:
        """A loop, in any function, over a model put in eval mode before it: an evaluation pass.
        (Functions named like one are checked whole, with a fix, by visit_FunctionDef.)"""
        function = self.ctx.enclosing(cst.FunctionDef)
        if function is not None and _EVAL_FUNCTION.search(function.name.value):
            return
        if has_backward(loop.body) or grad_disabled_at(self.ctx, self.ctx.stack):
            return
        scope = function.body if function is not None else self.ctx.module
        for call in model_calls(self.ctx, loop.body):
            path = path_to(loop, call)
            if path is None or grad_disabled_at(self.ctx, [*self.ctx.stack, *path[1:-1]]):
                continue
            inner = next(node for node in reversed(path) if isinstance(node, (cst.For, cst.While)))
            if not _kept(*_holders(path), inner):
                continue
            if self.modes.at(scope, call, call.func) == {EVAL} or follows_training(self.ctx, scope, loop, call.func):
                self.report(call, "This loop keeps outputs with autograd on, holding every batch's graph; use `torch.no_grad()`")
                return

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if not _EVAL_FUNCTION.search(node.name.value) or _uses_gradients(node) or self._module_method():
            return
        for call in model_calls(self.ctx, node.body, put_in_eval_mode(node)):
            if self._kept_in_loop(node, call):
                self.report(call, "Outputs kept with autograd on hold every batch's graph; evaluate under `torch.no_grad()`",
                            self._fix(node))
                return

    def _kept_in_loop(self, function: cst.FunctionDef, call: cst.Call) -> bool:
        path = path_to(function, call)
        if path is None or not any(isinstance(node, (cst.For, cst.While)) for node in path):
            return False
        if grad_disabled_at(self.ctx, [*self.ctx.stack, *path[1:-1]]):
            return False
        loop = next(node for node in reversed(path) if isinstance(node, (cst.For, cst.While)))
        return _kept(*_holders(path), loop)

    def _module_method(self) -> bool:
        """A method of an nn.Module subclass, or of a class that may be one (a base the linter
        cannot read: kornia's `Module = torch.nn.Module` alias): its callers (a trainer's evaluate
        loop) set the grad mode, as `model.predict(x)` is usually called under no_grad, and its
        `forward` may call it on the training path."""
        owner = self.ctx.enclosing(cst.ClassDef)
        if owner is None:
            return False
        if self.ctx.classes.is_module_class(owner.name.value):
            return True
        instance = self.ctx.oracle.instance_kind(owner)
        return instance is None or instance.base != OBJECT

    def _fix(self, function: cst.FunctionDef):
        no_grad = self.ctx.torch_call("no_grad")
        if no_grad is None:
            return None
        decorated = function.with_changes(decorators=[*function.decorators, cst.Decorator(decorator=no_grad)])
        return self.replace(function, decorated, "Decorate with `@torch.no_grad()`", "unsafe")


_GRAPH_CUTTERS = frozenset({"detach", "item", "tolist", "numpy", "argmax", "argmin"})


def _holders(path: list[cst.CSTNode]) -> tuple[cst.CSTNode, cst.CSTNode | None]:
    """The parent and grandparent of the call at the end of `path`, seen through the fields read
    from its output (`model(**batch).logits`, `model(x)[0]`)."""
    index = len(path) - 1
    while index > 1 and (
        (isinstance(path[index - 1], cst.Attribute) and path[index - 1].value is path[index])
        or (isinstance(path[index - 1], cst.Subscript) and path[index - 1].value is path[index])
    ):
        index -= 1
    return path[index - 1], path[index - 2] if index > 1 else None


def _kept(parent: cst.CSTNode, grandparent: cst.CSTNode | None, loop: cst.CSTNode) -> bool:
    """The call's result outlives the iteration with its graph: appended, summed into an
    accumulator, yielded, or assigned to a name that the loop appends, accumulates or yields."""
    if isinstance(parent, cst.Yield) or isinstance(parent, cst.AugAssign):
        return True
    if isinstance(parent, cst.Arg) and _is_collecting_call(grandparent):
        return True
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        return _name_kept(parent.targets[0].target.value, loop)
    return False


def _is_collecting_call(node: cst.CSTNode | None) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("append", "extend")


def _name_kept(name: str, loop: cst.CSTNode) -> bool:
    for node in descendants(loop.body):
        if isinstance(node, cst.AugAssign):
            holders = [node.value]
        elif isinstance(node, cst.Yield) and node.value is not None:
            holders = [node.value]
        elif _is_collecting_call(node):
            holders = [arg.value for arg in node.args]
        else:
            continue
        if any(_uses_with_graph(holder, name) for holder in holders):
            return True
    return False


def _uses_with_graph(expr: cst.CSTNode, name: str) -> bool:
    """`name` appears in `expr` other than under `.detach()`, `.item()` and similar."""
    if isinstance(expr, cst.Name):
        return expr.value == name
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _GRAPH_CUTTERS:
        return False
    if isinstance(expr, cst.Attribute):
        return _uses_with_graph(expr.value, name)
    from torchlint.walk import children

    return any(_uses_with_graph(child, name) for child in children(expr))


def _uses_gradients(function: cst.FunctionDef) -> bool:
    if has_backward(function.body):
        return True
    return any(isinstance(node, cst.Name) and node.value in _GRAD_WORDS for node in descendants(function.body))
