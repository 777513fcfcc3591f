"""The default output: each finding with its source line, a caret under the span and the fix hint.

Colour comes from rich, on a terminal when NO_COLOR is not set; otherwise the same lines are
written as plain text without importing rich (it is a noticeable part of start-up).
"""

from __future__ import annotations

import os
from typing import TextIO

from torchlint.reporters import RunReport, applied_fixes_lines, summary_line
from torchlint.reporters.concise import location
from torchlint.rules.registry import rule_table

Segment = tuple[str, str]  # (text, rich style)


def _excerpt(diagnostic, line: str) -> list[list[Segment]]:
    if not line:
        return []
    text = line.expandtabs(1)
    gutter = " " * len(str(diagnostic.line))
    start = diagnostic.column - 1
    end = diagnostic.end_column - 1 if diagnostic.end_line == diagnostic.line else len(text)
    carets = " " * start + "^" * max(1, end - start) + f" {diagnostic.code}"
    return [
        [(f"{gutter} |", "blue")],
        [(f"{diagnostic.line} | ", "blue"), (text, "")],
        [(f"{gutter} | ", "blue"), (carets, "bold red")],
        [(f"{gutter} |", "blue")],
    ]


def _header(diagnostic, report: RunReport) -> list[Segment]:
    header = [(location(diagnostic), "bold"), (": ", ""), (diagnostic.code, "bold red")]
    if diagnostic.fix and diagnostic.fix.is_enabled(report.unsafe_fixes):
        header.append((" [*]", "cyan"))
    header.append((f" {diagnostic.message}", ""))
    return header


def _lines(report: RunReport) -> list[list[Segment]]:
    lines: list[list[Segment]] = []
    for diagnostic in report.diagnostics:
        lines.append(_header(diagnostic, report))
        lines.extend(_excerpt(diagnostic, report.line_text(diagnostic)))
        if diagnostic.fix:
            hint = diagnostic.fix.message
            if not diagnostic.fix.is_enabled(report.unsafe_fixes):
                hint += " (unsafe: apply with --unsafe-fixes)"
            lines.append([(f"{' ' * len(str(diagnostic.line))} = help: {hint}", "cyan")])
        lines.append([])
    if report.show_fixes:
        names = {entry.code: entry.name for entry in rule_table()}
        lines.extend([(line, "")] for line in applied_fixes_lines(report, names))
    lines.append([(summary_line(report), "bold")])
    return lines


def _wants_colour(stream: TextIO) -> bool:
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


def render(report: RunReport, stream: TextIO) -> None:
    lines = _lines(report)
    if not _wants_colour(stream):
        stream.write("".join("".join(text for text, _ in line) + "\n" for line in lines))
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(file=stream, highlight=False, soft_wrap=True, emoji=False)
    for line in lines:
        console.print(Text.assemble(*line) if line else "")
