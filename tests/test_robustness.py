"""A run never dies of one file, never loses what is on disk, and its exit code and summary tell
the truth. Each test is a finding of a review, reproduced; the ones that need privileges or special
filesystems (an immutable file, a full disk) inject the fault instead."""

from __future__ import annotations

import ast
import errno
import faulthandler
import json
import os
import signal
import stat
import sys

import libcst
import pytest

import torchlint.engine
import torchlint.parsing
import torchlint.runner
import torchlint.sourcefile
from torchlint.engine import fix_text, lint_text
from torchlint.rules.registry import rule_by_code

from .conftest import FORWARD_FIXED, FORWARD_SOURCE

TL005 = rule_by_code("TL005")
FORWARD = "import torch.nn as nn\nm = nn.Linear(2, 2)\ny = m.forward(x)\n"


def _concise(cli, *args, input=None):
    return cli("check", "--no-cache", "--output-format", "concise", *args, input=input)


# ---- data loss --------------------------------------------------------------------------------
def test_add_noqa_counts_lines_as_python_and_never_writes_into_a_string(cli, tmp_path):
    source = 'import torch.nn as nn\nm = nn.Linear(2, 2)\ns = "a\u2028b\u2028c"; y1 = m.forward(x)\ny2 = m.forward(x)\n'
    (tmp_path / "ls.py").write_text(source, encoding="utf-8")
    assert cli("check", "--no-cache", "--add-noqa", "ls.py").exit_code == 0
    text = (tmp_path / "ls.py").read_text(encoding="utf-8")
    assert 's = "a\u2028b\u2028c"; y1 = m.forward(x)  # noqa: TL005\n' in text
    assert text.endswith("y2 = m.forward(x)  # noqa: TL005\n")
    assert _concise(cli, "ls.py").exit_code == 0


def test_add_noqa_after_a_form_feed_line_lands_on_the_finding(cli, tmp_path):
    (tmp_path / "ff4.py").write_text("import torch.nn as nn\n\x0c\nm = nn.Linear(2, 2)\ny = m.forward(x)\nz = 1\n")
    cli("check", "--no-cache", "--add-noqa", "ff4.py")
    assert (tmp_path / "ff4.py").read_text() == (
        "import torch.nn as nn\n\x0c\nm = nn.Linear(2, 2)\ny = m.forward(x)  # noqa: TL005\nz = 1\n"
    )
    assert _concise(cli, "ff4.py").exit_code == 0


def test_add_noqa_in_a_cr_only_file(cli, tmp_path):
    (tmp_path / "cr.py").write_bytes(FORWARD.replace("\n", "\r").encode())
    cli("check", "--no-cache", "--add-noqa", "cr.py")
    assert (tmp_path / "cr.py").read_bytes() == FORWARD.replace("\n", "\r").replace(
        "m.forward(x)", "m.forward(x)  # noqa: TL005"
    ).encode()


def test_fix_through_a_walked_symlink_writes_the_target_and_keeps_the_link(cli, tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "proj").mkdir()
    (tmp_path / "shared" / "common.py").write_text(FORWARD)
    (tmp_path / "proj" / "common.py").symlink_to("../shared/common.py")
    result = cli("check", "--no-cache", "--fix", "proj")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "proj" / "common.py").is_symlink()
    assert (tmp_path / "shared" / "common.py").read_text() == FORWARD.replace("m.forward(x)", "m(x)")


def test_fix_of_a_hard_linked_file_is_seen_through_every_name(cli, tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "model.py").write_text(FORWARD)
    os.link(tmp_path / "real" / "model.py", tmp_path / "hard.py")
    assert cli("check", "--no-cache", "--fix", "real/model.py").exit_code == 0
    assert (tmp_path / "hard.py").read_text() == FORWARD.replace("m.forward(x)", "m(x)")
    assert os.stat(tmp_path / "hard.py").st_ino == os.stat(tmp_path / "real" / "model.py").st_ino


def test_stdin_fix_of_undecodable_input_echoes_it_and_reports_on_stderr(cli):
    data = b'x = "\xff"\nimport torch.nn as nn\n'
    result = cli("check", "-", "--fix", input=data)
    assert result.stdout_bytes == data
    assert "TL000 cannot decode as utf-8" in result.stderr
    assert result.exit_code == 1


def test_stdin_fix_keeps_the_encoding_of_the_input(cli):
    source = "# -*- coding: latin-1 -*-\ns = 'é'\n" + FORWARD_SOURCE
    result = cli("check", "-", "--fix", input=source.encode("latin-1"))
    assert result.stdout_bytes == ("# -*- coding: latin-1 -*-\ns = 'é'\n" + FORWARD_FIXED).encode("latin-1")


# ---- crashes ----------------------------------------------------------------------------------
def test_form_feed_at_the_start_of_a_code_line_is_linted_and_fixed(cli, tmp_path):
    for index in (1, 2, 3):
        (tmp_path / f"g{index}.py").write_text(FORWARD)
    (tmp_path / "ff2.py").write_text("import torch.nn as nn\n\x0cm = nn.Linear(2, 2)\n\x0c\x0cy = m.forward(x)\n")
    result = _concise(cli, ".")
    assert result.exit_code == 1
    assert "ff2.py:3:7: TL005" in result.stdout  # columns count the form feeds
    assert all(f"g{index}.py:3:5: TL005" in result.stdout for index in (1, 2, 3))
    assert cli("check", "--no-cache", "--fix", "ff2.py").exit_code == 0
    assert (tmp_path / "ff2.py").read_text() == "import torch.nn as nn\n\x0cm = nn.Linear(2, 2)\n\x0c\x0cy = m(x)\n"


def test_cr_only_line_endings_are_linted_on_the_right_lines_and_kept_by_fixes(cli, tmp_path):
    (tmp_path / "cr1.py").write_bytes(FORWARD.replace("\n", "\r").encode())
    result = _concise(cli, "cr1.py")
    assert result.exit_code == 1 and "cr1.py:3:5: TL005" in result.stdout
    assert cli("check", "--no-cache", "--fix", "cr1.py").exit_code == 0
    assert (tmp_path / "cr1.py").read_bytes() == FORWARD.replace("m.forward(x)", "m(x)").replace("\n", "\r").encode()


def test_symlink_loops_are_skipped_with_a_warning(cli, tmp_path):
    (tmp_path / "loop1").mkdir()
    (tmp_path / "loop1" / "loopdir").symlink_to("loopdir")
    (tmp_path / "loop2" / "sub").mkdir(parents=True)
    (tmp_path / "loop2" / "sub" / "up").symlink_to("..")
    (tmp_path / "loop2" / "broken.py").symlink_to("nonexistent.py")
    (tmp_path / "loop2" / "sub" / "m.py").write_text(FORWARD)
    result = _concise(cli, ".")
    assert result.exit_code == 1
    assert "loop2/sub/m.py:3:5: TL005" in result.stdout and "up/" not in result.stdout
    assert "skipped loop1/loopdir: it cannot be read (Too many levels of symbolic links)" in result.stderr
    assert "skipped loop2/sub/up: a symlink back into a folder being walked" in result.stderr
    assert "broken.py" not in result.stderr  # a broken link is simply not a file
    assert "2 files skipped" in result.stdout


def _nested_parentheses(depth: int) -> str:
    return "import torch.nn as nn\nm = nn.Linear(2, 2)\nx = " + "(" * depth + "1" + ")" * depth + "\ny = m.forward(x)\n"


@pytest.mark.parametrize("depth", [1000, 5000])
def test_what_cpython_rejects_is_tl000_and_libcst_never_sees_it(cli, tmp_path, monkeypatch, depth):
    (tmp_path / "parens.py").write_text(_nested_parentheses(depth))
    monkeypatch.setattr(torchlint.engine, "parse_trusted", lambda text: pytest.fail("libcst was asked"))
    result = _concise(cli, "parens.py")
    assert result.exit_code == 1
    assert "parens.py:3:205: TL000 syntax error: too many nested parentheses" in result.stdout
    assert "TL005" not in result.stdout
    assert cli("check", "--no-cache", "--fix", "parens.py").exit_code == 1
    assert (tmp_path / "parens.py").read_text() == _nested_parentheses(depth)


LEGACY = (
    "import torch.nn as nn\nmodel = nn.DataParallel(nn.Linear(2, 2))\nfor x in batches:\n"
    "    out = model(x.cuda(async=True)); print(out.data)\n    model.async_mode = x.async\n"
)


def test_code_using_async_as_a_name_is_tl000_and_still_linted_without_fixes(cli, tmp_path):
    (tmp_path / "old.py").write_text(LEGACY)
    result = _concise(cli, "old.py")
    assert result.exit_code == 1
    found = [line.split(" ", 2)[:2] for line in result.stdout.splitlines() if line.startswith("old.py")]
    # the findings keep their columns: the name is respelled at the same length for analysis only
    assert found == [["old.py:2:9:", "TL002"], ["old.py:4:24:", "TL000"], ["old.py:4:44:", "TL001"]]
    assert "keywords since Python 3.7" in result.stdout
    assert cli("check", "--no-cache", "--fix", "--unsafe-fixes", "old.py").exit_code == 1
    assert (tmp_path / "old.py").read_text() == LEGACY


PYTHON2 = (
    "import torch.nn as nn\nmodel = nn.DataParallel(nn.Linear(2, 2))\nfor x in batches:\n    out = model(x)\n"
    "    print 'loss', out.data[0]\n"
)


def test_python2_code_is_tl000_and_still_linted_without_fixes(cli, tmp_path):
    (tmp_path / "old.py").write_text(PYTHON2)
    result = _concise(cli, "old.py")
    assert result.exit_code == 1
    found = [line.split(" ", 2)[:2] for line in result.stdout.splitlines() if line.startswith("old.py")]
    # `print x` is read as `print(x`...`)`: the space becomes the parenthesis, so columns hold
    assert found == [["old.py:2:9:", "TL002"], ["old.py:5:5:", "TL000"], ["old.py:5:19:", "TL001"]]
    assert "Python 2 code (linted as Python 2 read it, without fixes)" in result.stdout
    assert cli("check", "--no-cache", "--fix", "--unsafe-fixes", "old.py").exit_code == 1
    assert (tmp_path / "old.py").read_text() == PYTHON2


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(LEGACY + "def broken(:\n    pass\n", id="another-error-too"),
        pytest.param(PYTHON2 + "def broken(:\n    pass\n", id="python2-with-another-error"),
        pytest.param("import torch.nn as nn\nm = nn.Linear(2, 2)\ny = m.forward(1) +\n", id="no-async-at-all"),
        pytest.param("import torch.nn as nn\nasync = nn.Linear(2, 2)\nawait async.forward(1)\n", id="await-as-keyword-too"),
    ],
)
def test_other_syntax_errors_are_tl000_alone(cli, tmp_path, source):
    (tmp_path / "bad.py").write_text(source)
    result = _concise(cli, "bad.py")
    codes = [line.split(" ")[1] for line in result.stdout.splitlines() if line.startswith("bad.py")]
    assert codes == ["TL000"]


def test_an_expression_cpython_cannot_compile_is_tl000_nests_too_deeply(tmp_path):
    source = "import torch.nn as nn\nm = nn.Linear(2,2)\nx = " + " + ".join(["1"] * 10000) + "\ny = m.forward(x)\n"
    result = lint_text(source, "terms.py", [TL005])
    expected = [("TL000", "syntax error: the file nests too deeply to parse")]
    assert [(d.code, d.message) for d in result.diagnostics] == expected


def test_a_long_operator_chain_is_linted_without_a_recursion_error():
    source = "import torch.nn as nn\nm = nn.Linear(2,2)\nx = " + " + ".join(["1"] * 1000) + "\ny = m.forward(x)\n"
    result = lint_text(source, "terms1000.py", [TL005])
    assert [d.code for d in result.diagnostics] == ["TL005"] and not result.internal_errors
    assert sys.getrecursionlimit() < torchlint.engine.RECURSION_LIMIT  # restored after the file


def test_a_boolean_chain_beyond_libcsts_parser_is_skipped_not_a_segfault(cli, tmp_path):
    (tmp_path / "ands.py").write_text("x = " + " and ".join(["a"] * 10000) + "\ny = m.forward(x)\n")
    (tmp_path / "ok.py").write_text("x = 1\n")
    result = _concise(cli, ".")
    assert result.exit_code == 0
    assert "skipped ands.py: a boolean expression of 10000 operands is beyond libcst's parser" in result.stderr
    assert "All checks passed!" not in result.stdout
    assert "No problems found. Not checked completely: 1 file skipped (see above)." in result.stdout


def test_corrupt_cache_entries_of_any_shape_are_a_warning(cli, tmp_path):
    (tmp_path / "a.py").write_text(FORWARD)
    assert cli("check", "a.py").exit_code == 1
    (cache_file,) = (tmp_path / ".torchlint_cache" / "v1").glob("*.json")
    pristine = json.loads(cache_file.read_text())
    (key,) = pristine["files"]
    good = pristine["files"][key]["diagnostics"][0]
    for corrupt in ("x", {"hash": pristine["files"][key]["hash"], "diagnostics": ["x"]},
                    {"hash": pristine["files"][key]["hash"], "diagnostics": [{**good, "line": "abc"}]},
                    {"hash": pristine["files"][key]["hash"], "diagnostics": [{**good, "fix": {"edits": 3}}]}):
        cache_file.write_text(json.dumps({**pristine, "files": {key: corrupt}}))
        result = cli("check", "--output-format", "concise", "a.py")
        assert result.exit_code == 1, corrupt
        assert "a.py:3:5: TL005" in result.stdout
        assert "torchlint: warning: ignoring a corrupt cache entry for a.py" in result.stderr


def test_write_baseline_to_a_folder_or_a_missing_folder_is_an_error(cli, tmp_path):
    (tmp_path / "a.py").write_text(FORWARD)
    (tmp_path / "adir").mkdir()
    result = cli("check", "--no-cache", "--write-baseline", "adir", "a.py")
    assert result.exit_code == 2
    assert "torchlint: error: cannot write the baseline adir: it is a folder" in result.stderr
    result = cli("check", "--no-cache", "--write-baseline", "no/such/x.json", "a.py")
    assert result.exit_code == 2
    assert "torchlint: error: cannot write the baseline no/such/x.json: No such file or directory" in result.stderr


def test_a_baseline_write_that_fails_midway_leaves_the_old_one_whole(cli, tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text(FORWARD)
    assert cli("check", "--no-cache", "--write-baseline", "b.json", "a.py").exit_code == 0
    before = (tmp_path / "b.json").read_text()
    (tmp_path / "a.py").write_text(FORWARD + "z = m.forward(x)\n")

    def full_disk(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    result = cli("check", "--no-cache", "--write-baseline", "b.json", "a.py")
    assert result.exit_code == 2 and "No space left on device" in result.stderr
    assert (tmp_path / "b.json").read_text() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


# ---- wrong exit codes -------------------------------------------------------------------------
def test_a_fix_that_cannot_be_written_is_an_error_and_the_findings_stay(cli, tmp_path, monkeypatch):
    (tmp_path / "locked.py").write_text(FORWARD)

    def immutable(path, data):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(torchlint.sourcefile, "write_atomic", immutable)
    result = _concise(cli, "--fix", "locked.py")
    assert result.exit_code == 2
    assert "torchlint: error: locked.py: cannot write the fixed file: Operation not permitted" in result.stderr
    assert "locked.py:3:5: TL005" in result.stdout
    assert "All checks passed!" not in result.stdout
    assert (tmp_path / "locked.py").read_text() == FORWARD


def test_a_read_only_file_is_not_rewritten(cli, tmp_path):
    path = tmp_path / "ro.py"
    path.write_text(FORWARD)
    path.chmod(0o444)
    try:
        result = _concise(cli, "--fix", "ro.py")
        assert result.exit_code == 2
        assert "ro.py: cannot write the fixed file: the file is read-only" in result.stderr
        assert path.read_text() == FORWARD and stat.S_IMODE(path.stat().st_mode) == 0o444
    finally:
        path.chmod(0o644)


def test_a_baseline_matches_from_a_subfolder(cli, tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.py").write_text(FORWARD)
    assert cli("check", "--no-cache", "--write-baseline", "tb.json", ".").exit_code == 0
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nbaseline = "tb.json"\n')
    assert cli("check", "--no-cache", ".").exit_code == 0
    monkeypatch.chdir(tmp_path / "sub")
    result = cli("check", "--no-cache", ".")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "tb.json").read_text())["findings"][0]["path"] == "sub/a.py"


def test_an_internal_error_outside_rules_exits_2(cli, tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text(FORWARD)

    def broken(*args):
        raise RuntimeError("discovery broke")

    monkeypatch.setattr("torchlint.discovery.Discovery.files", broken)
    result = cli("check", "--no-cache", ".")
    assert result.exit_code == 2
    assert "torchlint: internal error: RuntimeError: discovery broke" in result.stderr


def test_an_internal_error_on_one_file_names_it_and_the_others_are_linted(cli, tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text(FORWARD)
    (tmp_path / "b.py").write_text(FORWARD)
    original = torchlint.runner.process_text

    def broken_on_a(decoded, display, *args):
        if display == "a.py":
            raise KeyError("boom")
        return original(decoded, display, *args)

    monkeypatch.setattr(torchlint.runner, "process_text", broken_on_a)
    result = _concise(cli, ".")
    assert result.exit_code == 2
    assert "torchlint: internal error on a.py: KeyError: 'boom'" in result.stderr
    assert "b.py:3:5: TL005" in result.stdout
    assert "Not checked completely: 1 error (see above)." in result.stdout


def _crash_on(name: str):
    original = torchlint.runner.process_file

    def process_file(display, path, settings, mode):
        if path.name == name:
            faulthandler.disable()  # pytest's handler would print the worker's stack
            os.kill(os.getpid(), signal.SIGSEGV)  # as libcst's native parser does on some input
        return original(display, path, settings, mode)

    return process_file


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the crash is injected into forked workers")
def test_a_worker_that_dies_costs_only_its_own_file(cli, tmp_path, monkeypatch):
    for index in range(12):
        (tmp_path / f"m{index:02}.py").write_text(FORWARD)
    (tmp_path / "m05.py").write_text("x = 1\n")
    monkeypatch.setattr(torchlint.runner, "process_file", _crash_on("m05.py"))
    monkeypatch.setattr(torchlint.runner, "_pool_context", lambda: __import__("multiprocessing").get_context("fork"))
    result = _concise(cli, "--jobs", "2", ".")
    assert result.exit_code == 1
    assert "skipped m05.py: torchlint's parser crashed on it (the worker process died)" in result.stderr
    assert result.stdout.count(": TL005") == 11
    assert "Not checked completely: 1 file skipped" in result.stdout


# ---- messages ---------------------------------------------------------------------------------
def test_a_rule_crash_never_reads_all_checks_passed(cli, tmp_path, demo_rules):
    (tmp_path / "m.py").write_text("crash_me()\n")
    result = _concise(cli, "--extend-select", "TL992", "m.py")
    assert result.exit_code == 2
    assert "All checks passed!" not in result.stdout
    assert "No problems found. Not checked completely: 1 error (see above)." in result.stdout


@pytest.mark.parametrize("data", [b'x = "\xff"\n', b"x = 1\ny = '\xff'\n", b"x = 1\ny = 2\nz = '\xff'\n"])
def test_the_encoding_message_does_not_depend_on_the_line(cli, data):
    result = cli("check", "-", "--output-format", "concise", input=data)
    line = data.count(b"\n", 0, data.index(b"\xff")) + 1
    assert f"-:{line}:6: TL000 cannot decode as utf-8: invalid start byte" in result.stdout


def test_a_wrong_encoding_declaration_is_still_named(cli):
    result = cli("check", "-", "--output-format", "concise", input=b"# -*- coding: nonsense -*-\nx = 1\n")
    assert "TL000 cannot detect the encoding" in result.stdout


def test_an_nbformat_3_notebook_is_unsupported_not_invalid(cli, tmp_path):
    notebook = {"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": [
        {"cell_type": "code", "input": "import torch", "language": "python", "outputs": []}]}]}
    (tmp_path / "v3.ipynb").write_text(json.dumps(notebook))
    result = _concise(cli, "v3.ipynb")
    assert "v3.ipynb:1:1: TL000 unsupported notebook format (nbformat 3); nbformat 4 is required" in result.stdout


def test_a_shell_line_continued_by_a_backslash_is_masked_whole(cli, tmp_path):
    cells = [{"cell_type": "code", "id": "c1", "execution_count": None, "metadata": {}, "outputs": [],
              "source": "!pip install torch \\\n    torchvision\n" + FORWARD}]
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook, indent=1) + "\n")
    result = _concise(cli, "nb.ipynb")
    assert "nb.ipynb:cell 1:5:5: TL005" in result.stdout and "TL000" not in result.stdout


# ---- minor ------------------------------------------------------------------------------------
def test_files_over_max_file_size_are_skipped(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nmax-file-size = "1KB"\n')
    (tmp_path / "big.py").write_text(FORWARD + "#" * 2000 + "\n")
    (tmp_path / "small.py").write_text("x = 1\n")
    result = _concise(cli, ".")
    assert result.exit_code == 0
    assert "skipped big.py: it is larger than max-file-size (2,060 > 1,000 bytes)" in result.stderr
    assert "1 file skipped" in result.stdout


@pytest.mark.parametrize("value", ["0", '"ten"', "true", "-5"])
def test_max_file_size_must_be_a_size(cli, tmp_path, value):
    (tmp_path / "pyproject.toml").write_text(f"[tool.torchlint]\nmax-file-size = {value}\n")
    result = cli("check", "--no-cache", ".")
    assert result.exit_code == 2 and "`max-file-size` in" in result.stderr


def test_the_default_size_limit_is_ten_megabytes(tmp_path):
    from torchlint.config import CliOverrides, ConfigResolver

    assert ConfigResolver(CliOverrides(), cwd=tmp_path).default().max_file_size == 10_000_000


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_on_the_command_line_is_skipped_not_read(cli, tmp_path):
    (tmp_path / "ok.py").write_text(FORWARD)
    os.mkfifo(tmp_path / "fifo.py")
    result = _concise(cli, "ok.py", "fifo.py")
    assert result.exit_code == 1
    assert "skipped fifo.py: it is not a regular file" in result.stderr
    assert "ok.py:3:5: TL005" in result.stdout


def test_select_nothing_is_a_usage_error(cli, tmp_path):
    (tmp_path / "a.py").write_text(FORWARD)
    result = cli("check", "--select", "", "a.py")
    assert result.exit_code == 2 and "`--select` needs at least one rule code" in result.stderr


def test_target_torch_as_a_toml_float_is_an_error(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.torchlint]\ntarget-torch = 2.10\n")
    result = cli("check", "--no-cache", ".")
    assert result.exit_code == 2
    assert "`target-torch` in" in result.stderr and "must be a string" in result.stderr


def test_an_extensionless_python_script_is_found_by_its_shebang(cli, tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "train").write_text("#!/usr/bin/env python3\n" + FORWARD)
    (tmp_path / "bin" / "run").write_text("#!/bin/sh\necho m.forward(x)\n")
    (tmp_path / "bin" / "README").write_text("m.forward(x)\n")
    result = _concise(cli, ".")
    assert "bin/train:4:5: TL005" in result.stdout
    assert "bin/run" not in result.stdout and "README" not in result.stdout
    (tmp_path / "named").write_text(FORWARD)
    assert "named:3:5: TL005" in _concise(cli, "named").stdout


def test_fix_text_of_a_file_libcst_cannot_reproduce_is_skipped(monkeypatch):
    import torchlint.positions

    def refuse(self):
        raise torchlint.parsing.ElisionFailed("refused")

    monkeypatch.setattr(torchlint.positions.Positions, "_spans", refuse)
    result = fix_text(FORWARD, "m.py", [TL005])
    assert result.text == FORWARD and result.skipped == "libcst does not reproduce the file's text"


def test_stdin_over_the_size_limit_is_skipped_and_echoed(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.torchlint]\nmax-file-size = 10\n")
    result = cli("check", "-", "--stdin-filename", "big.py", "--fix", input=FORWARD.encode())
    assert result.exit_code == 0
    assert result.stdout_bytes == FORWARD.encode()
    assert "skipped big.py: it is larger than max-file-size (59 > 10 bytes)" in result.stderr


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        pytest.param("a\nb", ["a", "b"], id="no-final-newline"),
        pytest.param("a\r\nb\rc\n", ["a", "b", "c"], id="every-python-line-ending"),
        pytest.param("a\x0cb\u2028c\x1cd\x85e\n", ["a\x0cb\u2028c\x1cd\x85e"], id="not-line-endings-for-python"),
        pytest.param("", [], id="empty"),
    ],
)
def test_lines_are_counted_as_python_counts_them(text, lines):
    from torchlint.lines import physical_lines

    assert physical_lines(text) == lines
    assert "".join(physical_lines(text, keepends=True)) == text


@pytest.mark.parametrize(
    "module",
    [
        "MSG = (\n" + "".join(f"    'line {i}\\n' +\n" for i in range(900)) + "    'end')\n",  # one chain of 900 strings
        "x = [[1]]\ny = x" + "[0]" * 1500 + "\n",  # nested deeper than pickle goes
    ],
    ids=["a-long-chain-of-additions", "a-deep-chain-of-subscripts"],
)
def test_a_deeply_nested_module_of_the_project_costs_no_finding_elsewhere(cli, tmp_path, module):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "messages.py").write_text(module)
    (tmp_path / "train.py").write_text("import torch\nw = torch.zeros(2, requires_grad=True)\nprint(w.data)\n")
    for named in (["train.py"], ["."], ["-j", "2", "."]):
        result = cli("check", "--no-cache", "--select", "TL001", "--output-format", "json", *named)
        assert result.exit_code == 1, result.output
        assert [(d["code"], d["line"]) for d in json.loads(result.output)] == [("TL001", 3)]


MIXED_INDENTATION = (
    "import torch.nn as nn\n\n\nclass N(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.c = nn.Conv2d(1, 1, 1)\n        for m in self.modules():\n"
    "            if isinstance(m, nn.Conv2d):\n        \t    m.bias.data.zero_()\n"
)


def test_indentation_mixing_tabs_and_spaces_that_libcst_rejects_is_linted_without_fixes(cli, tmp_path):
    """CPython reads a tab as up to the next multiple of eight columns, and accepts this file;
    libcst's parser does not ("no matching outer block for dedent"). The file is linted with its
    tabs expanded: the finding lands on the original columns, and nothing is rewritten."""
    ast.parse(MIXED_INDENTATION)
    with pytest.raises(libcst.ParserSyntaxError):
        libcst.parse_module(MIXED_INDENTATION)
    result = lint_text(MIXED_INDENTATION, "t.py", [rule_by_code("TL001")])
    assert result.skipped is None
    assert [(d.code, d.line, d.column, d.fix) for d in result.diagnostics] == [("TL001", 10, 14, None)]
    path = tmp_path / "t.py"
    path.write_text(MIXED_INDENTATION)
    cli("check", "--no-cache", "--select", "TL001", "--fix", "--unsafe-fixes", str(path))
    assert path.read_text() == MIXED_INDENTATION


def test_a_bug_while_summarising_one_module_leaves_the_run_going(cli, tmp_path, monkeypatch):
    """A summary that raises is reported and read as knowing nothing; every file is still linted."""
    import torchlint.project.summary as summary

    module = summary._Summarizer.module

    def failing(self, tree):
        if "BROKEN" in self.text:
            raise KeyError("args")
        return module(self, tree)

    monkeypatch.setattr(summary._Summarizer, "module", failing)
    (tmp_path / "broken.py").write_text("BROKEN = 1\n")
    (tmp_path / "train.py").write_text("import torch.nn as nn\nnet = nn.Linear(2, 2)\nnet.forward(1)\n")
    result = cli("check", "--no-cache", "-j", "1", "--output-format", "json", str(tmp_path))
    assert [(d["code"], d["line"]) for d in json.loads(result.stdout)] == [("TL005", 3)]
    assert "internal error while summarising" in result.stderr and "broken.py" in result.stderr


def test_paths_sharing_only_the_filesystem_root_are_no_project():
    """`torchlint check /tmp/a /var/tmp/b`: the index must not take `/` for their project (it
    walked the whole filesystem, and stopped at the first folder it could not search)."""
    from pathlib import Path

    from torchlint.cli import _top_folder

    assert _top_folder(["/tmp/a/train.py", "/var/tmp/b"]) is None
    assert _top_folder(["/tmp/a/train.py", "/tmp/a/models/net.py"]) == Path("/tmp/a").resolve()


def test_a_gitignore_that_cannot_be_looked_at_is_none(tmp_path, monkeypatch):
    """A folder that cannot be searched (`/proc/1/fdinfo`, another user's): its .gitignore is
    none, and the walk goes on (Path.is_file raised PermissionError there)."""
    from pathlib import Path

    import torchlint.discovery

    real = Path.is_file

    def is_file(self):
        if self.name == ".gitignore":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "is_file", is_file)
    assert torchlint.discovery._load_gitignore(tmp_path) is None


@pytest.mark.parametrize(("source", "line"), [
    # an attribute updated from itself in place (a running statistic): judged once, as a cycle
    ("import torch\nimport torch.nn as nn\n\n\nclass Norm(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.register_buffer('running_mean', torch.zeros(3))\n\n    def forward(self, x):\n"
     "        self.running_mean += 0.1 * (x.mean(0) - self.running_mean)\n        return x - self.running_mean.view(1, 3)\n\n\n"
     "print(Norm()(torch.ones(2, 3)).data)\n", 15),
    # an attribute stored through a name from itself in a loop
    ("import torch\n\n\nclass State:\n    def __init__(self):\n        self.history = torch.zeros(1, 4)\n\n\n"
     "def update(h):\n    state = State()\n    for _ in range(3):\n"
     "        state.history = torch.concat((h, state.history), dim=1)[:, :-1]\n    return state.history\n\n\n"
     "print(update(torch.ones(1, 1)).data)\n", 16),
])
def test_a_value_made_from_its_own_attribute_is_analysed(cli, tmp_path, source, line):
    """`self.running_mean += 0.1 * (m - self.running_mean)`, `state.history = cat((h, state.history))`:
    the attribute's value reads the attribute; the file is linted, not skipped as too deep."""
    (tmp_path / "stats.py").write_text(source)
    result = cli("check", "--no-cache", "--select", "TL001", "--output-format", "json", "stats.py")
    assert [(d["code"], d["line"]) for d in json.loads(result.output)] == [("TL001", line)]
    assert "skipped" not in result.stderr
