"""What the numerics rules TL501-TL503 share: the literal 1, and a torch function's call renamed
to its neighbour in the same namespace (`torch.log` → `torch.log1p`)."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Rule

TORCH_LOG = frozenset({"torch.log"})
TORCH_EXP = frozenset({"torch.exp"})
TORCH_SUM = frozenset({"torch.sum"})


def is_one(expr: cst.BaseExpression) -> bool:
    """The literal 1 (`1`, `1.0`, `1.`)."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        try:
            return float(expr.value.replace("_", "")) == 1.0
        except ValueError:
            return False
    return False


def sibling(func: cst.BaseExpression, name: str) -> cst.BaseExpression | None:
    """`torch.log` → `torch.log1p`: the function `name` in the namespace `func` is read from; None
    for a bare name (imported alone, its sibling may not be)."""
    if isinstance(func, cst.Attribute):
        return func.with_changes(attr=cst.Name(name))
    return None


def only_positional(call: cst.Call, count: int) -> bool:
    return len(call.args) == count and all(arg.keyword is None and not arg.star for arg in call.args)


class NumericsRule(Rule):
    """TL501-TL503: stable, on by default, a safe fix to the fused torch function."""

    severity = "warning"
    preview = False
    fix_safety = ("safe",)
