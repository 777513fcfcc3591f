"""What a rule is: metadata, docs, examples, trigger tokens and a visitor over one shared tree.

Rules live in `torchlint.rules`, one module each, and register themselves with
`torchlint.rules.registry.register`.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from torchlint.diagnostics import Applicability, Severity

if TYPE_CHECKING:
    import libcst as cst

    from torchlint.context import FileContext
    from torchlint.uses import FileUses

DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "References")


def call_patterns(*names: str) -> tuple[re.Pattern, ...]:
    """Trigger patterns of a rule that flags calls of `names` reached through the imports: a file
    can only call one where it writes the call (`exp(`, `exp (`) or imports it under an alias
    (`exp as e`)."""
    return tuple(re.compile(rf"{re.escape(name)}(?:\s*\(|\s+as\s)") for name in names)


def call_tokens(*names: str) -> tuple[str, ...]:
    """Scope tokens of a rule that only visits calls of torch functions named `names`: a body that
    calls one through a module reads the attribute (`.load`, matched however the dot and the call
    are spaced: `torch.load  (p)`, `th.\\\n load(p)`); a body that calls it by a name imported
    from torch (`from torch import load as tload`) is kept by the elision, which adds that name."""
    return tuple(f".{name}" for name in names)


@dataclass(frozen=True)
class Invalid:
    """Source the rule must flag; `fixed` is the source after `--fix --unsafe-fixes` (None: no fix)."""

    source: str
    fixed: str | None = None
    # The torch version the example targets (`--target-torch`), when it is not the default.
    target_torch: tuple[int, ...] | None = None

    def settings(self):
        from torchlint.context import LintSettings

        return LintSettings(target_torch=self.target_torch) if self.target_torch else LintSettings()


@dataclass(frozen=True)
class FixSpec:
    """A fix as a rule states it: node replacements, turned into text edits by the context."""

    applicability: Applicability
    message: str
    replacements: tuple[tuple[cst.CSTNode, cst.CSTNode], ...]


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    severity: ClassVar[Severity] = "warning"
    default_enabled: ClassVar[bool] = True
    # A rule in preview runs only when preview is on (`--preview`, `preview = true`), selected or
    # not, until a release promotes it. New rules start there; a released rule declares False.
    preview: ClassVar[bool] = True
    # The applicabilities this rule's fixes can have: () none, ("safe",), ("unsafe",) or both.
    fix_safety: ClassVar[tuple[Applicability, ...]] = ()
    # Literal substrings without which the rule cannot fire; a file with none is never parsed.
    trigger_tokens: ClassVar[tuple[str, ...]] = ()
    # Optionally, patterns of which the file must also match one (checked only when a token is
    # present). Each should start with a literal: the regex engine then scans for it as fast as `in`.
    trigger_patterns: ClassVar[tuple[re.Pattern, ...]] = ()
    # The prefilter's second step, asked where the project index walked the file's CPython tree
    # (`torchlint.uses`): qualified names of which the file must call one (through its imports, as
    # `ctx.qualify` reads them; a bare decorator counts as a call), and attribute names of which
    # it must use one, for the rule to fire. Names in strings and comments do not count.
    trigger_calls: ClassVar[frozenset[str]] = frozenset()
    trigger_attributes: ClassVar[frozenset[str]] = frozenset()
    # Literal substrings without which a function's body can hold no finding of this rule and
    # nothing its visitors react to. In a file where every candidate rule declares them, the bodies
    # of functions with none of them (nor a name one is imported under) are not parsed, and the
    # rule walk skips them. None: any function may matter, and the file is parsed whole.
    scope_tokens: ClassVar[tuple[str, ...] | None] = None
    valid: ClassVar[tuple[str, ...]] = ()
    invalid: ClassVar[tuple[Invalid, ...]] = ()

    def __init__(self, ctx: FileContext):
        self.ctx = ctx

    @classmethod
    def could_fire(cls, text: str) -> bool:
        if not any(token in text for token in cls.trigger_tokens):
            return False
        patterns = cls.trigger_patterns
        return not patterns or any(pattern.search(text) is not None for pattern in patterns)

    @classmethod
    def could_fire_in(cls, uses: FileUses) -> bool:
        """False when the file's code cannot hold a finding: it calls none of `trigger_calls`, or
        uses none of `trigger_attributes`. A rule with another such condition overrides this."""
        if cls.trigger_calls and uses.calls.isdisjoint(cls.trigger_calls):
            return False
        return not cls.trigger_attributes or not uses.attributes.isdisjoint(cls.trigger_attributes)

    @classmethod
    def docs(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def state(cls) -> str:
        return "preview" if cls.preview else "stable"

    @classmethod
    def fix_label(cls) -> str:
        return "/".join(cls.fix_safety) if cls.fix_safety else "none"

    def report(self, node: cst.CSTNode, message: str, fix: FixSpec | None = None) -> None:
        self.ctx.report(self, node, message, fix)

    @staticmethod
    def replace(
        old: cst.CSTNode,
        new: cst.CSTNode,
        message: str,
        applicability: Applicability = "safe",
    ) -> FixSpec:
        return FixSpec(applicability, message, ((old, new),))
