"""Reading and writing Python sources without losing their encoding, BOM, newlines or mode."""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path


class SourceError(Exception):
    """A file that cannot be read or decoded; reported as TL000 with the reason."""

    def __init__(self, reason: str, line: int = 1, column: int = 1):
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


@dataclass(frozen=True)
class DecodedSource:
    text: str
    encoding: str  # "utf-8-sig" when the file starts with a BOM, so encoding restores it

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)


# PEP 263's cookie, on one of the first two lines.
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+", re.MULTILINE)


def decode_source(data: bytes) -> DecodedSource:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        if _declares_encoding(data):
            raise SourceError(f"cannot detect the encoding: {error}") from None
        # no declaration: the file is UTF-8, and a bad byte on line 1 or 2 is reported as on any line
        encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    try:
        # newline translation is off: CRLF and lone CR survive the round trip
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise SourceError(f"cannot decode as {encoding}: {error.reason}", line, column) from None
    return DecodedSource(text, encoding)


def _declares_encoding(data: bytes) -> bool:
    first_two = b"".join(data.splitlines(keepends=True)[:2]) if data else b""
    return _COOKIE.search(first_two) is not None


def read_source(path: Path) -> DecodedSource:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SourceError(f"cannot read the file: {error.strerror or error}") from None
    return decode_source(data)


class ReadOnlyFile(OSError):
    """A file the user cannot write, or one with no write permission at all, is never rewritten."""


def write_through(path: Path, data: bytes) -> None:
    """Replace a source file's content where it lives: a symlink is followed and the file it
    points to is written (the link stays a link); a file with other hard links is rewritten in
    place so every link sees the new text; any other file is replaced atomically. A read-only file
    (no write permission for the user, or none at all: root too is refused, as a marker of intent)
    is refused."""
    target = Path(os.path.realpath(path))
    info = target.stat()
    if not os.access(target, os.W_OK) or not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise ReadOnlyFile("the file is read-only")
    if info.st_nlink > 1:
        _write_in_place(target, data)
    else:
        write_atomic(target, data)


def _write_in_place(path: Path, data: bytes) -> None:
    """For a hard-linked file, which a rename would split from its other names. Not atomic: the
    new text is fully prepared before the file is opened, and written in one call."""
    with open(path, "r+b") as stream:
        stream.write(data)
        stream.truncate()
        stream.flush()
        os.fsync(stream.fileno())


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temp file in the same folder and rename it over the original."""
    mode = path.stat().st_mode if path.exists() else None
    handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as temp_file:
            temp_file.write(data)
        if mode is not None:
            os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        if os.path.exists(temp_name):
            os.unlink(temp_name)
        raise
