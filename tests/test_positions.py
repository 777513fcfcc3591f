"""Our one-pass positions agree with libcst's PositionProvider, node for node."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from torchlint.positions import Positions

SOURCES = [
    "x = 1\n",
    "x = 1",
    "x = 1\r\ny = (\r\n    2)\r\n",
    "\n\n# comment\n",
    "",
    "def f(a, *, b=(1,\n  2)):\n    '''doc\n    string'''\n    return [i for i in a if i]  # c\n",
    "café = 'é' + f'{x!r:>{width}}'\nclass A(B, metaclass=M):\n    @d\n    def m(self): ...\n",
    *(path.read_text() for path in sorted((Path(__file__).parent.parent / "torchlint").glob("*.py"))[:6]),
]


@pytest.mark.parametrize("source", SOURCES, ids=range(len(SOURCES)))
def test_positions_match_libcst(source):
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions = Positions(module, source)
    for node, span in expected.items():
        if isinstance(node, cst.Module) or (
            not source.endswith("\n") and isinstance(node, (cst.Newline, cst.TrailingWhitespace))
        ):
            continue  # the final newline libcst adds to a file without one, and removes again
        start, end = positions.offsets(node)
        assert (*positions.line_column(start), *positions.line_column(end)) == (
            span.start.line, span.start.column, span.end.line, span.end.column
        ), type(node).__name__
