"""The prefilter's second step: what a file's code calls and which attributes it uses.

The first step (`Rule.could_fire`) looks for a rule's tokens in the text, where strings, comments
and docstrings count too: torch's own docstrings write `torch.load(...)` in hundreds of files that
never call it. Where the project index walked a file's whole CPython tree, its outline holds the
names the code calls and the attributes it uses (`Uses`); qualified through the file's imports
exactly as the rules' `ctx.qualify` reads them, they tell which rules can fire at all, before
libcst parses anything (`Rule.could_fire_in`)."""

from __future__ import annotations

from functools import cached_property

from torchlint.analysis import ImportTable
from torchlint.outline import Outline

PREFILTER = True  # off only in tests and benchmarks that compare results with and without it


class FileUses:
    def __init__(self, outline: Outline):
        self._outline = outline
        self.attributes: frozenset[str] = outline.uses.attributes

    @classmethod
    def of(cls, outline: Outline | None) -> FileUses | None:
        """None when the outline holds no uses, or the file imports a module's names with `*`
        (a name it calls may then be bound through the project, which the outline does not see)."""
        if outline is None or outline.uses is None:
            return None
        if any(name == "*" for shape in outline.imports for name, _ in shape.names):
            return None
        return cls(outline)

    @cached_property
    def calls(self) -> frozenset[str]:
        """The qualified names called (or written as a bare decorator) through the file's imports."""
        table = ImportTable.from_outline(self._outline)
        return frozenset(filter(None, map(table.qualify_name, self._outline.uses.calls)))

    @cached_property
    def imported(self) -> frozenset[str]:
        """`module.name` for each name an absolute `from module import name` brings in."""
        return frozenset(f"{shape.from_module}.{name}" for shape in self._outline.imports
                         if shape.is_from and shape.level == 0 and shape.from_module for name, _ in shape.names)
