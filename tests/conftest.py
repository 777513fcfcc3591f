from __future__ import annotations

import libcst as cst
import pytest
from click.testing import CliRunner

from torchlint.cli import main
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register, unregister


@pytest.fixture
def cli(tmp_path, monkeypatch):
    """Run the CLI in-process with the temp folder as the working directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()

    def run(*args: str, input: bytes | str | None = None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    return run


class _CallRenamer(Rule):
    """
    ## What it does
    Test rule. ## Why is this bad? ## Example ## Use instead ## Fix safety ## References
    """

    severity = "warning"
    default_enabled = False
    preview = False
    old_name = ""

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == self.old_name:
            self.report(node, f"`{self.old_name}` called", self.make_fix(node))


class UnsafeDemo(_CallRenamer):
    code, name, summary = "TL990", "demo-unsafe", "Test rule with an unsafe fix"
    fix_safety = ("unsafe",)
    trigger_tokens = ("demo_unsafe",)
    old_name = "demo_unsafe"
    invalid = (Invalid("demo_unsafe()\n", "demo_safe()\n"),)

    def make_fix(self, node):
        return self.replace(node.func, cst.Name("demo_safe"), "Rename", "unsafe")


class BrokenFix(_CallRenamer):
    code, name, summary = "TL991", "demo-broken-fix", "Test rule whose fix does not parse"
    fix_safety = ("safe",)
    trigger_tokens = ("break_me",)
    old_name = "break_me"

    def make_fix(self, node):
        return self.replace(node, cst.Name("lambda"), "Break the file")


class Crashing(_CallRenamer):
    code, name, summary = "TL992", "demo-crash", "Test rule that raises"
    trigger_tokens = ("crash_me",)
    old_name = "crash_me"

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "crash_me":
            raise ZeroDivisionError("boom")


class TargetAware(_CallRenamer):
    """Fires only when the target torch version is below 2.6, to test --target-torch."""

    code, name, summary = "TL993", "demo-target", "Test rule reading target-torch"
    trigger_tokens = ("old_api",)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "old_api":
            if self.ctx.settings.target_torch < (2, 6):
                self.report(node, "old api")


TEST_RULES = (UnsafeDemo, BrokenFix, Crashing, TargetAware)


@pytest.fixture
def demo_rules():
    for rule in TEST_RULES:
        register(rule)
    yield
    for rule in TEST_RULES:
        unregister(rule.code)


FORWARD_SOURCE = "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nout = model.forward(x)\n"
FORWARD_FIXED = "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nout = model(x)\n"
