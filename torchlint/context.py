"""One file's lint run: the tree, the shared analysis, the ancestor stack and what rules report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst
from libcst._nodes.internal import CodegenState

from pathlib import Path

from torchlint import parsing
from torchlint.analysis import ClassIndex, ImportTable, dotted_name, module_level_rebindings, walk_statements
from torchlint.diagnostics import Diagnostic, Edit, Fix, make_edit
from torchlint.oracle import MODULE, TENSOR, Kind, TypeOracle
from torchlint.scopes import imported_names
from torchlint.positions import Positions
from torchlint.project.index import ProjectIndex
from torchlint.walk import SCOPE_NODES

if TYPE_CHECKING:
    from torchlint.rule import FixSpec, Rule




@dataclass(frozen=True)
class LintSettings:
    """The settings a rule may consult."""

    target_torch: tuple[int, ...] = (2, 13)
    # Base classes of installed frameworks whose subclasses are nn.Modules (`module-base-classes`).
    module_base_classes: frozenset[str] = frozenset()
    # Names of project functions that backpropagate their argument (`backward-functions`), on
    # top of the built-in ones TL003 knows (`accelerator.backward`, `scaler.scale`, ...).
    backward_functions: tuple[str, ...] = ()


class FileContext:
    def __init__(self, module: cst.Module, text: str, path: str, settings: LintSettings,
                 project: ProjectIndex | None = None):
        self.module = module
        self.text = text
        self.path = path
        self.settings = settings
        self._project_of_run = project
        # The ancestors of the node being visited, the node itself last.
        self.stack: list[cst.CSTNode] = []
        self.diagnostics: list[Diagnostic] = []
        self._evidence: str | None = None

    def consulted_modules(self) -> frozenset[str]:
        project = self.__dict__.get("project")
        return frozenset(project.consulted) if project is not None else frozenset()

    def release(self) -> None:
        """Called when the file is done: leaves no reference cycles behind."""
        oracle = self.__dict__.get("oracle")
        if oracle is not None:
            oracle.release()

    # ---- shared analysis, built on first use ----------------------------------------------
    @cached_property
    def imports(self) -> ImportTable:
        # From CPython's outline (the one the engine linted the file with): it holds the imports
        # of function bodies the elided parse left unparsed.
        outline = parsing.outline_of(self.text)
        table = ImportTable.from_outline(outline) if outline is not None else ImportTable(self.module)
        table.forget(module_level_rebindings(self.module) & table.aliases.keys())
        if "import *" in self.text:
            table.star_fallback = self._library_name_through_stars
            # `from utils import pick`, and a `from other import *` defining `pick` too: either may
            # be what the name holds
            table.forget({name for name, target in table.aliases.items() if self._star_import_rebinds(name, target)})
        return table

    def _star_import_rebinds(self, name: str, target: str) -> bool:
        """A `from x import *` of a project module brings `name` too, as something else than the
        explicit import's `target` (`torch` brought again by a star import is the same torch)."""
        star = self.project.star_rebinding(name)
        if star is None:
            return False
        if star.what == "external":
            return star.qualified != target
        return self.project.resolve_qualified(self.project.own_path or self.path, target) != star

    def _library_name_through_stars(self, name: str) -> str | None:
        """`nn` in a file whose `from models.common import *` brings models/common.py's
        `import torch.nn as nn`: the qualified name the star-imported module binds it to."""
        symbol = self.project.through_stars(name)
        return symbol.qualified if symbol is not None and symbol.what == "external" else None

    @cached_property
    def classes(self) -> ClassIndex:
        return ClassIndex(self.module, self.imports, self.settings.module_base_classes)

    @cached_property
    def project(self) -> ProjectIndex:
        """The project index as this file sees it (its own summary taken from the text linted)."""
        path = str(Path(self.path).resolve())
        if self._project_of_run is not None:
            return self._project_of_run.for_file(path, self.text)
        return ProjectIndex.single(path, self.text)

    @cached_property
    def oracle(self) -> TypeOracle:
        return TypeOracle(self.module, self.imports, self.classes, self.text, self.path, self.project)

    @cached_property
    def _positions(self) -> Positions:
        return Positions(self.module, self.text)

    def qualify(self, expr: cst.CSTNode) -> str | None:
        return self.imports.qualify(expr)

    def kind(self, expr: cst.CSTNode) -> Kind | None:
        kind = self.oracle.kind(expr, self.stack)
        if kind is not None and kind.evidence:
            self._evidence = kind.evidence  # said in the note of a finding reported at this node
        return kind

    def data_receiver(self, expr: cst.CSTNode) -> Kind | None:
        """The tensor that `expr.data` reads (see TypeOracle.data_receiver); None when `expr` is not one."""
        receiver = self.oracle.data_receiver(expr, self.stack)
        if receiver is not None and receiver.evidence:
            self._evidence = receiver.evidence
        return receiver

    def is_module(self, expr: cst.CSTNode) -> bool:
        kind = self.kind(expr)
        return kind is not None and kind.base == MODULE

    def is_tensor(self, expr: cst.CSTNode, graph: bool | None = None) -> bool:
        """A tensor; with `graph=True`, one that may carry an autograd graph."""
        kind = self.kind(expr)
        return kind is not None and kind.base == TENSOR and (graph is None or kind.graph == graph)

    def grad_disabled(self) -> bool:
        """Inside `with torch.no_grad()`/`inference_mode()`, or a function decorated with either,
        and no `enable_grad()`/`set_grad_enabled(...)` closer in.

        A nested function's body runs later, outside the block around its definition, so the
        search stops at the innermost function.
        """
        return self.oracle.grad_disabled_along(self.stack[:-1])

    def local_name(self, qualified: str, at_module_level: bool = False) -> str | None:
        """The name bound to `qualified` by an import visible where the current node stands (or,
        with `at_module_level`, in the module's own scope): an import inside another function
        does not count."""
        stack = [self.module] if at_module_level else self.stack
        for local, target in self.imports.aliases.items():
            if target != qualified:
                continue
            bindings = self.oracle.bindings_of(local, stack)
            if bindings and all(binding.how == "import" for binding in bindings) and self._import_runs(local, stack, bindings):
                return local
        return None

    def _import_runs(self, local: str, stack: Sequence[cst.CSTNode], bindings) -> bool:
        """A module-level import has run by the time the code at `stack` does: module-level code
        runs top to bottom, so there it must come first (a function body runs later, so any one
        serves it); an import under `if TYPE_CHECKING:` never runs."""
        if bindings[0].scope.node is not self.module:
            return True  # imported in the enclosing function itself
        in_function = any(isinstance(node, (cst.FunctionDef, cst.Lambda)) for node in stack)
        current = None if in_function else (stack[1] if len(stack) > 1 else None)
        for statement in self.module.body:
            if statement is current:
                return False
            if isinstance(statement, cst.If) and dotted_name(statement.test) in _TYPE_CHECKING:
                continue
            inner = statement.body if isinstance(statement, cst.SimpleStatementLine) else walk_statements(statement, False)
            if any(isinstance(s, (cst.Import, cst.ImportFrom)) and local in imported_names(s) for s in inner):
                return True
        return False

    def torch_call(self, function: str) -> cst.Call | None:
        """`torch.<function>()` spelled with imports visible here, or None if there are none."""
        torch_name = self.local_name("torch")
        if torch_name is not None:
            return cst.Call(func=cst.Attribute(value=cst.Name(torch_name), attr=cst.Name(function)))
        direct = self.local_name(f"torch.{function}")
        return cst.Call(func=cst.Name(direct)) if direct is not None else None

    def innermost_loop(self) -> cst.For | cst.While | None:
        """The innermost loop around the current node within its own function (a nested function,
        class or lambda runs on its own, so the search stops there)."""
        for node in reversed(self.stack[:-1]):
            if isinstance(node, (cst.For, cst.While)):
                return node
            if isinstance(node, SCOPE_NODES):
                return None
        return None

    def enclosing(self, *types: type[cst.CSTNode]) -> cst.CSTNode | None:
        """The innermost ancestor (not the current node) of one of `types`."""
        for node in reversed(self.stack[:-1]):
            if isinstance(node, types):
                return node
        return None

    def ancestors(self) -> Sequence[cst.CSTNode]:
        return self.stack[:-1]

    def line_of(self, node: cst.CSTNode) -> int:
        return self._positions.line_column(self._positions.offsets(node)[0])[0]

    # ---- reporting --------------------------------------------------------------------------
    def report(self, rule: Rule, node: cst.CSTNode, message: str, fix: FixSpec | None) -> None:
        start, end = self._positions.offsets(node)
        line, column = self._positions.line_column(start)
        end_line, end_column = self._positions.line_column(end)
        self.diagnostics.append(
            Diagnostic(
                code=rule.code,
                name=rule.name,
                message=message,
                path=self.path,
                line=line,
                column=column + 1,
                end_line=end_line,
                end_column=end_column + 1,
                severity=rule.severity,
                fix=self._fix(fix) if fix is not None and not self._in_self_documenting_field() else None,
                note=self._evidence,
            )
        )
        self._evidence = None

    def _in_self_documenting_field(self) -> bool:
        """Inside `f"{out.data=}"`: the field prints its own text, so any rewrite of it changes the
        output (`out.detach()=` instead of `out.data=`)."""
        return any(isinstance(node, cst.FormattedStringExpression) and node.equal is not None for node in self.stack)

    def _fix(self, spec: FixSpec) -> Fix:
        edits = tuple(self._edit(old, new) for old, new in spec.replacements)
        return Fix(spec.applicability, spec.message, edits)

    def _edit(self, old: cst.CSTNode, new: cst.CSTNode) -> Edit:
        """The smallest text edit that turns the file into the file with `old` replaced.

        Only `old` and `new` are rendered (at `old`'s indentation) and compared; the whole module
        is re-rendered only for a statement that is not among the current node's ancestors.
        """
        if old is self.module:
            return _diff_edit(self.text, 0, self.text, new.code)
        indents = self._indentation_of(old) if LOCAL_EDITS else None
        if indents is not None:
            before, after = self._render(old, indents), self._render(new, indents)
            start = self._locate(before, old)
            if start is not None:
                return _diff_edit(self.text, start, before, after)
        return _diff_edit(self.text, 0, self.text, self.module.deep_replace(old, new).code)

    def _indentation_of(self, node: cst.CSTNode) -> list[str] | None:
        """The indentation a node's lines are rendered at; None when it cannot be told cheaply."""
        if not isinstance(node, _INDENTED_NODES):
            return []  # expressions and small statements carry their own whitespace
        for depth, ancestor in enumerate(self.stack):
            if ancestor is node:
                return [  # a `match` indents its cases as a block indents its body
                    block.indent if block.indent is not None else self.module.default_indent
                    for block in self.stack[:depth]
                    if isinstance(block, (cst.IndentedBlock, cst.Match))
                ]
        return None

    def _render(self, node: cst.CSTNode, indents: list[str]) -> str:
        state = CodegenState(default_indent=self.module.default_indent, default_newline=self.module.default_newline)
        state.indent_tokens = list(indents)
        node._codegen(state)
        return "".join(state.tokens)

    def _locate(self, rendered: str, node: cst.CSTNode) -> int | None:
        """Where `rendered` (the node's own text) stands in the file: the copy covering its position."""
        anchor = self._positions.offsets(node)[0]
        start = self.text.find(rendered, max(0, anchor - len(rendered)))
        while start != -1 and start <= anchor:
            if anchor < start + len(rendered) or not rendered:
                return start
            start = self.text.find(rendered, start + 1)
        return None


_TYPE_CHECKING = ("TYPE_CHECKING", "typing.TYPE_CHECKING")

LOCAL_EDITS = True  # off only in tests that compare results with and without it

# Nodes whose rendering emits indentation, so it depends on where they stand.
_INDENTED_NODES = (
    cst.BaseStatement, cst.BaseSuite, cst.Else, cst.Finally, cst.ExceptHandler, cst.ExceptStarHandler,
    cst.MatchCase, cst.EmptyLine,
)


def _diff_edit(text: str, offset: int, before: str, after: str) -> Edit:
    """The edit that turns `before` (which stands at `offset` in `text`) into `after`."""
    prefix = _common_prefix_length(before, after)
    suffix = _common_prefix_length(before[prefix:][::-1], after[prefix:][::-1])
    return make_edit(text, offset + prefix, offset + len(before) - suffix, after[prefix : len(after) - suffix])


def _common_prefix_length(a: str, b: str) -> int:
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low
