"""CPython's outline of a file: where its functions and their bodies are, its imports, the
lines of its class statements, and (where the project index walked the whole tree) the names its
code calls and the attributes it uses. The elided parse decides from it which bodies to leave
unparsed, the import table is read from it, and the prefilter's second step asks its uses.

It is small and picklable, so the project index makes it from the tree it summarises a module
with, and a linted file whose text the index summarised needs no second parse by CPython.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from typing import NamedTuple


class FunctionShape(NamedTuple):
    line: int  # of `def`
    end_line: int
    body_line: int  # the first line of the body's first statement (its decorators included)
    body_column: int  # where that statement starts, in UTF-8 bytes
    body_decorated: bool  # the first statement is a decorated function or class


class ImportShape(NamedTuple):
    line: int
    column: int
    from_module: str | None  # `from <module> import ...` (None for `from . import x`); "" for `import`
    level: int
    names: tuple[tuple[str, str | None], ...]  # (name, asname)
    fallback: bool  # in an `except` clause: the fallback of the import its `try` makes

    @property
    def is_from(self) -> bool:
        return self.from_module != ""


class Uses(NamedTuple):
    """What a file's code uses, as written: from every expression of CPython's tree, so a name in
    a string or a comment is not a use."""

    calls: frozenset[str]  # dotted names called (`torch.load`, `load`) or written as a bare decorator
    attributes: frozenset[str]  # every attribute name read, assigned or deleted (`data` of `p.data`)


class Outline(NamedTuple):
    functions: tuple[FunctionShape, ...]  # by line; outer functions before the ones they hold
    imports: tuple[ImportShape, ...]  # by position
    class_lines: tuple[int, ...]  # sorted
    uses: Uses | None = None  # None: not collected (only the index's walk of the whole tree does)

    @classmethod
    def of(cls, tree: ast.Module) -> Outline:
        """From a walk over CPython's statements only, never entering expressions."""
        functions, imports, class_lines = [], [], []
        pending: list[tuple[ast.stmt, bool]] = [(statement, False) for statement in tree.body]
        while pending:
            statement, in_handler = pending.pop()
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                imports.append(_import_shape(statement, in_handler))
                continue
            if isinstance(statement, ast.ClassDef):
                class_lines.append(statement.lineno)
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.append(_function_shape(statement))
            pending.extend(_child_statements(statement, in_handler))
        functions.sort(key=lambda function: function.line)
        imports.sort(key=lambda shape: (shape.line, shape.column))
        return cls(tuple(functions), tuple(imports), tuple(sorted(class_lines)))

    def aliases_of(self, tokens: frozenset[str]) -> frozenset[str]:
        """Names a token is imported under (`from torch.nn import DataParallel as DP`; for an
        attribute token, `from torch import range` for `.range`): a body can use it by that name;
        so is a name imported from a module a word token names (`from torchvision.models import
        resnet50` for `models`)."""
        words = {token.lstrip(".") for token in tokens}
        module_words = {token for token in tokens if not token.startswith(".")}
        names = set()
        for shape in self.imports:
            for name, asname in shape.names:
                if asname and any(word in name for word in words):
                    names.add(asname)
                elif shape.is_from and (any(word in name for word in words)
                                        or any(word in (shape.from_module or "") for word in module_words)):
                    names.add(asname or name)
        return frozenset(names)

    def holds_class(self, first_line: int, last_line: int) -> bool:
        index = bisect_left(self.class_lines, first_line)
        return index < len(self.class_lines) and self.class_lines[index] <= last_line


def _function_shape(function: ast.FunctionDef | ast.AsyncFunctionDef) -> FunctionShape:
    first = function.body[0]
    decorators = getattr(first, "decorator_list", ())
    body_line = min([first.lineno] + [decorator.lineno for decorator in decorators])
    return FunctionShape(function.lineno, function.end_lineno or function.lineno, body_line, first.col_offset,
                         bool(decorators))


def _import_shape(statement: ast.Import | ast.ImportFrom, in_handler: bool) -> ImportShape:
    names = tuple((alias.name, alias.asname) for alias in statement.names)
    if isinstance(statement, ast.Import):
        return ImportShape(statement.lineno, statement.col_offset, "", 0, names, in_handler)
    return ImportShape(statement.lineno, statement.col_offset, statement.module, statement.level, names, in_handler)


def _child_statements(statement: ast.stmt, in_handler: bool) -> list[tuple[ast.stmt, bool]]:
    nested = []
    for field in ("body", "orelse", "finalbody"):
        value = getattr(statement, field, None)
        if isinstance(value, list):
            nested.extend((inner, in_handler) for inner in value)
    for handler in getattr(statement, "handlers", ()):
        nested.extend((inner, True) for inner in handler.body)
    for case in getattr(statement, "cases", ()):
        nested.extend((inner, in_handler) for inner in case.body)
    return nested
