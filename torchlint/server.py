"""`torchlint server`: a Language Server (stdio, pygls) for editors.

Diagnostics on open, change and save, with the CLI's codes, messages and ranges (LSP's 0-based
lines and UTF-16 columns); Python files and the code cells of notebook documents. Code actions:
each safe fix as a `quickfix` (unsafe ones too, titled as unsafe, when the `unsafeFixes` setting is
on), "Disable TLnnn for this line" (a `# noqa`), and `source.fixAll.torchlint` (safe fixes only).
Hover on a finding gives its rule's summary. Settings come from the workspace's pyproject.toml,
read afresh for every lint (so an edit to it applies at once; a change on disk re-lints the open
documents), and findings see the workspace's project index.

Linting runs on one worker thread, off the event loop; a result for a version of a document that
has since changed is dropped, and a lint queued behind a newer one for the same document is
skipped.
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from torchlint import __version__
from torchlint.diagnostics import Diagnostic, Edit
from torchlint.lines import physical_lines

FIX_ALL = "source.fixAll.torchlint"
_SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
log = logging.getLogger(__name__)


# ---- positions: torchlint's 1-based character columns <-> LSP's 0-based UTF-16 ------------------
def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def to_position(text: str, line: int, column: int) -> types.Position:
    """An LSP position for a 1-based line and character column of `text`."""
    lines = physical_lines(text)
    if line > len(lines):
        return types.Position(line=max(len(lines), 0), character=0) if lines else types.Position(0, 0)
    return types.Position(line=line - 1, character=_utf16_length(lines[line - 1][: column - 1]))


def to_range(text: str, line: int, column: int, end_line: int, end_column: int) -> types.Range:
    return types.Range(start=to_position(text, line, column), end=to_position(text, end_line, end_column))


def _contains(outer: types.Range, inner: types.Range) -> bool:
    """Whether two ranges touch (a cursor on a finding, a selection over it)."""
    start, end = (outer.start.line, outer.start.character), (outer.end.line, outer.end.character)
    return (inner.start.line, inner.start.character) <= end and start <= (inner.end.line, inner.end.character)


def path_of(uri: str) -> Path | None:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


# ---- what one lint of one document (or notebook) found -------------------------------------------
@dataclass
class Target:
    """A file-backed document as linted: a Python file, or a notebook whose cells are documents."""

    key: str  # the text document's URI, or the notebook's
    path: Path  # where it lives (or would): config, per-file ignores and the project index use it
    version: object  # the document's version (a tuple of the cells' for a notebook)
    text: str  # the Python source, or the notebook JSON built from the cells
    cells: list[tuple[str, str]] | None = None  # (cell URI, cell text) for each cell, in order


@dataclass
class Linted:
    target: Target
    findings: dict[str, list[tuple[Diagnostic, types.Diagnostic]]] = field(default_factory=dict)  # by URI

    def text_of(self, uri: str) -> str:
        if self.target.cells is None:
            return self.target.text
        return dict(self.target.cells).get(uri, "")


class TorchlintServer(LanguageServer):
    def __init__(self):
        sync = types.NotebookDocumentSyncOptions(
            notebook_selector=[
                types.NotebookDocumentFilterWithCells(
                    cells=[types.NotebookCellLanguage(language="python")], notebook="*"
                )
            ],
            save=True,
        )
        super().__init__("torchlint", __version__, notebook_document_sync=sync)
        self.unsafe_fixes = False
        self.results: dict[str, Linted] = {}  # by target key
        self.latest: dict[str, object] = {}  # the version each target was last asked to be linted at
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="torchlint-lint")
        self.projects_dirty = True
        self._project_paths: set[Path] = set()

    # ---- settings ---------------------------------------------------------------------------
    def workspace_root(self) -> Path:
        root = self.workspace.root_path
        return Path(root) if root else Path.cwd()

    def read_options(self, options) -> None:
        if not isinstance(options, dict):
            return
        settings = options.get("torchlint", options.get("settings", options))
        if isinstance(settings, dict) and "torchlint" in settings:
            settings = settings["torchlint"]
        if isinstance(settings, dict) and isinstance(settings.get("unsafeFixes"), bool):
            self.unsafe_fixes = settings["unsafeFixes"]

    def settings_for(self, path: Path):
        """The settings `torchlint check` would use for the file: the pyproject.toml, read now."""
        from torchlint.config import CliOverrides, ConfigResolver

        return ConfigResolver(CliOverrides(), cwd=self.workspace_root()).for_file(path)

    # ---- the targets ------------------------------------------------------------------------
    def target_for(self, uri: str) -> Target | None:
        """The document, or the notebook holding the cell `uri`, as it is now."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            return self.notebook_target(notebook.uri)
        document = self.workspace.get_text_document(uri)
        path = path_of(uri)
        if path is None or path.suffix not in (".py", ".pyi", ""):
            return None
        return Target(uri, path, document.version, document.source)

    def notebook_target(self, notebook_uri: str) -> Target | None:
        notebook = self.workspace.get_notebook_document(notebook_uri=notebook_uri)
        path = path_of(notebook_uri)
        if notebook is None or path is None:
            return None
        cells, raw_cells = [], []
        for cell in notebook.cells:
            text = self.workspace.get_text_document(cell.document).source
            cells.append((cell.document, text))
            code = cell.kind == types.NotebookCellKind.Code
            raw = {"cell_type": "code" if code else "markdown", "metadata": {}, "source": text}
            if code:
                raw.update(outputs=[], execution_count=None)
            raw_cells.append(raw)
        document = {"cells": raw_cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
        version = (notebook.version, tuple(self.workspace.get_text_document(uri).version for uri, _ in cells))
        return Target(notebook_uri, path, version, json.dumps(document, indent=1), cells)

    # ---- linting (on the worker thread) ---------------------------------------------------------
    def _use_projects(self, path: Path, settings_resolver) -> None:
        """The project index of the open files' projects, rebuilt after a save or a change on disk.
        Only projects inside the workspace are indexed (a marker file above it, such as a stray
        pyproject.toml in /tmp, must not make the server walk everything below it)."""
        from torchlint.discovery import SourcePath
        from torchlint.project.roots import project_root
        from torchlint.runner import build_run_projects, use_projects

        root = self.workspace_root().resolve()
        if path not in self._project_paths and project_root(path.resolve().parent, root).is_relative_to(root):
            self._project_paths.add(path)
            self.projects_dirty = True
        if not self.projects_dirty:
            return
        sources = [SourcePath(str(p), p) for p in sorted(self._project_paths)]
        try:
            use_projects(build_run_projects(sources, settings_resolver, 1, None, root) if sources else None)
        except Exception as error:  # a broken config elsewhere in the project: lint without the index
            log.warning("torchlint: no project index: %s", error)
            use_projects(None)
        self.projects_dirty = False

    def run_lint(self, target: Target, fix: bool = False, unsafe: bool = False):
        """(the outcome, the fixed text or None): the CLI's pipeline on the document's text."""
        from torchlint.config import CliOverrides, ConfigResolver
        from torchlint.runner import Mode, process_notebook_text, process_text
        from torchlint.sourcefile import DecodedSource

        resolver = ConfigResolver(CliOverrides(), cwd=self.workspace_root())
        settings = resolver.for_file(target.path)
        self._use_projects(target.path, resolver)
        display = _display(target.path, self.workspace_root())
        mode = Mode(fix=fix, unsafe_fixes=unsafe)
        if target.cells is not None:
            outcome, echoed = process_notebook_text(target.text.encode("utf-8"), display, settings, mode)
            fixed = echoed.decode("utf-8") if outcome.applied else None
            return outcome, fixed
        outcome = process_text(DecodedSource(target.text, "utf-8"), display, target.path, settings, mode)
        return outcome, outcome.fixed_source

    def lint_now(self, target: Target) -> Linted | None:
        from torchlint.config import ConfigError

        if self.latest.get(target.key) != target.version:
            return None  # a newer version is queued: skip this one
        try:
            outcome, _ = self.run_lint(target)
        except ConfigError as error:  # as the CLI would exit 2: say why, and report nothing
            self.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"torchlint: {error}"))
            outcome = None
        if outcome is None:
            return Linted(target, {uri: [] for uri in _uris(target)})
        for message in outcome.internal_errors:
            log.warning("torchlint internal error: %s", message)
        linted = Linted(target, {uri: [] for uri in _uris(target)})
        for d in outcome.diagnostics:
            uri = target.key if target.cells is None else _cell_uri(target, d.cell)
            if uri is None:
                continue
            linted.findings[uri].append((d, self.to_lsp(d, linted.text_of(uri))))
        return linted

    @staticmethod
    def to_lsp(d: Diagnostic, text: str) -> types.Diagnostic:
        from torchlint.suppression import UNUSED_NOQA

        return types.Diagnostic(
            range=to_range(text, d.line, d.column, d.end_line, d.end_column),
            message=d.message,
            severity=_SEVERITIES[d.severity],
            code=d.code,
            source="torchlint",
            tags=[types.DiagnosticTag.Unnecessary] if d.code == UNUSED_NOQA else None,
        )

    # ---- scheduling (on the event loop) -------------------------------------------------------
    async def lint(self, uri: str) -> None:
        target = self.target_for(uri)
        if target is None:
            return
        self.latest[target.key] = target.version
        loop = asyncio.get_running_loop()
        try:
            linted = await loop.run_in_executor(self.executor, self.lint_now, target)
        except Exception as error:  # a bug in torchlint must not take the editor's server down
            log.exception("torchlint failed on %s", target.key)
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"torchlint: {error}"))
            return
        if linted is None or self.latest.get(target.key) != target.version:
            return  # the document changed while it was linted: a newer result is on its way
        self.results[target.key] = linted
        for cell_uri, findings in linted.findings.items():
            version = None if target.cells is not None else target.version
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[lsp for _, lsp in findings], version=version)
            )

    async def lint_notebook(self, notebook_uri: str) -> None:
        notebook = self.workspace.get_notebook_document(notebook_uri=notebook_uri)
        if notebook is not None and notebook.cells:
            await self.lint(notebook.cells[0].document)  # a cell's URI leads to its notebook

    async def lint_all(self) -> None:
        self.projects_dirty = True
        keys = list(self.results)
        for key in keys:
            linted = self.results.get(key)
            if linted is not None:
                await self.lint(linted.target.cells[0][0] if linted.target.cells else key)

    def linted_for(self, uri: str) -> Linted | None:
        """The last result for the document holding `uri`, if it is of the document as it is now."""
        target = self.target_for(uri)
        if target is None:
            return None
        linted = self.results.get(target.key)
        return linted if linted is not None and linted.target.version == target.version else None


def _uris(target: Target) -> list[str]:
    return [target.key] if target.cells is None else [uri for uri, _ in target.cells]


def _cell_uri(target: Target, cell: int | None) -> str | None:
    if cell is None or not 0 < cell <= len(target.cells):
        return None
    return target.cells[cell - 1][0]


def _display(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


# ---- code actions ----------------------------------------------------------------------------------
def _text_edit(text: str, edit: Edit) -> types.TextEdit:
    return types.TextEdit(range=to_range(text, edit.line, edit.column, edit.end_line, edit.end_column),
                          new_text=edit.content)


def _whole(text: str, new_text: str) -> types.TextEdit:
    lines = physical_lines(text, keepends=True)
    end = types.Position(line=len(lines), character=0)
    if lines and not lines[-1].endswith(("\n", "\r")):
        end = types.Position(line=len(lines) - 1, character=_utf16_length(lines[-1]))
    return types.TextEdit(range=types.Range(types.Position(0, 0), end), new_text=new_text)


def _wanted(kind: str, only) -> bool:
    return not only or any(kind == str(want) or kind.startswith(f"{want}.") for want in only)


def fix_actions(server: TorchlintServer, uri: str, linted: Linted, requested: types.Range, only) -> list:
    text = linted.text_of(uri)
    actions = []
    for d, lsp in linted.findings.get(uri, []):
        if not _contains(requested, lsp.range):
            continue
        fix = d.fix
        if fix is not None and (fix.applicability == "safe" or server.unsafe_fixes) and _wanted("quickfix", only):
            unsafe = " (unsafe)" if fix.applicability == "unsafe" else ""
            actions.append(types.CodeAction(
                title=f"torchlint ({d.code}): {fix.message}{unsafe}",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                is_preferred=fix.applicability == "safe",
                edit=types.WorkspaceEdit(changes={uri: [_text_edit(text, edit) for edit in fix.edits]}),
            ))
        noqa = _noqa_edit(text, d)
        if noqa is not None and _wanted("quickfix", only):
            actions.append(types.CodeAction(
                title=f"torchlint: Disable {d.code} for this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                edit=types.WorkspaceEdit(changes={uri: [noqa]}),
            ))
    return actions


def _noqa_edit(text: str, d: Diagnostic) -> types.TextEdit | None:
    """The line with `# noqa: CODE` added (or the code added to its noqa), as `--add-noqa` writes it."""
    from torchlint.baseline import add_noqa
    from torchlint.suppression import UNSUPPRESSIBLE

    if d.code in UNSUPPRESSIBLE:
        return None
    lines = physical_lines(text)
    if not 0 < d.line <= len(lines):
        return None
    new_text, changed = add_noqa(text, [d])
    if not changed:
        return None
    new_line = physical_lines(new_text)[d.line - 1]
    line_range = types.Range(types.Position(d.line - 1, 0), types.Position(d.line - 1, _utf16_length(lines[d.line - 1])))
    return types.TextEdit(range=line_range, new_text=new_line)


def fix_all_edits(server: TorchlintServer, linted: Linted) -> dict[str, list[types.TextEdit]]:
    """Every safe fix, as `--fix` applies them: one edit per changed document (or cell)."""
    target = linted.target
    _, fixed = server.run_lint(target, fix=True)
    if fixed is None or fixed == target.text:
        return {}
    if target.cells is None:
        return {target.key: [_whole(target.text, fixed)]}
    changes = {}
    new_cells = json.loads(fixed)["cells"]
    for (uri, old), cell in zip(target.cells, new_cells):
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if source != old:
            changes[uri] = [_whole(old, source)]
    return changes


# ---- the server's handlers ------------------------------------------------------------------------
def create_server() -> TorchlintServer:
    server = TorchlintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: TorchlintServer, params: types.InitializeParams) -> None:
        ls.read_options(params.initialization_options)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: TorchlintServer, params) -> None:
        watch = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
        if watch and watch.dynamic_registration:
            options = types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
                          types.FileSystemWatcher(glob_pattern="**/*.py")]
            )
            registration = types.Registration(id="torchlint-watch", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                              register_options=options)
            try:
                await ls.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
            except Exception:  # a client that declines: pyproject.toml is still read on every lint
                log.info("the client did not register the file watcher")

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: TorchlintServer, params: types.DidChangeConfigurationParams) -> None:
        ls.read_options(params.settings)
        await ls.lint_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: TorchlintServer, params) -> None:
        await ls.lint_all()  # the configuration or another module of the project changed

    async def lint_document(ls: TorchlintServer, params) -> None:
        await ls.lint(params.text_document.uri)

    async def lint_notebook(ls: TorchlintServer, params) -> None:
        await ls.lint_notebook(params.notebook_document.uri)

    for method in (types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE):
        server.feature(method)(lint_document)
    for method in (types.NOTEBOOK_DOCUMENT_DID_OPEN, types.NOTEBOOK_DOCUMENT_DID_CHANGE, types.NOTEBOOK_DOCUMENT_DID_SAVE):
        server.feature(method)(lint_notebook)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: TorchlintServer, params: types.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri.endswith("pyproject.toml"):
            await ls.lint_all()
            return
        ls.projects_dirty = True  # the saved module's summary may have changed for the others
        await ls.lint(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TorchlintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if ls.results.pop(uri, None) is not None:
            ls.latest.pop(uri, None)
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_close(ls: TorchlintServer, params: types.DidCloseNotebookDocumentParams) -> None:
        linted = ls.results.pop(params.notebook_document.uri, None)
        ls.latest.pop(params.notebook_document.uri, None)
        for uri in linted.findings if linted else ():
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False),
    )
    async def code_action(ls: TorchlintServer, params: types.CodeActionParams):
        uri = params.text_document.uri
        linted = ls.linted_for(uri)
        if linted is None:
            return []
        only = params.context.only
        actions = fix_actions(ls, uri, linted, params.range, only)
        if only and _wanted(FIX_ALL, only) or (not only and any(d.fix for d, _ in linted.findings.get(uri, []))):
            loop = asyncio.get_running_loop()
            changes = await loop.run_in_executor(ls.executor, fix_all_edits, ls, linted)
            if changes:
                actions.append(types.CodeAction(title="torchlint: Fix all safely fixable problems", kind=FIX_ALL,
                                                edit=types.WorkspaceEdit(changes=changes)))
        return actions

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: TorchlintServer, params: types.HoverParams):
        from torchlint.rules.registry import rule_by_code

        linted = ls.linted_for(params.text_document.uri)
        if linted is None:
            return None
        at = types.Range(params.position, params.position)
        found = [(d, lsp) for d, lsp in linted.findings.get(params.text_document.uri, []) if _contains(lsp.range, at)]
        if not found:
            return None
        parts = []
        for d, _ in found:
            rule = rule_by_code(d.code)
            summary = f"{rule.summary}." if rule is not None else ""
            parts.append(f"**{d.code}** `{d.name}`: {summary}\n\n{d.message}\n\n`torchlint rule {d.code}` has the details.")
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
                           range=found[0][1].range)

    return server


def serve() -> None:
    import os

    server = create_server()
    code = 0
    try:
        server.start_io()
    except SystemExit as stop:  # `exit` without `shutdown` first is exit code 1 (LSP)
        code = stop.code if isinstance(stop.code, int) else 0
    # the client is gone (stdin closed or `exit`): a lint still running on the worker thread must
    # not keep the process alive
    server.executor.shutdown(wait=False, cancel_futures=True)
    os._exit(code)
