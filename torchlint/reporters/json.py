"""One JSON array of diagnostics in the contract's shape (see DESIGN.md)."""

from __future__ import annotations

import json
from typing import TextIO

from torchlint.reporters import RunReport


def render(report: RunReport, stream: TextIO) -> None:
    json.dump([diagnostic.to_json() for diagnostic in report.diagnostics], stream, indent=2, ensure_ascii=False)
    stream.write("\n")
