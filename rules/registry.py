"""The rule registry: rules add themselves with `@register`; no hand-kept list.

What selection and the reporters need of each rule (code, name, on by default, in preview) is
also kept in data/rules.json, made from the rules themselves (`python -m torchlint.rules.registry`)
with a digest of the sources it was made from: a run whose files all come from the cache then
never imports the rules (libcst and the analysis, a third of a second). When the sources differ
from the digest (a rule edited in a checkout), the rules are imported and asked instead."""

from __future__ import annotations

import hashlib
import importlib
import json
import pkgutil
from dataclasses import astuple, dataclass
from functools import cache
from pathlib import Path

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


@dataclass(frozen=True)
class RuleEntry:
    code: str
    name: str
    default_enabled: bool
    preview: bool


def rule_table() -> tuple[RuleEntry, ...]:
    """Every rule's entry, sorted by code: from the kept table while no rule has been loaded (a
    rule registered at run time, by a test or a plugin, is in the registry only)."""
    if not _RULES:
        kept = _kept_table()
        if kept is not None:
            return kept
    return built_table()


def built_table() -> tuple[RuleEntry, ...]:
    return tuple(RuleEntry(rule.code, rule.name, rule.default_enabled, rule.preview) for rule in all_rules())


def sources_digest() -> str:
    """The digest of what the entries are made from: the rule modules, the Rule base class, and
    the data files rules read when imported."""
    import torchlint.rule

    here = Path(__file__).resolve().parent
    data = Path(torchlint.rule.__file__).resolve().parent / "data"
    sources = [*sorted(here.glob("*.py")), Path(torchlint.rule.__file__), *sorted(data.glob("*.toml"))]
    digest = hashlib.blake2b(digest_size=16)
    for path in sources:
        digest.update(f"{path.name}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def _kept_table() -> tuple[RuleEntry, ...] | None:
    try:
        kept = json.loads(_table_path().read_text(encoding="utf-8"))
        if kept.get("sources") != sources_digest():
            return None
        return tuple(RuleEntry(*entry) for entry in kept["rules"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _table_path() -> Path:
    import torchlint.rule

    return Path(torchlint.rule.__file__).resolve().parent / "data" / "rules.json"


def write_table() -> Path:
    path = _table_path()
    rows = ",\n".join(f"  {json.dumps(list(astuple(entry)))}" for entry in built_table())
    path.write_text(f'{{"sources": "{sources_digest()}", "rules": [\n{rows}\n]}}\n', encoding="utf-8")
    return path


if __name__ == "__main__":
    # run as a script this module is `__main__`; the rules register with the imported one
    from torchlint.rules import registry

    print(f"wrote {registry.write_table()}")
