"""Building the project indexes a run needs: the files of each project, summarised once per run
(in parallel when many are new) and cached between runs by path, size and mtime, then content."""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from torchlint import collector
from torchlint.project.index import ProjectIndex
from torchlint.project.roots import is_installable, project_root
from torchlint.outline import Outline
from torchlint.project.summary import (
    FORMAT, ModuleSummary, content_digest, lookup_names, summarize_and_outline, uses_digest,
)

PARALLEL_FROM = 64  # summarise in a process pool when at least this many files are new
CACHED_FROM = 32  # a smaller project is summarised afresh in milliseconds: no cache file for it


class Projects:
    """The index of every project a run touches, by root."""

    def __init__(self, indexes: dict[Path, ProjectIndex], fallback: Path | None):
        self.indexes = indexes
        self.fallback = fallback
        self._by_folder: dict[Path, ProjectIndex | None] = {}

    def for_file(self, path: Path) -> ProjectIndex | None:
        if path.is_symlink():  # its project is where it points
            return self.indexes.get(project_root(path.resolve().parent, self.fallback))
        folder = path.parent  # resolving costs a stat per part of the path: once per folder
        if folder not in self._by_folder:
            self._by_folder[folder] = self.indexes.get(project_root(folder.resolve(), self.fallback))
        return self._by_folder[folder]


def build_projects(files: Iterable[Path], list_project_files, cache_folder: Path | None, jobs: int,
                   fallback: Path | None = None, module_bases: frozenset[str] = frozenset()) -> Projects:
    """`list_project_files(root)` lists a project's .py files (excludes and .gitignore applied),
    each resolved (`resolved_paths`)."""
    roots: dict[Path, None] = {}
    for folder in _real_folders(files):
        roots.setdefault(project_root(Path(folder), fallback))
    indexes = {}
    for root in roots:
        paths = sorted(set(map(str, list_project_files(root))))
        summaries, digests = _summaries(root, paths, cache_folder, jobs)
        index = ProjectIndex(root, summaries, is_installable(root), module_bases)
        index.digests = digests
        index.files_digest = content_digest("\0".join(sorted(summaries)).encode())
        indexes[root] = index
    return Projects(indexes, fallback)


def _real_folders(paths: Iterable[Path]) -> list[Path]:
    """The real folder of each file, sorted (resolved once per folder, as in `resolved_paths`)."""
    return sorted({os.path.dirname(path) for path in resolved_paths(paths)}, key=str)


def resolved_paths(paths: Iterable[Path]) -> set[str]:
    """Each path resolved as `Path.resolve` would, with a stat per part of the path only once
    per folder (a file that is not a symlink resolves to its folder's real path and its name)."""
    folders: dict[Path, Path] = {}
    found = set()
    for path in paths:
        if path.is_symlink():
            found.add(str(path.resolve()))
            continue
        folder = folders.get(path.parent)
        if folder is None:
            folder = folders[path.parent] = path.parent.resolve()
        found.add(str(folder / path.name))
    return found


def _summaries(root: Path, paths: list[str], cache_folder: Path | None, jobs: int):
    """(path -> summary, path -> content digest) for every file of a project."""
    cache_file = _cache_file(cache_folder, root) if cache_folder is not None and len(paths) >= CACHED_FROM else None
    stamps = _load(_stamps_file(cache_file)) if cache_file is not None else {}
    unchanged: dict[str, tuple] = {}
    missing: list[str] = []
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        stamp = stamps.get(path)
        if stamp is not None and stamp[0] == stat.st_mtime_ns and stamp[1] == stat.st_size:
            unchanged[path] = stamp
        else:
            missing.append(path)
    if not missing and len(unchanged) == len(stamps):
        # Nothing changed: the cache is read only if a file has to be linted (a warm run whose
        # results are all cached reads none of it).
        store = SummaryStore(list(unchanged), lambda: {path: entry[3] for path, entry in _load_entries(cache_file).items()})
        return store, {path: stamp[2] for path, stamp in unchanged.items()}
    cached = _load_entries(cache_file)
    found: dict[str, PackedSummary] = {}
    entries: dict[str, tuple] = {}
    for path, stamp in unchanged.items():
        entry = cached.get(path)
        if entry is not None and entry[:3] == stamp:
            found[path], entries[path] = entry[3], entry
        else:
            missing.append(path)
    for path, (stat_key, digest, packed) in _summarise_all(missing, cached, jobs):
        found[path] = packed
        entries[path] = (*stat_key, digest, packed)
    if cache_file is not None and (missing or len(entries) != len(cached)):
        changed = {path: entries[path] for path in missing if path in entries}
        if entries.keys() == cached.keys():
            _save_journal(cache_file, changed, entries)
        else:
            _save(cache_file, entries)
    return SummaryStore(list(found), lambda: found), {path: entry[2] for path, entry in entries.items()}


@dataclass(frozen=True)
class PackedSummary:
    """A module's summary as pickled bytes (what crosses from the workers and into the cache),
    with the names the index looks modules up by, readable without unpickling it."""

    blob: bytes
    called: frozenset[str]
    escaped: frozenset[str]
    parsed: bool  # CPython accepted the text
    uses: str  # summary.uses_digest
    outline: Outline | None = None  # CPython's outline of the text, when it accepted it

    @classmethod
    def of(cls, summary: ModuleSummary, outline: Outline | None = None) -> PackedSummary:
        try:
            blob = pickle.dumps(summary, protocol=pickle.HIGHEST_PROTOCOL)
        except RecursionError:
            # nested deeper than pickle goes (`x[0][0]...` a thousand times): nothing is known of
            # the module, as when summarising it recursed too deep
            summary = ModuleSummary({}, (), None, syntax_error=summary.syntax_error)
            blob = pickle.dumps(summary, protocol=pickle.HIGHEST_PROTOCOL)
        return cls(blob, *lookup_names(summary), summary.syntax_error is None, uses_digest(summary), outline)


def _summarise_one(path: str, previous: tuple | None = None):
    try:
        stat = os.stat(path)
        data = Path(path).read_bytes()
    except OSError:
        return path, ((0, 0), "", PackedSummary.of(ModuleSummary({}, (), None)))
    digest = content_digest(data)
    if previous is not None and previous[2] == digest:
        return path, ((stat.st_mtime_ns, stat.st_size), digest, previous[3])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if path.endswith(".ipynb"):
        text = _notebook_code(text)
    with collector.paused():
        packed = PackedSummary.of(*summarize_and_outline(text, path))
    return path, ((stat.st_mtime_ns, stat.st_size), digest, packed)


def _notebook_code(text: str) -> str:
    """A notebook's code cells as the linter reads them (magics masked); nothing for one that is
    not a valid notebook (it is reported when it is linted)."""
    from torchlint.notebooks import load_notebook
    from torchlint.sourcefile import SourceError

    try:
        return load_notebook(text).text
    except SourceError:
        return ""


def _summarise_all(paths: list[str], cached: dict, jobs: int):
    if len(paths) < PARALLEL_FROM or jobs <= 1:
        return [_summarise_one(path, cached.get(path)) for path in paths]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    # The results are many new objects: the collector would scan them over and over.
    with collector.paused(), ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        return list(pool.map(_summarise_one, paths, [cached.get(p) for p in paths], chunksize=16))


class SummaryStore(Mapping):
    """path -> summary, each unpickled on first use (a run reads the modules its files consult,
    not the whole project); `load` gives the packed summaries, and is called only when one is
    needed."""

    def __init__(self, paths: list[str], load):
        self._paths = paths
        self._known = frozenset(paths)
        self._load = load
        self._packed: dict[str, PackedSummary] | None = None
        self._summaries: dict[str, ModuleSummary] = {}

    def packed(self, path: str) -> PackedSummary:
        if self._packed is None:
            self._packed = self._load()
        found = self._packed.get(path)
        if found is None:  # missing from an unreadable cache: made afresh
            found = self._packed[path] = _summarise_one(path)[1][2]
        return found

    def parsed(self, path: str) -> bool:
        return self.packed(path).parsed

    def outline(self, path: str) -> Outline | None:
        return self.packed(path).outline

    def lookup_names(self, path: str) -> tuple[frozenset[str], frozenset[str]]:
        packed = self.packed(path)
        return packed.called, packed.escaped

    def uses_digest(self, path: str) -> str:
        return self.packed(path).uses

    def __getitem__(self, path: str) -> ModuleSummary:
        summary = self._summaries.get(path)
        if summary is None:
            if path not in self._known:
                raise KeyError(path)
            summary = self._summaries[path] = pickle.loads(self.packed(path).blob)
        return summary

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def __contains__(self, path: object) -> bool:
        return path in self._known


def _stamps_file(cache_file: Path) -> Path:
    return cache_file.with_suffix(".stamps")


# A run that re-summarised a few edited files (pre-commit, an editor) writes those entries to a
# small journal beside the cache instead of rewriting the whole cache (tens of MB for a large
# project); the journal is merged on load, and folded into the cache once it grows past this.
JOURNAL_LIMIT = 64


def _journal_file(cache_file: Path) -> Path:
    return cache_file.with_suffix(".journal")


def _load_entries(cache_file: Path | None) -> dict:
    """The cache's entries with the journal's over them. Every entry is checked against the
    file's stamp and digest before use, so a stale one is only summarised again."""
    entries = _load(cache_file)
    if cache_file is not None:
        entries.update(_load(_journal_file(cache_file)))
    return entries


def _save_journal(cache_file: Path, changed: dict, entries: dict) -> None:
    """The changed entries into the journal, or the whole cache when the journal would grow past
    its limit (or there is no cache to journal against)."""
    journal = _journal_file(cache_file)
    written = _load(journal) if journal.exists() else {}
    written.update(changed)
    if not cache_file.exists() or len(written) > JOURNAL_LIMIT:
        _save(cache_file, entries)
        return
    try:
        _write_pickle(journal, written)
        _write_stamps(cache_file, entries)
    except OSError as error:
        print(f"torchlint: warning: cannot write the index cache in {cache_file.parent}: {error}", file=sys.stderr)


def _cache_file(folder: Path, root: Path) -> Path:
    from torchlint.cache import code_fingerprint

    name = hashlib.blake2b(str(root).encode(), digest_size=8).hexdigest()
    return folder / "v1" / f"index-{FORMAT}-{code_fingerprint()}-{name}.pickle"


def _load(cache_file: Path | None) -> dict:
    if cache_file is None or not cache_file.exists():
        return {}
    try:
        with open(cache_file, "rb") as stream:
            data = pickle.load(stream)
        return data if isinstance(data, dict) else {}
    except Exception as error:  # a corrupt cache is a warning, never an error
        print(f"torchlint: warning: ignoring the unreadable index cache {cache_file}: {error}", file=sys.stderr)
        return {}


def _save(cache_file: Path, entries: dict) -> None:
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        _write_pickle(cache_file, entries)
        _journal_file(cache_file).unlink(missing_ok=True)  # folded into the cache
        _write_stamps(cache_file, entries)
    except OSError as error:
        print(f"torchlint: warning: cannot write the index cache in {cache_file.parent}: {error}", file=sys.stderr)


def _write_stamps(cache_file: Path, entries: dict) -> None:
    """(mtime, size, digest) per path, small: what a run with nothing changed needs."""
    _write_pickle(_stamps_file(cache_file), {path: entry[:3] for path, entry in entries.items()})


def _write_pickle(path: Path, data: dict) -> None:
    """Written beside and renamed over: a reader never sees half a file."""
    handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "wb") as stream:
        pickle.dump(data, stream, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(temp, path)
