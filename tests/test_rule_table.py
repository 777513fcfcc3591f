"""data/rules.json: the rules' selection data, read instead of importing the rules."""

from __future__ import annotations

from torchlint.rules import registry


def test_the_kept_table_is_current():
    """After adding or changing a rule: `python -m torchlint.rules.registry` writes the table."""
    registry._kept_table.cache_clear()
    assert registry._kept_table() == registry.built_table(), "run `python -m torchlint.rules.registry`"


def test_a_table_made_from_other_sources_is_not_used(tmp_path, monkeypatch):
    stale = tmp_path / "rules.json"
    stale.write_text('{"sources": "0123", "rules": [["TL001", "renamed", false, true]]}\n')
    monkeypatch.setattr(registry, "_table_path", lambda: stale)
    registry._kept_table.cache_clear()
    try:
        assert registry._kept_table() is None
        assert registry.rule_table() == registry.built_table()
    finally:
        registry._kept_table.cache_clear()


def test_rules_registered_at_run_time_are_in_the_table(demo_rules):
    """A rule registered at run time (conftest's TL990...) is selectable."""
    codes = {entry.code for entry in registry.rule_table()}
    assert {"TL990", "TL991"} <= codes
