"""Walking CPython's tree as the summaries read it: the nodes a walk visits (without a generator
per node, and without the fields no summary reads), the statements of a body's blocks, dotted names.
Names with a leading underscore are the project index's internals, shared by its modules."""

from __future__ import annotations

import ast
from collections import deque


_INNER_SCOPES = frozenset({ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda})


def _walk(node: ast.AST):
    """Every node below `node` (and itself), in `ast.walk`'s order, without its generator of
    generators per node, and without the nodes no summary reads (a name's `Load`/`Store`
    context, strings and numbers): the summaries walk every file of a project."""
    pending = deque([node])
    next_node, add, AST = pending.popleft, pending.append, ast.AST
    while pending:
        node = next_node()
        yield node
        fields = _CHILD_FIELDS.get(type(node))
        if fields is None:
            fields = _CHILD_FIELDS[type(node)] = tuple(f for f in node._fields if f not in _LEAF_FIELDS)
        for field in fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, AST):
                        add(item)
            elif isinstance(value, AST):
                add(value)


# Fields that never hold a node a summary reads (`ctx` holds the shared Load/Store instances).
_LEAF_FIELDS = frozenset({"ctx", "id", "attr", "arg", "name", "kind", "type_comment", "conversion", "level",
                          "module", "simple", "is_async",
                          # annotations name classes without handing them on (`def fit(model: Net)`)
                          "annotation", "returns"})


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


# What a node's fields hold that is not a node: a constant's value, names, a missing part.
_NOT_NODES = frozenset({str, bytes, int, float, complex, bool, type(None), type(...)})


def _statements(body: list[ast.stmt]):
    """The statements of a body and of its nested blocks, not entering functions or classes."""
    pending = list(reversed(body))
    while pending:
        statement = pending.pop()
        yield statement
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        nested = []
        for name in ("body", "orelse", "finalbody"):
            value = getattr(statement, name, None)
            if isinstance(value, list):
                nested.extend(value)
        for clause in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
            nested.extend(clause.body)
        pending.extend(reversed(nested))


_NESTED_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, *_INNER_SCOPES})


_ALL_FIELDS: dict[type, tuple[str, ...]] = {}


def _all_children(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)`, without a generator per node."""
    fields = _ALL_FIELDS.get(type(node))
    if fields is None:
        fields = _ALL_FIELDS[type(node)] = tuple(node._fields)
    found = []
    for field in fields:
        value = getattr(node, field, None)
        if type(value) is list:
            found.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            found.append(value)
    return found


_COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.Match,
             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _called_name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _walk_outside_nested_scopes(node: ast.AST):
    """The nodes of a function's body, not entering the functions, lambdas and classes it defines."""
    pending = list(node.body)
    while pending:
        inner = pending.pop()
        yield inner
        if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(inner))


def _dotted(expr: ast.AST) -> str | None:
    # exact types: called for every call, attribute and argument of every file summarised
    if type(expr) is ast.Name:
        return expr.id
    parts = []
    while type(expr) is ast.Attribute:
        parts.append(expr.attr)
        expr = expr.value
    if type(expr) is not ast.Name:
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))
