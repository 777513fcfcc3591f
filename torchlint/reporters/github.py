"""GitHub Actions workflow commands: `::error file=…,line=…::message`."""

from __future__ import annotations

from typing import TextIO

from torchlint.reporters import RunReport


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: RunReport, stream: TextIO) -> None:
    # Every finding is an `error`: each one fails the lint gate (exit code 1).
    for d in report.diagnostics:
        title = f"{d.code} ({d.name})"
        properties = ",".join(
            f"{key}={_escape_property(str(value))}"
            for key, value in (
                ("file", d.path), ("line", d.line), ("col", d.column), ("endLine", d.end_line),
                ("endColumn", d.end_column), ("title", title),
            )
        )
        stream.write(f"::error {properties}::{_escape_data(f'{d.code} {d.message}')}\n")
