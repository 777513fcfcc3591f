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


# ---- unused suppressions (TL900) ----------------------------------------------------------------
UNUSED_NOQA = "TL900"
_TORCHLINT_CODE = re.compile(r"^TL\d{3}$")


def _comment_tokens(text: str) -> Iterable[tuple[int, int, str]]:
    """(line, column, comment) of every comment, with lines counted as Python counts them."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.start[1], token.string
    except (tokenize.TokenError, SyntaxError):
        return


def unused_noqa(text: str, path: str, used: set[tuple[int, str]], enabled: set[str], rule) -> list[Diagnostic]:
    """TL900 for the `# noqa: TLnnn` codes that hid no finding on their line. Only codes of rules
    that ran on the file count (a code deselected here may be meant for another configuration);
    other tools' codes and a bare `# noqa` are left alone. The safe fix removes the unused codes,
    and the comment when none is left."""
    from torchlint.diagnostics import Fix, make_edit
    from torchlint.lines import line_starts

    if "noqa" not in text.lower():
        return []
    starts = line_starts(text)
    found = []
    for line, column, comment in _comment_tokens(text):
        match = _LINE_NOQA.search(comment)
        if match is None or match.group("codes") is None or _FILE_NOQA.search(comment):
            continue
        codes = [code for code in re.split(r"[\s,]+", match.group("codes").strip()) if code]
        if UNUSED_NOQA in {code.upper() for code in codes}:
            continue  # the comment silences this very rule
        unused = [
            code for code in codes
            if _TORCHLINT_CODE.match(code.upper()) and code.upper() in enabled
            and code.upper() not in UNSUPPRESSIBLE and (line, code.upper()) not in used
        ]
        if not unused:
            continue
        comment_start = starts[line - 1] + column
        edit = _removal(text, comment_start, comment, match, [code for code in codes if code not in unused])
        listed = ", ".join(unused)
        message = f"Unused `noqa` for {listed}" if len(unused) == 1 else f"Unused `noqa` codes: {listed}"
        what = "Remove the unused `noqa`" if len(unused) == len(codes) else f"Remove {listed} from the `noqa`"
        start, end = comment_start + match.start(), comment_start + match.end()
        line_start = starts[line - 1]
        found.append(Diagnostic(
            code=rule.code, name=rule.name, message=message, path=path,
            line=line, column=start - line_start + 1, end_line=line, end_column=end - line_start + 1,
            severity=rule.severity,
            fix=Fix("safe", what, (make_edit(text, *edit),)),
        ))
    return found


def _removal(text: str, comment_start: int, comment: str, match: re.Match, kept: list[str]) -> tuple[int, int, str]:
    """(start, end, replacement) in `text` that drops the unused codes from a noqa comment."""
    if kept:
        codes_start, codes_end = match.span("codes")
        return comment_start + codes_start, comment_start + codes_end, ", ".join(kept)
    rest = comment[match.end():]
    if match.start() == 0 and rest.strip():
        # `# noqa: TL005 because…` keeps its explanation as a plain comment
        return comment_start, comment_start + match.end(), "#"
    # the noqa (and the blanks before it) goes; the line's code stays as it was
    start = comment_start + match.start()
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    end = comment_start + (len(comment) if match.start() == 0 else match.end())
    return start, end, ""
