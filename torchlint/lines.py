"""Lines of a source text as Python counts them (no libcst: reporters and the baseline need them
on runs that lint nothing)."""

from __future__ import annotations

import re

# Python ends a line at \n, \r\n or a lone \r, and nowhere else: str.splitlines() also splits at
# form feeds, U+2028 and other characters that may sit inside a line (in a string, say).
_LINE_BREAK = re.compile(r"\r\n?|\n")


def line_starts(text: str) -> list[int]:
    """The offset where each line starts, lines counted as Python counts them."""
    return [0] + [match.end() for match in _LINE_BREAK.finditer(text)]


def physical_lines(text: str, keepends: bool = False) -> list[str]:
    """The lines of `text` as Python counts them (a final line break starts no new line)."""
    starts = line_starts(text)
    if starts[-1] == len(text) and len(starts) > 1:
        starts.pop()
    ends = starts[1:] + [len(text)]
    lines = [text[start:end] for start, end in zip(starts, ends)]
    if not keepends:
        lines = [line.rstrip("\r\n") for line in lines]
    return lines if text else []
