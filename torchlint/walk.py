"""A fast walk over libcst trees.

libcst's own `visit()` and `.children` rebuild nodes as they go, which costs more than parsing.
Reading each node type's dataclass fields directly, and skipping the fields that only hold
whitespace, punctuation or operators (no rule looks at them), is several times faster.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import libcst as cst

_SKIPPED_FIELDS = frozenset(
    {"lpar", "rpar", "comma", "dot", "semicolon", "header", "footer", "leading_lines",
     "lines_after_decorators", "equal", "colon", "operator", "newline", "trailing_whitespace", "star",
     "indent", "asynchronous", "lbracket", "rbracket", "lbrace", "rbrace", "whitespace"}
)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(node_type: type) -> tuple[str, ...]:
    names = _FIELDS.get(node_type)
    if names is None:
        names = tuple(
            field.name for field in dataclasses.fields(node_type)
            if field.name not in _SKIPPED_FIELDS and "whitespace" not in field.name
        )
        _FIELDS[node_type] = names
    return names


def _node_types() -> frozenset[type]:
    found, pending = set(), [cst.CSTNode]
    while pending:
        for subclass in pending.pop().__subclasses__():
            if subclass not in found:
                found.add(subclass)
                pending.append(subclass)
    return frozenset(found)


# isinstance() against libcst's abstract base class is slow; a set of the concrete types is not.
_NODE_TYPES = _node_types()
_SEQUENCES = (tuple, list)


# Nodes that never hold another node worth visiting.
_LEAVES = frozenset({cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis,
                     cst.Pass, cst.Break, cst.Continue})
_NO_CHILDREN: list[cst.CSTNode] = []


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes that can hold statements or expressions, in field order."""
    node_type = type(node)
    if node_type in _LEAVES:
        return _NO_CHILDREN
    found = []
    node_types = _NODE_TYPES
    for name in _fields(node_type):
        value = getattr(node, name)
        kind = type(value)
        if kind in node_types:
            found.append(value)
        elif kind in _SEQUENCES:
            found.extend(item for item in value if type(item) in node_types)
    return found


def descendants(
    node: cst.CSTNode, prune: Callable[[cst.CSTNode], bool] | None = None
) -> Iterator[cst.CSTNode]:
    """`node` and everything below it, depth first; below a node `prune` accepts, nothing."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        if prune is not None and current is not node and prune(current):
            continue
        pending.extend(reversed(children(current)))


SCOPE_NODES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def outside_nested_scopes(node: cst.CSTNode) -> bool:
    """A `prune` for walks that stay in one scope."""
    return isinstance(node, SCOPE_NODES)
