"""The table of deprecated and removed torch APIs (`torchlint/data/deprecated.toml`) and the
per-symbol rewriters its `fix = "rewrite"` entries name.

A rewriter takes a call of the deprecated symbol and the spelling of its replacement in the file
(e.g. `torch.linalg.qr`), and returns the replacement call, or None when the call's arguments do
not let it be rewritten without changing what it computes.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import libcst as cst

from torchlint.codemod import with_keyword

FIX_KINDS = ("rename", "rewrite", "none")


@dataclass(frozen=True)
class Deprecation:
    name: str
    deprecated: tuple[int, ...]
    removed: tuple[int, ...] | None
    replacement: str | None
    fix: str
    safety: str | None
    rewriter: str | None
    source: str
    torchfix: bool = False
    note: str | None = None

    def removed_for(self, target: tuple[int, ...]) -> bool:
        return self.removed is not None and target >= self.removed

    def applies_to(self, target: tuple[int, ...]) -> bool:
        return target >= self.deprecated

    @property
    def fix_target(self) -> str | None:
        """The qualified name the fixed call uses: the replacement, or for rewriters the callable."""
        if self.fix == "rename":
            return self.replacement
        if self.rewriter in _REWRITE_TARGETS:
            return _REWRITE_TARGETS[self.rewriter](self.name)
        return None


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def parse_table(text: str) -> dict[str, Deprecation]:
    """Parse and check the table; a malformed entry is a ValueError naming it."""
    table: dict[str, Deprecation] = {}
    for entry in tomllib.loads(text)["symbol"]:
        name = entry["name"]
        fix = entry.get("fix", "none")
        if fix not in FIX_KINDS:
            raise ValueError(f"{name}: fix must be one of {FIX_KINDS}")
        if fix != "none" and entry.get("safety") not in ("safe", "unsafe"):
            raise ValueError(f"{name}: a {fix} fix needs safety = 'safe' or 'unsafe'")
        if fix == "rename" and not entry.get("replacement", "").replace(".", "").replace("_", "").isalnum():
            raise ValueError(f"{name}: a rename needs a dotted replacement name")
        if fix == "rewrite" and entry.get("rewriter") not in REWRITERS:
            raise ValueError(f"{name}: unknown rewriter {entry.get('rewriter')!r}")
        if name in table:
            raise ValueError(f"{name} is listed twice")
        table[name] = Deprecation(
            name=name,
            deprecated=_version(entry["deprecated"]),
            removed=_version(entry["removed"]) if "removed" in entry else None,
            replacement=entry.get("replacement"),
            fix=fix,
            safety=entry.get("safety"),
            rewriter=entry.get("rewriter"),
            source=entry["source"],
            torchfix=entry.get("torchfix", False),
            note=entry.get("note"),
        )
    return table


@lru_cache(maxsize=1)
def deprecations() -> dict[str, Deprecation]:
    text = resources.files("torchlint").joinpath("data/deprecated.toml").read_text(encoding="utf-8")
    return parse_table(text)


# ---- rewriters -------------------------------------------------------------------------------


def _literal_bool(arg: cst.Arg | None) -> bool | None:
    if arg is not None and isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False"):
        return arg.value.value == "True"
    return None


def _find(call: cst.Call, position: int, keyword: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    positional = [arg for arg in call.args if arg.keyword is None]
    return positional[position] if position < len(positional) else None


def _has_star(call: cst.Call) -> bool:
    return any(arg.star for arg in call.args)


def _kw(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(value=value, keyword=cst.Name(name), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))


def _last_comma_free(args: list[cst.Arg]) -> list[cst.Arg]:
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return args


def _with_comma(arg: cst.Arg) -> cst.Arg:
    return arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))


def rewrite_rename(call: cst.Call, func: cst.BaseExpression, name: str) -> cst.Call | None:
    return call.with_changes(func=func)


def rewrite_qr(call: cst.Call, func: cst.BaseExpression, name: str) -> cst.Call | None:
    """`torch.qr(A, some=True)` is `torch.linalg.qr(A)`; `some=False` is `mode="complete"`."""
    if _has_star(call) or not call.args:
        return None
    some_arg = _find(call, 1, "some")
    some = True if some_arg is None else _literal_bool(some_arg)
    if some is None:
        return None
    new = call.with_changes(func=func, args=_last_comma_free([arg for arg in call.args if arg is not some_arg]))
    return new if some else with_keyword(new, "mode", cst.SimpleString('"complete"'))


def rewrite_cholesky(call: cst.Call, func: cst.BaseExpression, name: str) -> cst.Call | None:
    """`torch.cholesky(A, upper)` is `torch.linalg.cholesky(A, upper=upper)`: the same factor."""
    if _has_star(call) or not call.args:
        return None
    upper = _find(call, 1, "upper")
    args = list(call.args)
    if upper is not None and upper.keyword is None:
        args[args.index(upper)] = _kw("upper", upper.value).with_changes(comma=upper.comma)
    return call.with_changes(func=func, args=args)


def rewrite_chain_matmul(call: cst.Call, func: cst.BaseExpression, name: str) -> cst.Call | None:
    """`torch.chain_matmul(a, b, c)` is `torch.linalg.multi_dot([a, b, c])` for two or more matrices
    (multi_dot rejects one; `out=` is kept)."""
    positional = [arg for arg in call.args if arg.keyword is None]
    keywords = [arg for arg in call.args if arg.keyword is not None]
    if _has_star(call) or len(positional) < 2 or any(arg.keyword.value != "out" for arg in keywords):
        return None
    elements = [cst.Element(value=arg.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                for arg in positional]
    elements[-1] = elements[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    args = [cst.Arg(value=cst.List(elements))] + keywords
    if keywords:
        args[0] = _with_comma(args[0])
    return call.with_changes(func=func, args=_last_comma_free(args))


def _int_literal(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.value, 0)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus) and isinstance(expr.expression, cst.Integer):
        return -int(expr.expression.value, 0)
    return None


def rewrite_range(call: cst.Call, func: cst.BaseExpression, name: str) -> cst.Call | None:
    """`torch.range(a, b, s)` with integer literals gives a, a + s, ... up to `b` inclusive:
    `(b - a) // s + 1` values, which `torch.arange(a, a + n * s, s)` gives too (`b + s` would be
    one too many where `s` does not divide `b - a`: `range(0, 5, 2)` is 0, 2, 4). torch.range
    returns the default float dtype, arange of integers int64, so without `dtype=` the end is
    written as a float (`6.0`), which makes arange return the default float dtype too."""
    positional = [arg for arg in call.args if arg.keyword is None]
    keywords = [arg for arg in call.args if arg.keyword is not None]
    if _has_star(call) or not 2 <= len(positional) <= 3:
        return None
    values = [_int_literal(arg.value) for arg in positional]
    if any(value is None for value in values):
        return None
    start, end, step = values[0], values[1], values[2] if len(values) == 3 else 1
    if step == 0 or (end - start) * step < 0:
        return None  # (torch.range raises there)
    has_dtype = any(arg.keyword.value == "dtype" for arg in keywords)
    new_end = start + ((end - start) // step + 1) * step
    text = str(new_end) if has_dtype else f"{new_end}.0"
    end_expr = cst.parse_expression(text)
    args = list(call.args)
    args[args.index(positional[1])] = positional[1].with_changes(value=end_expr)
    return call.with_changes(func=func, args=args)


# The dtype each device's old autocast class fixes when given none (torch.amp.autocast's `dtype=None`
# instead takes the dtype of the autocast region it runs in).
_AUTOCAST_DTYPES = {"cuda": "float16", "cpu": "bfloat16"}


def rewrite_device_first(call: cst.Call, func: cst.BaseExpression, name: str) -> cst.Call | None:
    """`torch.cuda.amp.autocast(...)` is `torch.amp.autocast("cuda", ..., dtype=torch.float16)`.
    autocast's positional parameters are in another order there, so only keyword arguments are
    moved, and the old class's own dtype is written where the call gives none (inside an outer
    `torch.autocast(dtype=torch.bfloat16)` the new call would take bfloat16); GradScaler's follow
    the device in the same order."""
    device = name.split(".")[1]
    if _has_star(call):
        return None
    if name.endswith(".autocast"):
        if any(arg.keyword is None for arg in call.args) or device not in _AUTOCAST_DTYPES:
            return None
        if not any(arg.keyword.value == "dtype" for arg in call.args):
            root = _root_name(func)
            if root is None:
                return None  # (`autocast` imported by name: no `torch.` to write the dtype with)
            call = with_keyword(call, "dtype", cst.parse_expression(f"{root}.{_AUTOCAST_DTYPES[device]}"))
    first = cst.Arg(value=cst.SimpleString(f'"{device}"'))
    if call.args:
        first = _with_comma(first)
    return call.with_changes(func=func, args=[first, *call.args])


def _root_name(func: cst.BaseExpression) -> str | None:
    """`torch` of `torch.amp.autocast` (or `th` of `th.amp.autocast`); None for a bare name."""
    while isinstance(func, cst.Attribute):
        func = func.value
    return func.value if isinstance(func, cst.Name) else None


def rewrite_device_type_keyword(call: cst.Call, func: cst.BaseExpression, name: str) -> cst.Call | None:
    """`torch.cuda.amp.custom_fwd(...)` is `torch.amp.custom_fwd(..., device_type="cuda")`."""
    if _has_star(call) or any(arg.keyword is not None and arg.keyword.value == "device_type" for arg in call.args):
        return None
    device = name.split(".")[1]
    return with_keyword(call.with_changes(func=func), "device_type", cst.SimpleString(f'"{device}"'))


def _amp_target(name: str) -> str:
    return "torch.amp." + name.rsplit(".", 1)[1]


REWRITERS: dict[str, Callable[[cst.Call, cst.BaseExpression, str], cst.Call | None]] = {
    "qr": rewrite_qr,
    "cholesky": rewrite_cholesky,
    "chain_matmul": rewrite_chain_matmul,
    "range": rewrite_range,
    "device_first": rewrite_device_first,
    "device_type_keyword": rewrite_device_type_keyword,
}
_REWRITE_TARGETS: dict[str, Callable[[str], str]] = {
    "qr": lambda name: "torch.linalg.qr",
    "cholesky": lambda name: "torch.linalg.cholesky",
    "chain_matmul": lambda name: "torch.linalg.multi_dot",
    "range": lambda name: "torch.arange",
    "device_first": _amp_target,
    "device_type_keyword": _amp_target,
}


def rewrite_call(entry: Deprecation, call: cst.Call, func: cst.BaseExpression) -> cst.Call | None:
    if entry.fix == "rename":
        return rewrite_rename(call, func, entry.name)
    if entry.fix == "rewrite":
        return REWRITERS[entry.rewriter](call, func, entry.name)
    return None
