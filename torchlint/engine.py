"""Lint and fix one source text: prefilter, parse once, run every rule in one traversal,
filter suppressions, and apply fixes until nothing fixable is left."""

from __future__ import annotations

import ast
import sys
import warnings
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import libcst as cst

from torchlint import collector, legacy, parsing, uses as code_uses
from torchlint.context import FileContext, LintSettings
from torchlint.diagnostics import Diagnostic, Edit
from torchlint.parsing import ElisionFailed, parse_elided, parse_trusted
from torchlint.project.index import ProjectIndex
from torchlint.rule import Rule
from torchlint.rules.registry import rule_by_code
from torchlint.suppression import UNUSED_NOQA, filter_suppressed, unused_noqa
from torchlint.walk import LEAVES, ElidedBlock, children

MAX_FIX_PASSES = 10


@dataclass(frozen=True)
class InternalError:
    """An exception inside a rule: the rule is skipped for the file, the run exits 2."""

    path: str
    code: str
    message: str


class FileSkipped(Exception):
    """A file CPython accepts that torchlint cannot analyse: reported as skipped, with the reason."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class LintResult:
    diagnostics: list[Diagnostic]
    internal_errors: list[InternalError] = field(default_factory=list)
    consulted: frozenset[str] = frozenset()  # the project modules whose summaries answers used
    skipped: str | None = None  # why the file could not be analysed
    used_noqa: frozenset[tuple[int, str]] = frozenset()  # (line, code) of the findings noqa hid


@dataclass
class FixResult:
    text: str
    remaining: list[Diagnostic]
    applied: Counter = field(default_factory=Counter)  # code -> number of fixes applied
    failure: str | None = None  # why the fixed output was refused; the text is then unchanged
    internal_errors: list[InternalError] = field(default_factory=list)
    skipped: str | None = None

    @property
    def changed(self) -> bool:
        return bool(self.applied) and self.failure is None


def _one_line(reason: str, limit: int = 100) -> str:
    """A parser's reason as one line of at most `limit` characters (the position says the rest)."""
    line = " ".join(reason.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def syntax_error(path: str, reason: str, line: int = 1, column: int = 1) -> Diagnostic:
    rule = rule_by_code("TL000")
    return Diagnostic(
        code=rule.code,
        name=rule.name,
        message=_one_line(reason),
        path=path,
        line=line,
        column=column,
        end_line=line,
        end_column=column,
        severity=rule.severity,
    )


def _parse(text: str, path: str) -> cst.Module:
    """libcst's tree of a file CPython accepts; raises `FileSkipped` when libcst cannot build it."""
    try:
        return parse_trusted(text)
    except cst.ParserSyntaxError as error:
        raise FileSkipped(f"libcst cannot parse it ({error.message.strip()})") from None


def _parse_for(candidates: list[type[Rule]], text: str, path: str) -> cst.Module:
    """The tree the candidate rules need: function bodies without any of their scope tokens are
    left unparsed when every candidate declares its tokens."""
    if all(rule.scope_tokens is not None for rule in candidates):
        tokens = frozenset(token for rule in candidates for token in rule.scope_tokens)
        try:
            module = parse_elided(text, tokens)
        except cst.ParserSyntaxError:
            module = None  # the whole parse reports it
        if module is not None:
            return module
    return _parse(text, path)


def _python_syntax_error(text: str, path: str) -> Diagnostic | None:
    """TL000 when CPython rejects the file, with CPython's position and reason; None when it
    accepts it. The one place that decides whether a file parses: what CPython rejects is TL000
    whatever libcst makes of it, and libcst never sees it (its native parser can crash on input
    CPython refuses cleanly, such as thousands of nested parentheses)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = compile(text, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        return syntax_error(path, f"syntax error: {error.msg}", error.lineno or 1, error.offset or 1)
    except (RecursionError, MemoryError):
        return syntax_error(path, "syntax error: the file nests too deeply to parse")
    except ValueError as error:
        return syntax_error(path, f"syntax error: {error}")
    parsing.remember_python_tree(text, tree)  # the elided parse outlines the file from it
    return None


def fixed_output_parses(fixed: str, original: str, path: str) -> bool:
    """CPython and libcst must both parse the output (libcst as the linter gives it a file: without
    the form feeds that start lines of code, which CPython ignores and libcst cannot take)."""
    if _python_syntax_error(fixed, path) is not None:
        return False
    parsing.forget_python_tree()
    try:
        parse_trusted(parsing.LibcstView.of(fixed).text)
    except (cst.ParserSyntaxError, RecursionError):
        return False
    return True


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
            node_type = type(node)
            if node_type in visitors:
                self._call(visitors, node)
            if node_type in LEAVES:  # a name, a number, a string: left at once, nothing below
                if node_type in leavers:
                    self._call(leavers, node)
                stack.pop()
                continue
            pending.append(_LEAVE)
            if node_type is not ElidedBlock:  # no rule can fire in a body left unparsed
                pending.extend(reversed(children(node)))

    def _call(self, table: dict[type, list], node: cst.CSTNode) -> None:
        handlers = table.get(type(node))
        if not handlers:
            return
        for rule, handler in handlers:
            if rule.code in self.failed:
                continue
            self.ctx._evidence = None  # a note belongs to the kinds asked while handling this node
            try:
                handler(node)
            except (ElisionFailed, RecursionError):
                raise  # not the rule's fault: the file is parsed whole, or skipped as too deep
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


# Deep expressions (a long `a + b + ...` chain) recurse once per operand in libcst's codegen. The
# usual limit of 1000 stops at a few hundred operands; this one lets the longest chains CPython
# compiles be linted, and stays well inside the 8 MB stack of a main thread or worker.
RECURSION_LIMIT = 10_000


@contextmanager
def _deep_recursion():
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


def lint_text(
    text: str, path: str, rules: list[type[Rule]], settings: LintSettings = LintSettings(), prefilter: bool = True,
    project: ProjectIndex | None = None,
) -> LintResult:
    """`project`: the index of the file's project (None: the file is its own project)."""
    with collector.paused():
        try:
            return _lint_checked(text, path, rules, settings, prefilter, project)
        finally:
            parsing.forget_python_tree()


def _lint_checked(text: str, path: str, rules: list[type[Rule]], settings: LintSettings, prefilter: bool,
                  project: ProjectIndex | None) -> LintResult:
    # CPython is asked at the usual recursion limit: under a higher one its compiler would recurse
    # deeper in C on a file it rejects today, and could overflow the stack.
    unused_noqa_rule = next((rule for rule in rules if rule.code == UNUSED_NOQA), None)
    visitor_rules = [rule for rule in rules if rule.code != UNUSED_NOQA]
    candidates = [rule for rule in visitor_rules if rule.could_fire(text)] if prefilter else visitor_rules
    # The project index parsed this very text when it summarised it: CPython accepted it, and
    # the outline it made then is what the elided parse and the import table need. A file no
    # rule can fire in needs only that syntax check.
    resolved = str(Path(path).resolve()) if project is not None else ""
    outline = project.outline_of(resolved, text) if project is not None and candidates else None
    if outline is not None:
        parsing.remember_outline(text, outline)
        uses = code_uses.FileUses.of(outline) if prefilter and code_uses.PREFILTER else None
        if uses is not None:
            candidates = [rule for rule in candidates if rule.could_fire_in(uses)]
    elif candidates or project is None or not project.accepts(resolved, text):
        python_error = _python_syntax_error(text, path)
        if python_error is not None:
            return _lint_legacy(text, path, rules, settings, prefilter, project, python_error)
    if not candidates:
        result = LintResult([])  # no rule can fire, so libcst is skipped
    else:
        with _deep_recursion():
            try:
                result = _lint_text(text, path, candidates, settings, project)
            except FileSkipped as skip:
                result = _lint_expanded(text, path, candidates, settings, project)
                if result is None:
                    return LintResult([], skipped=skip.reason)
            except RecursionError:
                return LintResult([], skipped="it nests too deeply for torchlint to analyse")
    if unused_noqa_rule is not None:
        _add_unused_noqa(result, text, path, unused_noqa_rule, {rule.code for rule in visitor_rules})
    return result


def _lint_expanded(text: str, path: str, candidates: list[type[Rule]], settings: LintSettings,
                   project: ProjectIndex | None) -> LintResult | None:
    """A file libcst cannot parse for its mix of tabs and spaces in indentation, linted with the
    tabs expanded as CPython reads them: findings without fixes (None: that does not help)."""
    expanded = parsing.ExpandedIndentation.of(text)
    if expanded is None:
        return None
    try:
        result = _lint_text(expanded.text, path, candidates, settings, project)
    except FileSkipped:
        return None
    result.diagnostics = [expanded.restore(diagnostic) for diagnostic in result.diagnostics]
    return result


def _lint_legacy(text: str, path: str, rules: list[type[Rule]], settings: LintSettings, prefilter: bool,
                 project: ProjectIndex | None, python_error: Diagnostic) -> LintResult:
    """A file written for an older Python (`x.cuda(async=True)`, `print loss.data[0]`) is still
    reported as a syntax error, and linted as that Python read it: its findings are reported
    without fixes (the file cannot be written back parsed)."""
    reading = legacy.readable(text)
    if reading is None:
        return LintResult([python_error])
    readable_text, how = reading
    notice = replace(python_error, message=f"{python_error.message}: {how}")
    result = _lint_checked(readable_text, path, rules, settings, prefilter, project)
    result.diagnostics = [notice] + [replace(diagnostic, fix=None) for diagnostic in result.diagnostics]
    return result


def _add_unused_noqa(result: LintResult, text: str, path: str, rule, ran: set[str]) -> None:
    """TL900 from what the suppressions hid; a rule that failed on the file may have needed its noqa."""
    judged = ran - {error.code for error in result.internal_errors}
    found = filter_suppressed(text, unused_noqa(text, path, set(result.used_noqa), judged, rule))
    if found:
        result.diagnostics = sorted(result.diagnostics + found, key=Diagnostic.sort_key)


def _lint_text(text: str, path: str, candidates: list[type[Rule]], settings: LintSettings,
               project: ProjectIndex | None) -> LintResult:
    too_deep = parsing.beyond_native_parser(text)
    if too_deep:
        raise FileSkipped(too_deep)
    view = parsing.LibcstView.of(text)
    try:
        result = _lint_tree(view.text, path, candidates, settings, project, elide=parsing.ELIDE)
    except ElisionFailed:
        try:
            result = _lint_tree(view.text, path, candidates, settings, project, elide=False)
        except ElisionFailed:
            result = _lint_without_trailing_lines(view.text, path, candidates, settings, project)
    result.diagnostics = [view.restore(diagnostic) for diagnostic in result.diagnostics]
    return result


def _lint_without_trailing_lines(text, path, candidates, settings, project) -> LintResult:
    """libcst loses some of a file's last blank or comment lines when one of them is indented
    (`x\n\n  \n`), so its tree does not render to the text; those lines hold no code and are
    left out of the tree (not of the `# noqa` comments)."""
    try:
        return _lint_tree(_without_trailing_lines(text), path, candidates, settings, project, elide=False,
                          full_text=text)
    except ElisionFailed:
        raise FileSkipped("libcst does not reproduce the file's text") from None


def _without_trailing_lines(text: str) -> str:
    """`text` up to the end of the line where its last statement ends."""
    body = ast.parse(text).body
    if not body:
        return ""
    line_ends = [match.end() for match in parsing._NEWLINE.finditer(text)]
    last_line = body[-1].end_lineno
    return text[: line_ends[last_line - 1]] if last_line <= len(line_ends) else text


def _lint_tree(text: str, path: str, candidates: list[type[Rule]], settings: LintSettings,
               project: ProjectIndex | None, elide: bool, full_text: str | None = None) -> LintResult:
    module = _parse_for(candidates, text, path) if elide else _parse(text, path)
    ctx = FileContext(module, text, path, settings, project)
    errors: list[InternalError] = []
    try:
        _Dispatcher(ctx, [rule(ctx) for rule in candidates], errors).run(module)
    finally:
        ctx.release()
    kept = filter_suppressed(full_text or text, ctx.diagnostics)
    shown = {id(diagnostic) for diagnostic in kept}
    hidden = frozenset((d.line, d.code) for d in ctx.diagnostics if id(d) not in shown)
    return LintResult(sorted(kept, key=Diagnostic.sort_key), errors, ctx.consulted_modules(), used_noqa=hidden)


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
    project: ProjectIndex | None = None,
) -> FixResult:
    """Apply fixes pass after pass; refuse the whole result if any pass's output does not parse."""
    original = text
    applied: Counter = Counter()
    errors: list[InternalError] = []
    for _ in range(MAX_FIX_PASSES):
        result = lint_text(text, path, rules, settings, project=project)
        errors.extend(result.internal_errors)
        if result.skipped:
            return _skipped_after_fixes(original, path, rules, settings, errors, result.skipped, project)
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
            original_result = lint_text(original, path, rules, settings, project=project)
            return FixResult(original, original_result.diagnostics, Counter(), failure, errors)
        applied.update(d.code for d in chosen)
        text = candidate
    remaining = lint_text(text, path, rules, settings, project=project)
    if remaining.skipped:
        return _skipped_after_fixes(original, path, rules, settings, errors, remaining.skipped, project)
    return FixResult(text, remaining.diagnostics, applied, None, errors + remaining.internal_errors)


def _skipped_after_fixes(original, path, rules, settings, errors, reason: str, project=None) -> FixResult:
    """The file (or what fixes made of it) cannot be analysed: nothing is written."""
    result = lint_text(original, path, rules, settings, project=project)
    if result.skipped:
        return FixResult(original, [], Counter(), None, errors, result.skipped)
    failure = f"the fixed file could not be analysed ({reason}); the file was left unchanged"
    return FixResult(original, result.diagnostics, Counter(), failure, errors)
