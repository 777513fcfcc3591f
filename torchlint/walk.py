"""A fast walk over libcst trees.

libcst's own `visit()` and `.children` rebuild nodes as they go, which costs more than parsing.
Reading each node type's dataclass fields directly, and skipping the fields that only hold
whitespace, punctuation or operators (no rule looks at them), is several times faster.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from functools import lru_cache

import libcst as cst

_SKIPPED_FIELDS = frozenset(
    {"lpar", "rpar", "comma", "dot", "semicolon", "header", "footer", "leading_lines",
     "lines_after_decorators", "equal", "colon", "operator", "newline", "trailing_whitespace", "star",
     "indent", "asynchronous", "lbracket", "rbracket", "lbrace", "rbrace", "whitespace"}
)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(node_type: type) -> tuple[str, ...]:
    names = _FIELDS.get(node_type)
    if names is None:
        names = tuple(
            field.name for field in dataclasses.fields(node_type)
            if field.name not in _SKIPPED_FIELDS and "whitespace" not in field.name
        )
        _FIELDS[node_type] = names
    return names


class ElidedBlock(cst.IndentedBlock):
    """A function body left unparsed by `torchlint.parsing.parse_elided`.

    Its statements are parsed from the original text the first time anything reads `body`; until
    then it renders as that text. The rule walk never enters one (no rule can fire there); every
    other walk does, and so sees what a whole parse gives.
    """

    @classmethod
    def standing_for(cls, placeholder: cst.IndentedBlock, source) -> ElidedBlock:
        block = object.__new__(cls)
        for name in ("header", "indent", "footer"):
            object.__setattr__(block, name, getattr(placeholder, name))
        block.__dict__.update(source=source, placeholder=placeholder)
        return block

    def __getattr__(self, name: str):
        # Called only for attributes not set: `body`, until it is parsed.
        if name != "body" or "source" not in self.__dict__:
            raise AttributeError(name)
        statements = self.source.parse(self.placeholder)
        object.__setattr__(self, "body", statements)
        return statements

    @property
    def is_parsed(self) -> bool:
        try:
            object.__getattribute__(self, "body")
        except AttributeError:
            return False
        return True

    def mentions(self, word: str) -> bool:
        """Whether the body's text holds `word` as a whole word (a name, a keyword, the contents
        of a string); a body that does not is not worth parsing for it."""
        text = self.source.text
        return word in text and _whole_word(word).search(text) is not None

    def holds(self, text: str) -> bool:
        """Whether the body's text holds `text` anywhere (a prefix of a name, say)."""
        return text in self.source.text

    def _codegen_impl(self, state) -> None:
        if self.is_parsed:
            super()._codegen_impl(state)
            return
        self.header._codegen(state)
        state.increase_indent(state.default_indent if self.indent is None else self.indent)
        # The body's final newline is a token of its own: a module without one at its end drops
        # the last token.
        text, newline = self.source.text, self.source.final_newline
        state.add_token(text[: len(text) - len(newline)])
        state.add_token(newline or state.default_newline)
        for line in self.footer:
            line._codegen(state)
        state.decrease_indent()


@lru_cache(maxsize=256)
def _whole_word(word: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")


def unparsed_without(text: str) -> Callable[[cst.CSTNode], bool]:
    """A `prune` for `descendants` that leaves unparsed the bodies whose text never holds `text`."""
    return lambda node: type(node) is ElidedBlock and not node.is_parsed and not node.holds(text)


def _node_types() -> frozenset[type]:
    found, pending = set(), [cst.CSTNode]
    while pending:
        for subclass in pending.pop().__subclasses__():
            if subclass not in found:
                found.add(subclass)
                pending.append(subclass)
    return frozenset(found)


# isinstance() against libcst's abstract base class is slow; a set of the concrete types is not.
_NODE_TYPES = _node_types()
_SEQUENCES = (tuple, list)


# Nodes that never hold another node worth visiting.
LEAVES = frozenset({cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis,
                    cst.Pass, cst.Break, cst.Continue})
_NO_CHILDREN: list[cst.CSTNode] = []


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes that can hold statements or expressions, in field order."""
    node_type = type(node)
    if node_type in LEAVES:
        return _NO_CHILDREN
    found = []
    node_types = _NODE_TYPES
    for name in _fields(node_type):
        value = getattr(node, name)
        kind = type(value)
        if kind in node_types:
            found.append(value)
        elif kind in _SEQUENCES:
            found.extend(item for item in value if type(item) in node_types)
    return found


def descendants(
    node: cst.CSTNode, prune: Callable[[cst.CSTNode], bool] | None = None
) -> Iterator[cst.CSTNode]:
    """`node` and everything below it, depth first; below a node `prune` accepts, nothing."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        if prune is not None and current is not node and prune(current):
            continue
        pending.extend(reversed(children(current)))


SCOPE_NODES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def outside_nested_scopes(node: cst.CSTNode) -> bool:
    """A `prune` for walks that stay in one scope."""
    return isinstance(node, SCOPE_NODES)


def paths(root: cst.CSTNode, prune: Callable[[cst.CSTNode], bool]) -> Iterator[list[cst.CSTNode]]:
    """For `root` and each node below it, depth first, the nodes from `root` down to it (one list,
    updated as the walk goes: copy what is kept); below a node `prune` accepts, nothing.
    Iterative, so no closure refers to itself (the engine relies on freeing trees by refcount)."""
    pending: list[tuple[cst.CSTNode, int]] = [(root, 0)]
    path: list[cst.CSTNode] = []
    while pending:
        node, depth = pending.pop()
        del path[depth:]
        path.append(node)
        yield path
        if node is root or not prune(node):
            pending.extend((child, depth + 1) for child in reversed(children(node)))


def _unparsed(node: cst.CSTNode) -> bool:
    return type(node) is ElidedBlock and not node.is_parsed


def path_to(root: cst.CSTNode, target: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes from `root` down to `target`, both included; None when `target` is not below.
    A body still unparsed cannot hold `target` (a node of a parsed tree): it stays unparsed."""
    if _unparsed(root):
        return None if root is not target else [root]
    for path in paths(root, _unparsed):
        if path[-1] is target:
            return path
    return None


class Parents:
    """Each node's parent in one tree, from one walk made the first time a path is asked for:
    `path_to` from the module costs a walk of the tree per question, and the oracle asks many."""

    def __init__(self, module: cst.Module):
        self.module = module
        self._parents: dict[int, cst.CSTNode] | None = None

    def path_to(self, root: cst.CSTNode, target: cst.CSTNode) -> list[cst.CSTNode] | None:
        """What `path_to(root, target)` gives. A node the map does not place under `root` (one
        in a body parsed after the map was made) is looked for by the walk."""
        if self._parents is None:
            self._parents = self._map()
        parents = self._parents
        path = [target]
        node = target
        while node is not root:
            node = parents.get(id(node))
            if node is None:
                return path_to(root, target)
            path.append(node)
        if _unparsed(root) and root is not target:
            return None
        path.reverse()
        return path

    def _map(self) -> dict[int, cst.CSTNode]:
        """In the order `paths` walks, so a node met twice keeps the parent the walk finds first."""
        found: dict[int, cst.CSTNode] = {}
        pending: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(self.module, None)]
        while pending:
            node, parent = pending.pop()
            if parent is not None:
                if id(node) in found:
                    continue
                found[id(node)] = parent
                if _unparsed(node):
                    continue
            pending.extend((child, node) for child in reversed(children(node)))
        return found
