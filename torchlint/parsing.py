"""Source text to libcst tree: the trusted parse, and the elided parse that leaves out the bodies of
functions no candidate rule can look at.

libcst parses about 0.4 MB/s; most of a large file's functions hold none of the tokens the rules
that passed the prefilter react to. The elided parse finds every function with CPython's parser
(twenty times faster), replaces the bodies without such a token (and without an import or class
statement, which the shared analysis reads up front) by a one-line placeholder, parses
that reduced text with libcst, and puts an `ElidedBlock` where each placeholder stands. The rule
walk skips elided bodies; any analysis that reads one (a class's `forward`, the methods assigning
an attribute, a whole-file search) parses it then, from the original text, so every analysis sees
the tree a whole parse gives. Positions and fixes render an unparsed body as its original text.
"""

from __future__ import annotations

import ast
import re
import threading
from functools import lru_cache
import warnings
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field

import libcst as cst

from torchlint.diagnostics import Diagnostic, Edit
from torchlint.outline import FunctionShape, Outline
from torchlint.walk import ElidedBlock

TRUST_PARSER = True  # off only in tests that compare results with and without it
ELIDE = True  # off only in tests that compare results with and without it

_TRUSTED_PARSE = threading.Lock()


def parse_trusted(text: str) -> cst.Module:
    """libcst validates every node it constructs, a quarter of parsing time; nodes its own parser
    builds are valid by construction. Validation is off only while parsing (under a lock, so no
    other thread builds nodes meanwhile); fixes build nodes with validation, and their output is
    parsed again before anything is written."""
    if not TRUST_PARSER:
        return cst.parse_module(text)
    with _TRUSTED_PARSE:
        validate = cst.CSTNode.__post_init__
        cst.CSTNode.__post_init__ = _no_validation
        try:
            return cst.parse_module(text)
        finally:
            cst.CSTNode.__post_init__ = validate


def _no_validation(node: cst.CSTNode) -> None:
    pass


# libcst's native parser nests one call per operand of a boolean chain; past several thousand
# (`a and b and ...`, which CPython compiles as one flat node) it overflows the C stack and
# the process dies. Such a file is skipped instead.
MAX_BOOLEAN_OPERANDS = 4000


def beyond_native_parser(text: str) -> str | None:
    """Why libcst's native parser cannot be given this file (CPython accepts it), or None."""
    if text.count("and") + text.count("or") < MAX_BOOLEAN_OPERANDS:
        return None  # the cheap bound: not enough operators for a chain that long
    tree = _python_tree(text)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.BoolOp) and len(node.values) > MAX_BOOLEAN_OPERANDS:
            return f"a boolean expression of {len(node.values)} operands is beyond libcst's parser"
    return None


_CODE_AFTER_FORM_FEED = re.compile(r"^\x0c+(?=[^\r\n])", re.MULTILINE)


@dataclass(frozen=True)
class LibcstView:
    """The text given to libcst, which drops two things CPython accepts: form feeds that start a
    line of code (CPython ignores them for indentation) and a lone \r ending the file. The view
    leaves those out (the final \r becomes \n, so offsets keep), and `restore` moves findings
    and fix edits back onto the original text, where fixes are applied."""

    text: str
    removed: dict[int, int] = dataclass_field(default_factory=dict)  # line -> form feeds removed at its start
    line_offsets: tuple[tuple[int, int], ...] = ()  # (view offset of such a line, removed up to it)

    @classmethod
    def of(cls, text: str) -> LibcstView:
        view = text[:-1] + "\n" if text.endswith("\r") else text
        if "\x0c" not in view:
            return cls(view)
        removed, offsets, pieces, cursor, total = {}, [], [], 0, 0
        for match in _CODE_AFTER_FORM_FEED.finditer(view):
            line = view.count("\n", 0, match.start()) + view.count("\r", 0, match.start()) - view.count(
                "\r\n", 0, match.start()) + 1
            pieces.append(view[cursor : match.start()])
            cursor = match.end()
            removed[line] = match.end() - match.start()
            offsets.append((match.start() - total, total + removed[line]))
            total += removed[line]
        if not removed:
            return cls(view)
        pieces.append(view[cursor:])
        return cls("".join(pieces), removed, tuple(offsets))

    def _offset(self, offset: int) -> int:
        shift = 0
        for line_start, removed in self.line_offsets:
            if line_start > offset:
                break
            shift = removed
        return offset + shift

    def _edit(self, edit: Edit) -> Edit:
        return replace(
            edit, start=self._offset(edit.start), end=self._offset(edit.end),
            column=edit.column + self.removed.get(edit.line, 0),
            end_column=edit.end_column + self.removed.get(edit.end_line, 0),
        )

    def restore(self, diagnostic: Diagnostic) -> Diagnostic:
        if not self.removed:
            return diagnostic
        fix = diagnostic.fix
        if fix is not None:
            fix = replace(fix, edits=tuple(self._edit(edit) for edit in fix.edits))
        return replace(
            diagnostic, fix=fix,
            column=diagnostic.column + self.removed.get(diagnostic.line, 0),
            end_column=diagnostic.end_column + self.removed.get(diagnostic.end_line, 0),
        )


_LEADING_TABS = re.compile(r"^[ \t]*\t[ \t]*", re.MULTILINE)


@dataclass(frozen=True)
class ExpandedIndentation:
    """A file whose indentation mixes tabs and spaces in a way CPython accepts and libcst's parser
    does not ("no matching outer block for dedent"): the text with each line's leading tabs
    expanded as CPython reads them (to the next multiple of eight columns), and how many columns
    each changed line grew, to move findings back. Lines keep their numbers; nothing is fixed
    through it (an edit would mix the two indentations further)."""

    text: str
    grown: dict[int, int]  # line -> columns its indentation grew

    @classmethod
    def of(cls, text: str) -> ExpandedIndentation | None:
        grown: dict[int, int] = {}

        def expand(match: re.Match) -> str:
            expanded = match.group().expandtabs(8)
            grown[text.count("\n", 0, match.start()) + 1] = len(expanded) - len(match.group())
            return expanded

        expanded = _LEADING_TABS.sub(expand, text)
        return cls(expanded, grown) if grown else None

    def restore(self, diagnostic: Diagnostic) -> Diagnostic:
        return replace(
            diagnostic, fix=None,
            column=max(0, diagnostic.column - self.grown.get(diagnostic.line, 0)),
            end_column=max(0, diagnostic.end_column - self.grown.get(diagnostic.end_line, 0)),
        )


class ElisionFailed(Exception):
    """An elided body could not be parsed back into the tree a whole parse gives; the file is then
    parsed whole. Raised through rule code, which must let it pass."""


# Bodies shorter than this are parsed in place: a placeholder would save nothing.
MIN_ELIDED_CHARACTERS = 200
_NEWLINE = re.compile(r"\r\n?|\n")
_MARKER = "__torchlint_elided_"


@dataclass(frozen=True)
class _Region:
    """One function body in the original text: from the line after its header to the end of its
    last line."""

    def_line: int  # offset of the start of the line holding `def`
    start: int
    end: int
    indentation: str  # of the body's first line
    newline: str  # that ends the body's last line ("" at the end of a file without one)


def parse_elided(text: str, tokens: frozenset[str]) -> cst.Module | None:
    """The file's tree with the bodies of functions that contain none of `tokens` left unparsed;
    None when nothing is worth leaving out (or CPython cannot parse the file): parse it whole."""
    outline = outline_of(text) if _MARKER not in text else None  # a placeholder must be unmistakable
    if outline is None:
        return None
    tokens = tokens | outline.aliases_of(tokens)
    line_starts = [0] + [match.end() for match in _NEWLINE.finditer(text)]
    regions = _elidable_regions(outline, text, line_starts, tokens)
    if not regions:
        return None
    module = parse_trusted(_reduced_text(text, regions))
    if _install_elided_blocks(module, text, regions) != len(regions):
        raise ElisionFailed("a placeholder was not found where its body was")
    return module


# What the engine knows of the file it lints, so that the same text is not parsed again: the
# tree CPython built when it checked that the file parses, or the outline the project index made
# of the same text. Held for one file only (`forget_python_tree`), and per thread: `verify` and
# the language server lint files on several threads at once, and one thread's file must never
# see another's tree (or lose its own halfway through a look-up).
class _HeldForFile(threading.local):
    tree: tuple[str, ast.Module] | None = None
    outline: tuple[str, Outline] | None = None


_held = _HeldForFile()


def remember_python_tree(text: str, tree: ast.Module) -> None:
    _held.tree = (text, tree)


def remember_outline(text: str, outline: Outline) -> None:
    _held.outline = (text, outline)


def forget_python_tree() -> None:
    _held.tree = _held.outline = None


def python_tree(text: str) -> ast.Module | None:
    """CPython's tree of `text`: the one the engine checked it with, else parsed now; None when
    CPython rejects it."""
    return _python_tree(text)


def outline_of(text: str) -> Outline | None:
    """The outline of `text` the engine was given or made before, else made now from CPython's
    tree; None when CPython rejects the text."""
    known = _held.outline
    if known is not None and known[0] is text:
        return known[1]
    tree = _python_tree(text)
    if tree is None:
        return None
    outline = Outline.of(tree)
    _held.outline = (text, outline)
    return outline


def _python_tree(text: str) -> ast.Module | None:
    checked = _held.tree
    if checked is not None and checked[0] is text:
        return checked[1]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _elidable_regions(outline: Outline, text: str, line_starts: list[int], tokens: frozenset[str]) -> list[_Region]:
    """The bodies to leave unparsed: outer ones first; a body holding a class statement is kept
    (the class index reads every class of the file from libcst's tree up front)."""
    regions: list[_Region] = []
    for function in outline.functions:
        if regions and line_starts[function.line - 1] < regions[-1].end:
            continue  # inside a body already left out
        region = _body_region(function, text, line_starts)
        if (
            region is not None
            and region.end - region.start >= MIN_ELIDED_CHARACTERS
            and not outline.holds_class(function.line, function.end_line)
            and not _holds_token(text[region.start : region.end], tokens)
        ):
            regions.append(region)
    return regions


def _holds_token(body: str, tokens: frozenset[str]) -> bool:
    words, attributes = _split_tokens(tokens)
    return any(word in body for word in words) or (attributes is not None and attributes.search(body) is not None)


@lru_cache(maxsize=64)
def _split_tokens(tokens: frozenset[str]) -> tuple[tuple[str, ...], re.Pattern | None]:
    """Words, found as written; and what finds an attribute token (`.data`) however its dot is
    spaced (`p. data`, `x.\\\n data`), which Python allows."""
    words = tuple(token for token in tokens if not token.startswith("."))
    attributes = sorted(re.escape(token[1:]) for token in tokens if token.startswith("."))
    return words, re.compile(r"\.[\s\\]*(?:" + "|".join(attributes) + ")") if attributes else None


def _body_region(function: FunctionShape, text: str, line_starts: list[int]) -> _Region | None:
    """The body's text, when it is an indented block on lines of its own."""
    def_line = line_starts[function.line - 1]
    if not text[def_line : def_line + 64].lstrip().startswith(("def", "async")):
        return None
    first_line = function.body_line
    line_start = line_starts[first_line - 1]
    line = text[line_start : line_starts[first_line] if first_line < len(line_starts) else len(text)]
    indentation = line[: len(line) - len(line.lstrip(" \t\f"))]
    begins_line = (line.lstrip(" \t\f").startswith("@") if function.body_decorated
                   else len(indentation) == function.body_column)
    if not begins_line or not indentation:
        return None  # `def f(): return x`, or a body on the header's last line
    # Comment and blank lines between the header and the first statement belong to the body.
    header_end = first_line - 1
    while header_end > function.line and _blank_or_comment(text, line_starts, header_end):
        header_end -= 1
    if text[line_starts[header_end - 1] : line_starts[header_end]].rstrip("\r\n").endswith("\\"):
        return None  # `def f(x): \` joins the next line: the body is on the header's logical line
    end = line_starts[function.end_line] if function.end_line < len(line_starts) else len(text)
    body = text[line_starts[header_end] : end]
    newline = next((ending for ending in ("\r\n", "\n", "\r") if body.endswith(ending)), "")
    return _Region(def_line, line_starts[header_end], end, indentation, newline)


def _blank_or_comment(text: str, line_starts: list[int], line: int) -> bool:
    content = text[line_starts[line - 1] : line_starts[line]].strip()
    return not content or content.startswith("#")


def _reduced_text(text: str, regions: list[_Region]) -> str:
    pieces, cursor = [], 0
    for index, region in enumerate(regions):
        pieces.append(text[cursor : region.start])
        pieces.append(f"{region.indentation}{_MARKER}{index}{region.newline}")
        cursor = region.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _install_elided_blocks(module: cst.Module, text: str, regions: list[_Region]) -> int:
    """Swap each placeholder body for an ElidedBlock; returns how many were swapped.

    The tree was just built and nothing else holds it, so the function nodes are updated in place
    rather than rebuilt with every ancestor."""
    installed = 0
    pending: list[cst.CSTNode] = list(module.body)
    while pending:
        statement = pending.pop()
        index = _placeholder_index(statement)
        if index is not None:
            source = _ElidedBody(text, regions[index], module.default_indent, module.default_newline)
            object.__setattr__(statement, "body", ElidedBlock.standing_for(statement.body, source))
            installed += 1
            continue
        pending.extend(_nested_statements(statement))
    return installed


def _placeholder_index(statement: cst.CSTNode) -> int | None:
    if not (isinstance(statement, cst.FunctionDef) and isinstance(statement.body, cst.IndentedBlock)):
        return None
    if len(statement.body.body) != 1:
        return None
    line = statement.body.body[0]
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr)):
        return None
    value = line.body[0].value
    if isinstance(value, cst.Name) and value.value.startswith(_MARKER):
        return int(value.value[len(_MARKER) :])
    return None


def _nested_statements(statement: cst.CSTNode) -> list[cst.CSTNode]:
    nested = []
    for suite in _suites(statement):
        if isinstance(suite, cst.IndentedBlock):
            nested.extend(suite.body)
    return nested


def _suites(statement: cst.CSTNode):
    body = getattr(statement, "body", None)
    if isinstance(body, cst.BaseSuite):
        yield body
    for clause in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
        yield clause.body
    orelse = getattr(statement, "orelse", None)
    while orelse is not None:  # an `elif` chain is an If in `orelse`
        yield orelse.body
        orelse = getattr(orelse, "orelse", None)
    finalbody = getattr(statement, "finalbody", None)
    if finalbody is not None:
        yield finalbody.body


class _ElidedBody:
    """Where an elided body stands in the original text, and how to parse it when it is needed."""

    def __init__(self, text: str, region: _Region, default_indent: str, default_newline: str):
        self.text = text[region.start : region.end]
        self.final_newline = region.newline
        self._function_text = text[region.def_line : region.end]
        self._nested = text[region.def_line] in " \t\f"
        self._default_indent = default_indent
        self._default_newline = default_newline

    def parse(self, placeholder: cst.IndentedBlock) -> tuple[cst.BaseStatement, ...]:
        """The body's statements as a whole parse of the file gives them.

        The function is parsed on its own, after a block that sets the file's default indentation
        (libcst writes `indent=None` for blocks indented by the default) and, for an indented
        function, inside an `if` that accepts its indentation."""
        newline = self._default_newline
        prefix = f"if 1:{newline}{self._default_indent}pass{newline}"
        if self._nested:
            prefix += f"if 1:{newline}"
        try:
            module = parse_trusted(prefix + self._function_text)
        except (cst.ParserSyntaxError, RecursionError) as error:
            raise ElisionFailed(f"an elided body does not parse on its own: {error}") from error
        holder = module.body[-1]
        function = holder.body.body[0] if self._nested and isinstance(holder, cst.If) else holder
        body = getattr(function, "body", None)
        if (
            module.default_indent != self._default_indent
            or not isinstance(function, cst.FunctionDef)
            or not isinstance(body, cst.IndentedBlock)
            or body.indent != placeholder.indent
            or module.code_for_node(body.header) != module.code_for_node(placeholder.header)
        ):
            raise ElisionFailed("an elided body parsed on its own differs from its place in the file")
        return tuple(body.body)
