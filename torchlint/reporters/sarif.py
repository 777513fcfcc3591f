"""SARIF 2.1.0, as GitHub code scanning accepts it."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from torchlint import __version__
from torchlint.reporters import RunReport
from torchlint.rules.registry import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
DOCS_URL = "https://github.com/torchlint/torchlint/blob/main/README.md#rules"


def _rule_descriptor(rule) -> dict:
    docs = rule.docs()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": docs.split("## Why is this bad?")[0].replace("## What it does", "").strip()},
        "help": {"text": docs, "markdown": docs},
        "helpUri": DOCS_URL,
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        "properties": {"tags": ["pytorch"]},
    }


def _repo_relative_uri(path: str, root: Path) -> str:
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root.resolve()).as_posix()
    except ValueError:
        return absolute.as_uri()
    return quote(relative)


def _fingerprint(code: str, uri: str, line_text: str, occurrence: int) -> str:
    digest = hashlib.sha256(f"{code}\0{uri}\0{line_text.strip()}".encode()).hexdigest()[:32]
    return f"{digest}:{occurrence}"


def render(report: RunReport, stream: TextIO) -> None:
    rules = all_rules()
    rule_index = {rule.code: index for index, rule in enumerate(rules)}
    seen: Counter = Counter()
    results = []
    for d in report.diagnostics:
        uri = _repo_relative_uri(d.path, report.root)
        line_text = report.line_text(d)
        key = (d.code, uri, line_text.strip())
        seen[key] += 1
        location = {
            "physicalLocation": {
                "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                "region": {
                    "startLine": d.line,
                    "startColumn": d.column,
                    "endLine": d.end_line,
                    "endColumn": d.end_column,
                },
            }
        }
        results.append(
            {
                "ruleId": d.code,
                "ruleIndex": rule_index[d.code],
                "level": _LEVELS[d.severity],
                "message": {"text": d.message},
                "locations": [location],
                "partialFingerprints": {"torchlint/v1": _fingerprint(d.code, uri, line_text, seen[key])},
            }
        )
    document = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "torchlint",
                        "version": __version__,
                        "informationUri": DOCS_URL,
                        "rules": [_rule_descriptor(rule) for rule in rules],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": report.root.resolve().as_uri() + "/"}},
                "results": results,
            }
        ],
    }
    json.dump(document, stream, indent=2)
    stream.write("\n")
