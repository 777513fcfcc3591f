"""TL220 compiled-state-dict: a `torch.compile`d module's `state_dict()`, keys prefixed `_orig_mod.`."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import last_assignment_before, method_of
from torchlint.rules.registry import register

T = "import torch\nimport torch.nn as nn\n"


@register
class CompiledStateDict(Rule):
    """
    ## What it does
    Flags `m.state_dict()` where `m` was last assigned `torch.compile(...)` earlier in the same
    function (or module) with nothing in between that may rebind it, and (without a fix) where
    the nearest assignment above it compiles it under a condition
    (`if args.compile: model = torch.compile(model)`): the keys carry the prefix whenever the
    flag is on.

    ## Why is this bad?
    `torch.compile(module)` returns an `OptimizedModule` that holds the original as the submodule
    `_orig_mod`, so every key of its `state_dict()` starts with `_orig_mod.`. A checkpoint saved
    from it does not load into the plain model (`load_state_dict` reports every key missing and
    unexpected), nor into inference code, exports or other frameworks, until the prefix is
    stripped by hand. The PyTorch forums and many issue trackers carry the same question.

    ## Example
    ```python
    model = torch.compile(model)
    ...
    torch.save(model.state_dict(), "ckpt.pt")
    ```

    ## Use instead
    ```python
    model = torch.compile(model)
    ...
    torch.save(model._orig_mod.state_dict(), "ckpt.pt")
    ```

    ## Fix safety
    The fix asks the original module, which the compiled one holds as `_orig_mod`, for its state
    dict: `m._orig_mod.state_dict()` (the name the module was compiled from may have been rebound
    since, `_orig_mod` is always the module compiled). It is **unsafe**: the checkpoint's keys change (no `_orig_mod.`
    prefix), which is the point, but loaders written for the prefixed keys (with the prefix
    stripped or a compiled model on the other side) need to change with it.

    Not flagged:
    `model.state_dict()` of the module before compiling, and unknown objects.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [torch.compile tutorial: the compiled module wraps the original as `_orig_mod`](https://pytorch.org/tutorials/intermediate/torch_compile_tutorial.html)
    - [pytorch/pytorch#101107: state_dict of a compiled module has `_orig_mod.` prefixes](https://github.com/pytorch/pytorch/issues/101107)
    """

    code = "TL220"
    name = "compiled-state-dict"
    summary = "`state_dict()` of a torch.compile'd module has `_orig_mod.`-prefixed keys"
    severity = "warning"
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("compile",)
    scope_tokens = ("state_dict",)

    valid = (
        T + "model = nn.Linear(2, 2)\ncompiled = torch.compile(model)\ntorch.save(model.state_dict(), 'm.pt')\n",
        T + "model = torch.compile(nn.Linear(2, 2))\ntorch.save(model._orig_mod.state_dict(), 'm.pt')\n",
        T + "model = torch.compile(net)\nmodel = unwrap(model)\nsd = model.state_dict()\n",
        T + "model = nn.Linear(2, 2)\nsd = model.state_dict()\nmodel = torch.compile(model)\n",
        "import re\npattern = re.compile('x')\nsd = pattern.state_dict()\n",
        # an imported module of the project named like the model (its alias has no line of its own)
        "import torch  # compile\nimport model\nmodel.state_dict()\n",
    )
    invalid = (
        # compiled on one path only: the keys carry `_orig_mod.` whenever the flag is on (no fix:
        # `_orig_mod` does not exist on the other path)
        Invalid(T + "model = nn.Linear(2, 2)\nif use_compile:\n    model = torch.compile(model)\n"
                "torch.save(model.state_dict(), 'm.pt')\n"),
        Invalid(
            T + "model = nn.Linear(2, 2)\nmodel = torch.compile(model)\ntorch.save(model.state_dict(), 'm.pt')\n",
            T + "model = nn.Linear(2, 2)\nmodel = torch.compile(model)\ntorch.save(model._orig_mod.state_dict(), 'm.pt')\n",
        ),
        Invalid(
            T + "net = nn.Linear(2, 2)\nfast = torch.compile(net, mode='max-autotune')\nfor x in data:\n    fast(x)\n"
            "ckpt = {'model': fast.state_dict()}\n",
            T + "net = nn.Linear(2, 2)\nfast = torch.compile(net, mode='max-autotune')\nfor x in data:\n    fast(x)\n"
            "ckpt = {'model': fast._orig_mod.state_dict()}\n",
        ),
        Invalid(
            T + "def train(model):\n    model = torch.compile(model)\n    for x in data:\n        model(x)\n"
            "    torch.save(model.state_dict(), 'last.pt')\n",
            T + "def train(model):\n    model = torch.compile(model)\n    for x in data:\n        model(x)\n"
            "    torch.save(model._orig_mod.state_dict(), 'last.pt')\n",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if method_of(node) != "state_dict" or not isinstance(node.func.value, cst.Name):
            return
        receiver = node.func.value
        compiled = last_assignment_before(self.ctx, receiver.value)
        if not (isinstance(compiled, cst.Call) and self.ctx.qualify(compiled.func) == "torch.compile" and compiled.args):
            if self._maybe_compiled(receiver, node):
                # `if args.compile: model = torch.compile(model)`: `_orig_mod` exists on one path only
                self.report(node, "If compiled, this state_dict's keys start with `_orig_mod.`; save the "
                                  "original module's state_dict")
            return
        source = cst.Attribute(value=receiver, attr=cst.Name("_orig_mod"))
        self.report(
            node,
            _MESSAGE,
            self.replace(
                node,
                node.with_changes(func=node.func.with_changes(value=source)),
                "Use the original module's state_dict",
                "unsafe",
            ),
        )

    def _maybe_compiled(self, receiver: cst.Name, call: cst.Call) -> bool:
        """The binding of the name nearest above the call (by line) is `name = torch.compile(...)`,
        made under a condition or in a block the call is not in."""
        bindings = self.ctx.oracle.bindings_of(receiver.value, self.ctx.stack) or []
        line = self.ctx.line_of(call)
        # (assignments only: an import's alias has no place of its own to be read by line)
        before = [(self.ctx.line_of(b.value), b) for b in bindings if b.how == "value" and b.value is not None]
        before = [item for item in before if item[0] < line]
        if not before:
            return False
        nearest = max(before, key=lambda item: item[0])[1]
        value = self.ctx.oracle.bound_value(nearest)
        return isinstance(value, cst.Call) and self.ctx.qualify(value.func) == "torch.compile"


_MESSAGE = "The compiled module's state_dict keys start with `_orig_mod.`; save the original module's state_dict"
