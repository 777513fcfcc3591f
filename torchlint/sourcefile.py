"""Reading and writing Python sources without losing their encoding, BOM, newlines or mode."""

from __future__ import annotations

import io
import os
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


def decode_source(data: bytes) -> DecodedSource:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise SourceError(f"cannot detect the encoding: {error}") from None
    try:
        # newline translation is off: CRLF and lone CR survive the round trip
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise SourceError(f"cannot decode as {encoding}: {error.reason}", line, column) from None
    return DecodedSource(text, encoding)


def read_source(path: Path) -> DecodedSource:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SourceError(f"cannot read the file: {error.strerror or error}") from None
    return decode_source(data)


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
