"""Preview: rules in preview run only with `--preview` or `preview = true`, selected or not."""

from __future__ import annotations

import json

import libcst as cst
import pytest

from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register, unregister


class PreviewDemo(Rule):
    """
    ## What it does
    Test rule. ## Why is this bad? ## Example ## Use instead ## Fix safety ## References
    """

    code, name, summary = "TL995", "demo-preview", "Test rule in preview"
    trigger_tokens = ("preview_me",)
    invalid = (Invalid("preview_me()\n"),)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "preview_me":
            self.report(node, "`preview_me` called")


@pytest.fixture
def preview_rule():
    register(PreviewDemo)
    yield PreviewDemo
    unregister(PreviewDemo.code)


def _codes(cli, *args):
    result = cli("check", "a.py", "--output-format", "json", "--no-cache", *args)
    return {finding["code"] for finding in json.loads(result.stdout)}


@pytest.fixture
def source(tmp_path):
    (tmp_path / "a.py").write_text("import torch\nx = torch.ones(2)\ny = x.data\npreview_me()\n")


def test_a_rule_is_in_preview_unless_it_says_otherwise(preview_rule):
    assert PreviewDemo.preview and PreviewDemo.state() == "preview"
    from torchlint.rules.registry import rule_by_code

    assert rule_by_code("TL001").state() == "stable"


def test_preview_rule_runs_only_with_preview(cli, source, preview_rule):
    assert _codes(cli) == {"TL001"}
    assert _codes(cli, "--select", "TL995") == set()  # selected, but not in preview mode
    assert _codes(cli, "--select", "ALL") == {"TL001"}
    assert _codes(cli, "--preview") == {"TL001", "TL995"}  # on by default once preview is on
    assert _codes(cli, "--select", "TL995", "--preview") == {"TL995"}
    assert _codes(cli, "--select", "ALL", "--preview", "--ignore", "TL001") == {"TL995"}


def test_preview_from_config_and_overridden_on_the_command_line(cli, tmp_path, source, preview_rule):
    (tmp_path / "pyproject.toml").write_text("[tool.torchlint]\npreview = true\n")
    assert "TL995" in _codes(cli)
    assert "TL995" not in _codes(cli, "--no-preview")


def test_preview_key_must_be_a_boolean(cli, tmp_path, source):
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\npreview = "yes"\n')
    result = cli("check", "a.py")
    assert result.exit_code == 2 and "`preview`" in result.stderr


def test_rules_listing_shows_the_state(cli, preview_rule):
    listing = json.loads(cli("rules", "--output-format", "json").stdout)
    states = {rule["code"]: rule["state"] for rule in listing}
    assert states["TL005"] == "stable" and states["TL995"] == "preview"
    table = cli("rules").stdout
    assert "state" in table.splitlines()[0]
    assert any(line.split()[:3] == ["TL995", "demo-preview", "preview"] for line in table.splitlines())
    assert "State: preview" in cli("rule", "TL995").stdout


def test_released_rules_are_the_mission_rules():
    """Upgrading must never fail a gate that passed: only released rules run without preview."""
    from torchlint.selection import selectable_rules

    stable = {rule.code for rule in selectable_rules() if not rule.preview}
    assert {f"TL00{i}" for i in range(1, 9)} <= stable
