"""`# noqa` comments: per line (`# noqa`, `# noqa: TL005, TL001`) and per file
(`# torchlint: noqa`, `# torchlint: noqa: TL005`)."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass, field

from torchlint.diagnostics import Diagnostic
from torchlint.torchfix_codes import with_aliases

ALL = None  # a blanket suppression: every code
UNSUPPRESSIBLE = frozenset({"TL000"})

_CODE_LIST = r"(?P<codes>[A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*)"
_LINE_NOQA = re.compile(rf"#\s*noqa\b(?::\s*{_CODE_LIST})?", re.I)
_FILE_NOQA = re.compile(rf"#\s*torchlint:\s*noqa(?::\s*{_CODE_LIST})?", re.I)


@dataclass
class Suppressions:
    by_line: dict[int, frozenset[str] | None] = field(default_factory=dict)
    whole_file: frozenset[str] | None | bool = False  # False: none; ALL; or a set of codes

    def hides(self, diagnostic: Diagnostic) -> bool:
        if diagnostic.code in UNSUPPRESSIBLE:
            return False
        if self.whole_file is ALL or (self.whole_file and diagnostic.code in self.whole_file):
            return True
        if diagnostic.line not in self.by_line:
            return False
        codes = self.by_line[diagnostic.line]
        return codes is ALL or diagnostic.code in codes


def _codes(match: re.Match) -> frozenset[str] | None:
    codes = match.group("codes")
    if codes is None:
        return ALL
    return with_aliases(frozenset(code.upper() for code in re.split(r"[\s,]+", codes.strip()) if code))


def _comments(text: str) -> Iterable[tuple[int, str]]:
    """(line, comment) for every comment token; strings that contain `#` are not comments."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.string
    except (tokenize.TokenError, SyntaxError):
        return


def parse_suppressions(text: str) -> Suppressions:
    found = Suppressions()
    if "noqa" not in text.lower():
        return found
    for line, comment in _comments(text):
        file_match = _FILE_NOQA.search(comment)
        if file_match:
            found.whole_file = _merge(found.whole_file, _codes(file_match))
            continue
        line_match = _LINE_NOQA.search(comment)
        if line_match:
            found.by_line[line] = _merge(found.by_line.get(line, False), _codes(line_match))
    return found


def _merge(current, new):
    if current is False:
        return new
    if current is ALL or new is ALL:
        return ALL
    return current | new


def filter_suppressed(text: str, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    if not diagnostics:
        return diagnostics
    suppressions = parse_suppressions(text)
    return [diagnostic for diagnostic in diagnostics if not suppressions.hides(diagnostic)]
