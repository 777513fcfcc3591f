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
        # a notebook finding points at the .ipynb line holding its source line; the column stays
        # the one within that source line, and the message names the cell
        properties = ",".join(
            f"{key}={_escape_property(str(value))}"
            for key, value in (
                ("file", d.path), ("line", report.file_line(d, d.line)), ("col", d.column),
                ("endLine", report.file_line(d, d.end_line)), ("endColumn", d.end_column), ("title", title),
            )
        )
        message = f"{d.code} {report.annotation_message(d)}"
        stream.write(f"::error {properties}::{_escape_data(message)}\n")
