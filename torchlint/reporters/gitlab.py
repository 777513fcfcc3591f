"""GitLab Code Quality JSON (`artifacts:reports:codequality`): one issue per finding."""

from __future__ import annotations

import json
from typing import TextIO

from torchlint.reporters import RunReport, fingerprints, repo_relative_path

_SEVERITIES = {"error": "major", "warning": "minor", "info": "info"}


def render(report: RunReport, stream: TextIO) -> None:
    # GitLab matches paths against the repository's files: relative to its root
    paths = {d.path: repo_relative_path(d.path, report.root) or d.path for d in report.diagnostics}
    issues = [
        {
            "description": f"{d.code} {report.annotation_message(d)}",
            "check_name": d.code,
            "fingerprint": fingerprint,
            "severity": _SEVERITIES[d.severity],
            "location": {
                "path": paths[d.path],
                "lines": {"begin": report.file_line(d, d.line), "end": report.file_line(d, d.end_line)},
            },
        }
        for d, fingerprint in zip(report.diagnostics, fingerprints(report, lambda d: paths[d.path]))
    ]
    json.dump(issues, stream, indent=2, ensure_ascii=False)
    stream.write("\n")
