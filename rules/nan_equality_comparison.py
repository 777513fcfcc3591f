"""TL521 nan-equality-comparison: `x == float("nan")` is always False."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register

_NAN_CONSTANTS = frozenset({"math.nan", "numpy.nan", "numpy.NaN", "numpy.NAN", "torch.nan"})
T = "import torch\nimport math\n"


@register
class NanEqualityComparison(Rule):
    """
    ## What it does
    Flags `x == nan` and `x != nan` where `nan` is `float("nan")`, `math.nan`, `np.nan` or
    `torch.nan`, whatever `x` is.

    ## Why is this bad?
    NaN compares unequal to everything, itself included (IEEE 754). `x == float("nan")` is
    `False` (or an all-False tensor) even where `x` is NaN, and `!=` is always `True`, so a
    check meant to catch a diverging loss or to mask missing values never fires, silently.

    ## Example
    ```python
    if loss == float("nan"):
        raise RuntimeError("diverged")
    mask = targets != float("nan")
    ```

    ## Use instead
    ```python
    if torch.isnan(loss):
        raise RuntimeError("diverged")
    mask = ~torch.isnan(targets)
    ```

    ## Fix safety
    Where `x` is known to be a tensor and the file imports `torch`, `x == nan` becomes
    `torch.isnan(x)` and `x != nan` becomes `~torch.isnan(x)`. The fix is **safe**: it changes
    exactly the values at NaN positions, which is the difference the rule names (the comparison
    was meant to find them); elsewhere the result is the same boolean tensor. For other values
    (a Python float, an array, a tensor the oracle cannot see) the finding has no fix:
    `math.isnan`, `np.isnan` or `torch.isnan` depends on the type.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [torch.isnan](https://pytorch.org/docs/stable/generated/torch.isnan.html)
    - [IEEE 754 NaN comparisons (Python docs, math.isnan)](https://docs.python.org/3/library/math.html#math.isnan)
    """

    code = "TL521"
    name = "nan-equality-comparison"
    summary = "Comparing with NaN by `==`/`!=` is always False/True"
    severity = "error"
    default_enabled = False
    fix_safety = ("safe",)
    trigger_tokens = ("nan", "NaN", "NAN")
    scope_tokens = ("nan", "NaN", "NAN")

    valid = (
        T + "bad = torch.isnan(loss)\n",
        T + "x = torch.tensor([1.0])\nok = x == 1.0\n",
        T + "is_nan = value != value\n",
        T + "y = torch.nan_to_num(x, nan=0.0)\n",
        T + "if args.loss == 'nan':\n    pass\n",
        T + "x = torch.full((2,), float('nan'))\n",
        T + "same = float('nan') is math.nan\n",
    )
    invalid = (
        Invalid(
            T + "x = torch.randn(3)\nbad = x == float('nan')\n",
            T + "x = torch.randn(3)\nbad = torch.isnan(x)\n",
        ),
        Invalid(
            T + "import numpy as np\ny = torch.zeros(3)\nmask = y != np.nan\n",
            T + "import numpy as np\ny = torch.zeros(3)\nmask = ~torch.isnan(y)\n",
        ),
        Invalid(
            T + "x = torch.randn(3)\nif math.nan == x.sum():\n    pass\n",
            T + "x = torch.randn(3)\nif torch.isnan(x.sum()):\n    pass\n",
        ),
        Invalid(T + "if loss == float('NaN'):\n    raise RuntimeError('diverged')\n"),
    )

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if len(node.comparisons) != 1:
            return
        target = node.comparisons[0]
        if not isinstance(target.operator, (cst.Equal, cst.NotEqual)):
            return
        left, right = node.left, target.comparator
        if self._is_nan(right):
            other = left
        elif self._is_nan(left):
            other = right
        else:
            return
        equal = isinstance(target.operator, cst.Equal)
        self.report(
            node,
            f"A comparison with NaN is always {'False' if equal else 'True'}; use an isnan test",
            self._fix(node, other, equal),
        )

    def _fix(self, node: cst.Comparison, other: cst.BaseExpression, equal: bool):
        isnan = self.ctx.torch_call("isnan")
        if isnan is None or not self.ctx.is_tensor(other):
            return None
        test = isnan.with_changes(args=[cst.Arg(other.with_changes(lpar=[], rpar=[]) if hasattr(other, "lpar") else other)])
        new = test if equal else cst.UnaryOperation(cst.BitInvert(), test)
        return self.replace(node, new.with_changes(lpar=node.lpar, rpar=node.rpar), "Use `torch.isnan`")

    def _is_nan(self, expr: cst.BaseExpression) -> bool:
        if self.ctx.qualify(expr) in _NAN_CONSTANTS:
            return True
        return (
            isinstance(expr, cst.Call)
            and isinstance(expr.func, cst.Name)
            and expr.func.value == "float"
            and len(expr.args) == 1
            and isinstance(expr.args[0].value, cst.SimpleString)
            and expr.args[0].value.evaluated_value.strip().lower() in ("nan", "+nan", "-nan")
        )
