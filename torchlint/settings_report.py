"""`torchlint check --show-settings`: the settings one file is linted with, each with where it came
from (a flag, a pyproject.toml, or the default)."""

from __future__ import annotations

from pathlib import Path

from torchlint.config import DEFAULT_EXCLUDES, DEFAULT_MAX_FILE_SIZE, DEFAULT_TARGET_TORCH, ConfigResolver

DEFAULT = "default"


def _from(cli_value, flag: str, config_value, config_where: str, default):
    """(value, source) of a setting given on the command line, in the config file, or neither."""
    if cli_value is not None:
        return cli_value, flag
    if config_value is not None:
        return config_value, config_where
    return default, DEFAULT


def describe(resolver: ConfigResolver, path: Path) -> list[dict]:
    """One row per setting: {"key", "value", "source"}; values are plain JSON data."""
    settings = resolver.for_file(path)
    config, cli = settings.config, resolver.cli
    where = str(config.path) if config.path is not None else DEFAULT
    rows = [("config-file", str(config.path) if config.path else None, "--config" if resolver.explicit_path else where),
            ("project-root", str(settings.root), where if config.path else "the current folder")]

    def add(key, cli_value, flag, config_value, default, show=lambda value: value):
        value, source = _from(cli_value, flag, config_value, where, default)
        rows.append((key, show(value), source))

    version = ".".join
    if cli.target_torch is None and config.target_torch is None and settings.target_torch_source.startswith("the default"):
        add("target-torch", None, "--target-torch", None, DEFAULT_TARGET_TORCH, lambda value: version(map(str, value)))
    elif cli.target_torch is None and config.target_torch is None:  # read from the project's pins
        rows.append(("target-torch", version(map(str, settings.target_torch)), settings.target_torch_source))
    else:
        add("target-torch", _tuple(cli.target_torch), "--target-torch", _tuple(config.target_torch),
            DEFAULT_TARGET_TORCH, lambda value: version(map(str, value)))
    add("preview", cli.preview, "--preview", config.preview, False)
    add("unsafe-fixes", cli.unsafe_fixes, "--unsafe-fixes", config.unsafe_fixes, False)
    add("select", cli.select, "--select", config.select, None)
    add("extend-select", cli.extend_select or None, "--extend-select", config.extend_select or None, [])
    add("ignore", cli.ignore or None, "--ignore", config.ignore or None, [])
    relative = settings._relative(path)
    per_file = {glob: codes for glob, codes in config.per_file_ignores.items() if _matches(glob, relative)}
    rows.append(("per-file-ignores (matching this file)", per_file, where if per_file else DEFAULT))
    enabled = settings.codes_for(path)
    rows.append(("enabled rules", enabled, "the selection above"))
    add("exclude", None, "", config.exclude, list(DEFAULT_EXCLUDES))
    add("extend-exclude", None, "", config.extend_exclude or None, [])
    add("baseline", None, "", str(config.baseline) if config.baseline else None, None)
    add("max-file-size", None, "", config.max_file_size, DEFAULT_MAX_FILE_SIZE)
    add("module-base-classes", None, "", config.module_base_classes or None, [])
    add("backward-functions", None, "", config.backward_functions or None, [])
    return [{"key": key, "value": value, "source": source} for key, value, source in rows]


def _tuple(value):
    return tuple(value) if value is not None else None


def _matches(glob: str, relative: str) -> bool:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines([glob]).match_file(relative)


def _show(value) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = [{', '.join(codes)}]" for key, codes in value.items()) + "}"
    return str(value)


def render_text(display: str, rows: list[dict]) -> str:
    lines = [f"Resolved settings for: {display}"]
    width = max(len(row["key"]) for row in rows)
    for row in rows:
        lines.append(f"{row['key']:<{width}} = {_show(row['value'])}  # from {row['source']}")
    return "\n".join(lines)
