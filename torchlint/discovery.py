"""Paths on the command line → the Python files to lint, honouring .gitignore and excludes."""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from torchlint.config import ConfigResolver

SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")
# An extensionless file in a folder walk is a Python script when its first line says so.
_PYTHON_SHEBANG = re.compile(rb"^#![^\n]*\bpython[0-9.]*\b")


@dataclass(frozen=True)
class SourcePath:
    display: str  # as the user would write it: relative stays relative
    path: Path


@dataclass(frozen=True)
class _IgnoreFile:
    base: Path
    spec: object  # a pathspec.GitIgnoreSpec (pathspec is imported only when a .gitignore is found)


def _load_gitignore(directory: Path) -> _IgnoreFile | None:
    gitignore = directory / ".gitignore"
    try:  # (`is_file()` raises where the folder cannot be searched: a folder of another user)
        if not gitignore.is_file():
            return None
        lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    import pathspec

    return _IgnoreFile(directory, pathspec.GitIgnoreSpec.from_lines(lines))


def _gitignored(path: Path, is_dir: bool, ignore_files: list[_IgnoreFile]) -> bool:
    """The deepest .gitignore with a matching pattern decides, as git does."""
    for ignore_file in reversed(ignore_files):
        relative = path.relative_to(ignore_file.base).as_posix() + ("/" if is_dir else "")
        result = ignore_file.spec.check_file(relative)
        if result.include is not None:
            return result.include
    return False


def _ancestor_gitignores(directory: Path) -> list[_IgnoreFile]:
    """The .gitignore files above a starting folder, up to the repository root."""
    found = []
    current = directory.resolve()
    while True:
        ignore_file = _load_gitignore(current)
        if ignore_file is not None:
            found.append(ignore_file)
        if (current / ".git").exists() or current.parent == current:
            break
        current = current.parent
    return list(reversed(found))


def _is_python_script(entry: os.DirEntry) -> bool:
    """An extensionless regular file whose first line is a python shebang (`#!/usr/bin/env python3`)."""
    if "." in entry.name:
        return False
    try:
        with open(entry.path, "rb") as stream:
            return _PYTHON_SHEBANG.match(stream.read(128)) is not None
    except OSError:
        return False


def _kind(entry: os.DirEntry) -> str | None:
    """"dir" or "file" (following symlinks), None for anything else; OSError when it cannot be
    stat'ed (a symlink loop, a permission problem)."""
    mode = entry.stat().st_mode
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else None


class Discovery:
    def __init__(self, resolver: ConfigResolver, force_exclude: bool = False, cache_folder: Path | None = None):
        """`cache_folder`: where the listing of each folder named is kept between runs."""
        self.resolver = resolver
        self.force_exclude = force_exclude
        self.cache_folder = cache_folder
        self.skipped: list[tuple[str, str]] = []  # (path as shown, why it was not linted)
        # Each folder walked (as resolved) -> the files found in it, for the project index to reuse.
        self.walked: dict[Path, list[Path]] = {}
        # What decided the listing, for a cache of it to check: every folder read, and the files
        # whose state did: an extensionless file whose first line was read (a shebang may come
        # or go), a symlink (whether its target exists, and what it is).
        self.folders_read: list[Path] = []
        self.files_read: list[Path] = []

    def files(self, arguments: list[str]) -> tuple[list[SourcePath], list[str]]:
        """The files to lint, sorted and deduplicated, and the arguments that do not exist."""
        found: dict[Path, SourcePath] = {}
        missing: list[str] = []
        for argument in arguments:
            path = Path(argument)
            if path.is_dir():
                if self.force_exclude and self._excluded(path.resolve(), True):
                    continue
                start = path.resolve()
                walked = self.walked.setdefault(start, [])
                for source in self._folder_files(argument, start):
                    found.setdefault(source.path, source)
                    walked.append(source.path)
            elif path.exists():
                if self.force_exclude and self._excluded(path.resolve(), False):
                    continue
                if not path.is_file():  # a FIFO would block the read forever; a device never ends
                    self.skipped.append((os.path.normpath(argument), "it is not a regular file"))
                    continue
                found.setdefault(path.resolve(), SourcePath(os.path.normpath(argument), path.resolve()))
            elif path.is_symlink() or _lstat_fails(path):
                self.skipped.append((os.path.normpath(argument), "it cannot be read (a broken or looping link)"))
            else:
                missing.append(argument)
        return sorted(found.values(), key=lambda source: source.display), missing

    def _folder_files(self, argument: str, start: Path) -> list[SourcePath]:
        """The files in a folder named on the command line, walked or as kept by the last run
        (project/listing.py says when a kept listing is trusted)."""
        from torchlint.project.listing import cached_listing, settings_key

        def walk():
            recorder = Discovery(self.resolver)
            ignore_files = _ancestor_gitignores(Path(argument))
            found = recorder._walk(argument, start, ignore_files, recorder._exclusion_base(start), frozenset({str(start)}))
            files = [os.path.relpath(source.display, argument) for source in found]
            skipped = [(os.path.relpath(shown, argument), why) for shown, why in recorder.skipped]
            self.folders_read += recorder.folders_read
            self.files_read += recorder.files_read
            return (files, skipped), recorder.folders_read, recorder.files_read

        key = f"folder files {settings_key(self.resolver)}" if self.cache_folder is not None else ""
        files, skipped = cached_listing(start, self.cache_folder, key, walk)
        self.skipped += [(os.path.normpath(os.path.join(argument, shown)), why) for shown, why in skipped]
        return [SourcePath(os.path.normpath(os.path.join(argument, name)), start / name) for name in files]

    def _excluded(self, path: Path, is_dir: bool, base: Path | None = None) -> bool:
        # the settings of the folder holding `path` decide, as for a file inside it
        return self.resolver.for_directory(path.parent).is_excluded(path, is_dir, base)

    def _exclusion_base(self, start: Path) -> Path | None:
        """A folder named on the command line is linted even inside an excluded one (a venv's
        site-packages, say): below it, excludes match paths relative to it."""
        settings = self.resolver.for_directory(start)
        if not settings.contains(start) or settings.is_excluded(start, True):
            return start
        return None

    def _walk(self, display: str, directory: Path, ignore_files: list[_IgnoreFile], base: Path | None,
              ancestors: frozenset[str]):
        """`ancestors`: the real paths of the folders being walked, so that a symlink back into one
        of them is not followed round and round."""
        own = _load_gitignore(directory)
        if own is not None and (not ignore_files or ignore_files[-1].base != directory):
            ignore_files = [*ignore_files, own]
        try:
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError:
            return
        self.folders_read.append(directory)
        for entry in entries:
            path = Path(entry.path)
            shown = os.path.normpath(os.path.join(display, entry.name))
            if entry.is_symlink():
                self.files_read.append(path)
            try:
                kind = _kind(entry)
            except OSError as error:
                if entry.is_symlink() and error.errno == errno.ENOENT:
                    continue  # a broken link: nothing to lint
                self.skipped.append((shown, f"it cannot be read ({error.strerror or error})"))
                continue
            is_dir = kind == "dir"
            if self._excluded(path, is_dir, base) or _gitignored(path, is_dir, ignore_files):
                continue
            if is_dir:
                real = os.path.realpath(path)
                if real in ancestors:
                    self.skipped.append((shown, "a symlink back into a folder being walked"))
                    continue
                yield from self._walk(shown, path, ignore_files, base, ancestors | {real})
            elif kind == "file" and entry.name.endswith(SOURCE_SUFFIXES):
                yield SourcePath(shown, path)
            elif kind == "file" and "." not in entry.name:
                self.files_read.append(path)
                if _is_python_script(entry):
                    yield SourcePath(shown, path)


def _lstat_fails(path: Path) -> bool:
    try:
        path.stat()
    except OSError as error:
        return error.errno != errno.ENOENT
    return False
