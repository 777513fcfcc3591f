"""A flake8 plugin, for teams whose gate is flake8: `flake8 --select TL` reports torchlint's
findings (the rules on by default; no fixes). flake8 itself reports syntax errors (E999), so
TL000 is not repeated here."""

from __future__ import annotations

from collections.abc import Iterator

from torchlint import __version__


class Flake8Plugin:
    name = "torchlint"
    version = __version__

    def __init__(self, tree, filename: str, lines: list[str]):
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from torchlint.engine import lint_text
        from torchlint.selection import selectable_rules

        rules = [rule for rule in selectable_rules() if rule.default_enabled and not rule.preview]
        for diagnostic in lint_text("".join(self.lines), self.filename, rules).diagnostics:
            if diagnostic.code != "TL000":
                yield diagnostic.line, diagnostic.column - 1, f"{diagnostic.code} {diagnostic.message}", type(self)
