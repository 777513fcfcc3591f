"""Where a file's project starts, and where Python would find the modules it imports."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
PACKAGING_MARKERS = ("setup.py", "setup.cfg")


@lru_cache(maxsize=4096)
def project_root(folder: Path, fallback: Path | None = None) -> Path:
    """The nearest folder at or above `folder` holding pyproject.toml, setup.py/setup.cfg or .git.
    With none: `fallback` (the top folder named on the command line, else the file's folder), and
    for a folder that is a package (has __init__.py) its parent, so `torch/` linted in place
    resolves `torch.nn...` imports to itself."""
    marked = _marked_folder(folder)
    if marked is not None:
        return marked
    root = fallback if fallback is not None and folder.is_relative_to(fallback) else folder
    while (root / "__init__.py").exists() and root.parent != root:
        root = root.parent
    return root


@lru_cache(maxsize=4096)
def _marked_folder(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` holding a root marker (each folder's markers are
    looked for once per run, however many folders below it ask)."""
    if any(os.path.exists(os.path.join(folder, marker)) for marker in ROOT_MARKERS):
        return folder
    return None if folder.parent == folder else _marked_folder(folder.parent)


def is_installable(root: Path) -> bool:
    """A project others install (so its public functions have callers the index cannot see)."""
    if any((root / marker).exists() for marker in PACKAGING_MARKERS):
        return True
    pyproject = root / "pyproject.toml"
    try:
        return pyproject.is_file() and "[project]" in pyproject.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def search_folders(root: Path) -> tuple[Path, ...]:
    """Where absolute imports are looked for, after the importing script's own folder."""
    src = root / "src"
    return (root, src) if src.is_dir() else (root,)
