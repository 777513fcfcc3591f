"""The default output: each finding with its source line, a caret under the span and the fix hint.

Colour comes from rich; it is plain text when the output is not a terminal or NO_COLOR is set.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.text import Text

from torchlint.reporters import RunReport, applied_fixes_lines, summary_line
from torchlint.reporters.concise import location
from torchlint.rules.registry import all_rules


def _excerpt(diagnostic, line: str) -> list[Text]:
    if not line:
        return []
    text = line.expandtabs(1)
    number = str(diagnostic.line)
    gutter = " " * len(number)
    start = diagnostic.column - 1
    end = diagnostic.end_column - 1 if diagnostic.end_line == diagnostic.line else len(text)
    width = max(1, end - start)
    caret = Text(f"{gutter} | ", style="blue")
    caret.append(" " * start + "^" * width + f" {diagnostic.code}", style="bold red")
    return [
        Text(f"{gutter} |", style="blue"),
        Text(f"{number} | ", style="blue") + Text(text),
        caret,
        Text(f"{gutter} |", style="blue"),
    ]


def _header(diagnostic, report: RunReport) -> Text:
    header = Text(location(diagnostic), style="bold")
    header.append(": ")
    header.append(diagnostic.code, style="bold red")
    if diagnostic.fix and diagnostic.fix.is_enabled(report.unsafe_fixes):
        header.append(" [*]", style="cyan")
    header.append(f" {diagnostic.message}")
    return header


def render(report: RunReport, stream: TextIO) -> None:
    console = Console(file=stream, highlight=False, soft_wrap=True, emoji=False)
    for diagnostic in report.diagnostics:
        console.print(_header(diagnostic, report))
        for line in _excerpt(diagnostic, report.line_text(diagnostic)):
            console.print(line)
        if diagnostic.fix:
            hint = diagnostic.fix.message
            if not diagnostic.fix.is_enabled(report.unsafe_fixes):
                hint += " (unsafe: apply with --unsafe-fixes)"
            console.print(Text(f"{' ' * len(str(diagnostic.line))} = help: {hint}", style="cyan"))
        console.print()
    if report.show_fixes:
        names = {rule.code: rule.name for rule in all_rules()}
        for line in applied_fixes_lines(report, names):
            console.print(line)
    console.print(Text(summary_line(report), style="bold"))
