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
    cell_sources: dict[int, str] = field(default_factory=dict)  # notebooks: cell number -> source


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
    if path.suffix == ".ipynb":
        return process_notebook(display, path, settings, mode)
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


def _read_notebook(path: Path):
    from torchlint.notebooks import load_notebook

    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise SourceError(f"cannot read the file: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise SourceError(f"cannot decode as utf-8: {error.reason}") from None
    return load_notebook(text)


def process_notebook(display: str, path: Path, settings: Settings, mode: Mode) -> FileOutcome:
    """Lint the code cells as one source; write fixes back into the changed cells only."""
    from torchlint.notebooks import rebuild, to_cells

    try:
        notebook = _read_notebook(path)
    except SourceError as error:
        return FileOutcome(display, [syntax_error(display, error.reason, error.line, error.column)])
    outcome = process_text(DecodedSource(notebook.text, "utf-8"), display, path, settings, mode)
    if outcome.fixed_source is not None:
        try:
            fixed = rebuild(notebook, outcome.fixed_source)
        except SourceError as error:
            unchanged = process_notebook(display, path, settings, Mode())
            unchanged.failures.append(f"{display}: {error.reason}")
            return unchanged
        outcome.diff = unified_diff(notebook.original, fixed, display)
        if mode.fix and not mode.diff:
            try:
                write_atomic(path, fixed.encode("utf-8"))
            except OSError as error:
                outcome.failures.append(f"{display}: cannot write the fixed file: {error}")
                outcome.applied = Counter()
                return outcome
        # what remains, positioned in the fixed notebook's cells
        from torchlint.notebooks import load_notebook

        notebook = load_notebook(fixed)
        remaining = process_text(DecodedSource(notebook.text, "utf-8"), display, path, settings, Mode())
        outcome.diagnostics = remaining.diagnostics
    outcome.diagnostics = [to_cells(notebook, d) for d in outcome.diagnostics]
    outcome.cell_sources = notebook.cell_sources
    outcome.source = ""
    return outcome


def add_noqa_to_file(display: str, path: Path, settings: Settings) -> tuple[int, str | None]:
    """Write `# noqa: CODES` on each line of the file where a finding starts; (lines, failure)."""
    from torchlint.baseline import add_noqa
    from torchlint.engine import fixed_output_parses

    rules, lint_settings = settings.rules_for(path), LintSettings(settings.target_torch)
    try:
        if path.suffix == ".ipynb":
            from torchlint.notebooks import rebuild

            notebook = _read_notebook(path)
            text, changed = add_noqa(notebook.text, lint_text(notebook.text, display, rules, lint_settings).diagnostics)
            if changed:
                write_atomic(path, rebuild(notebook, text).encode("utf-8"))
            return changed, None
        decoded = read_source(path)
        text, changed = add_noqa(decoded.text, lint_text(decoded.text, display, rules, lint_settings).diagnostics)
        if changed and not fixed_output_parses(text, decoded.text, display):
            return 0, f"{display}: adding noqa comments would break the file; it was left unchanged"
        if changed:
            write_atomic(path, decoded.encode(text))
        return changed, None
    except SourceError as error:
        return 0, f"{display}: {error.reason}"
    except OSError as error:
        return 0, f"{display}: cannot write the file: {error}"


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


# ---- many files: the cache, then a process pool for what is left ------------------------------
IN_PROCESS_UP_TO = 8  # a handful of files (a pre-commit run) is faster without starting workers

_worker_resolver = None


def _start_worker(cli, explicit, cwd) -> None:
    global _worker_resolver
    from torchlint.config import ConfigResolver

    _worker_resolver = ConfigResolver(cli, explicit, cwd)


def _process_in_worker(display: str, path: Path, mode: Mode) -> FileOutcome:
    return process_file(display, path, _worker_resolver.for_file(path), mode)


def _cache_digest(data: bytes, settings: Settings, path: Path) -> str:
    from torchlint.cache import content_hash

    codes = ",".join(rule.code for rule in settings.rules_for(path))
    target = ".".join(map(str, settings.target_torch))
    return content_hash(data + f"\0{codes}\0{target}".encode())


def _from_cache(source, settings: Settings, mode: Mode, result_cache) -> tuple[FileOutcome | None, str | None]:
    try:
        data = source.path.read_bytes()
    except OSError:
        return None, None
    digest = _cache_digest(data, settings, source.path)
    cached = result_cache.get(str(source.path), digest, source.display)
    if cached is None or (mode.fixing and any(d.fix and d.fix.is_enabled(mode.unsafe_fixes) for d in cached)):
        return None, digest
    outcome = FileOutcome(source.display, cached)
    if cached:
        try:
            if source.path.suffix == ".ipynb":
                from torchlint.notebooks import load_notebook

                outcome.cell_sources = load_notebook(data.decode("utf-8")).cell_sources
            else:
                outcome.source = decode_source(data).text
        except (SourceError, UnicodeDecodeError):
            pass
    return outcome, digest


def process_files(sources, resolver, mode_for, jobs: int, result_cache=None) -> list[FileOutcome]:
    """Lint (or fix) every file; results come back sorted by path whatever `jobs` is."""
    outcomes: list[FileOutcome] = []
    pending = []
    for source in sources:
        settings = resolver.for_file(source.path)
        digest = None
        if result_cache is not None:
            outcome, digest = _from_cache(source, settings, mode_for(settings), result_cache)
            if outcome is not None:
                outcomes.append(outcome)
                continue
        pending.append((source, settings, digest))
    for (source, settings, digest), outcome in zip(pending, _run(pending, resolver, mode_for, jobs)):
        outcomes.append(outcome)
        if result_cache is not None and digest is not None and outcome.fixed_source is None and not outcome.internal_errors:
            result_cache.put(str(source.path), digest, outcome.diagnostics)
    return sorted(outcomes, key=lambda outcome: outcome.display)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _run(pending, resolver, mode_for, jobs: int) -> list[FileOutcome]:
    if jobs <= 1 or len(pending) <= IN_PROCESS_UP_TO:
        return [process_file(s.display, s.path, settings, mode_for(settings)) for s, settings, _ in pending]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # The largest files first, in small chunks, so that no worker is left with a big file at the end.
    order = sorted(range(len(pending)), key=lambda i: -_size(pending[i][0].path))
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_start_worker,
        initargs=(resolver.cli, resolver.explicit_path, resolver.cwd),
    ) as pool:
        results = pool.map(
            _process_in_worker,
            [pending[i][0].display for i in order],
            [pending[i][0].path for i in order],
            [mode_for(pending[i][1]) for i in order],
            chunksize=4,
        )
        outcomes: list[FileOutcome | None] = [None] * len(pending)
        for index, outcome in zip(order, results):
            outcomes[index] = outcome
        return outcomes
