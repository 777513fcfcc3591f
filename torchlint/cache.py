"""Per-file results cached by content hash, in `.torchlint_cache/` (or --cache-dir /
TORCHLINT_CACHE_DIR). One JSON file per settings key; a corrupt or unwritable cache is ignored
with a warning."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import asdict
from functools import cache
from pathlib import Path

from torchlint import __version__
from torchlint.diagnostics import Diagnostic, Edit, Fix

DEFAULT_DIR = ".torchlint_cache"
FORMAT = "v1"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by torchlint.\n"


def cache_dir(option: str | None) -> Path:
    return Path(option or os.environ.get("TORCHLINT_CACHE_DIR") or DEFAULT_DIR)


@cache
def code_fingerprint() -> str:
    """Changes whenever torchlint's own code does, so an editable install never reads stale results."""
    import torchlint
    import torchlint.rules

    digest = hashlib.sha256(__version__.encode())
    for package in (torchlint, torchlint.rules):
        for path in sorted(Path(package.__path__[0]).rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _warn(message: str) -> None:
    print(f"torchlint: warning: {message}", file=sys.stderr)


class CorruptEntry(ValueError):
    pass


_DIAGNOSTIC_FIELDS = {
    "code": str, "name": str, "message": str, "line": int, "column": int, "end_line": int,
    "end_column": int, "severity": str,
}
_EDIT_FIELDS = {
    "start": int, "end": int, "content": str, "line": int, "column": int, "end_line": int, "end_column": int,
}


def _checked(data, fields: dict, what: str) -> dict:
    """`data` when it is a dict holding `fields`, each of its type."""
    if not isinstance(data, dict):
        raise CorruptEntry(f"{what} is not an object")
    for name, kind in fields.items():
        value = data.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise CorruptEntry(f"{what} has no valid `{name}`")
    return data


def _diagnostic_from_json(data, path: str) -> Diagnostic:
    """A cached finding, or CorruptEntry for anything that does not have its exact shape."""
    data = _checked(data, _DIAGNOSTIC_FIELDS, "a finding")
    unknown = set(data) - set(_DIAGNOSTIC_FIELDS) - {"fix", "cell", "path", "note"}
    if unknown:
        raise CorruptEntry(f"a finding has an unknown key `{sorted(unknown)[0]}`")
    cell = data.get("cell")
    if cell is not None and (not isinstance(cell, int) or isinstance(cell, bool)):
        raise CorruptEntry("a finding has no valid `cell`")
    fix = data.get("fix")
    if fix is not None:
        fix = _checked(fix, {"applicability": str, "message": str, "edits": list}, "a fix")
        edits = tuple(Edit(**{name: _checked(edit, _EDIT_FIELDS, "an edit")[name] for name in _EDIT_FIELDS})
                      for edit in fix["edits"])
        fix = Fix(fix["applicability"], fix["message"], edits)
    note = data.get("note")
    if note is not None and not isinstance(note, str):
        raise CorruptEntry("a finding has no valid `note`")
    fields = {name: data[name] for name in _DIAGNOSTIC_FIELDS}
    return Diagnostic(**fields, path=path, fix=fix, cell=cell, note=note)


def _diagnostic_to_json(diagnostic: Diagnostic) -> dict:
    data = asdict(diagnostic)
    del data["path"]  # the same file can be shown under another path next time
    return data


class ResultCache:
    """Diagnostics of unchanged files. `settings_key` covers every setting that affects them."""

    def __init__(self, directory: Path, settings_key: str):
        self.directory = directory
        self.file = directory / FORMAT / f"{settings_key}-{code_fingerprint()}.json"
        self.entries: dict[str, dict] = {}
        self.hits = self.misses = 0
        self._dirty = False
        self._load()

    def _load(self) -> None:
        if not self.file.exists():
            return
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
                raise ValueError("unexpected layout")
            self.entries = data["files"]
        except (OSError, ValueError) as error:
            _warn(f"ignoring the unreadable cache {self.file}: {error}")
            self.entries = {}

    def get(self, key: str, digest: str, display: str, dependencies_unchanged=None) -> list[Diagnostic] | None:
        """`dependencies_unchanged(recorded)`: whether the project modules the entry's findings
        rested on still have the digests recorded (so editing models.py re-lints train.py)."""
        entry = self.entries.get(key)
        if not isinstance(entry, dict) or entry.get("hash") != digest:
            if entry is not None and not isinstance(entry, dict):
                _warn(f"ignoring a corrupt cache entry for {display}: not an object")
            self.misses += 1
            return None
        recorded = entry.get("dependencies") or {}
        if recorded and (dependencies_unchanged is None or not isinstance(recorded, dict)
                         or not dependencies_unchanged(recorded)):
            self.misses += 1
            return None
        try:
            items = entry.get("diagnostics")
            if not isinstance(items, list):
                raise CorruptEntry("no list of findings")
            found = [_diagnostic_from_json(item, display) for item in items]
        except (CorruptEntry, KeyError, TypeError) as error:
            _warn(f"ignoring a corrupt cache entry for {display}: {error}")
            self.misses += 1
            return None
        self.hits += 1
        return found

    def put(self, key: str, digest: str, diagnostics: list[Diagnostic], dependencies: dict | None = None) -> None:
        self.entries[key] = {"hash": digest, "diagnostics": [_diagnostic_to_json(d) for d in diagnostics],
                             "dependencies": dependencies or {}}
        self._dirty = True

    def save(self) -> None:
        if not self._dirty:
            return
        try:
            self._prepare_directory()
            handle, temp = tempfile.mkstemp(dir=self.file.parent, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump({"torchlint": __version__, "files": self.entries}, stream)
            os.replace(temp, self.file)
        except OSError as error:
            _warn(f"cannot write the cache in {self.directory}: {error}")

    def _prepare_directory(self) -> None:
        self.file.parent.mkdir(parents=True, exist_ok=True)
        tag = self.directory / "CACHEDIR.TAG"
        if not tag.exists():
            tag.write_text(_TAG, encoding="utf-8")
        ignore = self.directory / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# created by torchlint\n*\n", encoding="utf-8")


def clean(directory: Path) -> bool:
    if not directory.exists():
        return False
    shutil.rmtree(directory)
    return True
