"""Adopting torchlint on an existing repo: --add-noqa, baselines, the cache and parallel runs."""

from __future__ import annotations

import json

import pytest

from .conftest import FORWARD_SOURCE

TWO_FINDINGS = "import torch.nn as nn\nm = nn.Linear(2, 2)\nm.forward(1)\nm.forward(2)  # noqa: E501\n"


def test_add_noqa_writes_codes_and_keeps_the_file_valid(cli, tmp_path):
    (tmp_path / "m.py").write_text(TWO_FINDINGS + 's = """\nx""" + m.forward(3)\nz = m.forward(4) + \\\n    1\n')
    result = cli("check", "--add-noqa")
    assert result.exit_code == 0 and "Added 3 noqa comments." in result.stderr
    assert (tmp_path / "m.py").read_text() == (
        "import torch.nn as nn\nm = nn.Linear(2, 2)\nm.forward(1)  # noqa: TL005\n"
        "m.forward(2)  # noqa: E501, TL005\n"
        's = """\nx""" + m.forward(3)  # noqa: TL005\nz = m.forward(4) + \\\n    1\n'
    )
    findings = json.loads(cli("check", "--output-format", "json").stdout)
    assert [f["line"] for f in findings] == [7]  # only the line ending in a continuation is left
    again = cli("check", "--add-noqa")
    assert "Added 0 noqa comments." in again.stderr


def test_add_noqa_in_a_notebook_cell(cli, tmp_path):
    cell = {"cell_type": "code", "execution_count": None, "id": "a", "metadata": {}, "outputs": [],
            "source": ["import torch.nn as nn\n", "m = nn.Linear(2, 2)\n", "m.forward(1)"]}
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n")
    cli("check", "--add-noqa")
    assert json.loads(path.read_text())["cells"][0]["source"][-1] == "m.forward(1)  # noqa: TL005"
    assert cli("check").exit_code == 0


def test_baseline_matches_moved_findings_and_reports_new_ones(cli, tmp_path):
    (tmp_path / "m.py").write_text(TWO_FINDINGS.replace("  # noqa: E501", ""))
    result = cli("check", "--write-baseline", "baseline.json")
    assert result.exit_code == 0 and "Wrote 2 findings to baseline.json." in result.stderr
    assert cli("check", "--baseline", "baseline.json").exit_code == 0
    # lines inserted above move the old findings; a new finding appears below them
    (tmp_path / "m.py").write_text("import os\n\n\n" + TWO_FINDINGS.replace("  # noqa: E501", "") + "m.forward(9)\n")
    result = cli("check", "--baseline", "baseline.json", "--output-format", "json")
    findings = json.loads(result.stdout)
    assert [(f["line"], f["code"]) for f in findings] == [(8, "TL005")]
    assert result.exit_code == 1


def test_baseline_counts_identical_lines(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    cli("check", "--write-baseline", "b.json")
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "out = model.forward(x)\n")
    findings = json.loads(cli("check", "--baseline", "b.json", "--output-format", "json").stdout)
    assert [f["line"] for f in findings] == [4]


def test_baseline_from_config_and_bad_baseline(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    (tmp_path / "lint").mkdir()
    cli("check", "--write-baseline", "lint/baseline.json")
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nbaseline = "lint/baseline.json"\n')
    assert cli("check").exit_code == 0
    (tmp_path / "lint" / "baseline.json").write_text("{")
    result = cli("check")
    assert result.exit_code == 2 and "cannot read the baseline" in result.stderr


def test_cache_hits_misses_and_invalidation(cli, tmp_path, demo_rules):
    (tmp_path / "a.py").write_text(FORWARD_SOURCE)
    (tmp_path / "b.py").write_text("x = 1\n")
    first = cli("check", "-v")
    assert "cache: 0 hits, 2 misses" in first.stderr
    cache = tmp_path / ".torchlint_cache"
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (cache / ".gitignore").read_text().endswith("*\n")
    second = cli("check", "-v")
    assert "cache: 2 hits, 0 misses" in second.stderr and second.stdout == first.stdout
    (tmp_path / "b.py").write_text("import torch.nn as nn\nm = nn.Linear(1, 1)\nm.forward(1)\n")
    third = cli("check", "-v", "--output-format", "concise")
    assert "cache: 1 hits, 1 misses" in third.stderr and "b.py:3:1: TL005" in third.stdout
    changed_selection = cli("check", "-v", "--extend-select", "TL990")
    assert "cache: 0 hits, 2 misses" in changed_selection.stderr


def test_cache_location_options_and_clean(cli, tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text(FORWARD_SOURCE)
    cli("check", "--cache-dir", "elsewhere")
    assert (tmp_path / "elsewhere" / "CACHEDIR.TAG").exists()
    monkeypatch.setenv("TORCHLINT_CACHE_DIR", str(tmp_path / "from-env"))
    cli("check")
    assert (tmp_path / "from-env" / "CACHEDIR.TAG").exists()
    cli("check", "--no-cache")
    assert "Removed" in cli("clean").stdout and not (tmp_path / "from-env").exists()
    monkeypatch.delenv("TORCHLINT_CACHE_DIR")
    assert not (tmp_path / ".torchlint_cache").exists()


@pytest.mark.parametrize("damage", ["{broken", '{"files": {"x": 1}}', '{"files": {"A": {"hash": "h"}}}'])
def test_corrupt_cache_is_survived(cli, tmp_path, damage):
    (tmp_path / "a.py").write_text(FORWARD_SOURCE)
    clean_run = cli("check")
    for cache_file in (tmp_path / ".torchlint_cache").rglob("*.json"):
        cache_file.write_text(damage.replace('"A"', json.dumps(str(tmp_path / "a.py"))))
    result = cli("check")
    assert result.exit_code == 1 and result.stdout == clean_run.stdout


def test_unwritable_cache_is_a_warning(cli, tmp_path):
    (tmp_path / "a.py").write_text(FORWARD_SOURCE)
    (tmp_path / "blocker").write_text("a file where the cache folder should go")
    result = cli("check", "--cache-dir", "blocker")
    assert result.exit_code == 1 and "warning: cannot write the cache" in result.stderr


def test_jobs_give_byte_identical_output(cli, tmp_path):
    for index in range(40):
        body = FORWARD_SOURCE if index % 3 else "x = 1\n"
        (tmp_path / f"pkg{index % 4}" / f"m{index:02}.py").parent.mkdir(exist_ok=True)
        (tmp_path / f"pkg{index % 4}" / f"m{index:02}.py").write_text(body + f"y{index} = model.forward({index})\n")
    outputs = {
        jobs: [cli("check", "--no-cache", "--jobs", jobs, "--output-format", fmt).stdout for fmt in ("json", "full")]
        for jobs in ("1", "2")
    }
    assert outputs["1"] == outputs["2"]
    assert len(json.loads(outputs["1"][0])) > 40
