"""Corpora of real code for the benchmarks: Python sources of packages nobody here wrote,
installed with --no-deps into throwaway virtual environments, copied into one folder per package.

Shared by bench/speed.py and bench/realworld.py. Needs the network (PyPI) the first time; results
are kept in the work folder (default: $TMPDIR/torchlint-bench).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

WORK = Path(os.environ.get("TORCHLINT_BENCH_DIR", Path(tempfile.gettempdir()) / "torchlint-bench"))


def python_of(environment: Path) -> Path:
    return environment / "bin" / "python"


def make_venv(name: str, requirements: list[str], no_deps: bool = False) -> Path:
    """A throwaway venv with `requirements` installed (once; kept for later runs)."""
    environment = WORK / "venvs" / name
    marker = environment / ".installed"
    wanted = " ".join(requirements) + (" --no-deps" if no_deps else "")
    if marker.exists() and marker.read_text() == wanted:
        return environment
    if environment.exists():
        shutil.rmtree(environment)
    venv.EnvBuilder(with_pip=True, clear=True).create(environment)
    command = [str(python_of(environment)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*command, *(["--no-deps"] if no_deps else []), *requirements], check=True)
    marker.write_text(wanted)
    return environment


def _site_packages(environment: Path) -> Path:
    return next((environment / "lib").glob("python*/site-packages"))


def copy_sources(source_root: Path, destination: Path) -> int:
    """Copy every .py file below `source_root` into `destination`, keeping the layout."""
    count = 0
    for path in source_root.rglob("*.py"):
        target = destination / path.relative_to(source_root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        count += 1
    return count


def package_corpus(requirement: str, top_level: list[str]) -> Path:
    """The .py files of one package (installed with --no-deps), in WORK/corpus/<name>."""
    name = requirement.split("==")[0]
    destination = WORK / "corpus" / name
    if destination.exists() and any(destination.rglob("*.py")):
        return destination
    environment = make_venv(f"src-{name}", [requirement], no_deps=True)
    site = _site_packages(environment)
    for package in top_level:
        if (site / package).is_dir():
            copy_sources(site / package, destination / package)
    return destination


def torch_corpus() -> Path:
    """The installed torch package's own .py files (torch must be importable here)."""
    destination = WORK / "corpus" / "torch"
    if destination.exists() and any(destination.rglob("*.py")):
        return destination
    import torch

    copy_sources(Path(torch.__file__).parent, destination / "torch")
    return destination


def python_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
