"""The data every stage shares: diagnostics, their fixes and the text edits a fix makes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Severity = Literal["error", "warning", "info"]
Applicability = Literal["safe", "unsafe"]


@dataclass(frozen=True)
class Edit:
    """Replace the text between two offsets of a source with `content`.

    Offsets index the decoded text; line and column (1-based, end exclusive) are derived from them
    for reporting.
    """

    start: int
    end: int
    content: str
    line: int
    column: int
    end_line: int
    end_column: int

    def to_json(self) -> dict:
        return {
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "content": self.content,
        }


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict:
        return {
            "applicability": self.applicability,
            "message": self.message,
            "edits": [edit.to_json() for edit in self.edits],
        }

    def is_enabled(self, unsafe_fixes: bool) -> bool:
        return self.applicability == "safe" or unsafe_fixes


@dataclass(frozen=True)
class Diagnostic:
    code: str
    name: str
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: Severity
    fix: Fix | None = None
    cell: int | None = field(default=None)
    # Where the evidence for the finding came from, when it is not the flagged code itself
    # ("`model` is the `Net()` passed at train.py:23").
    note: str | None = field(default=None)

    def to_json(self) -> dict:
        data = {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "severity": self.severity,
            "fix": self.fix.to_json() if self.fix else None,
        }
        if self.cell is not None:
            data["cell"] = self.cell
        if self.note is not None:
            data["note"] = self.note
        return data

    def with_path(self, path: str) -> Diagnostic:
        return replace(self, path=path)

    def sort_key(self) -> tuple:
        return (self.path, self.cell or 0, self.line, self.column, self.code)


def offset_to_position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset; columns count characters, lines end at
    \n, \r\n or a lone \r, as Python's do."""
    before = text[:offset]
    line_start = max(before.rfind("\n"), before.rfind("\r")) + 1
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    return line, offset - line_start + 1


def make_edit(text: str, start: int, end: int, content: str) -> Edit:
    line, column = offset_to_position(text, start)
    end_line, end_column = offset_to_position(text, end)
    return Edit(start, end, content, line, column, end_line, end_column)
