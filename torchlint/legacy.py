"""Code written for Python 3.6 or older that today's parsers reject only because it uses `async`
or `await` as a name (`x.cuda(async=True)`, common in training scripts of that time)."""

from __future__ import annotations

import ast
import re
import warnings

# Names Python 3.7 made keywords, respelled at the same length so positions do not move.
_LEGACY_NAMES = {"async": "asyn_", "await": "awai_"}
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


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
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(respelled)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return respelled
