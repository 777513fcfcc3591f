"""Every registered rule's inline VALID/INVALID examples, collected from the registry."""

from __future__ import annotations

import re

import pytest

from torchlint.engine import fix_text, lint_text
from torchlint.rule import DOC_SECTIONS
from torchlint.rules.registry import all_rules, rule_by_code

VISITOR_RULES = [rule for rule in all_rules() if rule.code != "TL000"]


def _cases(kind):
    return list(_iter_cases(kind))


def _iter_cases(kind):
    for rule in VISITOR_RULES:
        for index, example in enumerate(getattr(rule, kind)):
            yield pytest.param(rule, example, id=f"{rule.code}-{kind}-{index}")


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_rule_metadata_and_docs(rule):
    assert re.fullmatch(r"TL\d{3}", rule.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
    assert rule.severity in ("error", "warning", "info")
    assert set(rule.fix_safety) <= {"safe", "unsafe"}
    docs = rule.docs()
    positions = [docs.find(f"## {section}") for section in DOC_SECTIONS]
    assert -1 not in positions, f"{rule.code} docs miss a section"
    assert positions == sorted(positions), f"{rule.code} docs sections out of order"


@pytest.mark.parametrize("rule", VISITOR_RULES, ids=lambda rule: rule.code)
def test_rule_has_examples_and_tokens(rule):
    assert rule.trigger_tokens, "a rule must declare its trigger tokens for the prefilter"
    assert rule.valid and rule.invalid
    if rule.fix_safety:
        assert any(example.fixed is not None for example in rule.invalid)


def _with_companions(rule):
    """The rule, and the rules its examples need beside it (TL900 judges the others' noqa)."""
    return [rule, *(rule_by_code(code) for code in getattr(rule, "example_rules", ()))]


@pytest.mark.parametrize(("rule", "source"), _cases("valid"))
def test_valid_example_is_silent(rule, source):
    result = lint_text(source, "example.py", _with_companions(rule))
    assert not result.internal_errors
    assert [d for d in result.diagnostics if d.code == rule.code] == []


@pytest.mark.parametrize(("rule", "example"), _cases("invalid"))
def test_invalid_example_fires_and_fixes(rule, example):
    rules = _with_companions(rule)
    settings = example.settings()
    result = lint_text(example.source, "example.py", rules, settings)
    assert not result.internal_errors
    assert any(d.code == rule.code for d in result.diagnostics)
    fixed = fix_text(example.source, "example.py", rules, settings, unsafe_fixes=True)
    assert fixed.failure is None
    if example.fixed is None:
        assert fixed.text == example.source
        return
    assert fixed.text == example.fixed
    compile(example.fixed, "fixed.py", "exec")
    after = lint_text(example.fixed, "fixed.py", rules, settings)
    assert [d for d in after.diagnostics if d.fix] == []
    again = fix_text(fixed.text, "example.py", rules, settings, unsafe_fixes=True)
    assert again.text == fixed.text and not again.applied


@pytest.mark.parametrize(("rule", "source"), _cases("valid"))
def test_valid_example_compiles(rule, source):
    compile(source, "valid.py", "exec")


@pytest.mark.parametrize(("rule", "example"), _cases("invalid"))
def test_messages_are_one_short_sentence(rule, example):
    """A finding's message is one sentence of at most 100 characters; `torchlint rule CODE` has the rest.
    Held for every rule, preview ones included."""
    for diagnostic in lint_text(example.source, "example.py", [rule], example.settings()).diagnostics:
        assert len(diagnostic.message) <= 100, diagnostic.message
        assert "\n" not in diagnostic.message and not re.search(r"[.!?] [A-Z]", diagnostic.message), diagnostic.message


def test_syntax_error_messages_are_one_short_line():
    from torchlint.engine import syntax_error

    reason = "syntax error: " + "a very long parser explanation\nover several lines " * 10
    message = syntax_error("m.py", reason).message
    assert len(message) <= 100 and "\n" not in message and message.startswith("syntax error: a very long")
    assert syntax_error("m.py", "syntax error: invalid syntax").message == "syntax error: invalid syntax"
