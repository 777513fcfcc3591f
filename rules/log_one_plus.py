"""TL501 log-one-plus: `torch.log(1 + x)` instead of `torch.log1p(x)` (TorchFix TOR106)."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, call_patterns, call_tokens
from torchlint.rules._numerics import NumericsRule, TORCH_LOG, is_one, only_positional, sibling
from torchlint.rules.registry import register

T = "import torch\n"


@register
class LogOnePlus(NumericsRule):
    """
    ## What it does
    Flags `torch.log(1 + x)` and `torch.log(x + 1)`.

    ## Why is this bad?
    For `|x|` below the float's epsilon, `1 + x` rounds to 1 and the log is 0; for small `x` it
    loses most of `x`'s digits. `torch.log1p(x)` computes the same function without forming
    `1 + x` and is accurate for small `x` (float32: `log(1 + 1e-8)` is 0, `log1p(1e-8)` is 1e-8).

    ## Example
    ```python
    y = torch.log(1 + x)
    ```

    ## Use instead
    ```python
    y = torch.log1p(x)
    ```

    ## Fix safety
    With a float one (`1.0 + x`) the fix is **safe**: the same function, computed closer to the
    exact value (the fixture fixtures/TL501 checks it against a float64 reference); an integer
    tensor is promoted to float before the addition, as `log1p` promotes it. With an integer one
    (`1 + x`) the fix is **unsafe**: for an integer tensor `x + 1` is computed in its own dtype
    and wraps around (a `uint8` 255 becomes 0, whose log is `-inf`), where `log1p(x)` does not, so
    the output changes; torchlint does not know a tensor's dtype, so it cannot prove `x` is a float
    tensor. The fix is offered where the log is spelled as an attribute (`torch.log`), so
    `torch.log1p` is reachable the same way.

    ## References
    - [torch.log1p](https://pytorch.org/docs/stable/generated/torch.log1p.html)
    """

    code = "TL501"
    name = "log-one-plus"
    summary = "`torch.log(1 + x)` loses precision for small `x`; use `torch.log1p(x)`"
    trigger_tokens = ("log",)
    trigger_patterns = call_patterns("log")
    scope_tokens = call_tokens("log")
    trigger_calls = TORCH_LOG
    fix_safety = ("safe", "unsafe")

    valid = (
        T + "y = torch.log1p(x)\n",
        T + "y = torch.log(2 + x)\n",
        T + "y = torch.log(1 - x)\n",
        T + "y = torch.log(1 + x + y)\n",
        "import math\ny = math.log(1 + x)\n",
        "import numpy as np\ny = np.log(1 + x)\n",
        T + "y = torch.log(x) + 1\n",
        T + "y = torch.log(1 * x)\n",
        T + "y = torch.log(x - 1)\n",
    )
    invalid = (
        Invalid(T + "y = torch.log(1 + x)\n", T + "y = torch.log1p(x)\n"),
        Invalid(T + "y = torch.log(x + 1.0)\n", T + "y = torch.log1p(x)\n"),
        Invalid(T + "y = torch.log(1 + x.abs())\n", T + "y = torch.log1p(x.abs())\n"),
        Invalid(T + "y = torch.log(1. + img)\n", T + "y = torch.log1p(img)\n"),
        Invalid("from torch import log\ny = log(1 + x)\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if not only_positional(node, 1) or self.ctx.qualify(node.func) not in TORCH_LOG:
            return
        value = node.args[0].value
        if not isinstance(value, cst.BinaryOperation) or not isinstance(value.operator, cst.Add):
            return
        if is_one(value.left):
            x, one = value.right, value.left
        elif is_one(value.right):
            x, one = value.left, value.right
        else:
            return
        func = sibling(node.func, "log1p")
        fix = None
        if func is not None:
            # `x + 1` on an integer tensor wraps around in its dtype; `x + 1.0` is float first
            applicability = "safe" if isinstance(one, cst.Float) else "unsafe"
            fix = self.replace(node, node.with_changes(func=func, args=[node.args[0].with_changes(value=x)]),
                               "Use `log1p`", applicability)
        self.report(node, "`log(1 + x)` loses precision for small `x`; use `torch.log1p(x)`", fix)
