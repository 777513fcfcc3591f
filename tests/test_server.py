"""`torchlint server` end to end over stdio, driven by pygls's JSON-RPC client: diagnostics, quick
fixes, fix-all, noqa, hover, notebook cells, settings, and configuration reloads."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from .conftest import FORWARD_FIXED, FORWARD_SOURCE  # noqa: E402

TIMEOUT = 60
FORWARD_MESSAGE = "Calling `.forward()` directly skips the module's hooks; call the module itself"


class Client:
    """A language client over stdio that keeps every publishDiagnostics by URI."""

    def __init__(self, root: Path):
        self.root = root
        (root / ".git").mkdir(exist_ok=True)  # the workspace is its own project
        self.client = LanguageClient("torchlint-tests", "1")
        self.diagnostics: dict[str, asyncio.Queue] = {}
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams):
            self.queue(params.uri).put_nowait(params.diagnostics)

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def logged(params):
            pass

    def queue(self, uri: str) -> asyncio.Queue:
        return self.diagnostics.setdefault(uri, asyncio.Queue())

    async def start(self, options: dict | None = None):
        await self.client.start_io(sys.executable, "-m", "torchlint", "server", cwd=str(self.root))
        capabilities = types.ClientCapabilities(
            notebook_document=types.NotebookDocumentClientCapabilities(
                synchronization=types.NotebookDocumentSyncClientCapabilities()
            ),
        )
        result = await asyncio.wait_for(self.client.initialize_async(types.InitializeParams(
            capabilities=capabilities, root_uri=self.root.as_uri(), initialization_options=options,
        )), TIMEOUT)
        assert result.server_info.name == "torchlint"
        self.client.initialized(types.InitializedParams())

    async def stop(self):
        await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT)
        self.client.exit(None)
        await self.client.stop()

    async def next_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        return list(await asyncio.wait_for(self.queue(uri).get(), TIMEOUT))

    def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        return uri

    def change(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    async def actions(self, uri: str, diagnostic: types.Diagnostic, only=None) -> list[types.CodeAction]:
        params = types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=only))
        return list(await asyncio.wait_for(self.client.text_document_code_action_async(params), TIMEOUT) or [])


def _offset(text: str, position: types.Position) -> int:
    lines = text.splitlines(keepends=True)
    before = sum(len(line) for line in lines[: position.line])
    line = lines[position.line] if position.line < len(lines) else ""
    units, index = 0, 0
    while units < position.character:
        units += len(line[index].encode("utf-16-le")) // 2
        index += 1
    return before + index


def apply(text: str, edits: list[types.TextEdit]) -> str:
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: _offset(text, edit.range.start)] + edit.new_text + text[_offset(text, edit.range.end):]
    return text


def run(root: Path, scenario, options: dict | None = None, prepare=None) -> None:
    """Start a server for the workspace `root`, play `scenario(client)` against it, shut it down."""
    async def session():
        client = Client(root)
        if prepare is not None:
            prepare(client)
        try:
            await client.start(options)
            await scenario(client)
            await client.stop()
        finally:
            server = getattr(client.client, "_server", None)
            if server is not None and server.returncode is None:
                server.kill()  # a failed scenario leaves no server behind

    asyncio.run(asyncio.wait_for(session(), 4 * TIMEOUT))


def test_python_file_diagnostic_quick_fix_and_clean_result(tmp_path):
    async def scenario(client):
        path = tmp_path / "train.py"
        path.write_text(FORWARD_SOURCE)
        uri = client.open(path, FORWARD_SOURCE)
        (diagnostic,) = await client.next_diagnostics(uri)
        assert (diagnostic.code, diagnostic.source, diagnostic.message) == ("TL005", "torchlint", FORWARD_MESSAGE)
        assert diagnostic.severity == types.DiagnosticSeverity.Warning
        assert diagnostic.range == types.Range(types.Position(2, 6), types.Position(2, 22))  # CLI: 3:7-3:23

        actions = await client.actions(uri, diagnostic)
        titles = [action.title for action in actions]
        assert "torchlint: Disable TL005 for this line" in titles
        (quick_fix,) = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and a.title.startswith("torchlint (TL005)")]
        assert "unsafe" not in quick_fix.title and quick_fix.is_preferred
        fixed = apply(FORWARD_SOURCE, quick_fix.edit.changes[uri])
        assert fixed == FORWARD_FIXED
        client.change(uri, fixed)
        assert await client.next_diagnostics(uri) == []

    run(tmp_path, scenario)


def test_noqa_action_fix_all_and_hover(tmp_path):
    async def scenario(client):
        source = FORWARD_SOURCE + "y = model.forward(2)\n"
        uri = client.open(tmp_path / "m.py", source)
        first, second = await client.next_diagnostics(uri)

        actions = await client.actions(uri, first)
        (noqa,) = [a for a in actions if a.title == "torchlint: Disable TL005 for this line"]
        quiet = apply(source, noqa.edit.changes[uri])
        assert quiet.splitlines()[2] == "out = model.forward(x)  # noqa: TL005"

        (fix_all,) = await client.actions(uri, first, only=["source.fixAll.torchlint"])
        assert fix_all.kind == "source.fixAll.torchlint"
        assert apply(source, fix_all.edit.changes[uri]) == FORWARD_FIXED + "y = model(2)\n"
        assert await client.actions(uri, first, only=["source.organizeImports"]) == []

        hover = await asyncio.wait_for(client.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(3, 8))), TIMEOUT)
        assert hover.contents.value.startswith("**TL005** `direct-forward-call`: ")
        assert FORWARD_MESSAGE in hover.contents.value
        nothing = await asyncio.wait_for(client.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0))), TIMEOUT)
        assert nothing is None

        client.change(uri, quiet)
        (left,) = await client.next_diagnostics(uri)
        assert left.range.start.line == 3

    run(tmp_path, scenario)


def test_utf16_columns(tmp_path):
    async def scenario(client):
        source = FORWARD_SOURCE.replace("out = model.forward(x)", "s = '😀'; out = model.forward(x)")
        uri = client.open(tmp_path / "u.py", source)
        (diagnostic,) = await client.next_diagnostics(uri)
        # `model` is the 16th character (the CLI's column 16); the emoji before it is two UTF-16 units
        assert diagnostic.range.start == types.Position(2, 16)
        (quick_fix, *_) = await client.actions(uri, diagnostic)
        assert apply(source, quick_fix.edit.changes[uri]).splitlines()[2] == "s = '😀'; out = model(x)"

    run(tmp_path, scenario)


UNSAFE_SOURCE = (  # TL002, whose fix is unsafe
    "import torch\nimport torch.nn as nn\nmodel = nn.Linear(4, 4)\nmodel = nn.DataParallel(model, device_ids=[0, 1])\n"
)


@pytest.mark.parametrize("unsafe", [False, True])
def test_unsafe_fixes_only_with_the_setting(tmp_path, unsafe):
    async def scenario(client):
        uri = client.open(tmp_path / "dp.py", UNSAFE_SOURCE)
        (diagnostic,) = await client.next_diagnostics(uri)
        assert diagnostic.code == "TL002"
        fixes = [a for a in await client.actions(uri, diagnostic) if a.title.startswith("torchlint (TL002)")]
        if unsafe:
            (fix,) = fixes
            assert fix.title.endswith("(unsafe)") and not fix.is_preferred
        else:
            assert fixes == []
        assert await client.actions(uri, diagnostic, only=["source.fixAll"]) == []  # fix-all is safe only

    run(tmp_path, scenario, {"settings": {"unsafeFixes": True}} if unsafe else None)


def test_configuration_from_the_workspace_and_reloaded(tmp_path):
    async def scenario(client):
        (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nignore = ["TL001"]\n')
        source = FORWARD_SOURCE + "w = model.weight.data\n"
        uri = client.open(tmp_path / "m.py", source)
        assert [d.code for d in await client.next_diagnostics(uri)] == ["TL005"]
        (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nignore = ["TL005"]\n')
        client.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=(tmp_path / "pyproject.toml").as_uri(), type=types.FileChangeType.Changed)]))
        assert [d.code for d in await client.next_diagnostics(uri)] == ["TL001"]

    run(tmp_path, scenario)


def test_broken_configuration_is_shown_and_nothing_reported(tmp_path):
    async def scenario(client):
        uri = client.open(tmp_path / "m.py", FORWARD_SOURCE)
        assert await client.next_diagnostics(uri) == []
        assert shown and "unknown key `selectt`" in shown[0]

    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nselectt = ["TL005"]\n')
    shown = []
    run(tmp_path, scenario, prepare=lambda c: c.client.feature(types.WINDOW_SHOW_MESSAGE)(
        lambda params: shown.append(params.message)))


def test_project_index_from_the_workspace(tmp_path):
    async def scenario(client):
        (tmp_path / "models.py").write_text("import torch.nn as nn\nclass Net(nn.Module):\n    pass\n")
        source = "from models import Net\nnet = Net()\ny = net.forward(1)\n"
        uri = client.open(tmp_path / "train.py", source)
        (diagnostic,) = await client.next_diagnostics(uri)
        assert diagnostic.code == "TL005" and diagnostic.range.start == types.Position(2, 4)

    run(tmp_path, scenario)


def test_notebook_cell_diagnostic_quick_fix_and_clean_result(tmp_path):
    async def scenario(client):
        notebook_uri = (tmp_path / "nb.ipynb").as_uri()
        cells = [
            ("import torch.nn as nn\nmodel = nn.Linear(2, 2)", types.NotebookCellKind.Code),
            ("# Training", types.NotebookCellKind.Markup),
            ("out = model.forward(x)", types.NotebookCellKind.Code),
        ]
        cell_uris = [f"vscode-notebook-cell:{tmp_path / 'nb.ipynb'}#cell{i}" for i in range(len(cells))]
        client.client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook_uri, notebook_type="jupyter-notebook", version=1,
                cells=[types.NotebookCell(kind=kind, document=uri) for uri, (_, kind) in zip(cell_uris, cells)]),
            cell_text_documents=[
                types.TextDocumentItem(uri=uri, language_id="python" if kind == types.NotebookCellKind.Code else "markdown",
                                       version=1, text=text)
                for uri, (text, kind) in zip(cell_uris, cells)
            ]))
        assert await client.next_diagnostics(cell_uris[0]) == []
        (diagnostic,) = await client.next_diagnostics(cell_uris[2])
        assert diagnostic.code == "TL005" and diagnostic.message == FORWARD_MESSAGE
        assert diagnostic.range == types.Range(types.Position(0, 6), types.Position(0, 22))
        (quick_fix, *_) = await client.actions(cell_uris[2], diagnostic)
        assert quick_fix.title.startswith("torchlint (TL005)")
        fixed = apply(cells[2][0], quick_fix.edit.changes[cell_uris[2]])
        assert fixed == "out = model(x)"
        (fix_all,) = await client.actions(cell_uris[2], diagnostic, only=["source.fixAll"])
        assert list(fix_all.edit.changes) == [cell_uris[2]]  # only the cell that changes
        assert apply(cells[2][0], fix_all.edit.changes[cell_uris[2]]) == fixed
        client.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(version=2, uri=notebook_uri),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
                types.NotebookDocumentCellContentChanges(
                    document=types.VersionedTextDocumentIdentifier(uri=cell_uris[2], version=2),
                    changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)])]))))
        assert await client.next_diagnostics(cell_uris[0]) == []
        assert await client.next_diagnostics(cell_uris[2]) == []

    run(tmp_path, scenario)


def test_stale_results_are_dropped(tmp_path):
    """Many quick edits: only results for the latest version are published, and the last is right."""
    async def scenario(client):
        uri = client.open(tmp_path / "m.py", FORWARD_SOURCE)
        await client.next_diagnostics(uri)
        for index in range(20):
            client.change(uri, FORWARD_SOURCE + "".join(f"y{i} = model.forward({i})\n" for i in range(index + 1)))
        published = []
        while len(published) == 0 or len(published[-1]) != 21:
            published.append(await client.next_diagnostics(uri))
        assert len(published) < 20  # superseded versions were skipped, not all linted and sent

    run(tmp_path, scenario)


def test_server_exits_when_the_client_goes_away(tmp_path):
    import subprocess

    process = subprocess.Popen([sys.executable, "-m", "torchlint", "server"], cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdin.close()
    assert process.wait(timeout=TIMEOUT) == 0


def test_server_command_without_pygls_says_how_to_install(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from torchlint.cli import main

    monkeypatch.setitem(sys.modules, "torchlint.server", None)
    result = CliRunner().invoke(main, ["server"])
    assert result.exit_code == 2 and "pip install 'torchlint[server]'" in result.output


def test_json_rpc_framing_by_hand(tmp_path):
    """A client with no LSP library: Content-Length framing over the process's pipes."""
    import subprocess

    def frame(message: dict) -> bytes:
        body = json.dumps(message).encode()
        return f"Content-Length: {len(body)}\r\n\r\n".encode() + body

    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": (tmp_path / "m.py").as_uri(), "languageId": "python", "version": 1, "text": FORWARD_SOURCE}}},
    ]
    process = subprocess.Popen([sys.executable, "-m", "torchlint", "server"], cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        process.stdin.write(b"".join(frame(m) for m in messages))
        process.stdin.flush()
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                header += process.stdout.read(1)
            length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
            message = json.loads(process.stdout.read(length))
            if message.get("method") == "textDocument/publishDiagnostics":
                break
        (diagnostic,) = message["params"]["diagnostics"]
        assert diagnostic["code"] == "TL005"
        assert diagnostic["range"] == {"start": {"line": 2, "character": 6}, "end": {"line": 2, "character": 22}}
    finally:
        process.kill()
        process.wait(timeout=10)
