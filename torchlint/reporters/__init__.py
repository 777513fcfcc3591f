"""Reporters: one per output format, all fed the same `RunReport`."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TextIO

from torchlint.diagnostics import Diagnostic
from torchlint.positions import physical_lines

FORMATS = ("full", "concise", "json", "sarif", "github")


@dataclass
class RunReport:
    diagnostics: list[Diagnostic]  # what remains, sorted
    sources: dict[str, str] = field(default_factory=dict)  # path → text, for source excerpts
    cell_sources: dict[str, dict[int, str]] = field(default_factory=dict)  # notebook path → cells
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
        if diagnostic.cell is not None:
            return self.cell_sources.get(diagnostic.path, {}).get(diagnostic.cell, "")
        return self.sources.get(diagnostic.path, "")

    def line_text(self, diagnostic: Diagnostic) -> str:
        """The source line a finding starts on (in its cell, for a notebook)."""
        lines = physical_lines(self.source_of(diagnostic))
        return lines[diagnostic.line - 1] if 0 < diagnostic.line <= len(lines) else ""

    @property
    def fixed_count(self) -> int:
        return sum(sum(counts.values()) for counts in self.applied.values())

    def fixable_counts(self) -> tuple[int, int]:
        """(fixable with the current flags, fixable only with --unsafe-fixes)."""
        enabled = sum(1 for d in self.diagnostics if d.fix and d.fix.is_enabled(self.unsafe_fixes))
        hidden = sum(1 for d in self.diagnostics if d.fix and not d.fix.is_enabled(self.unsafe_fixes))
        return enabled, hidden


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
