"""Small libcst building blocks that rules' fixes share."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from torchlint.walk import descendants

_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.SimpleString, cst.Integer, cst.Float)


def parenthesized(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`expr` ready to take an attribute: `(a + b)` for compound expressions, `a` as it is."""
    if isinstance(expr, _ATOMS) or expr.lpar:
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def method_call(receiver: cst.BaseExpression, method: str) -> cst.Call:
    """`receiver.method()`."""
    return cst.Call(func=cst.Attribute(value=parenthesized(receiver), attr=cst.Name(method)))


def wrap_in_with(line: cst.SimpleStatementLine, context: cst.BaseExpression) -> cst.With:
    """`with context:` around one statement line, keeping the comments above it outside."""
    inner = line.with_changes(leading_lines=())
    return cst.With(
        items=[cst.WithItem(item=context)],
        body=cst.IndentedBlock(body=[inner]),
        leading_lines=line.leading_lines,
    )


def names_used(node: cst.CSTNode) -> set[str]:
    return {child.value for child in descendants(node) if isinstance(child, cst.Name)}


def free_name(node: cst.CSTNode, candidates: Iterable[str]) -> str:
    """The first candidate not used anywhere in `node`, else the first one with a number."""
    used = names_used(node)
    candidates = list(candidates)
    for candidate in candidates:
        if candidate not in used:
            return candidate
    index = 2
    while f"{candidates[0]}_{index}" in used:
        index += 1
    return f"{candidates[0]}_{index}"


def with_keyword(call: cst.Call, keyword: str, value: cst.BaseExpression) -> cst.Call:
    """`call` with `keyword=value`, replacing an existing one or appending it in the call's layout
    (one argument per line stays one argument per line, a trailing comma stays)."""
    args = list(call.args)
    for index, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value == keyword:
            args[index] = arg.with_changes(value=value)
            return call.with_changes(args=args)
    new = cst.Arg(
        keyword=cst.Name(keyword),
        value=value,
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )
    if args:
        last = args[-1]
        between = args[-2].comma if len(args) >= 2 else cst.MaybeSentinel.DEFAULT
        if isinstance(last.comma, cst.Comma):  # a trailing comma: the new argument inherits it
            new = new.with_changes(comma=last.comma)
        args[-1] = last.with_changes(comma=between)
    return call.with_changes(args=[*args, new])
