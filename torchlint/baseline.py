"""Adopting torchlint on an existing repo: a baseline of today's findings, and `# noqa` comments.

A baseline entry matches by path, code and a fingerprint of the offending source (its text with
whitespace removed), so edits elsewhere in the file, lines inserted above included, keep it
matched. Baselines filter what is reported; `--fix` still fixes what it can.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import re
import tokenize
from collections import Counter
from pathlib import Path

from torchlint.diagnostics import Diagnostic
from torchlint.lines import physical_lines
from torchlint.sourcefile import write_atomic
from torchlint.suppression import UNSUPPRESSIBLE

FORMAT = 1
_WHITESPACE = re.compile(r"\s+")


class BaselineError(Exception):
    pass


def normalized_path(display: str, base: Path) -> str:
    """The path relative to the baseline's folder (so the baseline matches from any folder), or
    absolute when the file lies outside it."""
    absolute = os.path.abspath(display)
    relative = os.path.relpath(absolute, os.path.abspath(base))
    return Path(absolute if relative.startswith("..") else relative).as_posix()


def fingerprint(diagnostic: Diagnostic, source: str) -> str:
    lines = physical_lines(source)[diagnostic.line - 1 : diagnostic.end_line]
    text = _WHITESPACE.sub("", "\n".join(lines))
    return hashlib.sha256(f"{diagnostic.code}\0{text}".encode()).hexdigest()[:20]


def _key(diagnostic: Diagnostic, source: str, base: Path) -> tuple[str, str, str]:
    cell = f"#cell{diagnostic.cell}" if diagnostic.cell is not None else ""
    return normalized_path(diagnostic.path, base) + cell, diagnostic.code, fingerprint(diagnostic, source)


def write_baseline(path: Path, diagnostics: list[Diagnostic], source_of) -> int:
    """Record the findings in `path`, written atomically; BaselineError when it cannot be."""
    base = path.absolute().parent
    entries = [
        dict(zip(("path", "code", "fingerprint"), _key(d, source_of(d), base)))
        for d in diagnostics
        if d.code not in UNSUPPRESSIBLE
    ]
    data = json.dumps({"torchlint_baseline": FORMAT, "findings": entries}, indent=1) + "\n"
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "it is a folder")
        write_atomic(path, data.encode("utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot write the baseline {path}: {error.strerror or error}") from None
    return len(entries)


def load_baseline(path: Path) -> Counter:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Counter((e["path"], e["code"], e["fingerprint"]) for e in data["findings"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BaselineError(f"cannot read the baseline {path}: {error}") from None


def new_findings(diagnostics: list[Diagnostic], baseline: Counter, source_of, base: Path) -> list[Diagnostic]:
    """The findings the baseline (whose folder is `base`) does not account for (each entry
    accounts for one finding)."""
    return match_baseline(diagnostics, baseline, source_of, base)[0]


def match_baseline(diagnostics: list[Diagnostic], baseline: Counter, source_of, base: Path) -> tuple[list[Diagnostic], int]:
    """(the findings the baseline does not account for, how many of its entries match no finding:
    fixed, or changed beyond recognition; `--write-baseline` prunes them)."""
    remaining = Counter(baseline)
    fresh = []
    for diagnostic in diagnostics:
        key = _key(diagnostic, source_of(diagnostic), base)
        if diagnostic.code not in UNSUPPRESSIBLE and remaining[key] > 0:
            remaining[key] -= 1
        else:
            fresh.append(diagnostic)
    return fresh, sum(remaining.values())


# ---- --add-noqa -------------------------------------------------------------------------------
_NOQA = re.compile(r"#\s*noqa(?P<colon>:\s*(?P<codes>[A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*))?", re.I)


def _lines_ending_inside_tokens(text: str) -> set[int]:
    """Lines whose end lies inside a token (a multi-line string): a comment there would become
    part of it. Lines are counted as Python counts them, as in the findings."""
    inside = set()
    try:
        # newline=None: \r and \r\n end lines too, as they do for Python and for the findings
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.start[0] != token.end[0] and token.type not in (tokenize.NEWLINE, tokenize.NL):
                inside.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError):
        pass
    return inside


def add_noqa(text: str, diagnostics: list[Diagnostic]) -> tuple[str, int]:
    """`text` with `# noqa: CODES` on each line where a finding starts; (new text, lines changed)."""
    codes_by_line: dict[int, set[str]] = {}
    for d in diagnostics:
        if d.code not in UNSUPPRESSIBLE:
            codes_by_line.setdefault(d.line, set()).add(d.code)
    unsafe = _lines_ending_inside_tokens(text)
    lines = physical_lines(text, keepends=True)
    changed = 0
    for number, codes in codes_by_line.items():
        if number in unsafe or not 0 < number <= len(lines):
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        if body.endswith("\\"):
            continue  # a comment after a line continuation is a syntax error
        updated = _with_noqa(body, codes)
        if updated != body:
            lines[number - 1] = updated + ending
            changed += 1
    return "".join(lines), changed


def _with_noqa(line: str, codes: set[str]) -> str:
    match = _NOQA.search(line)
    if match is None:
        return f"{line}  # noqa: {', '.join(sorted(codes))}"
    if match.group("colon") is None:
        return line  # a blanket noqa already covers every code
    present = {code.upper() for code in re.split(r"[\s,]+", match.group("codes").strip())}
    merged = ", ".join(sorted(present | codes))
    return line[: match.start()] + f"# noqa: {merged}" + line[match.end() :]
