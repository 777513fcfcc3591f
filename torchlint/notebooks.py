"""Jupyter notebooks: code cells joined into one virtual source (so a name imported in one cell is
known in the next), IPython magics and shell lines masked without moving any other position,
findings mapped back to (cell, line), and fixes written back into the changed cells only, in the
notebook's own JSON formatting."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from torchlint.diagnostics import Diagnostic, Edit, Fix
from torchlint.sourcefile import SourceError

_CELL_MARKER = "# torchlint-cell {}"
_CELL_MARKER_LINE = re.compile(r"^# torchlint-cell (\d+)$")
_MAGIC_MARKER = "# torchlint-magic {}"
_MAGIC_MARKER_LINE = re.compile(r"^(\s*)(?:pass  )?# torchlint-magic (\d+)$")
# `%magic`, `!shell`, `x = !shell`, `x = %magic`, `obj?` and `?obj`.
_MAGIC_LINE = re.compile(r"^\s*([%!?]|[\w.]+\s*=\s*[%!])|^\s*[\w.()\[\]]+\?{1,2}\s*$")


@dataclass(frozen=True)
class CellSpan:
    index: int  # position in the notebook's cell list, 0-based
    first_line: int  # 1-based line of the cell's first line in the virtual source
    line_count: int


@dataclass
class NotebookSource:
    text: str  # the virtual Python source
    spans: list[CellSpan]
    magics: list[str]  # original lines, by marker number
    raw: dict  # the notebook's JSON
    original: str  # the notebook file's text
    cell_sources: dict[int, str]  # 1-based cell number -> source, for excerpts

    def position(self, line: int) -> tuple[int | None, int]:
        """(1-based cell number, line in the cell) of a virtual line."""
        for span in self.spans:
            if span.first_line <= line < span.first_line + max(span.line_count, 1):
                return span.index + 1, line - span.first_line + 1
        return None, line


def _raw_source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _mask(lines: list[str], magics: list[str]) -> list[str]:
    stripped = [line for line in lines if line.strip()]
    whole_cell = bool(stripped) and stripped[0].lstrip().startswith("%%")
    masked = []
    continued = False  # the previous line was a magic or shell line ending in a backslash
    indent = ""
    for line in lines:
        is_magic = whole_cell or continued or bool(_MAGIC_LINE.match(line))
        if is_magic and not continued:
            # a cell magic's lines are all comments at the top level; a line magic keeps its
            # indent, and so do the lines that continue it
            indent = "" if whole_cell else line[: len(line) - len(line.lstrip())]
        # `!pip install x \` goes on to the next line, which is part of the shell command
        continued = is_magic and line.rstrip("\r").endswith("\\")
        if is_magic:
            marker = _MAGIC_MARKER.format(len(magics))
            magics.append(line)
            # an indented magic becomes `pass`, so a block that held only it still parses
            masked.append(f"{indent}pass  {marker}" if indent else marker)
        else:
            masked.append(line)
    return masked


def _require_format_4(raw) -> None:
    """A notebook of an older format is valid, just not one torchlint reads."""
    version = raw.get("nbformat") if isinstance(raw, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version < 4:
        raise SourceError(f"unsupported notebook format (nbformat {version}); nbformat 4 is required")


def load_notebook(text: str) -> NotebookSource:
    import nbformat

    try:
        raw = json.loads(text)
        _require_format_4(raw)
        nbformat.validate(nbformat.reads(text, as_version=nbformat.NO_CONVERT))
    except (ValueError, nbformat.ValidationError, KeyError, TypeError, AttributeError) as error:
        raise SourceError(f"invalid notebook: {str(error).splitlines()[0][:200]}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cells"), list):
        raise SourceError("invalid notebook: no cell list (nbformat 4 is required)")
    lines: list[str] = []
    spans: list[CellSpan] = []
    magics: list[str] = []
    cell_sources = {}
    for index, cell in enumerate(raw["cells"]):
        if cell.get("cell_type") != "code":
            continue
        source = _raw_source(cell)
        cell_sources[index + 1] = source
        cell_lines = source.split("\n")
        if cell_lines and cell_lines[-1] == "":
            cell_lines.pop()
        lines.append(_CELL_MARKER.format(index))
        spans.append(CellSpan(index, len(lines) + 1, len(cell_lines)))
        lines.extend(_mask(cell_lines, magics))
    return NotebookSource("\n".join(lines) + "\n" if lines else "", spans, magics, raw, text, cell_sources)


def to_cells(notebook: NotebookSource, diagnostic: Diagnostic) -> Diagnostic:
    cell, line = notebook.position(diagnostic.line)
    _, end_line = notebook.position(diagnostic.end_line)
    if end_line < line:
        end_line = line
    fix = diagnostic.fix
    if fix is not None:
        fix = Fix(fix.applicability, fix.message, tuple(_edit_to_cell(notebook, edit) for edit in fix.edits))
    return replace(diagnostic, cell=cell, line=line, end_line=end_line, fix=fix)


def _edit_to_cell(notebook: NotebookSource, edit: Edit) -> Edit:
    _, line = notebook.position(edit.line)
    _, end_line = notebook.position(edit.end_line)
    return replace(edit, line=line, end_line=max(end_line, line))


def _split_cells(notebook: NotebookSource, fixed: str) -> dict[int, list[str]]:
    cells: dict[int, list[str]] = {}
    current = None
    for line in fixed.split("\n"):
        marker = _CELL_MARKER_LINE.match(line)
        if marker:
            current = int(marker.group(1))
            cells[current] = []
        elif current is not None:
            cells[current].append(_unmask(notebook, line))
    for index in cells:
        if cells[index] and cells[index][-1] == "":
            cells[index].pop()
    return cells


def _unmask(notebook: NotebookSource, line: str) -> str:
    marker = _MAGIC_MARKER_LINE.match(line)
    return notebook.magics[int(marker.group(2))] if marker else line


def _json_style(notebook: NotebookSource) -> dict | None:
    """The json.dumps arguments that reproduce the file exactly, if any do."""
    ending = "\n" if notebook.original.endswith("\n") else ""
    for indent in (1, 2, 4, "\t", None):
        for ensure_ascii in (False, True):
            style = {"indent": indent, "ensure_ascii": ensure_ascii}
            if json.dumps(notebook.raw, **style) + ending == notebook.original:
                return style
    return None


def rebuild(notebook: NotebookSource, fixed: str) -> str:
    """The notebook's text with the fixed cells' sources; every other byte as it was."""
    style = _json_style(notebook)
    if style is None:
        raise SourceError("the notebook's JSON formatting cannot be reproduced, so it was not rewritten")
    fixed_cells = _split_cells(notebook, fixed)
    raw = json.loads(notebook.original)
    for index, lines in fixed_cells.items():
        cell = raw["cells"][index]
        original = _raw_source(cell)
        source = "\n".join(lines) + ("\n" if original.endswith("\n") else "")
        if source == original:
            continue
        cell["source"] = source.splitlines(keepends=True) if isinstance(cell.get("source"), list) else source
    return json.dumps(raw, **style) + ("\n" if notebook.original.endswith("\n") else "")


# ---- where a cell's source lines are in the .ipynb file (for CI annotations) -------------------
_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_JSON_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


def cell_file_lines(text: str) -> dict[int, list[int]]:
    """For each cell (1-based number): the 1-based line of the .ipynb file that holds each line of
    its source. A source stored as a list of strings has one JSON string per line; a source stored
    as one string sits on one file line, that of its `"source"` key."""
    import bisect
    from json.decoder import scanstring

    newlines = [match.start() for match in re.finditer("\n", text)]
    found: dict[int, list[int]] = {}
    line_starts: dict[int, bool] = {}

    def file_line(offset: int) -> int:
        return bisect.bisect_left(newlines, offset) + 1

    def record(cell: int, piece: str, line: int) -> None:
        lines = found.setdefault(cell, [])
        at_start = line_starts.get(cell, True)
        lines.extend([line] * ((1 if at_start and piece else 0) + piece[:-1].count("\n")))
        if piece:
            line_starts[cell] = piece.endswith("\n")

    def skip(i: int) -> int:
        return _JSON_SPACE.match(text, i).end()

    def value(i: int, path: tuple) -> int:
        i = skip(i)
        opener = text[i]
        if opener in "{[":
            closer, index = ("}" if opener == "{" else "]"), 0
            i = skip(i + 1)
            if text[i] == closer:
                return i + 1
            while True:
                i = skip(i)
                key: object = index
                if opener == "{":
                    key_line = file_line(i)
                    key, i = scanstring(text, i + 1)
                    i = skip(i) + 1  # the colon
                    if len(path) == 2 and path[0] == "cells" and key == "source":
                        found[path[1] + 1] = []
                        source_key_line = key_line
                        end = value(i, path + (key,))
                        if not found[path[1] + 1]:  # one string: every line is on the key's line
                            string = json.loads(text[skip(i):end])
                            count = string.count("\n") + 1 if isinstance(string, str) else 0
                            found[path[1] + 1] = [source_key_line] * count
                        i = end
                        key = None
                if key is not None:
                    i = value(i, path + (key,))
                i = skip(i)
                index += 1
                if text[i] == ",":
                    i += 1
                    continue
                return i + 1
        if opener == '"':
            string, end = scanstring(text, i + 1)
            if len(path) == 4 and path[0] == "cells" and path[2] == "source":
                record(path[1] + 1, string, file_line(i))
            return end
        return _JSON_SCALAR.match(text, i).end()

    try:
        value(0, ())
    except (ValueError, IndexError, AttributeError):
        return {}
    return found
