"""Encoding, BOM, line endings, trailing newline and mode survive a fix; bad input is reported."""

from __future__ import annotations

import json
import os
import stat

import pytest

from .conftest import FORWARD_FIXED, FORWARD_SOURCE


def _fix(cli, tmp_path, data: bytes, *args: str, name="m.py"):
    path = tmp_path / name
    path.write_bytes(data)
    result = cli("check", "--fix", *args, name)
    return path.read_bytes(), result


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(FORWARD_SOURCE.encode(), FORWARD_FIXED.encode(), id="lf"),
        pytest.param(
            FORWARD_SOURCE.replace("\n", "\r\n").encode(), FORWARD_FIXED.replace("\n", "\r\n").encode(), id="crlf"
        ),
        pytest.param(b"\xef\xbb\xbf" + FORWARD_SOURCE.encode(), b"\xef\xbb\xbf" + FORWARD_FIXED.encode(), id="bom"),
        pytest.param(FORWARD_SOURCE.rstrip("\n").encode(), FORWARD_FIXED.rstrip("\n").encode(), id="no-final-newline"),
        pytest.param(
            ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + FORWARD_SOURCE).encode("latin-1"),
            ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + FORWARD_FIXED).encode("latin-1"),
            id="latin-1-cookie",
        ),
    ],
)
def test_fix_preserves_bytes_around_the_edit(cli, tmp_path, before, after):
    data, result = _fix(cli, tmp_path, before)
    assert data == after
    assert result.exit_code == 0


def test_fix_keeps_file_mode_and_leaves_no_temp_files(cli, tmp_path):
    path = tmp_path / "m.py"
    path.write_text(FORWARD_SOURCE)
    os.chmod(path, 0o751)
    cli("check", "--fix", "m.py")
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def _json(cli, *paths):
    result = cli("check", "--output-format", "json", *paths)
    return result, json.loads(result.stdout)


def test_undecodable_file_is_reported_untouched_and_others_still_linted(cli, tmp_path):
    bad = b"x = 1\ny = '\xff\xfe'\n"
    (tmp_path / "bad.py").write_bytes(bad)
    (tmp_path / "good.py").write_text(FORWARD_SOURCE)
    result = cli("check", "--fix", "--output-format", "json", ".")
    findings = json.loads(result.stdout)
    assert result.exit_code == 1
    (finding,) = findings
    assert finding["code"] == "TL000" and finding["path"] == "bad.py"
    assert "cannot decode as utf-8" in finding["message"]
    assert (finding["line"], finding["column"]) == (2, 6)
    assert (tmp_path / "bad.py").read_bytes() == bad
    assert (tmp_path / "good.py").read_text() == FORWARD_FIXED


def test_unparsable_file_is_reported_with_reason_and_untouched(cli, tmp_path):
    source = "import torch.nn as nn\nm = nn.Linear(2, 2)\nm.forward(x\n"
    (tmp_path / "bad.py").write_text(source)
    result, findings = _json(cli, "bad.py")
    assert result.exit_code == 1
    assert [(f["code"], f["line"], f["column"]) for f in findings] == [("TL000", 3, 10)]
    assert "'(' was never closed" in findings[0]["message"]
    cli("check", "--fix", "bad.py")
    assert (tmp_path / "bad.py").read_text() == source


def test_unreadable_file_is_reported_and_others_still_linted(cli, tmp_path, monkeypatch):
    # Permission bits do not stop root, so the read itself is made to fail as it would for a user.
    from pathlib import Path

    real_read_bytes = Path.read_bytes

    def read_bytes(self):
        if self.name == "secret.py":
            raise PermissionError(13, "Permission denied")
        return real_read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    (tmp_path / "secret.py").write_text(FORWARD_SOURCE)
    (tmp_path / "good.py").write_text(FORWARD_SOURCE)
    result, findings = _json(cli, ".")
    assert result.exit_code == 1
    assert [(f["path"], f["code"]) for f in findings] == [("good.py", "TL005"), ("secret.py", "TL000")]
    assert findings[1]["message"] == "cannot read the file: Permission denied"


def test_refused_fix_leaves_file_and_reports(cli, tmp_path, demo_rules):
    source = FORWARD_SOURCE + "y = break_me()\n"
    data, result = _fix(cli, tmp_path, source.encode(), "--extend-select", "TL991")
    assert data == source.encode()
    assert "does not parse" in result.stderr
    assert result.exit_code == 1
