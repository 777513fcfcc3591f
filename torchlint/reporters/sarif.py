"""SARIF 2.1.0, as GitHub code scanning accepts it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from torchlint import __version__
from torchlint.reporters import RunReport, fingerprints, repo_relative_path
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
    relative = repo_relative_path(path, root)
    return Path(os.path.abspath(path)).as_uri() if relative is None else quote(relative)


def render(report: RunReport, stream: TextIO) -> None:
    rules = all_rules()
    rule_index = {rule.code: index for index, rule in enumerate(rules)}
    results = []
    uris = {d.path: _repo_relative_uri(d.path, report.root) for d in report.diagnostics}
    for d, fingerprint in zip(report.diagnostics, fingerprints(report, lambda d: uris[d.path])):
        uri = uris[d.path]
        location = {
            "physicalLocation": {
                "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                "region": {
                    "startLine": report.file_line(d, d.line),
                    "startColumn": d.column,
                    "endLine": report.file_line(d, d.end_line),
                    "endColumn": d.end_column,
                },
            }
        }
        results.append(
            {
                "ruleId": d.code,
                "ruleIndex": rule_index[d.code],
                "level": _LEVELS[d.severity],
                "message": {"text": report.annotation_message(d)},
                "locations": [location],
                "partialFingerprints": {"torchlint/v1": fingerprint},
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
