"""A flake8 plugin, for teams whose gate is flake8: `flake8 --select TL` reports torchlint's
findings (no fixes). flake8 itself reports syntax errors (E999), so TL000 is not repeated here.

The plugin reads `[tool.torchlint]` from the project's pyproject.toml as `torchlint check` does
(`select`, `extend-select`, `ignore`, `per-file-ignores`, `preview`, `target-torch`), so a repo lints
the same under both. flake8 then filters what the plugin yields with its own `--select`,
`--ignore`, `per-file-ignores` and `# noqa`: a finding shows only when both let it through."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from torchlint import __version__

_RESOLVERS: dict[Path, object] = {}  # one per working folder, for every file flake8 hands over


def _resolver():
    from torchlint.config import CliOverrides, ConfigResolver

    cwd = Path.cwd().resolve()
    if cwd not in _RESOLVERS:
        _RESOLVERS[cwd] = ConfigResolver(CliOverrides(), cwd=cwd)
    return _RESOLVERS[cwd]


class Flake8Plugin:
    name = "torchlint"
    version = __version__

    def __init__(self, tree, filename: str, lines: list[str]):
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from torchlint.config import ConfigError
        from torchlint.engine import lint_text

        on_disk = self.filename not in ("-", "stdin")
        path = Path(self.filename).resolve() if on_disk else Path.cwd().resolve() / "stdin.py"
        try:
            settings = _resolver().for_file(path)
            rules = settings.rules_for(path)
        except ConfigError as error:  # flake8 has no exit code of its own for this: say it once per file
            yield 1, 0, f"TL000 torchlint configuration error: {error}", type(self)
            return
        result = lint_text("".join(self.lines), self.filename, rules, settings.lint_settings())
        for diagnostic in result.diagnostics:
            if diagnostic.code != "TL000":
                yield diagnostic.line, diagnostic.column - 1, f"{diagnostic.code} {diagnostic.message}", type(self)
