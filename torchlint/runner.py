"""`torchlint check` without the command line: lint, fix or diff files and collect outcomes."""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from torchlint.config import Settings
from torchlint.context import LintSettings
from torchlint.diagnostics import Diagnostic
from torchlint.engine import InternalError, fix_text, lint_text, syntax_error
from torchlint.sourcefile import DecodedSource, SourceError, decode_source, read_source, write_atomic


@dataclass(frozen=True)
class Mode:
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False

    @property
    def fixing(self) -> bool:
        return self.fix or self.diff


@dataclass
class FileOutcome:
    display: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    source: str = ""
    fixed_source: str | None = None  # set when fixes changed the text
    applied: Counter = field(default_factory=Counter)
    diff: str = ""
    failures: list[str] = field(default_factory=list)  # refused fixes, failed writes
    internal_errors: list[InternalError] = field(default_factory=list)


def unified_diff(before: str, after: str, display: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{display}",
        tofile=f"b/{display}",
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def process_text(decoded: DecodedSource, display: str, path: Path | None, settings: Settings, mode: Mode) -> FileOutcome:
    rules = settings.rules_for(path)
    lint_settings = LintSettings(settings.target_torch)
    outcome = FileOutcome(display, source=decoded.text)
    if not mode.fixing:
        result = lint_text(decoded.text, display, rules, lint_settings)
        outcome.diagnostics = result.diagnostics
        outcome.internal_errors = result.internal_errors
        return outcome
    result = fix_text(decoded.text, display, rules, lint_settings, mode.unsafe_fixes)
    outcome.diagnostics = result.remaining
    outcome.internal_errors = result.internal_errors
    if result.failure:
        outcome.failures.append(f"{display}: {result.failure}")
    if result.changed:
        outcome.applied = result.applied
        outcome.fixed_source = result.text
        outcome.diff = unified_diff(decoded.text, result.text, display)
    return outcome


def process_file(display: str, path: Path, settings: Settings, mode: Mode) -> FileOutcome:
    try:
        decoded = read_source(path)
    except SourceError as error:
        return FileOutcome(display, [syntax_error(display, error.reason, error.line, error.column)])
    outcome = process_text(decoded, display, path, settings, mode)
    if mode.fix and not mode.diff and outcome.fixed_source is not None:
        try:
            write_atomic(path, decoded.encode(outcome.fixed_source))
        except (OSError, UnicodeEncodeError) as error:
            outcome.failures.append(f"{display}: cannot write the fixed file: {error}")
            outcome.applied = Counter()
    outcome.source = outcome.fixed_source if outcome.fixed_source is not None else outcome.source
    return outcome


def process_stdin(data: bytes, display: str, settings: Settings, mode: Mode) -> tuple[FileOutcome, DecodedSource | None]:
    try:
        decoded = decode_source(data)
    except SourceError as error:
        return FileOutcome(display, [syntax_error(display, error.reason, error.line, error.column)]), None
    path = Path(display) if display != "-" else None
    outcome = process_text(decoded, display, path, settings, mode)
    if outcome.fixed_source is not None:
        outcome.source = outcome.fixed_source
    return outcome, decoded
