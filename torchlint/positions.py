"""Node positions from one codegen pass.

libcst's PositionProvider does the same pass through its metadata machinery and keeps line and
column per token, which costs about a second per large file. Here the pass only counts characters
and records each node's syntactic span as offsets; lines and columns are worked out for the few
nodes that are reported.
"""

from __future__ import annotations

from bisect import bisect_right

import libcst as cst
from libcst._nodes.internal import CodegenState

from torchlint.lines import line_starts
from torchlint.parsing import ElisionFailed




class _Span:
    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state, node, start_node, end_node):
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = self.state.offset

    def __exit__(self, *exc_info) -> bool:
        spans = self.state.spans
        start = spans[self.start_node][0] if self.start_node is not None else self.start
        end = spans[self.end_node][1] if self.end_node is not None else self.state.offset
        spans[self.node] = (start, end)
        return False


class _OffsetState(CodegenState):
    """Codegen that tracks the offset of the text produced so far, and each node's span."""

    def __init__(self, module: cst.Module):
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.offset = 0
        self.spans: dict[cst.CSTNode, tuple[int, int]] = {}
        self._starts: list[int] = []

    # Every node gets its whole span; nodes that record a syntactic span (without their
    # surrounding whitespace) overwrite it before they finish, as in libcst's own provider.
    def before_codegen(self, node: cst.CSTNode) -> None:
        self._starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._starts.pop()
        if node not in self.spans:
            self.spans[node] = (start, self.offset)

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        self.offset += sum(map(len, self.indent_tokens))

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.offset += len(value)

    def pop_trailing_newline(self) -> None:
        if self.tokens:
            self.offset -= len(self.tokens.pop())

    def record_syntactic_position(self, node, *, start_node=None, end_node=None) -> _Span:
        return _Span(self, node, start_node, end_node)


class Positions:
    """Offsets of every node's syntactic span, and 1-based line/0-based column on demand."""

    def __init__(self, module: cst.Module, text: str):
        self.module = module
        self.length = len(text)
        self.spans = self._spans()
        self.line_starts = line_starts(text)

    def _spans(self) -> dict[cst.CSTNode, tuple[int, int]]:
        state = _OffsetState(self.module)
        self.module._codegen(state)
        if state.offset != self.length:
            # Only a tree with bodies left unparsed could; the file is then parsed whole.
            raise ElisionFailed("the tree does not render to the file's text")
        return state.spans

    def offsets(self, node: cst.CSTNode) -> tuple[int, int]:
        span = self.spans.get(node)
        if span is None:
            # A function body left unparsed has been parsed since (torchlint.parsing): its nodes
            # are new to the tree, which renders to the same text.
            self.spans = self._spans()
            span = self.spans[node]
        return span

    def line_column(self, offset: int) -> tuple[int, int]:
        # the end of a file that ends in a newline is the start of the line after the last one
        line = bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1]
