"""The flags ruff users reach for: `version`, `--show-settings`, `--show-files`, `--fix-only`,
`--exit-non-zero-on-fix`, `--watch`, `rules` at 80 columns, and a notebook on stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from torchlint import __version__
from torchlint.rules.registry import all_rules

from .conftest import FORWARD_FIXED, FORWARD_SOURCE

NOTEBOOK = Path(__file__).parent / "data" / "training.ipynb"
UNFIXABLE = "import torch.nn as nn\nmodel = nn.DataParallel(nn.Linear(2, 2))\n"  # TL002: unsafe fix only


def test_version_command(cli):
    result = cli("version")
    assert (result.exit_code, result.stdout) == (0, f"torchlint {__version__}\n")


def _settings(result) -> dict:
    return {row["key"]: (row["value"], row["source"]) for row in json.loads(result.stdout)["settings"]}


def test_show_settings_says_where_each_value_came_from(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.torchlint]\ntarget-torch = "2.4"\nignore = ["TL001"]\n'
        '[tool.torchlint.per-file-ignores]\n"legacy/*" = ["TL005"]\n"other/*" = ["TL003"]\n'
    )
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "a.py").write_text("x = 1\n")
    config = str(tmp_path / "pyproject.toml")
    result = cli("check", "--show-settings", "--output-format", "json", "--preview", "legacy/a.py")
    assert result.exit_code == 0
    rows = _settings(result)
    assert json.loads(result.stdout)["file"] == "legacy/a.py"
    assert rows["config-file"] == (config, config)
    assert rows["target-torch"] == ("2.4", config)
    assert rows["preview"] == (True, "--preview")
    assert rows["unsafe-fixes"] == (False, "default")
    assert rows["ignore"] == (["TL001"], config)
    assert rows["per-file-ignores (matching this file)"] == ({"legacy/*": ["TL005"]}, config)
    enabled = rows["enabled rules"][0]
    assert "TL001" not in enabled and "TL005" not in enabled and "TL003" in enabled and "TL120" in enabled

    flagged = _settings(cli("check", "--show-settings", "--output-format", "json", "--target-torch", "2.6", "legacy"))
    assert flagged["target-torch"] == ("2.6", "--target-torch")
    assert flagged["preview"] == (False, "default")


def test_show_settings_text_without_a_config(cli, tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    result = cli("check", "--show-settings", "a.py")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Resolved settings for: a.py"
    target = next(line for line in lines if line.startswith("target-torch"))
    assert target.split("=", 1)[1].strip() == "2.13  # from default"
    assert any(line.startswith("config-file") and "(none)" in line for line in lines)


def test_show_settings_for_stdin_filename(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\ntarget-torch = "2.1"\n')
    result = cli("check", "-", "--stdin-filename", "x.py", "--show-settings", "--output-format", "json", input="")
    assert _settings(result)["target-torch"][0] == "2.1"


def test_show_files_lists_what_would_be_linted(cli, tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(FORWARD_SOURCE)
    (tmp_path / "nb.ipynb").write_text(NOTEBOOK.read_text())
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "gen.py").write_text("x = 1\n")
    result = cli("check", "--show-files")
    assert (result.exit_code, result.stdout) == (0, "nb.ipynb\npkg/m.py\n")
    assert (tmp_path / "pkg" / "m.py").read_text() == FORWARD_SOURCE  # nothing was linted or fixed


def test_show_files_of_a_missing_path_is_exit_2(cli):
    assert cli("check", "--show-files", "nope.py").exit_code == 2


def test_fix_only_fixes_and_does_not_report_what_is_left(cli, tmp_path):
    (tmp_path / "a.py").write_text(FORWARD_SOURCE)
    (tmp_path / "b.py").write_text(UNFIXABLE)
    result = cli("check", "--fix-only", "--no-cache")
    assert (result.exit_code, result.stdout) == (0, "Fixed 1 problem.\n")
    assert (tmp_path / "a.py").read_text() == FORWARD_FIXED
    again = cli("check", "--fix-only", "--no-cache")
    assert (again.exit_code, again.stdout) == (0, "No fixes applied.\n")
    assert cli("check", "--no-cache").exit_code == 1  # TL002 is still there for a plain check


def test_fix_only_json_is_an_empty_list(cli, tmp_path):
    (tmp_path / "b.py").write_text(UNFIXABLE)
    result = cli("check", "--fix-only", "--output-format", "json", "--no-cache")
    assert (result.exit_code, json.loads(result.stdout)) == (0, [])


@pytest.mark.parametrize("mode", ["--fix", "--fix-only"])
def test_exit_non_zero_on_fix(cli, tmp_path, mode):
    (tmp_path / "a.py").write_text(FORWARD_SOURCE)
    first = cli("check", mode, "--exit-non-zero-on-fix", "--no-cache")
    assert first.exit_code == 1 and (tmp_path / "a.py").read_text() == FORWARD_FIXED
    second = cli("check", mode, "--exit-non-zero-on-fix", "--no-cache")
    assert second.exit_code == 0


def test_rules_listing_fits_80_columns_with_full_names(tmp_path):
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    result = subprocess.run([sys.executable, "-m", "torchlint", "rules"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0].split() == ["code", "name", "state", "default", "fix"]
    rows = {line.split()[0]: line.split() for line in lines if line[:2] == "TL"}
    for rule in all_rules():
        assert rows[rule.code][1] == rule.name
    words = " ".join(lines).split()
    assert " ".join(all_rules()[5].summary.split()) in " ".join(words)


def test_rules_listing_wide_keeps_a_summary_column(tmp_path):
    env = {**os.environ, "COLUMNS": "140", "NO_COLOR": "1"}
    result = subprocess.run([sys.executable, "-m", "torchlint", "rules"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=120)
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 140
    assert lines[0].split() == ["code", "name", "state", "default", "fix", "summary"]
    assert any(rule.name in line for rule in all_rules() for line in lines)


def test_stdin_notebook_is_linted_as_a_notebook(cli):
    result = cli("check", "-", "--stdin-filename", "nb.ipynb", "--output-format", "json", input=NOTEBOOK.read_bytes())
    assert result.exit_code == 1
    findings = json.loads(result.stdout)
    assert [(f["path"], f["cell"], f["line"], f["code"]) for f in findings] == [
        ("nb.ipynb", 5, 1, "TL005"), ("nb.ipynb", 5, 4, "TL001"),
    ]


def test_stdin_notebook_fix_echoes_the_fixed_notebook(cli):
    result = cli("check", "-", "--stdin-filename", "nb.ipynb", "--fix", input=NOTEBOOK.read_bytes())
    fixed = json.loads(result.stdout)
    original = json.loads(NOTEBOOK.read_text())
    assert fixed["cells"][4]["source"][0] == "out = model(x)\n"
    assert fixed["cells"][:4] == original["cells"][:4] and fixed["metadata"] == original["metadata"]
    assert "2 fixed, 0 remaining" in result.stderr


def test_stdin_invalid_notebook_is_tl000(cli):
    result = cli("check", "-", "--stdin-filename", "nb.ipynb", "--output-format", "json", input="{not json")
    (finding,) = json.loads(result.stdout)
    assert finding["code"] == "TL000" and "invalid notebook" in finding["message"]


def _wait_for(stream_lines: list[str], needle: str, process, deadline: float) -> None:
    while time.monotonic() < deadline:
        if any(needle in line for line in stream_lines):
            return
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"{needle!r} not seen; got {stream_lines!r}")


def test_watch_lints_again_after_a_change(tmp_path):
    import threading

    (tmp_path / "a.py").write_text("x = 1\n")
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "torchlint", "check", "--watch", "--no-cache", "--output-format", "concise", "."],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        _wait_for(lines, "Watching for file changes", process, deadline)
        assert any("All checks passed!" in line for line in lines)
        time.sleep(0.5)
        (tmp_path / "a.py").write_text(FORWARD_SOURCE)
        _wait_for(lines, "a.py:3:7: TL005", process, deadline)
        assert any("a.py changed; linting again" in line for line in lines)
    finally:
        process.terminate()
        process.wait(timeout=10)
        reader.join(timeout=5)
