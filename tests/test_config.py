from __future__ import annotations

import json

import pytest

from .conftest import FORWARD_SOURCE

TWO_RULE_SOURCE = FORWARD_SOURCE + "demo_unsafe()\nold_api()\n"


def _codes(result) -> list[str]:
    return [finding["code"] for finding in json.loads(result.stdout)]


def _pyproject(path, body: str) -> None:
    path.mkdir(parents=True, exist_ok=True)
    (path / "pyproject.toml").write_text(f"[tool.torchlint]\n{body}\n")


def test_select_from_config_and_cli_wins(cli, tmp_path, demo_rules):
    _pyproject(tmp_path, 'select = ["TL990"]')
    (tmp_path / "m.py").write_text(TWO_RULE_SOURCE)
    assert _codes(cli("check", "--output-format", "json")) == ["TL990"]
    assert _codes(cli("check", "--output-format", "json", "--select", "TL005")) == ["TL005"]
    assert _codes(cli("check", "--output-format", "json", "--extend-select", "TL005")) == ["TL005", "TL990"]


def test_ignore_and_extend_select_layer_like_ruff(cli, tmp_path, demo_rules):
    _pyproject(tmp_path, 'extend-select = ["TL99"]\nignore = ["TL991", "TL992", "TL993"]')
    (tmp_path / "m.py").write_text(TWO_RULE_SOURCE)
    assert _codes(cli("check", "--output-format", "json")) == ["TL005", "TL990"]
    assert _codes(cli("check", "--output-format", "json", "--ignore", "TL9")) == ["TL005"]
    assert _codes(cli("check", "--output-format", "json", "--select", "ALL", "--ignore", "TL991,TL992")) == [
        "TL005",
        "TL990",
    ]


def test_closest_pyproject_wins(cli, tmp_path, demo_rules):
    _pyproject(tmp_path, 'select = ["TL005"]')
    _pyproject(tmp_path / "sub", 'select = ["TL990"]')
    (tmp_path / "sub" / "inner").mkdir()
    (tmp_path / "top.py").write_text(TWO_RULE_SOURCE)
    (tmp_path / "sub" / "inner" / "deep.py").write_text(TWO_RULE_SOURCE)
    findings = json.loads(cli("check", "--output-format", "json").stdout)
    assert [(f["path"], f["code"]) for f in findings] == [("sub/inner/deep.py", "TL990"), ("top.py", "TL005")]


def test_pyproject_without_table_is_skipped(cli, tmp_path, demo_rules):
    _pyproject(tmp_path, 'select = ["TL990"]')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "pkg" / "m.py").write_text(TWO_RULE_SOURCE)
    assert _codes(cli("check", "--output-format", "json")) == ["TL990"]


def test_explicit_config_overrides_discovery(cli, tmp_path, demo_rules):
    _pyproject(tmp_path, 'select = ["TL990"]')
    (tmp_path / "other.toml").write_text('[tool.torchlint]\nselect = ["TL005"]\n')
    (tmp_path / "m.py").write_text(TWO_RULE_SOURCE)
    assert _codes(cli("check", "--output-format", "json", "--config", "other.toml")) == ["TL005"]


def test_per_file_ignores(cli, tmp_path):
    _pyproject(tmp_path, '[tool.torchlint.per-file-ignores]\n"tests/*" = ["TL005"]\n"legacy.py" = ["TL"]')
    for name in ("tests/test_a.py", "legacy.py", "main.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(FORWARD_SOURCE)
    findings = json.loads(cli("check", "--output-format", "json").stdout)
    assert [f["path"] for f in findings] == ["main.py"]


def test_unsafe_fixes_from_config_and_cli_override(cli, tmp_path, demo_rules):
    _pyproject(tmp_path, 'unsafe-fixes = true\nextend-select = ["TL990"]')
    (tmp_path / "m.py").write_text("demo_unsafe()\n")
    cli("check", "--fix", "--no-unsafe-fixes")
    assert (tmp_path / "m.py").read_text() == "demo_unsafe()\n"
    cli("check", "--fix")
    assert (tmp_path / "m.py").read_text() == "demo_safe()\n"


def test_target_torch_from_config_and_cli(cli, tmp_path, demo_rules):
    (tmp_path / "m.py").write_text("old_api()\n")
    assert _codes(cli("check", "--output-format", "json", "--select", "TL993")) == []
    _pyproject(tmp_path, 'target-torch = "2.5"')
    assert _codes(cli("check", "--output-format", "json", "--select", "TL993")) == ["TL993"]
    assert _codes(cli("check", "--output-format", "json", "--select", "TL993", "--target-torch", "2.6")) == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('selectt = ["TL005"]', "unknown key `selectt`"),
        ('select = ["TL999"]', "unknown rule code or prefix `TL999`"),
        ('ignore = ["E501"]', "unknown rule code or prefix `E501`"),
        ('[tool.torchlint.per-file-ignores]\n"a.py" = ["XX1"]', "unknown rule code or prefix `XX1`"),
        ('select = "TL005"', "`select`"),
        ('unsafe-fixes = "yes"', "`unsafe-fixes`"),
        ('target-torch = "two"', "invalid torch version `two`"),
        ('backward-functions = "loss_scaler"', "`backward-functions`"),
        ("select = [", "invalid TOML"),
    ],
)
def test_bad_config_is_exit_2_naming_the_problem(cli, tmp_path, body, message):
    (tmp_path / "pyproject.toml").write_text(f"[tool.torchlint]\n{body}\n")
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    result = cli("check")
    assert result.exit_code == 2
    assert message in result.stderr
    assert "pyproject.toml" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("--select", "TL999"),
        ("--ignore", "NOPE"),
        ("--extend-select", "X"),
        ("--target-torch", "latest"),
        ("--config", "missing.toml"),
        ("--output-format", "xml"),
        ("--no-such-flag",),
        ("missing_dir",),
    ],
)
def test_bad_command_line_is_exit_2(cli, tmp_path, args):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    result = cli("check", *args)
    assert result.exit_code == 2
    assert result.stderr.strip()


def test_backward_functions_from_config_reach_tl003(cli, tmp_path):
    (tmp_path / "m.py").write_text(
        "import torch.nn as nn\nmodel = nn.Linear(4, 1)\ncriterion = nn.MSELoss()\n"
        "def epoch(batches):\n    total = 0\n    for x, y in batches:\n        loss = criterion(model(x), y)\n"
        "        step_with(loss)\n        total += loss\n    return total\n"
    )
    assert _codes(cli("check", "--output-format", "json", "--select", "TL003")) == []
    _pyproject(tmp_path, 'backward-functions = ["step_with"]')
    assert _codes(cli("check", "--output-format", "json", "--select", "TL003")) == ["TL003"]
