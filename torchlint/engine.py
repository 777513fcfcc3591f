"""Lint and fix one source text: prefilter, parse once, run every rule in one traversal,
filter suppressions, and apply fixes until nothing fixable is left."""

from __future__ import annotations

import ast
import gc
import warnings
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache

import libcst as cst

from torchlint import parsing
from torchlint.context import FileContext, LintSettings
from torchlint.diagnostics import Diagnostic, Edit
from torchlint.parsing import ElisionFailed, parse_elided, parse_trusted
from torchlint.rule import Rule
from torchlint.rules.registry import rule_by_code
from torchlint.suppression import filter_suppressed
from torchlint.walk import ElidedBlock, children

MAX_FIX_PASSES = 10


@dataclass(frozen=True)
class InternalError:
    """An exception inside a rule: the rule is skipped for the file, the run exits 2."""

    path: str
    code: str
    message: str


@dataclass
class LintResult:
    diagnostics: list[Diagnostic]
    internal_errors: list[InternalError] = field(default_factory=list)


@dataclass
class FixResult:
    text: str
    remaining: list[Diagnostic]
    applied: Counter = field(default_factory=Counter)  # code -> number of fixes applied
    failure: str | None = None  # why the fixed output was refused; the text is then unchanged
    internal_errors: list[InternalError] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.applied) and self.failure is None


def syntax_error(path: str, reason: str, line: int = 1, column: int = 1) -> Diagnostic:
    rule = rule_by_code("TL000")
    return Diagnostic(
        code=rule.code,
        name=rule.name,
        message=reason,
        path=path,
        line=line,
        column=column,
        end_line=line,
        end_column=column,
        severity=rule.severity,
    )


def _parse(text: str, path: str) -> cst.Module | Diagnostic:
    try:
        return parse_trusted(text)
    except cst.ParserSyntaxError as error:
        python_error = _python_syntax_error(text, path)
        if python_error is not None:
            return python_error
        return syntax_error(path, f"syntax error: {error.message}", error.raw_line, error.raw_column + 1)
    except RecursionError:
        return syntax_error(path, "syntax error: the file nests too deeply to parse")


def _parse_for(candidates: list[type[Rule]], text: str, path: str) -> cst.Module | Diagnostic:
    """The tree the candidate rules need: function bodies without any of their scope tokens are
    left unparsed when every candidate declares its tokens."""
    if all(rule.scope_tokens is not None for rule in candidates):
        tokens = frozenset(token for rule in candidates for token in rule.scope_tokens)
        try:
            module = parse_elided(text, tokens)
        except (cst.ParserSyntaxError, RecursionError):
            module = None  # the whole parse reports it
        if module is not None:
            return module
    return _parse(text, path)


def _python_syntax_error(text: str, path: str) -> Diagnostic | None:
    """CPython's own position and reason, which are more precise than libcst's."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        return syntax_error(path, f"syntax error: {error.msg}", error.lineno or 1, error.offset or 1)
    except (ValueError, RecursionError) as error:
        return syntax_error(path, f"syntax error: {error}")
    return None


def fixed_output_parses(fixed: str, original: str, path: str) -> bool:
    """libcst must parse the output, and so must this Python unless it already rejected the
    original (code written for a newer Python than the one torchlint runs on)."""
    if isinstance(_parse(fixed, path), Diagnostic):
        return False
    return _python_syntax_error(fixed, path) is None or _python_syntax_error(original, path) is not None


_LEAVE = object()


class _Dispatcher:
    """Runs every rule's visit_/leave_ methods in one traversal, keeping the ancestor stack."""

    def __init__(self, ctx: FileContext, rules: list[Rule], errors: list[InternalError]):
        self.ctx = ctx
        self.errors = errors
        self.visitors: dict[type, list] = {}
        self.leavers: dict[type, list] = {}
        for rule in rules:
            for method_name in _handler_names(type(rule)):
                table = self.visitors if method_name.startswith("visit_") else self.leavers
                node_type = getattr(cst, method_name.split("_", 1)[1])
                table.setdefault(node_type, []).append((rule, getattr(rule, method_name)))
        self.failed: set[str] = set()

    def run(self, module: cst.Module) -> None:
        # An explicit stack instead of recursion: long operator chains nest deeper than Python's
        # recursion limit allows. `_LEAVE` marks where a node's children end.
        stack = self.ctx.stack
        visitors, leavers = self.visitors, self.leavers
        pending: list = [module]
        while pending:
            node = pending.pop()
            if node is _LEAVE:
                if leavers:
                    self._call(leavers, stack[-1])
                stack.pop()
                continue
            stack.append(node)
            if type(node) in visitors:
                self._call(visitors, node)
            pending.append(_LEAVE)
            if type(node) is not ElidedBlock:  # no rule can fire in a body left unparsed
                pending.extend(reversed(children(node)))

    def _call(self, table: dict[type, list], node: cst.CSTNode) -> None:
        handlers = table.get(type(node))
        if not handlers:
            return
        for rule, handler in handlers:
            if rule.code in self.failed:
                continue
            try:
                handler(node)
            except ElisionFailed:
                raise  # not the rule's fault: the file is linted again, parsed whole
            except Exception as error:  # a broken rule must not take the file down with it
                self.failed.add(rule.code)
                message = f"{type(error).__name__}: {error}"
                self.errors.append(InternalError(self.ctx.path, rule.code, message))


@cache
def _handler_names(rule_type: type[Rule]) -> tuple[str, ...]:
    return tuple(
        name for name in dir(rule_type)
        if (name.startswith("visit_") or name.startswith("leave_")) and callable(getattr(rule_type, name))
    )


@contextmanager
def _collector_paused():
    """Parsing builds millions of objects in trees without cycles, which reference counting frees
    once the file is done; the cyclic collector would scan them again and again while they are
    built (a tenth of parsing time). It is paused for one file and resumes after the file's trees
    are gone, so it then sees only what outlives the file."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def lint_text(
    text: str, path: str, rules: list[type[Rule]], settings: LintSettings = LintSettings(), prefilter: bool = True
) -> LintResult:
    with _collector_paused():
        return _lint_text(text, path, rules, settings, prefilter)


def _lint_text(text: str, path: str, rules: list[type[Rule]], settings: LintSettings, prefilter: bool) -> LintResult:
    candidates = [rule for rule in rules if rule.could_fire(text)] if prefilter else list(rules)
    if not candidates:
        # No rule can fire, so libcst is skipped; a file that does not parse is still reported.
        if _python_syntax_error(text, path) is None:
            return LintResult([])
        parsed = _parse(text, path)
        return LintResult([parsed] if isinstance(parsed, Diagnostic) else [])
    try:
        return _lint_tree(text, path, candidates, settings, elide=parsing.ELIDE)
    except ElisionFailed:
        return _lint_tree(text, path, candidates, settings, elide=False)


def _lint_tree(text: str, path: str, candidates: list[type[Rule]], settings: LintSettings, elide: bool) -> LintResult:
    module = _parse_for(candidates, text, path) if elide else _parse(text, path)
    if isinstance(module, Diagnostic):
        return LintResult([module])
    ctx = FileContext(module, text, path, settings)
    errors: list[InternalError] = []
    try:
        _Dispatcher(ctx, [rule(ctx) for rule in candidates], errors).run(module)
    finally:
        ctx.release()
    diagnostics = sorted(filter_suppressed(text, ctx.diagnostics), key=Diagnostic.sort_key)
    return LintResult(diagnostics, errors)


def _non_overlapping(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The fixes to apply in one pass: in source order, skipping any that touch a taken span."""
    chosen: list[Diagnostic] = []
    taken: list[Edit] = []
    for diagnostic in diagnostics:
        edits = diagnostic.fix.edits
        if any(_overlaps(edit, other) for edit in edits for other in taken):
            continue
        chosen.append(diagnostic)
        taken.extend(edits)
    return chosen


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.start == a.end == b.start == b.end:
        return True  # two insertions at one point: their order would be arbitrary
    return a.start < b.end and b.start < a.end


def apply_edits(text: str, edits: list[Edit]) -> str:
    pieces = []
    cursor = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.content)
        cursor = edit.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def fix_text(
    text: str,
    path: str,
    rules: list[type[Rule]],
    settings: LintSettings = LintSettings(),
    unsafe_fixes: bool = False,
) -> FixResult:
    """Apply fixes pass after pass; refuse the whole result if any pass's output does not parse."""
    original = text
    applied: Counter = Counter()
    errors: list[InternalError] = []
    for _ in range(MAX_FIX_PASSES):
        result = lint_text(text, path, rules, settings)
        errors.extend(result.internal_errors)
        fixable = [d for d in result.diagnostics if d.fix and d.fix.is_enabled(unsafe_fixes)]
        if not fixable:
            return FixResult(text, result.diagnostics, applied, None, errors)
        chosen = _non_overlapping(fixable)
        candidate = apply_edits(text, [edit for d in chosen for edit in d.fix.edits])
        if candidate == text or not fixed_output_parses(candidate, text, path):
            codes = ", ".join(sorted({d.code for d in chosen}))
            failure = f"a fix for {codes} produced output that does not parse; the file was left unchanged"
            if candidate == text:
                failure = f"a fix for {codes} did not change the file; the file was left unchanged"
            original_result = lint_text(original, path, rules, settings)
            return FixResult(original, original_result.diagnostics, Counter(), failure, errors)
        applied.update(d.code for d in chosen)
        text = candidate
    remaining = lint_text(text, path, rules, settings)
    return FixResult(text, remaining.diagnostics, applied, None, errors + remaining.internal_errors)
