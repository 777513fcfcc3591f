"""TL503 log-sum-exp: `torch.log(torch.sum(torch.exp(x), dim))` instead of `torch.logsumexp(x, dim)`
(TorchFix TOR108)."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import argument
from torchlint.rule import Invalid, call_patterns, call_tokens
from torchlint.rules._numerics import NumericsRule, TORCH_EXP, TORCH_LOG, TORCH_SUM, only_positional, sibling
from torchlint.rules.registry import register

T = "import torch\n"


@register
class LogSumExp(NumericsRule):
    """
    ## What it does
    Flags `torch.log(torch.sum(torch.exp(x), dim))` (with `dim` given, by position or keyword,
    and not `None`; `keepdim` may be given too).

    ## Why is this bad?
    `exp` overflows to `inf` for float32 inputs above about 88 and underflows to 0 far below the
    maximum, so the result is `inf` or `-inf` where the exact value is finite.
    `torch.logsumexp(x, dim)` subtracts the maximum first and stays finite and accurate.

    ## Example
    ```python
    lse = torch.log(torch.sum(torch.exp(scores), dim=-1))
    ```

    ## Use instead
    ```python
    lse = torch.logsumexp(scores, dim=-1)
    ```

    ## Fix safety
    The fix is **safe** where `dim` is written as an integer or a non-empty tuple of integers:
    the same function, computed stably; where the three-step form was finite the values agree to
    rounding, and where it overflowed the fixed one is the finite exact value (fixtures/TL503
    checks both against float64). With `dim` a name or an expression the fix is **unsafe**: it may
    be `None` or `()` at run time, which `torch.sum` takes and `torch.logsumexp` refuses. A sum
    without `dim` is not flagged (`torch.logsumexp` needs one; pytorch#144339), nor is one with
    `dtype=` or other arguments.

    ## References
    - [torch.logsumexp](https://pytorch.org/docs/stable/generated/torch.logsumexp.html)
    """

    code = "TL503"
    name = "log-sum-exp"
    summary = "`log(sum(exp(x), dim))` overflows; use `torch.logsumexp(x, dim)`"
    fix_safety = ("safe", "unsafe")
    trigger_tokens = ("exp",)
    trigger_patterns = call_patterns("exp")
    scope_tokens = call_tokens("exp")
    trigger_calls = TORCH_LOG  # it reports `torch.log(...)` calls

    valid = (
        T + "lse = torch.logsumexp(x, dim=1)\n",
        T + "y = torch.log(torch.sum(torch.exp(x)))\n",
        T + "y = torch.log(torch.sum(torch.exp(x), dim=None))\n",
        T + "y = torch.log(torch.sum(x, 1))\n",
        T + "y = torch.log(torch.sum(torch.exp(x), 1, dtype=torch.float64))\n",
        "import numpy as np\ny = np.log(np.sum(np.exp(x), 1))\n",
        T + "y = torch.log(torch.mean(torch.exp(x), 1))\n",
        T + "y = torch.sum(torch.log(torch.exp(x)), 1)\n",
    )
    invalid = (
        Invalid(T + "y = torch.log(torch.sum(torch.exp(x), 1))\n", T + "y = torch.logsumexp(x, 1)\n"),
        Invalid(
            T + "y = torch.log(torch.sum(torch.exp(s), dim=-1, keepdim=True))\n",
            T + "y = torch.logsumexp(s, dim=-1, keepdim=True)\n",
        ),
        Invalid("from torch import log, sum, exp\ny = log(sum(exp(x), 1))\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if not only_positional(node, 1) or self.ctx.qualify(node.func) not in TORCH_LOG:
            return
        total = node.args[0].value
        if not isinstance(total, cst.Call) or self.ctx.qualify(total.func) not in TORCH_SUM:
            return
        if not total.args or total.args[0].keyword is not None or total.args[0].star:
            return
        inner = total.args[0].value
        if not isinstance(inner, cst.Call) or not only_positional(inner, 1) or self.ctx.qualify(inner.func) not in TORCH_EXP:
            return
        dim = argument(total, 1, "dim")
        if dim is None or (isinstance(dim.value, cst.Name) and dim.value.value == "None"):
            return
        if any(arg.star or (arg.keyword is not None and arg.keyword.value not in ("dim", "keepdim")) for arg in total.args):
            return
        func = sibling(node.func, "logsumexp")
        fix = None
        if func is not None:
            args = [total.args[0].with_changes(value=inner.args[0].value), *total.args[1:]]
            # `dim=dim` may be None at run time, or an empty tuple, which logsumexp refuses
            safety = "safe" if _literal_dims(dim.value) else "unsafe"
            fix = self.replace(node, total.with_changes(func=func, args=args), "Use `logsumexp`", safety)
        self.report(node, "`log(sum(exp(x)))` overflows for large `x`; use `torch.logsumexp(x, dim)`", fix)


def _literal_dims(value: cst.BaseExpression) -> bool:
    """An integer (`-1`), or a non-empty tuple or list of them (`(1, 2)`)."""
    if isinstance(value, (cst.Tuple, cst.List)):
        return bool(value.elements) and all(_literal_dims(element.value) for element in value.elements)
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value = value.expression
    return isinstance(value, cst.Integer)
