"""The rule registry: rules add themselves with `@register`; no hand-kept list."""

from __future__ import annotations

import importlib
import pkgutil

from torchlint.rule import Rule

_RULES: dict[str, type[Rule]] = {}
_loaded = False


def register(rule: type[Rule]) -> type[Rule]:
    if rule.code in _RULES and _RULES[rule.code] is not rule:
        raise ValueError(f"rule code {rule.code} is registered twice")
    _RULES[rule.code] = rule
    return rule


def unregister(code: str) -> None:
    """Remove a rule; for tests that register a rule of their own."""
    _RULES.pop(code, None)


def _load_rule_modules() -> None:
    global _loaded
    if _loaded:
        return
    import torchlint.rules as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name != "registry":
            importlib.import_module(f"{package.__name__}.{module.name}")
    _loaded = True


def all_rules() -> list[type[Rule]]:
    _load_rule_modules()
    return sorted(_RULES.values(), key=lambda rule: rule.code)


def rule_by_code(code: str) -> type[Rule] | None:
    _load_rule_modules()
    return _RULES.get(code.upper())
