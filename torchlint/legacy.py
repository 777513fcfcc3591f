"""Code written for older Pythons that today's parsers reject: Python 3.6 code using `async` or
`await` as a name (`x.cuda(async=True)`, common in training scripts of that time), and Python 2
code (`print loss.data[0]`). Such a file is still TL000; it is analysed as the older Python read
it, line for line, and its findings are reported without fixes."""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings

# Names Python 3.7 made keywords, respelled at the same length so positions do not move.
_LEGACY_NAMES = {"async": "asyn_", "await": "awai_"}
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def readable(text: str) -> tuple[str, str] | None:
    """The text as an older Python read it, respelled so that today's parsers accept it, and what
    the respelling was for; None when it is not code of an older Python that this knows."""
    respelled_text = respelled(text)
    if respelled_text is not None:
        return respelled_text, "`async`/`await` as names, keywords since Python 3.7 (linted as 3.6 code, without fixes)"
    python3_text = from_python2(text)
    if python3_text is not None:
        return python3_text, "Python 2 code (linted as Python 2 read it, without fixes)"
    return None


def respelled(text: str) -> str | None:
    """Code written for Python 3.6 or older that uses `async` or `await` as a name
    (`x.cuda(async=True)`, common in training scripts of that time): the same text with those
    names respelled at the same length (`asyn_`), which today's parsers accept; None when the
    text does not parse as Python 3.6 either, or still fails once respelled."""
    if "async" not in text and "await" not in text:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, feature_version=(3, 6))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = _LINES.findall(text)  # split as CPython counts lines (not at form feeds)
    places: dict[int, list[tuple[int, str]]] = {}  # line -> (UTF-8 column, name)
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in _LEGACY_NAMES:
            places.setdefault(node.lineno, []).append((node.col_offset, node.arg))
        elif isinstance(node, ast.Name) and node.id in _LEGACY_NAMES:
            places.setdefault(node.lineno, []).append((node.col_offset, node.id))
        elif isinstance(node, ast.Attribute) and node.attr in _LEGACY_NAMES and node.end_col_offset is not None:
            places.setdefault(node.end_lineno, []).append((node.end_col_offset - len(node.attr), node.attr))
    if not places:
        return None
    for number, found in places.items():
        line = lines[number - 1].encode()
        for column, name in found:
            if line[column : column + len(name)] != name.encode():
                return None  # not where the tree says: leave the file as it is
            line = line[:column] + _LEGACY_NAMES[name].encode() + line[column + len(name) :]
        lines[number - 1] = line.decode()
    respelled = "".join(lines)
    return respelled if _parses(respelled) else None


def _parses(text: str) -> bool:
    """Whether today's CPython accepts the text."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# Python 2 statements and tokens that Python 3 rejects, and how each is read instead. Every edit
# stays on its line, so findings keep their lines (and, for `print`, their columns).
_COMPOUND = frozenset({"if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def", "class"})
_LONE_CARRIAGE_RETURN = re.compile(r"\r(?!\n)")
_NOT_A_PRINT_STATEMENT = frozenset({"(", "=", ".", ")", ",", "]", "}", ":", ";", "+=", "-=", "*=", "/=", "|=", "&="})


def from_python2(text: str) -> str | None:
    """Code written for Python 2 (`print x`, `except E, e:`, `raise E, "why"`, `exec code`, `10L`,
    `0777`, `<>`, `ur""`, backticks, tabs mixed with spaces), read as Python 3 would read the same
    program: the text with those forms respelled, line for line; None when the text still does not
    parse (another error, or a Python 2 form this does not know)."""
    if _LONE_CARRIAGE_RETURN.search(text):
        return None  # lines counted differently by the tokenizer and by CPython: not worth the risk
    expanded_text = _expand_mixed_tabs(text)
    expanded = expanded_text != text  # mixed tabs alone are Python 2 too (Python 3 rejects them)
    text = expanded_text
    try:
        tokens = [token for token in tokenize.generate_tokens(io.StringIO(text).readline)
                  if token.type not in (tokenize.NL, tokenize.COMMENT)]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    edits: list[tuple[int, int, int, str]] = []  # (line, start column, end column, replacement)
    for statement in _statements(tokens):
        edits += _statement_edits(statement)
    edits += _token_edits(tokens)
    if not edits and not expanded:
        return None
    lines = _LINES.findall(text)
    by_line: dict[int, list[tuple[int, int, str]]] = {}
    for line, start, end, replacement in edits:
        by_line.setdefault(line, []).append((start, end, replacement))
    for line, line_edits in by_line.items():  # each line rebuilt once, however many edits it has
        original, parts, position = lines[line - 1], [], 0
        for start, end, replacement in sorted(line_edits):
            parts += [original[position:start], replacement]
            position = end
        lines[line - 1] = "".join(parts) + original[position:]
    repaired = "".join(lines)
    # Python 2 code of PyTorch's first years also wrote `x.cuda(async=True)`
    return repaired if _parses(repaired) else respelled(repaired)


def _expand_mixed_tabs(text: str) -> str:
    """Python 2 read a tab in indentation as reaching the next multiple of 8, and Python 3 rejects
    indentation mixing tabs and spaces where the tab's width would matter: where a file's
    indentation mixes them, it is expanded as Python 2 read it."""
    if "\t" not in text:
        return text
    lines = _LINES.findall(text)
    indentation = [line[: len(line) - len(line.lstrip(" \t"))] for line in lines]
    if not any("\t" in part for part in indentation) or not any(" " in part for part in indentation):
        return text
    return "".join(part.expandtabs(8) + line[len(part):] for part, line in zip(indentation, lines))


def _statements(tokens: list[tokenize.TokenInfo]) -> list[list[tokenize.TokenInfo]]:
    """The simple statements, each as its tokens: a logical line split at `;` and after a compound
    statement's header `:` (`if a: print x`)."""
    statements: list[list[tokenize.TokenInfo]] = []
    current: list[tokenize.TokenInfo] = []
    depth = 0
    for token in tokens:
        if token.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            if current:
                statements.append(current)
            current, depth = [], 0
            continue
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        ends_header = token.string == ":" and depth == 0 and current and current[0].string in _COMPOUND
        if depth == 0 and token.type == tokenize.OP and (token.string == ";" or ends_header):
            if ends_header and current[0].string == "except":
                current.append(token)  # `except E, e:` is judged with its colon
            if current:  # (`x = 1;;`: nothing between the two)
                statements.append(current)
            current = []
            continue
        current.append(token)
    return statements


def _statement_edits(statement: list[tokenize.TokenInfo]) -> list[tuple[int, int, int, str]]:
    first = statement[0]
    if first.type != tokenize.NAME:
        return []
    if first.string in ("print", "exec") and _is_statement_keyword(statement):
        return _called(statement)
    if first.string == "except":
        comma = _top_level_comma(statement)
        if comma is not None and len(statement) - comma == 3 and statement[comma + 1].type == tokenize.NAME:
            return [_replace(statement[comma], " as")]  # `except E, e:` -> `except E as e:`
    if first.string == "raise":
        comma = _top_level_comma(statement)
        if comma is not None:  # `raise E, "why"` -> `raise E("why")`
            return [_replace(statement[comma], "("), _after(statement[-1], ")")]
    return []


def _is_statement_keyword(statement: list[tokenize.TokenInfo]) -> bool:
    if len(statement) == 1:
        return True
    following = statement[1]
    return not (following.type == tokenize.OP and following.string in _NOT_A_PRINT_STATEMENT)


def _called(statement: list[tokenize.TokenInfo]) -> list[tuple[int, int, int, str]]:
    """`print x, y` -> `print(x, y)`: the space after the keyword becomes `(`, so columns hold;
    `print >>f, x` -> `print(  f, x)`."""
    keyword = statement[0]
    edits = []
    following = statement[1] if len(statement) > 1 else None
    if following is not None and following.start[0] == keyword.end[0] and following.start[1] > keyword.end[1]:
        edits.append((keyword.end[0], keyword.end[1], keyword.end[1] + 1, "("))
    else:
        edits.append(_after(keyword, "("))
    if following is not None and following.string == ">>":
        edits.append(_replace(following, "  "))
    if len(statement) > 1:
        edits.append(_after(statement[-1], ")"))
    else:
        edits[-1] = _after(keyword, "()")
    return edits


def _top_level_comma(statement: list[tokenize.TokenInfo]) -> int | None:
    depth = 0
    for position, token in enumerate(statement):
        if token.type != tokenize.OP:
            continue
        if token.string in "([{":
            depth += 1
        elif token.string in ")]}":
            depth -= 1
        elif token.string == "," and depth == 0:
            return position
    return None


def _token_edits(tokens: list[tokenize.TokenInfo]) -> list[tuple[int, int, int, str]]:
    edits = []
    backticks: list[tokenize.TokenInfo] = []
    for previous, token in zip(tokens, tokens[1:]):
        touching = previous.end == token.start
        if touching and previous.type == tokenize.NUMBER and token.type == tokenize.NAME and token.string in "lL":
            edits.append(_replace(token, " "))  # `10L`
        elif touching and previous.string == "0" and token.type == tokenize.NUMBER and token.string.isdigit():
            edits.append(_replace(previous, "0o"))  # `0777`
        elif touching and previous.string == "<" and token.string == ">":
            edits.append((previous.start[0], previous.start[1], token.end[1], "!="))
        elif touching and previous.type == tokenize.NAME and previous.string.lower() == "ur" and token.type == tokenize.STRING:
            edits.append(_replace(previous, " r"))
        if token.type == tokenize.ERRORTOKEN and token.string == "`":
            backticks.append(token)
    for opening, closing in zip(backticks[::2], backticks[1::2]):  # `x` -> repr(x)
        edits += [_replace(opening, "repr("), _replace(closing, ")")]
    return edits


def _replace(token: tokenize.TokenInfo, replacement: str) -> tuple[int, int, int, str]:
    return (token.start[0], token.start[1], token.end[1], replacement)


def _after(token: tokenize.TokenInfo, inserted: str) -> tuple[int, int, int, str]:
    return (token.end[0], token.end[1], token.end[1], inserted)
