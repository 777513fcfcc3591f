"""`path:line:col: CODE message`, one line per finding."""

from __future__ import annotations

from typing import TextIO

from torchlint.reporters import RunReport, applied_fixes_lines, summary_line
from torchlint.rules.registry import rule_table


def location(diagnostic) -> str:
    if diagnostic.cell is not None:
        return f"{diagnostic.path}:cell {diagnostic.cell}:{diagnostic.line}:{diagnostic.column}"
    return f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}"


def render(report: RunReport, stream: TextIO) -> None:
    for diagnostic in report.diagnostics:
        stream.write(f"{location(diagnostic)}: {diagnostic.code} {diagnostic.message}\n")
    if report.show_fixes:
        names = {entry.code: entry.name for entry in rule_table()}
        for line in applied_fixes_lines(report, names):
            stream.write(line + "\n")
    stream.write(summary_line(report) + "\n")
