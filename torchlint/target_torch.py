"""The torch version a project targets, read from its own pins when `--target-torch` /
`target-torch` is not given: the lowest version its requirement on torch allows.

Looked for in the project root, first found wins: pyproject.toml `[project]` dependencies and
optional dependencies, requirements*.txt, setup.cfg (`install_requires`, `extras_require`),
environment.yml / environment.yaml (conda's `pytorch` or `torch`, and its `pip:` list).
A requirement with no lower bound (`torch`, `torch<3`) says nothing: the default is used.
"""

from __future__ import annotations

import configparser
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_TORCH_NAMES = frozenset({"torch", "pytorch"})
# A conda match spec: `pytorch`, `pytorch=2.1`, `pytorch>=2.1,<2.5`, `pytorch 2.1.*`,
# `conda-forge::pytorch=2.1.0=py3.11_cuda12`.
_CONDA = re.compile(r"^\s*(?:[\w.-]+::)?(?P<name>[A-Za-z0-9_.-]+)\s*(?P<spec>[^=\s#][^\s#]*|=[^=\s#][^\s#]*|==[^\s#]+)?")


@dataclass(frozen=True)
class ProjectTarget:
    version: tuple[int, ...]
    source: str  # e.g. "pyproject.toml [project] dependencies: torch>=2.1,<2.5"


def lowest_allowed(specifier: str) -> tuple[int, ...] | None:
    """The lowest torch release a PEP 440 specifier set allows, or None without a lower bound."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    try:
        specifiers = SpecifierSet(specifier)
    except InvalidSpecifier:
        return None
    bounds = []
    for spec in specifiers:
        if spec.operator in ("==", "===", ">=", "~=", ">"):
            try:
                version = Version(spec.version.removesuffix(".*"))
            except InvalidVersion:
                continue
            bounds.append(version.release[:3])
    return max(bounds) if bounds else None


def _pep508(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    """(requirement text, its specifier) for each requirement on torch among `lines`."""
    from packaging.requirements import InvalidRequirement, Requirement

    for line in lines:
        text = line.split("#", 1)[0].strip()
        if not text or text.startswith("-"):
            continue
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            continue
        if requirement.name.lower() == "torch":
            yield text, str(requirement.specifier)


def _conda(entries: Iterable) -> Iterator[tuple[str, str]]:
    for entry in entries:
        if isinstance(entry, dict):  # `- pip: [...]`
            yield from _pep508(str(item) for item in entry.get("pip", []) or [])
            continue
        match = _CONDA.match(str(entry))
        if match is None or match.group("name").lower() not in _TORCH_NAMES:
            continue
        spec = (match.group("spec") or "").strip()
        if spec.startswith("=") and not spec.startswith("=="):
            spec = "==" + spec[1:].split("=")[0]  # conda's `=2.1` (any 2.1.x; a build string may follow)
        elif spec and spec[0].isdigit():
            spec = "==" + spec  # `pytorch 2.1.*`
        yield str(entry).strip(), spec


def _from_pyproject(path: Path) -> Iterator[tuple[str, str, str]]:
    try:
        project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return
    for text, spec in _pep508(project.get("dependencies", []) or []):
        yield "pyproject.toml [project] dependencies", text, spec
    for extra, lines in (project.get("optional-dependencies", {}) or {}).items():
        for text, spec in _pep508(lines or []):
            yield f"pyproject.toml [project] optional-dependencies {extra}", text, spec


def _from_requirements(root: Path) -> Iterator[tuple[str, str, str]]:
    for path in sorted(root.glob("requirements*.txt")):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for text, spec in _pep508(lines):
            yield path.name, text, spec


def _from_setup_cfg(path: Path) -> Iterator[tuple[str, str, str]]:
    parser = configparser.ConfigParser()
    try:
        parser.read_string(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return
    if parser.has_option("options", "install_requires"):
        for text, spec in _pep508(parser.get("options", "install_requires").splitlines()):
            yield "setup.cfg install_requires", text, spec
    if parser.has_section("options.extras_require"):
        for extra, value in parser.items("options.extras_require"):
            for text, spec in _pep508(value.splitlines()):
                yield f"setup.cfg extras_require {extra}", text, spec


def _from_environment(path: Path) -> Iterator[tuple[str, str, str]]:
    try:
        import yaml
    except ImportError:  # no YAML parser: read the flat list of `- name spec` lines instead
        yaml = None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    if yaml is not None:
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError:
            return
        entries = data.get("dependencies", []) if isinstance(data, dict) else []
    else:
        entries = [line.strip()[2:] for line in text.splitlines() if line.strip().startswith("- ")]
    for entry_text, spec in _conda(entries or []):
        yield path.name, entry_text, spec


def _sources(root: Path) -> Iterator[Iterator[tuple[str, str, str]]]:
    """Each kind of file in the documented order; the first kind naming torch decides."""
    yield _from_pyproject(root / "pyproject.toml")
    yield _from_requirements(root)
    yield _from_setup_cfg(root / "setup.cfg")
    for name in ("environment.yml", "environment.yaml"):
        yield _from_environment(root / name)


_PIN_FILES = ("pyproject.toml", "setup.cfg", "environment.yml", "environment.yaml")


def project_root(start: Path) -> Path:
    """The nearest folder at or above `start` holding a file that can pin torch, stopping at a
    repository's top (`.git`); `start` when there is none."""
    for folder in (start, *start.parents):
        if any((folder / name).is_file() for name in _PIN_FILES) or any(folder.glob("requirements*.txt")):
            return folder
        if (folder / ".git").exists():
            break
    return start


def project_target_torch(root: Path) -> ProjectTarget | None:
    """The lowest torch the first file naming torch allows, in the project around `root`; None
    when none names it or its requirement has no lower bound."""
    for found in _sources(project_root(root)):
        pins = list(found)
        if not pins:
            continue
        for where, text, spec in pins:
            version = lowest_allowed(spec)
            if version is not None:
                return ProjectTarget(version, f"{where}: {text}")
        return None
    return None
