"""The shared per-file analysis: import aliases and the classes defined in the file.

Everything here walks statements only, never expressions, so it stays cheap next to parsing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cached_property

import libcst as cst

from torchlint.outline import Outline
from torchlint.torch_api import KNOWN_NON_MODULE_BASES, MODULE_BASE_CLASSES, is_module_base
from torchlint.walk import ElidedBlock, children, descendants

_BLOCK_TYPES = (
    cst.BaseSuite,
    cst.BaseCompoundStatement,
    cst.Else,
    cst.Finally,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.MatchCase,
)


def walk_statements(node: cst.CSTNode, into_scopes: bool = True,
                    into_elided: bool | Callable[[ElidedBlock], bool] = True) -> Iterator[cst.CSTNode]:
    """Every statement below `node` (compound ones, except clauses, and the small statements).

    With `into_scopes=False` the bodies of nested functions and classes are not entered, which is
    what collecting one scope's bindings needs. With `into_elided=False` function bodies left
    unparsed stay so (see torchlint.parsing for what they cannot hold); a predicate chooses which
    such bodies are entered.
    """
    for child in children(node):
        if isinstance(child, cst.SimpleStatementLine):
            yield child
            yield from child.body
        elif isinstance(child, _BLOCK_TYPES):
            if isinstance(child, (cst.BaseCompoundStatement, cst.ExceptHandler, cst.ExceptStarHandler)):
                yield child
                if not into_scopes and isinstance(child, (cst.FunctionDef, cst.ClassDef)):
                    continue
            elif type(child) is ElidedBlock and into_elided is not True and not (into_elided and into_elided(child)):
                continue
            yield from walk_statements(child, into_scopes, into_elided)


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """Every call below `node`."""
    return [child for child in descendants(node) if isinstance(child, cst.Call)]


def argument(call: cst.Call, position: int | None, keyword: str) -> cst.Arg | None:
    """The argument a call passes for a parameter, by keyword or (when given) by position."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    if position is None:
        return None
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    return positional[position] if position < len(positional) else None


def dotted_name(expr: cst.CSTNode) -> str | None:
    """`a.b.c` for a chain of Names and Attributes, else None."""
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        base = dotted_name(expr.value)
        return f"{base}.{expr.attr.value}" if base else None
    return None


def method_named(cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    """The method `name` a class body defines itself (not its bases')."""
    return next((item for item in cls.body.body if isinstance(item, cst.FunctionDef) and item.name.value == name), None)


def _module_path(node: cst.BaseExpression | None) -> str:
    return dotted_name(node) or "" if node is not None else ""


class ImportTable:
    """Local name → fully qualified name, from every import statement in the file."""

    def __init__(self, module: cst.Module | None):
        self.aliases: dict[str, str] = {}
        # For a file with `from x import *`: what a name the file does not bind itself refers to
        # through its star imports (set by the file's context, which knows the project).
        self.star_fallback: Callable[[str], str | None] | None = None
        self._through_stars: dict[str, str | None] = {}
        if module is None:
            return
        for statement in walk_statements(module):
            if isinstance(statement, cst.Import):
                self._add_import(statement)
            elif isinstance(statement, cst.ImportFrom):
                self._add_import_from(statement)

    @classmethod
    def from_outline(cls, outline: Outline) -> ImportTable:
        """The same table from CPython's outline of the file, which holds the imports of function
        bodies the elided parse leaves unparsed (so a body with an import need not be parsed)."""
        table = cls(None)
        # `try: from torch import vmap` / `except ImportError: from functorch import vmap`: the
        # handler's import is the fallback of older versions; the name is the one the try binds.
        for shape in outline.imports:
            bind = table.aliases.setdefault if shape.fallback else table.aliases.__setitem__
            if not shape.is_from:
                for name, asname in shape.names:
                    if asname is not None:
                        bind(asname, name)
                    else:
                        head = name.split(".")[0]
                        bind(head, head)
            else:
                package = "." * shape.level + (shape.from_module or "")
                separator = "" if package.endswith(".") else "."
                for name, asname in shape.names:
                    if name != "*":
                        bind(asname or name, f"{package}{separator}{name}")
        return table

    def _add_import(self, statement: cst.Import) -> None:
        for alias in statement.names:
            full = dotted_name(alias.name)
            if alias.asname is not None:
                self.aliases[alias.asname.name.value] = full
            else:
                head = full.split(".")[0]
                self.aliases[head] = head

    def _add_import_from(self, statement: cst.ImportFrom) -> None:
        if isinstance(statement.names, cst.ImportStar):
            return
        package = "." * len(statement.relative) + _module_path(statement.module)
        for alias in statement.names:
            name = dotted_name(alias.name)
            local = alias.asname.name.value if alias.asname is not None else name
            separator = "" if package.endswith(".") else "."
            self.aliases[local] = f"{package}{separator}{name}"

    def forget(self, names: Iterable[str]) -> None:
        """Names the module also binds otherwise (`checkpoint = no_checkpoint`, a `def checkpoint`
        after `from torch.utils.checkpoint import checkpoint`): what they refer to is not known."""
        for name in names:
            self.aliases.pop(name, None)

    def local_name(self, qualified: str) -> str | None:
        """The name this file binds to `qualified` (`torch` for `import torch`), if any."""
        for local, target in self.aliases.items():
            if target == qualified:
                return local
        return None

    def qualify(self, expr: cst.CSTNode) -> str | None:
        """The qualified name an expression refers to through the file's imports, if any."""
        name = dotted_name(expr)
        return self.qualify_name(name) if name is not None else None

    def qualify_name(self, name: str) -> str | None:
        """The qualified name a dotted name as written (`th.load`) refers to, if any."""
        head, _, rest = name.partition(".")
        target = self.target_of(head)
        if target is None:
            return None
        return f"{target}.{rest}" if rest else target

    def target_of(self, name: str) -> str | None:
        """What a plain name refers to through the file's imports (star imports included)."""
        target = self.aliases.get(name)
        if target is None and self.star_fallback is not None:
            if name not in self._through_stars:
                self._through_stars[name] = self.star_fallback(name)
            target = self._through_stars[name]
        return target


class ClassIndex:
    """The classes defined in the file, and whether their bases reach nn.Module."""

    def __init__(self, module: cst.Module, imports: ImportTable, module_bases: frozenset[str] = frozenset()):
        self.imports = imports
        self.module_bases = module_bases
        # Set by the oracle: whether an imported class reaches nn.Module, from the project index,
        # by its qualified name, and by its name where a star import brings it (`MyModule` from
        # `from utils import *`).
        self.project_status = None
        self.star_status = None
        self.by_name: dict[str, list[cst.ClassDef]] = {}
        self.method_owner: dict[cst.FunctionDef, cst.ClassDef] = {}
        for statement in walk_statements(module, into_elided=False):  # elided bodies hold no class
            if isinstance(statement, cst.ClassDef):
                self.by_name.setdefault(statement.name.value, []).append(statement)
                for item in statement.body.body:
                    if isinstance(item, cst.FunctionDef):
                        self.method_owner[item] = statement

    def subclasses(self, cls: cst.ClassDef) -> list[cst.ClassDef]:
        """The file's classes deriving from `cls` at any depth (a base names it, not an import)."""
        found: list[cst.ClassDef] = []
        parents = [cls]
        while parents:
            parent = parents.pop()
            for definitions in self.by_name.values():
                for candidate in definitions:
                    if candidate is not cls and candidate not in found and self._names_base(candidate, parent):
                        found.append(candidate)
                        parents.append(candidate)
        return found

    def _names_base(self, cls: cst.ClassDef, base_class: cst.ClassDef) -> bool:
        return any(dotted_name(base.value) == base_class.name.value and self.imports.qualify(base.value) is None
                   for base in cls.bases)

    def is_module_class(self, name: str) -> bool:
        return self.module_class_status(name) is True

    def module_class_status(self, name: str) -> bool | None:
        """True when the class's bases reach nn.Module, False when every base is resolved and none
        does, None when a base cannot be resolved (then the class is of unknown kind)."""
        test = (lambda q: is_module_base(q) or q in self.module_bases) if self.module_bases else is_module_base
        return self._reaches(name, MODULE_BASE_CLASSES, test, set(), self.project_status)

    def is_subclass_of(self, name: str, bases: frozenset[str]) -> bool:
        return self._reaches(name, bases, bases.__contains__, set(), None) is True

    def _reaches(self, name, bases, base_test, seen: set[str], outside) -> bool | None:
        definitions = self.by_name.get(name)
        if not definitions or name in seen:
            return False
        seen.add(name)
        answers = [self._class_reaches(cls, bases, base_test, seen, outside) for cls in definitions]
        if all(answer is True for answer in answers):
            return True
        return False if all(answer is not None for answer in answers) else None

    def _class_reaches(self, cls: cst.ClassDef, bases, base_test, seen, outside) -> bool | None:
        """`outside(qualified)` answers for an imported base (the project index): True, False or
        None; without it an imported base that is not a known module base counts as not reaching."""
        unknown = False
        for arg in cls.bases:
            if arg.keyword is not None:
                continue  # metaclass=...
            qualified = self.imports.qualify(arg.value)
            if qualified is not None:
                if base_test(qualified):
                    return True
                if outside is not None and qualified not in KNOWN_NON_MODULE_BASES:
                    answer = outside(qualified)
                    if answer is True:
                        return True
                    unknown = unknown or answer is None
                continue
            local = dotted_name(arg.value)
            if local and local in self.by_name:
                answer = self._reaches(local, bases, base_test, seen, outside)
                if answer is True:
                    return True
                unknown = unknown or answer is None
            elif outside is not None and (local or "?") not in KNOWN_NON_MODULE_BASES:
                answer = self.star_status(local) if self.star_status is not None and local else None
                if answer is True:
                    return True
                unknown = unknown or answer is None  # a builtin like `object` is known; anything else is not
        return None if unknown else False

    @cached_property
    def defined_names(self) -> frozenset[str]:
        return frozenset(self.by_name)


def element_at(value: cst.CSTNode, path: tuple[int, ...]) -> cst.CSTNode | None:
    """The element at `path` of nested tuple or list displays (`value` itself for an empty path);
    None where the value is not such a display there or a starred element stands in the way."""
    for index in path:
        if not isinstance(value, (cst.Tuple, cst.List)) or not -len(value.elements) <= index < len(value.elements):
            return None
        stars = [i for i, e in enumerate(value.elements) if isinstance(e, cst.StarredElement)]
        if stars and (index >= stars[0] or len(value.elements) + index <= stars[-1]):
            return None  # past a starred element the places depend on its length
        value = value.elements[index].value
    return value


def module_level_rebindings(module: cst.Module) -> set[str]:
    """Names the module's own code binds to a function or class of its own, at module level and
    in the blocks there (not in functions or classes): `def checkpoint(...)`, `checkpoint =
    no_checkpoint`, `load = lambda f: ...`. A value (`data = next(iter(loader))` after `from
    torch.utils import data`, a loop variable, `apex = None` where the import failed) leaves the
    import what the code before it calls."""
    bound: set[str] = set()
    pending: list[cst.CSTNode] = list(module.body)
    while pending:
        statement = pending.pop()
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            bound.add(statement.name.value)
        elif isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in statement.body:
                bound.update(_names_bound_by(small))
        elif isinstance(statement, cst.BaseCompoundStatement):
            pending.extend(_blocks_of(statement))
    return bound


def _names_bound_by(small: cst.BaseSmallStatement) -> list[str]:
    value = small.value if isinstance(small, (cst.Assign, cst.AnnAssign)) else None
    if not isinstance(value, (cst.Name, cst.Attribute, cst.Lambda)) or (isinstance(value, cst.Name) and value.value == "None"):
        return []
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
    return [name for target in targets for name in unpacked_names(target)]


def unpacked_names(target: cst.CSTNode) -> list[str]:
    """The names an assignment target binds, unpacked ones too (`a, (b, *c) = ...`)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in unpacked_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return unpacked_names(target.value)
    return []


def _blocks_of(statement: cst.BaseCompoundStatement) -> list[cst.CSTNode]:
    """The statements of a compound statement's blocks (its body, else, except and finally; a
    `match`'s cases)."""
    if isinstance(statement, cst.Match):
        blocks = [case.body for case in statement.cases]
    else:
        blocks = [statement.body]
    for field in ("orelse", "finalbody"):
        extra = getattr(statement, field, None)
        if extra is not None:
            blocks.append(extra.body if isinstance(extra, (cst.Else, cst.Finally)) else extra)
    blocks += [handler.body for handler in getattr(statement, "handlers", ())]
    statements: list[cst.CSTNode] = []
    for block in blocks:
        if isinstance(block, cst.If):  # `elif`
            statements.append(block)
        elif isinstance(block, cst.IndentedBlock):
            statements.extend(block.body)
        elif isinstance(block, cst.SimpleStatementSuite):
            statements.append(block)
    return statements
