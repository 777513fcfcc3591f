"""TL900 unused-noqa through the CLI, and baselines that say (and prune) what no longer matches."""

from __future__ import annotations

import json

import pytest

from torchlint.engine import fix_text, lint_text
from torchlint.rules.registry import rule_by_code

from .conftest import FORWARD_SOURCE

TL005, TL900 = rule_by_code("TL005"), rule_by_code("TL900")
USED = "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nout = model.forward(x)  # noqa: TL005\n"


def _codes(source: str, rules=(TL005, TL900)) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in lint_text(source, "m.py", list(rules)).diagnostics]


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(USED, id="used"),
        pytest.param("x = 1  # noqa\n", id="bare"),
        pytest.param("x = 1  # noqa: F401\n", id="other-tool"),
        pytest.param("x = 1  # noqa: TL005, TL900\n", id="silenced"),
        pytest.param("s = '''\n# noqa: TL005\n'''\n", id="in-a-string"),
        pytest.param("# torchlint: noqa: TL005\nx = 1\n", id="file-level"),
        pytest.param("x = 1  # noqa: TL000\n", id="unsuppressible"),
        pytest.param("x = 1  # noqa: TL900\n", id="itself"),
    ],
)
def test_silent(source):
    assert _codes(source) == []


def test_a_code_whose_rule_did_not_run_is_not_judged():
    assert _codes("x = 1  # noqa: TL005\n", rules=(TL900,)) == []


def test_unused_code_on_a_line_with_a_used_one():
    source = USED.replace("# noqa: TL005", "# noqa: TL005, TL003")
    (diagnostic,) = lint_text(source, "m.py", [TL005, TL900, rule_by_code("TL003")]).diagnostics
    assert (diagnostic.code, diagnostic.message, diagnostic.line) == ("TL900", "Unused `noqa` for TL003", 3)
    assert (diagnostic.column, diagnostic.end_column) == (25, 45)
    fixed = fix_text(source, "m.py", [TL005, TL900, rule_by_code("TL003")])
    assert fixed.text == USED


def test_a_rule_that_failed_on_the_file_keeps_its_noqa(demo_rules):
    crashing = rule_by_code("TL992")  # raises on `crash_me()`
    result = lint_text("crash_me()  # noqa: TL992\n", "m.py", [crashing, TL900])
    assert [e.code for e in result.internal_errors] == ["TL992"] and result.diagnostics == []


def test_cli_reports_and_fixes_with_preview(cli, tmp_path):
    (tmp_path / "m.py").write_text("import torch\nx = torch.ones(1)  # noqa: TL005\n")
    assert cli("check", "--no-cache").exit_code == 0  # preview is off: TL900 does not run
    result = cli("check", "--preview", "--no-cache", "--output-format", "json")
    (finding,) = json.loads(result.stdout)
    assert finding["code"] == "TL900" and finding["fix"]["applicability"] == "safe"
    assert finding["fix"]["edits"] == [
        {"line": 2, "column": 18, "end_line": 2, "end_column": 33, "content": ""}
    ]
    fixed = cli("check", "--preview", "--no-cache", "--fix")
    assert fixed.exit_code == 0
    assert (tmp_path / "m.py").read_text() == "import torch\nx = torch.ones(1)\n"


def test_cli_deselected_code_is_not_judged(cli, tmp_path):
    (tmp_path / "m.py").write_text("x = 1  # noqa: TL005\n")
    result = cli("check", "--preview", "--no-cache", "--ignore", "TL005")
    assert result.exit_code == 0


def test_notebook_cell_noqa(cli, tmp_path):
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": ["x = 1  # noqa: TL005\n", "y = 2"]}
    (tmp_path / "n.ipynb").write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4,
                                                  "nbformat_minor": 4}, indent=1) + "\n")
    (finding,) = json.loads(cli("check", "--preview", "--no-cache", "--output-format", "json").stdout)
    assert (finding["code"], finding["cell"], finding["line"]) == ("TL900", 1, 1)
    cli("check", "--preview", "--no-cache", "--fix")
    assert json.loads((tmp_path / "n.ipynb").read_text())["cells"][0]["source"] == ["x = 1\n", "y = 2"]


def test_baseline_reports_entries_that_no_longer_match_and_prunes_them(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "y = model.forward(2)\n")
    cli("check", "--write-baseline", "b.json")
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "z = model.forward(3)\n")  # one fixed, one new
    result = cli("check", "--baseline", "b.json", "--output-format", "json")
    assert [f["line"] for f in json.loads(result.stdout)] == [4]
    assert "1 baseline entry in b.json no longer match any finding" in result.stderr
    assert "`--baseline b.json --write-baseline b.json` prunes them" in result.stderr

    pruned = cli("check", "--baseline", "b.json", "--write-baseline", "b.json")
    assert pruned.exit_code == 0
    assert "Wrote 1 finding to b.json (pruned 1 that no longer match)." in pruned.stderr
    assert len(json.loads((tmp_path / "b.json").read_text())["findings"]) == 1
    after = cli("check", "--baseline", "b.json", "--output-format", "json")
    assert [f["line"] for f in json.loads(after.stdout)] == [4]  # the new finding was not recorded
    assert "no longer match" not in after.stderr


def test_write_baseline_alone_records_everything_and_says_what_it_pruned(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "y = model.forward(2)\n")
    cli("check", "--write-baseline", "b.json")
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "z = model.forward(3)\n")
    result = cli("check", "--write-baseline", "b.json")
    assert "Wrote 2 findings to b.json (pruned 1 that no longer match)." in result.stderr
    assert cli("check", "--baseline", "b.json").exit_code == 0
