"""Small libcst building blocks that rules' fixes share."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

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


class _NameCollector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


def names_used(node: cst.CSTNode) -> set[str]:
    collector = _NameCollector()
    node.visit(collector)
    return collector.names


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
