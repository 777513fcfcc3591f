"""TL502 exp-minus-one: `torch.exp(x) - 1` instead of `torch.expm1(x)` (TorchFix TOR107)."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, call_patterns, call_tokens
from torchlint.rules._numerics import NumericsRule, TORCH_EXP, is_one, only_positional, sibling
from torchlint.rules.registry import register

T = "import torch\n"


@register
class ExpMinusOne(NumericsRule):
    """
    ## What it does
    Flags `torch.exp(x) - 1`.

    ## Why is this bad?
    For small `x`, `exp(x)` is close to 1 and the subtraction cancels most of its digits (float32:
    `exp(1e-8) - 1` is 0). `torch.expm1(x)` computes the same function accurately there.

    ## Example
    ```python
    y = torch.exp(x) - 1
    ```

    ## Use instead
    ```python
    y = torch.expm1(x)
    ```

    ## Fix safety
    The fix is **safe**: the same function, computed closer to the exact value (fixtures/TL502
    checks it against a float64 reference). It is offered where `exp` is spelled as an attribute
    (`torch.exp`), so `torch.expm1` is reachable the same way. TorchFix suggests
    `torch.special.expm1`, an alias of `torch.expm1`.

    ## References
    - [torch.expm1](https://pytorch.org/docs/stable/generated/torch.expm1.html)
    """

    code = "TL502"
    name = "exp-minus-one"
    summary = "`torch.exp(x) - 1` loses precision for small `x`; use `torch.expm1(x)`"
    trigger_tokens = ("exp",)
    trigger_patterns = call_patterns("exp")
    scope_tokens = call_tokens("exp")
    trigger_calls = TORCH_EXP

    valid = (
        T + "y = torch.expm1(x)\n",
        T + "y = torch.exp(x) - 2\n",
        T + "y = 1 - torch.exp(x)\n",
        T + "y = torch.exp(x) + 1\n",
        "import math\ny = math.exp(x) - 1\n",
        "import numpy as np\ny = np.exp(x) - 1\n",
        T + "y = torch.exp(x - 1)\n",
        T + "y = torch.exp(x) - one\n",
    )
    invalid = (
        Invalid(T + "y = torch.exp(x) - 1\n", T + "y = torch.expm1(x)\n"),
        Invalid(T + "y = 2 * (torch.exp(-t) - 1.0)\n", T + "y = 2 * (torch.expm1(-t))\n"),
        Invalid("from torch import exp\ny = exp(x) - 1\n"),
    )

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if not isinstance(node.operator, cst.Subtract) or not is_one(node.right):
            return
        call = node.left
        if not isinstance(call, cst.Call) or not only_positional(call, 1) or self.ctx.qualify(call.func) not in TORCH_EXP:
            return
        func = sibling(call.func, "expm1")
        fix = None
        if func is not None:
            new = call.with_changes(func=func, lpar=node.lpar, rpar=node.rpar)
            fix = self.replace(node, new, "Use `expm1`")
        self.report(node, "`exp(x) - 1` loses precision for small `x`; use `torch.expm1(x)`", fix)
