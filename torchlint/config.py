"""`[tool.torchlint]` in the nearest pyproject.toml, merged with the command line."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from torchlint.selection import SelectionError, SelectionLayer, enabled_codes, expand, selectable_rules

DEFAULT_TARGET_TORCH = (2, 13)
DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", ".eggs", "build", "dist",
    "__pycache__", "site-packages", "node_modules", ".mypy_cache", ".ruff_cache",
    ".pytest_cache", ".torchlint_cache",
)
_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude", "module-base-classes",
              "backward-functions")
KNOWN_KEYS = frozenset(
    {*_LIST_KEYS, "per-file-ignores", "unsafe-fixes", "target-torch", "baseline", "max-file-size", "preview"}
)
_VERSION = re.compile(r"^\d+(\.\d+){0,2}$")
DEFAULT_MAX_FILE_SIZE = 10_000_000  # bytes; larger files are skipped (libcst needs ~800x their size in memory)
_SIZE = re.compile(r"^\s*(\d+)\s*(B|KB|MB|GB)?\s*$", re.I)
_SIZE_UNITS = {"B": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3}


class ConfigError(Exception):
    pass


def parse_torch_version(value: str, where: str) -> tuple[int, ...]:
    text = str(value).strip()
    if not _VERSION.match(text):
        raise ConfigError(f"invalid torch version `{value}` in {where}: expected e.g. 2.6")
    return tuple(int(part) for part in text.split("."))


def parse_file_size(value, where: str) -> int:
    """`max-file-size`: a number of bytes, or a string such as "10MB" (KB, MB, GB: powers of 1000)."""
    match = _SIZE.match(value) if isinstance(value, str) else None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    if match and int(match.group(1)) > 0:
        return int(match.group(1)) * _SIZE_UNITS[(match.group(2) or "B").upper()]
    raise ConfigError(f"`max-file-size` in {where} must be a positive number of bytes or a size such as \"10MB\"")


@dataclass(frozen=True)
class FileConfig:
    """The `[tool.torchlint]` table of one pyproject.toml (or the defaults when there is none)."""

    path: Path | None
    root: Path
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] | None = None
    extend_exclude: list[str] = field(default_factory=list)
    unsafe_fixes: bool | None = None
    preview: bool | None = None
    target_torch: tuple[int, ...] | None = None
    baseline: Path | None = None  # resolved against the config file's folder
    module_base_classes: list[str] = field(default_factory=list)
    backward_functions: list[str] = field(default_factory=list)
    max_file_size: int | None = None


def _read_table(path: Path) -> dict | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read {path}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"invalid TOML in {path}: {error}") from None
    tool = data.get("tool", {})
    return tool.get("torchlint") if isinstance(tool, dict) else None


def load_config(path: Path, require_table: bool = False) -> FileConfig | None:
    table = _read_table(path)
    if table is None:
        if require_table:
            return FileConfig(path=path, root=path.parent.resolve())
        return None
    where = f"{path} [tool.torchlint]"
    unknown = sorted(set(table) - KNOWN_KEYS)
    if unknown:
        raise ConfigError(f"unknown key `{unknown[0]}` in {where}")
    for key in _LIST_KEYS:
        if key in table and not _is_string_list(table[key]):
            raise ConfigError(f"`{key}` in {where} must be a list of strings")
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict) or not all(_is_string_list(v) for v in per_file.values()):
        raise ConfigError(f"`per-file-ignores` in {where} must map globs to lists of codes")
    for key in ("unsafe-fixes", "preview"):
        if table.get(key) is not None and not isinstance(table[key], bool):
            raise ConfigError(f"`{key}` in {where} must be true or false")
    unsafe = table.get("unsafe-fixes")
    try:
        for key in ("select", "extend-select", "ignore"):
            expand(table.get(key, []), where)
        for codes in per_file.values():
            expand(codes, where)
    except SelectionError as error:
        raise ConfigError(str(error)) from None
    target = table.get("target-torch")
    if target is not None and not isinstance(target, str):
        # TOML reads `2.10` as the float 2.1: only a string keeps the version the user wrote
        raise ConfigError(f"`target-torch` in {where} must be a string such as \"2.6\" (quote it)")
    max_file_size = table.get("max-file-size")
    baseline = table.get("baseline")
    if baseline is not None and not isinstance(baseline, str):
        raise ConfigError(f"`baseline` in {where} must be a path")
    return FileConfig(
        path=path,
        root=path.parent.resolve(),
        select=table.get("select"),
        extend_select=table.get("extend-select", []),
        ignore=table.get("ignore", []),
        per_file_ignores=dict(per_file),
        exclude=table.get("exclude"),
        extend_exclude=table.get("extend-exclude", []),
        unsafe_fixes=unsafe,
        preview=table.get("preview"),
        target_torch=parse_torch_version(target, where) if target is not None else None,
        baseline=path.parent / baseline if baseline is not None else None,
        module_base_classes=table.get("module-base-classes", []),
        backward_functions=table.get("backward-functions", []),
        max_file_size=parse_file_size(max_file_size, where) if max_file_size is not None else None,
    )


def _is_string_list(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


@dataclass(frozen=True)
class CliOverrides:
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    unsafe_fixes: bool | None = None
    target_torch: tuple[int, ...] | None = None
    preview: bool | None = None


def resolve_target_torch(cli: CliOverrides, config: FileConfig) -> tuple[tuple[int, ...], str]:
    """The target torch and where it came from: `--target-torch`, then `target-torch` in the config,
    then the lowest torch the project's own requirements allow (torchlint/target_torch.py), then
    the default."""
    if cli.target_torch:
        return cli.target_torch, "--target-torch"
    if config.target_torch:
        return config.target_torch, f"target-torch in {config.path}"
    from torchlint.target_torch import project_target_torch

    found = project_target_torch(config.root)
    if found is not None:
        return found.version, found.source
    return DEFAULT_TARGET_TORCH, "the default (no lower bound on torch found in the project)"


class Settings:
    """Everything that decides how one file is linted: a config file merged with the flags."""

    def __init__(self, config: FileConfig, cli: CliOverrides):
        self.config = config
        self.root = config.root
        self.preview = cli.preview if cli.preview is not None else bool(config.preview)
        try:
            self.enabled = enabled_codes(
                [
                    SelectionLayer(config.select, config.extend_select, config.ignore, str(config.path)),
                    SelectionLayer(cli.select, cli.extend_select, cli.ignore, "the command line"),
                ],
                preview=self.preview,
            )
            self._per_file_codes = [(glob, frozenset(expand(codes))) for glob, codes in config.per_file_ignores.items()]
        except SelectionError as error:
            raise ConfigError(str(error)) from None
        self.unsafe_fixes = cli.unsafe_fixes if cli.unsafe_fixes is not None else bool(config.unsafe_fixes)
        self.baseline = config.baseline
        self.target_torch, self.target_torch_source = resolve_target_torch(cli, config)
        self.module_base_classes = frozenset(config.module_base_classes)
        self.backward_functions = tuple(config.backward_functions)
        self.max_file_size = config.max_file_size or DEFAULT_MAX_FILE_SIZE

    def lint_settings(self):
        """What rules may consult while linting a file under these settings."""
        from torchlint.context import LintSettings

        return LintSettings(self.target_torch, self.module_base_classes, self.backward_functions)

    # pathspec is imported and the patterns compiled on first use: linting one named file needs neither.
    @cached_property
    def _excludes(self):
        import pathspec

        excludes = list(DEFAULT_EXCLUDES if self.config.exclude is None else self.config.exclude)
        return pathspec.GitIgnoreSpec.from_lines(excludes + list(self.config.extend_exclude))

    @cached_property
    def _per_file(self):
        if not self._per_file_codes:
            return []
        import pathspec

        return [(pathspec.GitIgnoreSpec.from_lines([glob]), codes) for glob, codes in self._per_file_codes]

    def _relative(self, path: Path) -> str:
        absolute = path.resolve() if not path.is_absolute() else path
        try:
            return absolute.relative_to(self.root).as_posix()
        except ValueError:
            return absolute.as_posix().lstrip("/")

    def is_excluded(self, path: Path, is_dir: bool, base: Path | None = None) -> bool:
        """Matched against the path relative to the project root, or to `base` when given."""
        relative = path.relative_to(base).as_posix() if base is not None else self._relative(path)
        return self._excludes.match_file(relative + "/" if is_dir else relative)

    def contains(self, path: Path) -> bool:
        return path.resolve().is_relative_to(self.root)

    def codes_for(self, path: Path | None) -> list[str]:
        """The codes of the rules that run on the file, sorted (the rules are not imported)."""
        codes = set(self.enabled)
        if path is not None:
            relative = self._relative(path)
            for spec, ignored in self._per_file:
                if spec.match_file(relative):
                    codes -= ignored
        return sorted(codes)

    def rules_for(self, path: Path | None):
        codes = set(self.codes_for(path))
        return [rule for rule in selectable_rules() if rule.code in codes]


class ConfigResolver:
    """Finds each file's settings: `--config` if given, else the closest pyproject.toml with a
    `[tool.torchlint]` table among the file's parent folders, else the defaults."""

    def __init__(self, cli: CliOverrides, explicit: Path | None = None, cwd: Path | None = None):
        self.cli = cli
        self.explicit_path = explicit
        self.cwd = (cwd or Path.cwd()).resolve()
        self._by_dir: dict[Path, Settings] = {}
        self._by_config: dict[Path | None, Settings] = {}
        self._explicit = None
        if explicit is not None:
            if not explicit.is_file():
                raise ConfigError(f"config file {explicit} does not exist")
            self._explicit = self._settings(load_config(explicit, require_table=True))

    def _settings(self, config: FileConfig) -> Settings:
        if config.path not in self._by_config:
            self._by_config[config.path] = Settings(config, self.cli)
        return self._by_config[config.path]

    def for_directory(self, directory: Path) -> Settings:
        if self._explicit is not None:
            return self._explicit
        found = self._by_dir.get(directory)  # by the path as given too: resolving costs a stat per part
        if found is None:
            resolved = directory.resolve()
            if resolved not in self._by_dir:
                self._by_dir[resolved] = self._find(resolved)
            found = self._by_dir[directory] = self._by_dir[resolved]
        return found

    def for_file(self, path: Path) -> Settings:
        return self.for_directory(path.parent)

    def _find(self, directory: Path) -> Settings:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            config = load_config(candidate)
            if config is not None:
                return self._settings(config)
        if directory.parent != directory:
            return self.for_directory(directory.parent)
        return self._settings(FileConfig(path=None, root=self.cwd))

    def default(self) -> Settings:
        return self.for_directory(self.cwd)

    def used_settings(self) -> list[Settings]:
        """Every distinct settings object this run has made (one per config file)."""
        return list(self._by_config.values())

