"""Reporters: one per output format, all fed the same `RunReport`."""

from __future__ import annotations

import hashlib
import importlib
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TextIO

from torchlint.diagnostics import Diagnostic
from torchlint.lines import physical_lines

FORMATS = ("full", "concise", "json", "sarif", "github", "junit", "gitlab")


@dataclass
class RunReport:
    diagnostics: list[Diagnostic]  # what remains, sorted
    sources: dict[str, str] = field(default_factory=dict)  # path → text, for source excerpts
    cell_sources: dict[str, dict[int, str]] = field(default_factory=dict)  # notebook path → cells
    # notebook path → cell → the .ipynb line of each of the cell's source lines
    cell_lines: dict[str, dict[int, list[int]]] = field(default_factory=dict)
    applied: dict[str, Counter] = field(default_factory=dict)  # path → fixed codes
    unsafe_fixes: bool = False
    fix_mode: bool = False
    show_fixes: bool = False
    root_finder: Callable[[], Path] = Path.cwd  # the repository root, for SARIF URIs
    skipped: int = 0  # files torchlint could not analyse
    errors: int = 0  # internal errors and fixes that could not be written

    @cached_property
    def root(self) -> Path:
        return self.root_finder()

    def source_of(self, diagnostic: Diagnostic) -> str:
        """The text a finding's lines count in: its file, or its cell for a notebook."""
        return self._text(diagnostic.path, diagnostic.cell)

    def _text(self, path: str, cell: int | None) -> str:
        return self.cell_sources.get(path, {}).get(cell, "") if cell is not None else self.sources.get(path, "")

    def line_text(self, diagnostic: Diagnostic) -> str:
        """The source line a finding starts on (in its cell, for a notebook)."""
        lines = self._lines(diagnostic.path, diagnostic.cell)
        return lines[diagnostic.line - 1] if 0 < diagnostic.line <= len(lines) else ""

    def _lines(self, path: str, cell: int | None) -> list[str]:
        """A file's (or cell's) lines, split once for all its findings."""
        cache = self.__dict__.setdefault("_lines_by_source", {})
        key = (path, cell)
        if key not in cache:
            cache[key] = physical_lines(self._text(path, cell))
        return cache[key]

    def file_line(self, diagnostic: Diagnostic, line: int) -> int:
        """The line of the file on disk: for a notebook finding, the .ipynb line that holds the
        cell's source line `line`; otherwise `line` itself."""
        if diagnostic.cell is None:
            return line
        lines = self.cell_lines.get(diagnostic.path, {}).get(diagnostic.cell)
        if not lines:
            return 1
        return lines[min(max(line, 1), len(lines)) - 1]

    def annotation_message(self, diagnostic: Diagnostic) -> str:
        """The message, naming the cell for a notebook finding (CI annotations show file lines)."""
        if diagnostic.cell is None:
            return diagnostic.message
        return f"cell {diagnostic.cell}, line {diagnostic.line}: {diagnostic.message}"

    @property
    def fixed_count(self) -> int:
        return sum(sum(counts.values()) for counts in self.applied.values())

    def fixable_counts(self) -> tuple[int, int]:
        """(fixable with the current flags, fixable only with --unsafe-fixes)."""
        enabled = sum(1 for d in self.diagnostics if d.fix and d.fix.is_enabled(self.unsafe_fixes))
        hidden = sum(1 for d in self.diagnostics if d.fix and not d.fix.is_enabled(self.unsafe_fixes))
        return enabled, hidden


def repo_relative_path(path: str, root: Path) -> str | None:
    """`path` relative to the repository root, in POSIX form; None when it lies outside."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def fingerprints(report: RunReport, location_of: Callable[[Diagnostic], str]) -> list[str]:
    """A fingerprint per finding, stable across runs and lines inserted above: the code, where the
    finding is (`location_of`, a path) and its line's text, plus the occurrence of that triple."""
    seen: Counter = Counter()
    found = []
    for d in report.diagnostics:
        where, line_text = location_of(d), report.line_text(d).strip()
        seen[(d.code, where, line_text)] += 1
        digest = hashlib.sha256(f"{d.code}\0{where}\0{line_text}".encode()).hexdigest()[:32]
        found.append(f"{digest}:{seen[(d.code, where, line_text)]}")
    return found


def render(output_format: str, report: RunReport, stream: TextIO) -> None:
    module = importlib.import_module(f"torchlint.reporters.{output_format}")
    module.render(report, stream)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_line(report: RunReport) -> str:
    """The last line of `full` and `concise`; "All checks passed!" only when every file was
    analysed without an error and nothing is left."""
    findings = _findings_summary(report)
    caveats = []
    if report.skipped:
        caveats.append(f"{plural(report.skipped, 'file')} skipped")
    if report.errors:
        caveats.append(plural(report.errors, "error"))
    if not caveats:
        return findings or "All checks passed!"
    return f"{findings or 'No problems found.'} Not checked completely: {', '.join(caveats)} (see above)."


def _findings_summary(report: RunReport) -> str:
    remaining = len(report.diagnostics)
    fixed = report.fixed_count
    if remaining == 0 and fixed == 0:
        return ""
    if report.fix_mode:
        return f"Found {plural(remaining + fixed, 'problem')} ({fixed} fixed, {remaining} remaining)."
    enabled, hidden = report.fixable_counts()
    parts = []
    if enabled:
        parts.append(f"{enabled} fixable with --fix")
    if hidden:
        parts.append(f"{hidden} with --unsafe-fixes" if enabled else f"{hidden} fixable with --unsafe-fixes")
    details = f" ({', '.join(parts)})" if parts else ""
    return f"Found {plural(remaining, 'problem')}{details}."


def applied_fixes_lines(report: RunReport, names: dict[str, str]) -> list[str]:
    """`--show-fixes`: what was fixed, per file and code."""
    if not report.fixed_count:
        return []
    lines = [f"Fixed {plural(report.fixed_count, 'problem')}:"]
    for path in sorted(report.applied):
        lines.append(f"- {path}:")
        for code, count in sorted(report.applied[path].items()):
            lines.append(f"    {count} × {code} ({names.get(code, '')})")
    return lines
