from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import FORWARD_FIXED, FORWARD_SOURCE

REPO = Path(__file__).resolve().parent.parent
CONTRACT_KEYS = {"code", "name", "message", "path", "line", "column", "end_line", "end_column", "severity", "fix"}


def test_exit_codes(cli, tmp_path):
    (tmp_path / "clean.py").write_text("x = 1\n")
    assert cli("check", "clean.py").exit_code == 0
    (tmp_path / "dirty.py").write_text(FORWARD_SOURCE)
    assert cli("check", "dirty.py").exit_code == 1
    assert cli("check", "--exit-zero", "dirty.py").exit_code == 0
    assert cli("check", "--select", "NOPE").exit_code == 2


def test_internal_error_is_exit_2_and_other_findings_still_reported(cli, tmp_path, demo_rules):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "crash_me()\n")
    result = cli("check", "--extend-select", "TL992", "--output-format", "concise")
    assert result.exit_code == 2
    assert "internal error in TL992 on m.py: ZeroDivisionError: boom" in result.stderr
    assert "m.py:3:7: TL005" in result.stdout


def test_fix_then_nothing_left_then_nothing_changes(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    first = cli("check", "--fix")
    assert first.exit_code == 0
    assert "Found 1 problem (1 fixed, 0 remaining)." in first.stdout
    assert (tmp_path / "m.py").read_text() == FORWARD_FIXED
    second = cli("check", "--fix")
    assert second.exit_code == 0 and "All checks passed!" in second.stdout
    assert (tmp_path / "m.py").read_text() == FORWARD_FIXED


def test_fix_reports_remaining_unsafe(cli, tmp_path, demo_rules):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "demo_unsafe()\n")
    result = cli("check", "--fix", "--extend-select", "TL990")
    assert result.exit_code == 1
    assert "Found 2 problems (1 fixed, 1 remaining)." in result.stdout
    assert "(unsafe: apply with --unsafe-fixes)" in result.stdout
    result = cli("check", "--fix", "--unsafe-fixes", "--extend-select", "TL990")
    assert result.exit_code == 0
    assert (tmp_path / "m.py").read_text() == FORWARD_FIXED + "demo_safe()\n"


def test_summary_counts_safe_and_unsafe(cli, tmp_path, demo_rules):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "demo_unsafe()\n")
    result = cli("check", "--extend-select", "TL990")
    assert "Found 2 problems (1 fixable with --fix, 1 with --unsafe-fixes)." in result.stdout
    result = cli("check", "--select", "TL990")
    assert "Found 1 problem (1 fixable with --unsafe-fixes)." in result.stdout


def test_diff_prints_and_writes_nothing(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    result = cli("check", "--diff")
    assert result.exit_code == 1
    assert "--- a/m.py\n+++ b/m.py\n" in result.stdout
    assert "-out = model.forward(x)\n+out = model(x)\n" in result.stdout
    assert "Would fix 1 problem." in result.stderr
    assert (tmp_path / "m.py").read_text() == FORWARD_SOURCE
    (tmp_path / "m.py").write_text(FORWARD_FIXED)
    clean = cli("check", "--diff")
    assert clean.exit_code == 0 and clean.stdout == ""


def test_stdin_lint_and_fix(cli):
    result = cli("check", "-", "--stdin-filename", "pkg/train.py", "--output-format", "json", input=FORWARD_SOURCE)
    assert result.exit_code == 1
    assert json.loads(result.stdout)[0]["path"] == "pkg/train.py"
    fixed = cli("check", "-", "--fix", input=FORWARD_SOURCE + "y = q.forward(1)\n")
    assert fixed.stdout == FORWARD_FIXED + "y = q.forward(1)\n"
    assert fixed.exit_code == 0
    unchanged = cli("check", "-", "--fix", input="x = 1\n")
    assert unchanged.stdout == "x = 1\n" and unchanged.exit_code == 0


def test_stdin_fix_prints_remaining_findings_to_stderr(cli, demo_rules):
    result = cli("check", "-", "--fix", "--select", "TL005,TL990", input=FORWARD_SOURCE + "demo_unsafe()\n")
    assert result.stdout == FORWARD_FIXED + "demo_unsafe()\n"
    assert "-:4:1: TL990" in result.stderr
    assert result.exit_code == 1


def test_stdin_honours_config_for_stdin_filename(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint.per-file-ignores]\n"legacy/*" = ["TL005"]\n')
    result = cli("check", "-", "--stdin-filename", "legacy/a.py", input=FORWARD_SOURCE)
    assert result.exit_code == 0


def test_statistics(cli, tmp_path, demo_rules):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "y = model.forward(2)\ndemo_unsafe()\n")
    result = cli("check", "--statistics", "--extend-select", "TL990")
    assert result.stdout.splitlines() == ["    2\tTL005\t[*] direct-forward-call", "    1\tTL990\t[ ] demo-unsafe"]
    as_json = json.loads(cli("check", "--statistics", "--output-format", "json").stdout)
    assert as_json == [{"code": "TL005", "name": "direct-forward-call", "count": 2, "fixable": True}]


def test_show_fixes(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    result = cli("check", "--fix", "--show-fixes")
    assert "Fixed 1 problem:\n- m.py:\n    1 × TL005 (direct-forward-call)\n" in result.stdout


def test_full_output_is_plain_with_source_and_caret(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    out = cli("check").stdout
    assert "\x1b[" not in out
    assert "m.py:3:7: TL005 [*] Calling `.forward()` directly" in out
    assert "3 | out = model.forward(x)\n  |       ^^^^^^^^^^^^^^^^ TL005\n" in out
    assert "= help: Call the module instead of `.forward()`" in out
    assert out.rstrip().endswith("Found 1 problem (1 fixable with --fix).")


def test_concise_output(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    lines = cli("check", "--output-format", "concise").stdout.splitlines()
    assert lines[0].startswith("m.py:3:7: TL005 Calling `.forward()` directly skips")
    assert lines[-1] == "Found 1 problem (1 fixable with --fix)."


def test_json_output_has_exactly_the_contract_keys(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    (finding,) = json.loads(cli("check", "--output-format", "json").stdout)
    assert set(finding) == CONTRACT_KEYS
    assert finding["fix"] == {
        "applicability": "safe",
        "message": "Call the module instead of `.forward()`",
        "edits": [{"line": 3, "column": 12, "end_line": 3, "end_column": 20, "content": ""}],
    }
    assert (finding["severity"], finding["name"]) == ("warning", "direct-forward-call")


def test_github_output_escapes(cli, tmp_path):
    (tmp_path / "a,b%.py").write_text(FORWARD_SOURCE)
    out = cli("check", "--output-format", "github").stdout
    assert out.startswith(
        "::error file=a%2Cb%25.py,line=3,col=7,endLine=3,endColumn=23,"
        "title=TL005 (direct-forward-call)::TL005 Calling `.forward()` directly"
    )
    assert out.count("\n") == 1


def test_rules_and_rule_commands(cli):
    listing = cli("rules").stdout
    assert "TL005" in listing and "direct-forward-call" in listing and "safe" in listing
    rules = json.loads(cli("rules", "--output-format", "json").stdout)
    tl005 = next(rule for rule in rules if rule["code"] == "TL005")
    assert tl005 == {
        "code": "TL005",
        "name": "direct-forward-call",
        "summary": "`.forward()` called directly on a module skips its hooks",
        "severity": "warning",
        "default_enabled": True,
        "state": "stable",
        "fix": "safe/unsafe",
    }
    docs = cli("rule", "tl005").stdout
    for section in ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "References"):
        assert f"## {section}" in docs
    assert json.loads(cli("rule", "TL005", "--output-format", "json").stdout)["docs"].startswith("## What it does")
    unknown = cli("rule", "TL404")
    assert unknown.exit_code == 2 and "unknown rule code" in unknown.stderr


def _run(*args, cwd):
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_python_m_and_console_script_on_the_bundled_example(tmp_path):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    result = _run("-m", "torchlint", "check", "--output-format", "json", "examples/", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)
    assert findings and all(set(f) == CONTRACT_KEYS for f in findings)
    assert {f["code"] for f in findings} >= {"TL005"}
    script = shutil.which("torchlint", path=str(Path(sys.executable).parent))
    fixed = subprocess.run([script, "check", "--fix", "examples/"], cwd=tmp_path, capture_output=True, text=True)
    assert "TL005" not in subprocess.run(
        [script, "check", "--output-format", "concise", "examples/"], cwd=tmp_path, capture_output=True, text=True
    ).stdout, fixed.stdout
    before = (tmp_path / "examples" / "train.py").read_text()
    third = subprocess.run([script, "check", "--fix", "examples/"], cwd=tmp_path, capture_output=True, text=True)
    assert (tmp_path / "examples" / "train.py").read_text() == before, third.stdout
    compile(before, "train.py", "exec")


def test_check_never_imports_torch(tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    code = (
        "import sys\nfrom torchlint.cli import main\n"
        "try:\n    main(['check', '--output-format', 'json', '--fix', 'm.py'])\n"
        "except SystemExit:\n    pass\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\nprint('ok')\n"
    )
    result = _run("-c", code, cwd=tmp_path)
    assert result.stdout.strip().endswith("ok"), result.stderr


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "sarif", "github"])
def test_every_format_handles_a_clean_run(cli, tmp_path, fmt):
    (tmp_path / "m.py").write_text("x = 1\n")
    result = cli("check", "--output-format", fmt)
    assert result.exit_code == 0
    if fmt == "json":
        assert json.loads(result.stdout) == []
    elif fmt == "sarif":
        assert json.loads(result.stdout)["runs"][0]["results"] == []
    elif fmt == "github":
        assert result.stdout == ""
    else:
        assert result.stdout.strip() == "All checks passed!"


class _Terminal(__import__("io").StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("no_color", "coloured"), [("", True), ("1", False)])
def test_full_output_colours_only_a_terminal_without_no_color(monkeypatch, no_color, coloured):
    from torchlint.engine import lint_text
    from torchlint.reporters import RunReport, render
    from torchlint.rules.registry import rule_by_code

    monkeypatch.setenv("NO_COLOR", no_color)
    diagnostics = lint_text(FORWARD_SOURCE, "m.py", [rule_by_code("TL005")]).diagnostics
    stream = _Terminal()
    render("full", RunReport(diagnostics, sources={"m.py": FORWARD_SOURCE}), stream)
    assert ("\x1b[" in stream.getvalue()) is coloured
    assert "^^^^^^^^^^^^^^^^ TL005" in stream.getvalue()


def test_the_bundled_examples_give_their_findings_inside_this_repository(cli):
    """The quick start's job (`torchlint check examples/`), linted as part of this repository's
    project, whose tests hold programs that change classes (`Net.__call__ = ...`): those change
    only their own classes, not what the examples' modules return."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    result = cli("check", "--no-cache", "--output-format", "json", str(examples))
    found = sorted((Path(d["path"]).name, d["line"], d["code"]) for d in json.loads(result.output))
    assert found == [
        ("data_and_checkpoints.py", 30, "TL007"), ("data_and_checkpoints.py", 32, "TL002"),
        ("data_and_checkpoints.py", 34, "TL006"), ("data_and_checkpoints.py", 38, "TL004"),
        ("train.py", 19, "TL005"), ("train.py", 22, "TL005"), ("train.py", 32, "TL005"), ("train.py", 35, "TL001"),
        ("train.py", 36, "TL003"), ("train.py", 44, "TL008"), ("train.py", 45, "TL001"),
    ]
