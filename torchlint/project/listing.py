"""A project's file listing, kept between runs: walking a large project and matching every entry
against its excludes and .gitignore files costs more than linting the one file pre-commit names.

A kept listing is trusted while nothing that decided it has changed: no folder the walk read
(an entry added, removed or renamed changes the folder's mtime), no .gitignore or pyproject.toml
in those folders, above the root or above a symlinked folder's real path (its settings come from
there), no extensionless file whose first line was read (a shebang may come or go), no symlink's
target (one may appear or go), and the same command-line settings and torchlint code. A folder or file changed
in the last seconds before the walk is not trusted (a filesystem may keep mtimes in whole seconds):
such a listing is not kept, nor is one walked in a few milliseconds (a small project)."""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

FORMAT = 1
DECIDING_NAMES = (".gitignore", "pyproject.toml")  # in a folder read, or one above the root
RACY_SECONDS = 2.0
KEPT_FROM_SECONDS = 0.05  # a walk faster than this is not worth a file in the cache folder

Stamp = tuple[int, int] | None  # (mtime_ns, size), None when absent
T = TypeVar("T")


def cached_listing(root: Path, cache_folder: Path | None, key: str, walk: Callable[[], tuple[T, list[Path], list[Path]]]) -> T:
    """What `walk()` lists under `root`, kept between runs. `walk()` gives (the listing, the folders
    it read, the files whose first line it read); `key` names everything else the listing
    depends on (`settings_key`, and what is listed)."""
    if cache_folder is None:
        return walk()[0]
    kept = _kept_file(cache_folder, root, key)
    recorded = _load(kept)
    if recorded is not None and _unchanged(recorded["stamps"]):
        return recorded["listing"]
    started, timer = time.time(), time.perf_counter()
    listing, folders, files_read = walk()
    if time.perf_counter() - timer < KEPT_FROM_SECONDS:
        return listing
    stamps = _stamps_of(root, folders, files_read)
    if not _racy(stamps, started):
        _save(kept, {"listing": listing, "stamps": stamps})
    return listing


def settings_key(resolver) -> str:
    """What a listing depends on besides the files: the settings given on the command line, the
    folder relative paths start from, a --config file, and torchlint's code."""
    from torchlint.cache import code_fingerprint

    explicit = resolver.explicit_path
    stamp = None
    if explicit is not None:
        stat = explicit.stat()
        stamp = (str(explicit.resolve()), stat.st_mtime_ns, stat.st_size)
    return repr((str(resolver.cwd), resolver.cli, stamp, code_fingerprint()))


def _stamps_of(root: Path, folders: list[Path], files_read: list[Path]) -> dict[str, Stamp]:
    stamps: dict[str, Stamp] = {}
    deciding: set[str] = set()  # folders whose .gitignore and pyproject.toml decide
    for folder in folders:
        stamps[str(folder)] = _stamp(folder)
        deciding.add(str(folder))
        # the settings of a folder reached through a symlink come from above its real path
        real = Path(os.path.realpath(folder))
        deciding.update(str(above) for above in (real, *real.parents))
    for path in files_read:
        stamps[str(path)] = _stamp(path)  # (followed: a symlink's target)
    deciding.update(str(above) for above in root.parents)
    for folder in sorted(deciding):
        for name in DECIDING_NAMES:
            stamps[os.path.join(folder, name)] = _stamp(Path(folder) / name)
    for above in root.parents:
        # only whether it exists: a .git folder changes with every commit
        stamps[str(above / ".git")] = (0, 0) if (above / ".git").exists() else None
    return stamps


def _stamp(path: Path) -> Stamp:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _unchanged(stamps: dict[str, Stamp]) -> bool:
    for path, stamp in stamps.items():
        if path.endswith(f"{os.sep}.git"):
            if (stamp is not None) != os.path.exists(path):
                return False
        elif _stamp(Path(path)) != stamp:
            return False
    return True


def _racy(stamps: dict[str, Stamp], started: float) -> bool:
    newest_trusted = (started - RACY_SECONDS) * 1e9
    return any(stamp is not None and stamp[0] > newest_trusted for stamp in stamps.values())


def _kept_file(cache_folder: Path, root: Path, key: str) -> Path:
    name = hashlib.blake2b(f"{FORMAT}\0{root}\0{key}".encode(), digest_size=8).hexdigest()
    return cache_folder / "v1" / f"files-{name}.pickle"


def _load(kept: Path) -> dict | None:
    try:
        with open(kept, "rb") as stream:
            data = pickle.load(stream)
    except Exception:  # absent, unreadable or corrupt: listed afresh
        return None
    if not isinstance(data, dict) or "listing" not in data or not isinstance(data.get("stamps"), dict):
        return None
    return data


def _save(kept: Path, data: dict) -> None:
    """Written beside and renamed over; a folder that cannot be written only costs the next walk."""
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=kept.parent, suffix=".tmp")
        with os.fdopen(handle, "wb") as stream:
            pickle.dump(data, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp, kept)
    except OSError:
        pass
