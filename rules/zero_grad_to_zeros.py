"""TL402 zero-grad-to-zeros: `zero_grad(set_to_none=False)` (TorchFix TOR402); off by default."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import argument
from torchlint.rule import Invalid, Rule
from torchlint.rules._training import is_optimizer, method_of
from torchlint.rules.registry import register

T = "import torch\nmodel = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"


@register
class ZeroGradToZeros(Rule):
    """
    ## What it does
    Flags `optimizer.zero_grad(set_to_none=False)` and `module.zero_grad(False)` on an optimizer
    or module torchlint can identify.

    ## Why is this bad?
    Filling every gradient with zeros is a memory write per parameter per step; setting them to
    `None` (the default since torch 2.0) costs nothing, frees the memory until backward, and lets
    the next backward write the gradient instead of adding to zeros. PyTorch's profiler reports
    the zeroing pattern.

    Off by default: zeros are sometimes needed (code that reads or adds to `p.grad` after
    `zero_grad()`, or optimizers that treat `None` as "skip this parameter"). Enable it with
    `--extend-select TL402`.

    ## Example
    ```python
    optimizer.zero_grad(set_to_none=False)
    ```

    ## Use instead
    ```python
    optimizer.zero_grad()
    ```

    ## Fix safety
    The fix drops the argument (on a target torch before 2.0 it writes `set_to_none=True`) and is
    **unsafe**: gradients become `None` instead of zero tensors, so code that reads `p.grad`
    before the next backward, or parameters that get no gradient, behave differently (an
    optimizer skips a parameter whose gradient is `None`; with zeros, momentum and weight decay
    still move it).

    ## References
    - [torch.optim.Optimizer.zero_grad](https://pytorch.org/docs/stable/generated/torch.optim.Optimizer.zero_grad.html)
    """

    code = "TL402"
    name = "zero-grad-to-zeros"
    summary = "`zero_grad(set_to_none=False)` writes zeros every step; `None` is cheaper"
    severity = "info"
    preview = False
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("zero_grad",)
    scope_tokens = ("zero_grad",)
    trigger_attributes = frozenset({"zero_grad"})

    valid = (
        T + "opt.zero_grad()\n",
        T + "opt.zero_grad(set_to_none=True)\n",
        T + "model.zero_grad()\n",
        T + "opt.zero_grad(set_to_none=flag)\n",
        "trainer.zero_grad(False)\n",
        T + "for p in model.parameters():\n    p.grad.zero_()\n",
    )
    invalid = (
        Invalid(T + "opt.zero_grad(set_to_none=False)\n", T + "opt.zero_grad()\n"),
        Invalid(T + "model.zero_grad(False)\n", T + "model.zero_grad()\n"),
        Invalid(T + "opt.zero_grad(set_to_none=False)\n", T + "opt.zero_grad(set_to_none=True)\n", target_torch=(1, 13)),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if method_of(node) != "zero_grad" or len(node.args) != 1:
            return
        arg = argument(node, 0, "set_to_none")
        if arg is None or not (isinstance(arg.value, cst.Name) and arg.value.value == "False"):
            return
        receiver = node.func.value
        if not (is_optimizer(self.ctx, receiver) or self.ctx.is_module(receiver)):
            return
        if self.ctx.settings.target_torch >= (2, 0):
            new = node.with_changes(args=[])
        else:
            new = node.with_changes(args=[arg.with_changes(keyword=cst.Name("set_to_none"), value=cst.Name("True"),
                                                           equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))])
        self.report(node, "`zero_grad(set_to_none=False)` writes zeros every step; setting `None` is cheaper",
                    self.replace(node, new, "Set gradients to None", "unsafe"))
