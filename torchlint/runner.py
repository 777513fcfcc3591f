"""`torchlint check` without the command line: lint, fix or diff files and collect outcomes."""

from __future__ import annotations

import difflib
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from torchlint.config import ConfigError, Settings
from torchlint.diagnostics import Diagnostic
from torchlint.sourcefile import DecodedSource, SourceError, decode_source, read_source, write_through


if TYPE_CHECKING:
    from torchlint.engine import InternalError


def _engine():
    """The engine (libcst, the analysis, every rule), imported when a file has to be linted: a
    run whose files all come from the cache never loads it."""
    import torchlint.engine

    return torchlint.engine


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
    failures: list[str] = field(default_factory=list)  # refused fixes
    internal_errors: list[InternalError] = field(default_factory=list)
    cell_sources: dict[int, str] = field(default_factory=dict)  # notebooks: cell number -> source
    cell_lines: dict[int, list[int]] = field(default_factory=dict)  # notebooks: cell -> .ipynb lines
    errors: list[str] = field(default_factory=list)  # what must fail the run (exit 2): a failed write
    skipped: str | None = None  # why torchlint could not analyse the file
    # The other project modules the findings rested on, by content digest (for the cache).
    dependencies: dict[str, str] | None = None


# The project indexes of the run, built before any file is linted; worker processes inherit them.
_PROJECTS = None


def use_projects(projects) -> None:
    global _PROJECTS
    _PROJECTS = projects


def _dependencies(project, consulted: frozenset[str], path: Path | None) -> dict[str, str] | None:
    if project is None:
        return None
    own = str(path.resolve()) if path is not None else ""
    return project.dependencies(consulted, own)


def build_run_projects(sources, resolver, jobs: int, cache_folder: Path | None, fallback: Path | None,
                       walked: dict[Path, list[Path]] | None = None):
    """The index of every project the files belong to (their other modules read from disk).
    `walked`: folders the run's discovery walked already, with the files it found there."""
    from torchlint.project.listing import cached_listing, settings_key
    from torchlint.project.load import build_projects, resolved_paths

    # Notebooks and extensionless scripts are never imported, but their calls are call sites of
    # the project's functions as much as a script's.
    def project_files(root: Path) -> list[Path]:
        if walked and root in walked:
            return list(resolved_paths(walked[root]))
        try:
            listed = cached_listing(root, cache_folder, f"project files {settings_key(resolver)}",
                                    lambda: _walk_project(resolver, root))
            return [Path(path) for path in listed]
        except ConfigError:
            # A broken configuration in another folder of the project (a scratch copy, a fixture)
            # must not stop this run: its own files are reported when they are linted, and the
            # index makes do with the files named here.
            return list(resolved_paths(source.path for source in sources if root in source.path.resolve().parents))

    bases = frozenset(resolver.default().module_base_classes)
    return build_projects([source.path for source in sources], project_files, cache_folder, jobs, fallback, bases)


def _walk_project(resolver, root: Path) -> tuple[list[str], list[Path], list[Path]]:
    """A project's files, and what decided them (for `cached_listing`)."""
    from torchlint.discovery import Discovery

    from torchlint.project.load import resolved_paths

    discovery = Discovery(resolver)
    found, _ = discovery.files([str(root)])
    files = sorted(resolved_paths(source.path for source in found))
    return files, discovery.folders_read, discovery.files_read


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
    lint_settings = settings.lint_settings()
    project = _PROJECTS.for_file(path) if path is not None and _PROJECTS is not None else None
    outcome = FileOutcome(display, source=decoded.text)
    if not mode.fixing:
        result = _engine().lint_text(decoded.text, display, rules, lint_settings, project=project)
        outcome.diagnostics = result.diagnostics
        outcome.internal_errors = result.internal_errors
        outcome.dependencies = _dependencies(project, result.consulted, path)
        outcome.skipped = result.skipped
        return outcome
    result = _engine().fix_text(decoded.text, display, rules, lint_settings, mode.unsafe_fixes, project=project)
    outcome.diagnostics = result.remaining
    outcome.internal_errors = result.internal_errors
    outcome.skipped = result.skipped
    if result.failure:
        outcome.failures.append(f"{display}: {result.failure}")
    if result.changed:
        outcome.applied = result.applied
        outcome.fixed_source = result.text
        outcome.diff = unified_diff(decoded.text, result.text, display)
    return outcome


def process_file(display: str, path: Path, settings: Settings, mode: Mode) -> FileOutcome:
    """One file's outcome; whatever goes wrong with it, the other files are still linted."""
    try:
        too_large = _over_size_limit(path, settings.max_file_size)
        if too_large:
            return FileOutcome(display, skipped=too_large)
        if path.suffix == ".ipynb":
            return process_notebook(display, path, settings, mode)
        return _process_source_file(display, path, settings, mode)
    except Exception as error:  # a bug in torchlint: exit 2, naming the file
        return _crashed(display, error)


def _crashed(display: str, error: Exception) -> FileOutcome:
    crash = _engine().InternalError(display, "", f"{type(error).__name__}: {error}")
    return FileOutcome(display, internal_errors=[crash])


def _over_size_limit(path: Path, limit: int) -> str | None:
    try:
        size = path.stat().st_size
    except OSError:
        return None  # reading it reports the problem
    return _size_reason(size, limit) if size > limit else None


def _size_reason(size: int, limit: int) -> str:
    return f"it is larger than max-file-size ({size:,} > {limit:,} bytes)"


def _process_source_file(display: str, path: Path, settings: Settings, mode: Mode) -> FileOutcome:
    try:
        decoded = read_source(path)
    except SourceError as error:
        return FileOutcome(display, [_engine().syntax_error(display, error.reason, error.line, error.column)])
    outcome = process_text(decoded, display, path, settings, mode)
    if mode.fix and not mode.diff and outcome.fixed_source is not None:
        try:
            write_through(path, decoded.encode(outcome.fixed_source))
        except (OSError, UnicodeEncodeError) as error:
            return _unwritten(outcome, _describe(error), lambda: process_text(decoded, display, path, settings, Mode()))
    outcome.source = outcome.fixed_source if outcome.fixed_source is not None else outcome.source
    return outcome


def _describe(error: Exception) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def _unwritten(outcome: FileOutcome, reason: str, lint_unchanged) -> FileOutcome:
    """A fix that could not be written: an error, and the findings of the file as it still is."""
    unchanged = lint_unchanged()
    unchanged.failures = outcome.failures
    unchanged.internal_errors = outcome.internal_errors + unchanged.internal_errors
    unchanged.errors.append(f"{outcome.display}: cannot write the fixed file: {reason}")
    return unchanged


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
    from torchlint.notebooks import cell_file_lines, rebuild, to_cells

    try:
        notebook = _read_notebook(path)
    except SourceError as error:
        return FileOutcome(display, [_engine().syntax_error(display, error.reason, error.line, error.column)])
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
                write_through(path, fixed.encode("utf-8"))
            except OSError as error:
                return _unwritten(outcome, _describe(error), lambda: process_notebook(display, path, settings, Mode()))
        # what remains, positioned in the fixed notebook's cells
        from torchlint.notebooks import load_notebook

        notebook = load_notebook(fixed)
        remaining = process_text(DecodedSource(notebook.text, "utf-8"), display, path, settings, Mode())
        outcome.diagnostics = remaining.diagnostics
    outcome.diagnostics = [to_cells(notebook, d) for d in outcome.diagnostics]
    outcome.cell_sources = notebook.cell_sources
    outcome.cell_lines = cell_file_lines(notebook.original) if outcome.diagnostics else {}
    outcome.source = ""
    return outcome


def add_noqa_to_file(display: str, path: Path, settings: Settings) -> tuple[int, str | None]:
    """Write `# noqa: CODES` on each line of the file where a finding starts; (lines, failure)."""
    from torchlint.baseline import add_noqa

    rules, lint_settings = settings.rules_for(path), settings.lint_settings()
    try:
        if path.suffix == ".ipynb":
            from torchlint.notebooks import rebuild

            notebook = _read_notebook(path)
            text, changed = add_noqa(notebook.text, _engine().lint_text(notebook.text, display, rules, lint_settings).diagnostics)
            if changed:
                write_through(path, rebuild(notebook, text).encode("utf-8"))
            return changed, None
        decoded = read_source(path)
        text, changed = add_noqa(decoded.text, _engine().lint_text(decoded.text, display, rules, lint_settings).diagnostics)
        if changed and not _engine().fixed_output_parses(text, decoded.text, display):
            return 0, f"{display}: adding noqa comments would break the file; it was left unchanged"
        if changed:
            write_through(path, decoded.encode(text))
        return changed, None
    except SourceError as error:
        return 0, f"{display}: {error.reason}"
    except (OSError, UnicodeEncodeError) as error:
        return 0, f"{display}: cannot write the file: {_describe(error)}"


def process_stdin(data: bytes, display: str, settings: Settings, mode: Mode) -> tuple[FileOutcome, bytes]:
    """The outcome, and the bytes `--fix` echoes: the fixed source, or the input as it came
    (when nothing was fixed, or it could not even be decoded)."""
    if len(data) > settings.max_file_size:
        return FileOutcome(display, skipped=_size_reason(len(data), settings.max_file_size)), data
    if display.endswith(".ipynb"):
        return process_notebook_text(data, display, settings, mode)
    try:
        decoded = decode_source(data)
    except SourceError as error:
        return FileOutcome(display, [_engine().syntax_error(display, error.reason, error.line, error.column)]), data
    path = Path(display) if display != "-" else None
    try:
        outcome = process_text(decoded, display, path, settings, mode)
    except Exception as error:  # a bug in torchlint: exit 2, and the source still comes back
        return _crashed(display, error), data
    if outcome.fixed_source is None:
        return outcome, data
    outcome.source = outcome.fixed_source
    try:
        return outcome, decoded.encode(outcome.fixed_source)
    except UnicodeEncodeError as error:
        outcome = process_text(decoded, display, path, settings, Mode())
        outcome.errors.append(f"{display}: cannot encode the fixed source: {error}")
        return outcome, data


def process_notebook_text(data: bytes, display: str, settings: Settings, mode: Mode) -> tuple[FileOutcome, bytes]:
    """A notebook's text (`--stdin-filename x.ipynb`, the language server) linted as a notebook
    file is: the outcome, and the notebook with the fixed cells (`--fix`) or as it came."""
    from torchlint.notebooks import cell_file_lines, load_notebook, rebuild, to_cells

    try:
        notebook = load_notebook(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        return FileOutcome(display, [_engine().syntax_error(display, f"cannot decode as utf-8: {error.reason}")]), data
    except SourceError as error:
        return FileOutcome(display, [_engine().syntax_error(display, error.reason, error.line, error.column)]), data
    path = Path(display)
    try:
        outcome = process_text(DecodedSource(notebook.text, "utf-8"), display, path, settings, mode)
        echoed = data
        if outcome.fixed_source is not None:
            try:
                fixed = rebuild(notebook, outcome.fixed_source)
            except SourceError as error:
                unchanged, _ = process_notebook_text(data, display, settings, Mode())
                unchanged.failures.append(f"{display}: {error.reason}")
                return unchanged, data
            echoed = fixed.encode("utf-8")
            notebook = load_notebook(fixed)
            outcome.diagnostics = process_text(DecodedSource(notebook.text, "utf-8"), display, path, settings,
                                               Mode()).diagnostics
    except Exception as error:  # a bug in torchlint: exit 2, and the notebook still comes back
        return _crashed(display, error), data
    outcome.diagnostics = [to_cells(notebook, d) for d in outcome.diagnostics]
    outcome.cell_sources = notebook.cell_sources
    outcome.cell_lines = cell_file_lines(notebook.original)
    outcome.source = ""
    return outcome, echoed


# ---- many files: the cache, then a process pool for what is left ------------------------------
IN_PROCESS_UP_TO = 8  # a handful of files (a pre-commit run) is faster without starting workers

_worker_resolver = None
_worker_log: int | None = None  # where a worker notes each file it starts, for crash recovery


def _start_worker(cli, explicit, cwd, log_path=None) -> None:
    global _worker_resolver, _worker_log
    from torchlint.config import ConfigResolver

    _worker_resolver = ConfigResolver(cli, explicit, cwd)
    _worker_log = os.open(log_path, os.O_WRONLY | os.O_APPEND) if log_path else None


def _process_in_worker(index: int, display: str, path: Path, mode: Mode) -> FileOutcome:
    # one small O_APPEND write each, so the lines of several workers never interleave
    if _worker_log is not None:
        os.write(_worker_log, f"+{index}\n".encode())
    outcome = process_file(display, path, _worker_resolver.for_file(path), mode)
    if _worker_log is not None:
        os.write(_worker_log, f"-{index}\n".encode())
    return outcome


def _cache_digest(data: bytes, settings: Settings, path: Path) -> str:
    from torchlint.cache import content_hash

    codes = ",".join(settings.codes_for(path))
    target = ".".join(map(str, settings.target_torch))
    bases = ",".join(sorted(settings.module_base_classes))
    backward = ",".join(settings.backward_functions)
    project = _PROJECTS.for_file(path) if _PROJECTS is not None else None
    # a module added or removed; the project made installable (its public API then has callers unseen)
    files = f"{project.files_digest}{project.installable}" if project is not None else ""
    return content_hash(data + f"\0{codes}\0{target}\0{bases}\0{backward}\0{files}".encode())


def _dependencies_unchanged(path: Path):
    project = _PROJECTS.for_file(path) if _PROJECTS is not None else None
    return lambda dependencies: project is not None and project.dependencies_unchanged(dependencies)


def _from_cache(source, settings: Settings, mode: Mode, result_cache) -> tuple[FileOutcome | None, str | None]:
    try:
        data = source.path.read_bytes()
    except OSError:
        return None, None
    digest = _cache_digest(data, settings, source.path)
    cached = result_cache.get(str(source.path), digest, source.display, _dependencies_unchanged(source.path))
    if cached is None or (mode.fixing and any(d.fix and d.fix.is_enabled(mode.unsafe_fixes) for d in cached)):
        return None, digest
    outcome = FileOutcome(source.display, cached)
    if cached:
        try:
            if source.path.suffix == ".ipynb":
                from torchlint.notebooks import cell_file_lines, load_notebook

                text = data.decode("utf-8")
                outcome.cell_sources = load_notebook(text).cell_sources
                outcome.cell_lines = cell_file_lines(text)
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
        if result_cache is not None and digest is not None and _cacheable(outcome):
            result_cache.put(str(source.path), digest, outcome.diagnostics, outcome.dependencies)
    return sorted(outcomes, key=lambda outcome: outcome.display)


def _cacheable(outcome: FileOutcome) -> bool:
    """Only a complete analysis of the file as it is on disk is worth remembering."""
    return outcome.fixed_source is None and not (outcome.internal_errors or outcome.errors or outcome.skipped)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _run(pending, resolver, mode_for, jobs: int) -> list[FileOutcome]:
    if jobs <= 1 or len(pending) <= IN_PROCESS_UP_TO:
        return [process_file(s.display, s.path, settings, mode_for(settings)) for s, settings, _ in pending]
    return _run_in_pool(pending, resolver, mode_for, jobs)


def _run_in_pool(pending, resolver, mode_for, jobs: int) -> list[FileOutcome]:
    """Lint in worker processes. A worker that dies (libcst's native parser can crash the
    process) breaks the pool: the results already received are kept, each file a worker was in
    the middle of is linted again alone (so the one that crashes is found and reported as
    skipped), and the rest go to a fresh pool."""
    import tempfile

    _engine()  # imported once here, not again in each forked worker
    outcomes: dict[int, FileOutcome] = {}
    # The largest files first, so that no worker is left with a big file at the end.
    todo = sorted(range(len(pending)), key=lambda i: -_size(pending[i][0].path))
    with tempfile.TemporaryDirectory(prefix="torchlint-") as folder:
        log_path = os.path.join(folder, "started")
        while todo:
            open(log_path, "w").close()
            outcomes.update(_pool_round(pending, todo, resolver, mode_for, jobs, log_path))
            unfinished = [i for i in todo if i not in outcomes]
            in_progress = _in_progress(log_path)  # when the pool broke
            suspects = [i for i in unfinished if i in in_progress] or unfinished
            for index in suspects:
                outcomes[index] = _run_alone(pending[index], resolver, mode_for)
            todo = [i for i in unfinished if i not in outcomes]
    return [outcomes[i] for i in range(len(pending))]


def _pool_context():
    import multiprocessing

    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


def _pool(jobs: int, resolver, log_path: str | None):
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=_pool_context(),
        initializer=_start_worker,
        initargs=(resolver.cli, resolver.explicit_path, resolver.cwd, log_path),
    )


def _pool_round(pending, todo, resolver, mode_for, jobs: int, log_path: str) -> dict[int, FileOutcome]:
    """The outcomes one pool gives before it finishes or breaks."""
    from concurrent.futures.process import BrokenProcessPool

    done: dict[int, FileOutcome] = {}
    with _pool(jobs, resolver, log_path) as pool:
        results = pool.map(
            _process_in_worker,
            todo,
            [pending[i][0].display for i in todo],
            [pending[i][0].path for i in todo],
            [mode_for(pending[i][1]) for i in todo],
            chunksize=4,
        )
        try:
            for index, outcome in zip(todo, results):
                done[index] = outcome
        except BrokenProcessPool:
            pass  # the caller finds out which files are left
    return done


def _in_progress(log_path: str) -> set[int]:
    """The files a worker had started and not finished: `+N` and `-N` lines of the log."""
    started, finished = set(), set()
    try:
        with open(log_path, encoding="ascii") as log:
            for line in log:
                if line[:1] in "+-" and line[1:].strip().isdigit():
                    (started if line[0] == "+" else finished).add(int(line[1:]))
    except OSError:
        pass
    return started - finished


def _run_alone(item, resolver, mode_for) -> FileOutcome:
    from concurrent.futures.process import BrokenProcessPool

    source, settings, _ = item
    try:
        with _pool(1, resolver, None) as pool:
            return pool.submit(_process_in_worker, 0, source.display, source.path, mode_for(settings)).result()
    except BrokenProcessPool:
        return FileOutcome(source.display, skipped="torchlint's parser crashed on it (the worker process died)")
