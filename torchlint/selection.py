"""Which rules run: `select`, `extend-select` and `ignore`, by code, prefix or `ALL`; rules in
preview only when preview is on (ruff's model: upgrading never adds findings to a passing gate)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from torchlint.rule import Rule
from torchlint.rules.registry import all_rules, rule_table
from torchlint.torchfix_codes import is_torchfix_selector, torchfix_codes

ALWAYS_ON = "TL000"  # syntax-error: reported by the engine, never deselected


class SelectionError(ValueError):
    pass


def selectable_rules() -> list[type[Rule]]:
    return [rule for rule in all_rules() if rule.code != ALWAYS_ON]


def selectable_entries():
    """The selectable rules' entries (registry.rule_table): what selection needs, without
    importing the rules."""
    return [entry for entry in rule_table() if entry.code != ALWAYS_ON]


def expand(selectors: Iterable[str], where: str = "") -> set[str]:
    """The codes named by each selector; an unknown one is an error naming it. TorchFix's codes and
    prefixes (`TOR102`, `TOR1`) name the torchlint rules that replace them."""
    codes = {entry.code for entry in rule_table()}
    chosen: set[str] = set()
    for raw in selectors:
        selector = raw.strip().upper()
        if selector == "ALL":
            chosen |= codes
            continue
        if is_torchfix_selector(selector) and torchfix_codes(selector) is not None:
            chosen |= torchfix_codes(selector) & codes
            continue
        matching = {code for code in codes if code.startswith(selector)} if selector else set()
        if not matching:
            suffix = f" in {where}" if where else ""
            raise SelectionError(f"unknown rule code or prefix `{raw}`{suffix}")
        chosen |= matching
    return chosen - {ALWAYS_ON}


@dataclass(frozen=True)
class SelectionLayer:
    """One source of selection settings: the config file, then the command line on top."""

    select: Sequence[str] | None = None
    extend_select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    where: str = ""


def enabled_codes(layers: Iterable[SelectionLayer], preview: bool = False) -> frozenset[str]:
    enabled = {entry.code for entry in selectable_entries() if entry.default_enabled}
    for layer in layers:
        if layer.select is not None:
            enabled = expand(layer.select, layer.where)
        enabled |= expand(layer.extend_select, layer.where)
        enabled -= expand(layer.ignore, layer.where)
    if not preview:
        enabled -= preview_codes()
    return frozenset(enabled)


def preview_codes() -> set[str]:
    return {entry.code for entry in selectable_entries() if entry.preview}


def parse_selector_list(value: str | None) -> list[str] | None:
    """`TL001,TL005` from a command-line flag."""
    if value is None:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]
