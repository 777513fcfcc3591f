"""What TL301 (removed-torch-api) and TL302 (deprecated-torch-api) share: calls, bare decorators
and `from ... import` of the symbols in torchlint/data/deprecated.toml, judged against the target
torch version, with the table's fixes."""

from __future__ import annotations

import re
from typing import ClassVar

import libcst as cst

from torchlint.analysis import dotted_name
from torchlint.deprecations import Deprecation, deprecations, rewrite_call
from torchlint.rule import Rule
from torchlint.rules._training import spelled
from torchlint.uses import FileUses
from torchlint.walk import descendants

# Last name segments too common to use as prefilter tokens on their own.
_GENERIC = frozenset({"range", "grad", "norm", "lu", "eig", "svd", "qr", "ger", "vjp", "jvp", "solve", "Container",
                      "profile", "vmap", "upsample", "autocast", "GradScaler"})


def trigger_tokens() -> tuple[str, ...]:
    """A symbol's last name; for a common one, its parent's last name with it (`torch.norm`,
    `amp.autocast`): every spelling of the symbol writes that, except through an import alias of a
    torch module or an import of the name itself (`aliased_import_pattern`, `generic_import_pattern`).
    For a package other than torch, its name: a file reaches its symbols only by importing it."""
    tokens = set()
    for name in deprecations():
        parent, last = name.rsplit(".", 1)
        if not name.startswith("torch."):
            tokens.add(name.split(".")[0])  # names are qualified through imports: `functorch` is written
        else:
            tokens.add(f"{parent.rsplit('.', 1)[-1]}.{last}" if last in _GENERIC else last)
    return tuple(sorted(tokens))


def aliased_import_pattern() -> re.Pattern:
    """`import torch as th`, `from torch.cuda import amp as A`: a common name is then reached as
    `th.norm`, `A.autocast`."""
    roots = "|".join(sorted({name.split(".")[0] for name in deprecations()}))
    return re.compile(rf"(?:from\s+(?:{roots})[\w.]*\s+import\s+(?:\([^)]*?|[^\n]*?)|"
                      rf"import\s+[\w., \t]*?\b(?:{roots})[\w.]*\s+)\bas\s")


def generic_import_pattern() -> re.Pattern:
    """`from torch... import ..., range`: the other way a file can reach a symbol whose last name
    is too common to be a token (the import names it without its module)."""
    roots = sorted({name.split(".")[0] for name in deprecations()})
    names = sorted({name.rsplit(".", 1)[1] for name in deprecations()} & _GENERIC)
    return re.compile(rf"from\s+(?:{'|'.join(roots)})(?:\.\w+)*\s+import\s+(?:\([^)]*|[\w \t,\\]*)"
                      rf"\b(?:{'|'.join(names)})\b")


def scope_tokens() -> tuple[str, ...]:
    """Words without which a function body can hold no finding: every symbol's last name, as an
    attribute token for the common ones (`.range`; a body that calls `range` imported from torch
    is kept by the elision, which adds the names a token's symbol is imported under)."""
    return tuple(sorted({"functorch", *(("." + last if last in _GENERIC else last)
                                        for last in (name.rsplit(".", 1)[1] for name in deprecations()))}))


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def _catches_import_error(handler: cst.ExceptHandler) -> bool:
    caught = handler.type
    names = [element.value for element in caught.elements] if isinstance(caught, cst.Tuple) else [caught]
    return any(dotted_name(name) in _IMPORT_ERRORS for name in names if name is not None)


def _leading_name(text: str | None) -> str | None:
    """`torch.linalg.qr` from a replacement written as `torch.linalg.qr(A, mode=...)`."""
    match = re.match(r"[A-Za-z_][\w.]*", text or "")
    return match.group(0) if match else None
_GENERIC_IMPORT = generic_import_pattern()
_ALIASED_IMPORT = aliased_import_pattern()
_GENERIC_USES = tuple(sorted({"." + name.rsplit(".", 1)[1] for name in deprecations()} & {"." + g for g in _GENERIC}))


def _version(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def message(entry: Deprecation, removed: bool, imported: bool = False) -> str:
    when = f"removed in torch {_version(entry.removed)}" if removed else f"deprecated since torch {_version(entry.deprecated)}"
    if imported:
        text = f"Import of `{entry.name}`, {when}"
    else:
        text = f"`{entry.name}` {'was' if removed else 'is'} {when}"
    candidates = [f"{text}; use `{entry.replacement}`"] if entry.replacement else []
    candidates.append(text)
    return next(candidate for candidate in candidates if len(candidate) <= 100)


def _import_targets(module: cst.Module, name: str) -> set[str]:
    """What the file's imports binding `name` bind it to: `torch` for `import torch` and `import
    torch.utils.data` alike, `torch.amp.GradScaler` for `from torch.amp import GradScaler`."""
    targets = set()
    for node in descendants(module):
        if isinstance(node, cst.Import):
            for alias in node.names:
                dotted = dotted_name(alias.name) or ""
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    if alias.asname.name.value == name:
                        targets.add(dotted)
                elif dotted.split(".")[0] == name:
                    targets.add(name)
        elif isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
            module_name = (dotted_name(node.module) or "") if node.module is not None else ""
            source = "." * len(node.relative) + module_name
            for alias in node.names:
                local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else alias.name.value
                if local == name:
                    targets.add(f"{source}.{dotted_name(alias.name)}")
    return targets


def _swappable(entry: Deprecation) -> bool:
    """A rename whose replacement keeps the name in another module (`functorch.vmap` →
    `torch.func.vmap`): `from functorch import vmap` becomes `from torch.func import vmap`."""
    return entry.fix == "rename" and entry.replacement.rsplit(".", 1)[1] == entry.name.rsplit(".", 1)[1]


class DeprecatedApiRule(Rule):
    """Shared visitor; `removed` says which half of the table a subclass reports."""

    removed: ClassVar[bool]
    preview = False

    @classmethod
    def could_fire(cls, text: str) -> bool:
        if any(token in text for token in cls.trigger_tokens) or _GENERIC_IMPORT.search(text) is not None:
            return True
        return any(use in text for use in _GENERIC_USES) and _ALIASED_IMPORT.search(text) is not None

    @classmethod
    def could_fire_in(cls, uses: FileUses) -> bool:
        """It reports calls, bare decorators and `from` imports of the table's symbols."""
        table = deprecations().keys()
        return not table.isdisjoint(uses.calls) or not table.isdisjoint(uses.imported)

    def _entry(self, qualified: str | None) -> Deprecation | None:
        entry = deprecations().get(qualified) if qualified else None
        target = self.ctx.settings.target_torch
        if entry is None or not entry.applies_to(target) or entry.removed_for(target) != self.removed:
            return None
        return entry

    def _applicability(self, entry: Deprecation) -> str:
        return entry.safety or "unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        entry = self._entry(self.ctx.qualify(node.func))
        if entry is None or self._in_compat_branch(entry) or self._imported_in_branches(node.func):
            return
        fix = None
        target = entry.fix_target
        # A name imported from the old module is fixed at its import, when the import can be.
        fixable_here = not (isinstance(node.func, cst.Name) and _swappable(entry))
        func = spelled(self.ctx, target, where=True) if target and fixable_here else None
        new = rewrite_call(entry, node, func) if func is not None else None
        if new is not None:
            fix = self.replace(node, new, f"Use `{dotted_name(func) or target}`", self._applicability(entry))
        self.report(node, message(entry, self.removed), fix)

    def _imported_in_branches(self, func: cst.BaseExpression) -> bool:
        """The callee's name is bound by more than one import (`if new_torch: from torch.amp import
        GradScaler`, `else: from torch.cuda.amp import GradScaler`): a compatibility shim, whose
        calls are written for whichever import ran; the imports themselves are reported."""
        head = func
        while isinstance(head, cst.Attribute):
            head = head.value
        if not isinstance(head, cst.Name):
            return False
        bindings = self.ctx.oracle.bindings_of(head.value, self.ctx.stack) or []
        if sum(1 for binding in bindings if binding.how == "import") < 2:
            return False
        # (two imports of one module, `import torch` and `import torch.utils.data`, are no shim)
        return len(_import_targets(self.ctx.module, head.value)) > 1

    def _in_import_fallback(self) -> bool:
        """Inside `except ImportError` (or `ModuleNotFoundError`): the old name is what older torch
        versions offer, and the try above it imports the new one."""
        handler = self._enclosing_alternative()
        return isinstance(handler, cst.ExceptHandler) and _catches_import_error(handler)

    def _in_compat_branch(self, entry: Deprecation) -> bool:
        """The `else` of a version check or the handler of a `try` whose other branch uses the
        replacement (`if torch >= 2.4: torch.amp.GradScaler("cuda") else: torch.cuda.amp.GradScaler()`):
        the old API is there for older torch on purpose, and rewriting it would break that branch."""
        replacement = entry.fix_target or _leading_name(entry.replacement)
        branch = self._enclosing_alternative()
        if replacement is None or branch is None:
            return False
        return any(replacement in self._names(node) for node in descendants(self._sibling_of(branch)))

    def _enclosing_alternative(self) -> cst.CSTNode | None:
        """The innermost `else`/`elif` branch (of a statement or a conditional expression) or
        `except` handler around the node, in its function."""
        stack = self.ctx.stack
        for index in range(len(stack) - 1, 0, -1):
            node, parent = stack[index], stack[index - 1]
            if isinstance(node, cst.ExceptHandler):
                return node
            if isinstance(parent, (cst.If, cst.IfExp)) and node is parent.orelse:
                return node
            if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                return None
        return None

    def _sibling_of(self, branch: cst.CSTNode) -> cst.CSTNode:
        stack = self.ctx.stack
        parent = stack[next(i for i in range(len(stack) - 1, 0, -1) if stack[i] is branch) - 1]
        return parent.body

    def _names(self, node: cst.CSTNode) -> set[str]:
        """The qualified names a node uses or imports."""
        if isinstance(node, (cst.Name, cst.Attribute)):
            return {self.ctx.qualify(node)} - {None}
        if isinstance(node, cst.ImportFrom) and node.module is not None and not isinstance(node.names, cst.ImportStar):
            module = dotted_name(node.module)
            return {f"{module}.{dotted_name(alias.name)}" for alias in node.names}
        return set()

    def visit_Decorator(self, node: cst.Decorator) -> None:
        expr = node.decorator
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return
        entry = self._entry(self.ctx.qualify(expr))
        if entry is None or self._in_compat_branch(entry):
            return
        fix = None
        func = spelled(self.ctx, entry.fix_target, where=True) if entry.fix_target else None
        if func is not None and isinstance(expr, cst.Attribute):
            if entry.fix == "rename":
                fix = self.replace(expr, func, f"Use `{entry.replacement}`", self._applicability(entry))
            elif entry.rewriter == "device_type_keyword":
                new = rewrite_call(entry, cst.Call(func=expr), func)
                fix = self.replace(expr, new, f"Use `{entry.fix_target}`", self._applicability(entry))
        self.report(expr, message(entry, self.removed), fix)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        if self._in_import_fallback():
            return  # `except ImportError: from functorch import vmap`: kept for older versions on purpose
        module = dotted_name(node.module)
        found = [(alias, self._entry(f"{module}.{dotted_name(alias.name)}")) for alias in node.names]
        flagged = [(alias, entry) for alias, entry in found if entry is not None and not self._in_compat_branch(entry)]
        if not flagged:
            return
        fix = None
        new_modules = {entry.replacement.rsplit(".", 1)[0] for _, entry in found if entry is not None and _swappable(entry)}
        if len(flagged) == len(found) and all(_swappable(entry) for _, entry in flagged) and len(new_modules) == 1:
            new_module = new_modules.pop()
            fix = self.replace(node, node.with_changes(module=cst.parse_expression(new_module)),
                               f"Import from `{new_module}`", "safe")
        for alias, entry in flagged:
            self.report(alias, message(entry, self.removed, imported=True), fix)
            fix = None
