"""One module's summary, from CPython's `ast`: plain data that describes what each name is bound
to, without judging it. Kinds are worked out later by the index, when a linted file asks.

Values are described by descriptors (project/descriptors.py); what a function's names hold where
they are read is worked out in project/flow.py, what its containers hold in project/containers.py.
"""

from __future__ import annotations

import ast
import hashlib
import re
import sys
import warnings
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass, field

from torchlint import legacy
from torchlint.kinds import TENSOR_ITERATORS
from torchlint.lines import line_starts
from torchlint.torch_api import MODULE_ATTRIBUTE_NAMES
from torchlint.outline import Outline, Uses
from torchlint.project.containers import _changed_in_place, _grow_lists, _items_changed, _items_changed_in_text, _mark_filled_sequentials, _mark_sequential_lists, _marked_changed, _mutable_displays, _returned_dicts, _returned_locals, _returned_tuples
from torchlint.project.descriptors import Descriptor, _closure_refs, _describe, _describe_dict, _describe_returned, _hidden_import_name, _mentions_locals, _place, _renamed_refs, _string_keyed, _target_paths, last_name, select
from torchlint.project.flow import _CHAIN_SIZE, _bindings, _computes, _grad_off_statements, _last_top_level_values, _reaching_values, _read_at_reaching_values, _size_within, _turns_grad_off, _with_last_values
from torchlint.project.syntax import _CHILD_FIELDS, _COMPOUND, _INNER_SCOPES, _LEAF_FIELDS, _NOT_NODES, _called_name, _dotted, _statements, _walk, _walk_outside_nested_scopes


FORMAT = 70  # bumped when summaries change shape, so cached ones are rebuilt


# The escape (after a class name, or `*`) of an instance built from a class found at run time.
MADE_FROM_CLASS = ".__class__()"


# The escape of a module that calls `__init__` outside its module-level classes (`def reset(h,
# s): h.__init__(s)`): a constructor of any class may run there with values no call shows.
REINITIALISED = "*.__init__()"
# CallSite.spread of a call that spreads keywords only (`f(x, y, **kwargs)`): its positional
# arguments are where they stand; a parameter not given by position may come from the spread.
KEYWORDS_SPREAD = "**"


@dataclass(frozen=True)
class CallSite:
    """A call of a name that may be one of the project's functions or classes (callee `("ref",
    ...)`), of a method of a value (callee `("attr", receiver, method)`: `self.fit(model)`,
    `trainer.fit(model)` inside a function), or of a function's local name (`("local", ...)`:
    `model(x)`, an instance whose `forward` it runs); the last two only when passing arguments."""

    callee: Descriptor
    args: tuple[Descriptor, ...]  # positional
    keywords: tuple[tuple[str, Descriptor], ...]
    spread: bool | str  # passes *args (True) or only **kwargs (KEYWORDS_SPREAD): which parameter gets what is unknown
    line: int
    code: tuple[str, ...]  # the source of each positional argument, for notes


@dataclass
class FunctionSummary:
    params: tuple[str, ...]  # positional (positional-only and regular)
    kwonly: tuple[str, ...]
    defaults: dict[str, Descriptor]
    star: bool  # has *args or **kwargs
    returns: tuple[Descriptor, ...]  # every returned value; a bare `return` is ("none",); none for a generator
    locals: dict[str, tuple[Descriptor, ...]]
    decorators: tuple[str, ...]
    line: int
    # The position of the parameter every `return` gives back as it was passed, never bound
    # again anywhere in the function (nested scopes, walrus, match captures included); or None.
    passes_back: int | None = None
    # Its local names (parameters included) whose attributes it assigns (`cls.__call__ = f`,
    # `setattr(cls, "forward", g)`).
    changed: frozenset[str] = frozenset()
    # Of a method: the positions of the parameters (its `self` not counted) whose values it adds
    # to an attribute of its own instance, so that they last across calls (`self.sum += val * n`,
    # `self.v = (self.v * n + x) / (n + 1)`, `self.vals.append(val)`): a meter's `update`.
    accumulates: tuple[int, ...] = ()
    # Of a generator: each yielded value (a bare `yield` is ("none",), a `yield from` None).
    yields: tuple[Descriptor, ...] = ()
    # Of a class's `__init__`: its calls of a base's `__init__`, each (line, offset between the
    # call's arguments and the parameters, the class named or None for `super()`):
    # `super().__init__(args, model)` is (line, 1, None), `Base.__init__(self, x)` (line, 0,
    # "Base"); None where the text names `__init__` otherwise (it may run one unseen).
    base_inits: tuple[tuple[int, int, str | None], ...] | None = ()


UNREAD_METHOD = "?"  # ClassSummary.methods: a name the class body binds otherwise than by a `def`


_CALL_MACHINERY = frozenset({"forward", "__call__"})


@dataclass
class ClassSummary:
    bases: tuple[Descriptor, ...]
    methods: dict[str, str]  # method name -> function key
    attributes: dict[str, tuple[tuple[str, Descriptor], ...]]  # self.<attr> -> (method key, value)
    line: int
    # each decorator's dotted name, with "()" after a decorator that is a call's result; "?" unread
    decorators: tuple[str, ...] = ()
    # the class adds nothing a base's code could read differently: its body holds at most an
    # `__init__` (and a docstring), no keyword among its bases (a metaclass), and its text never
    # sets attributes by other means (`setattr`, `add_module`, `__dict__`, a property)
    plain: bool = False
    # plain, but for methods other than `__init__` defined without decorators (a base's code
    # calling one reads it as the subclasses define it; see ProjectIndex.shadows_family)
    plain_methods: bool = False
    # its text names `__init__` outside its own `__init__` (`def reset(self): self.__init__(...)`,
    # `super().__init__(...)` in another method): a constructor may run again with other values
    reinitialises: bool = False


@dataclass
class ModuleSummary:
    imports: dict[str, tuple[int, str, str | None]]  # local -> (level, module, name or None)
    stars: tuple[tuple[int, str], ...]
    exported: tuple[str, ...] | None  # __all__
    classes: dict[str, ClassSummary] = field(default_factory=dict)
    functions: dict[str, FunctionSummary] = field(default_factory=dict)
    names: dict[str, tuple[Descriptor, ...]] = field(default_factory=dict)
    calls: tuple[CallSite, ...] = ()  # of names (`train(...)`, `pkg.build(...)`) and of methods
    # Names used other than as the callee of a call (or the argument of `.apply`): a function or
    # class referenced like that can be called from places the index cannot see.
    escapes: frozenset[str] = frozenset()
    # Escapes only ever read through, as the head of an attribute (`Logger.load_cpk(path)`,
    # `Config.SIZE`): the name is named there, never handed on (no subclass or instance is made).
    read_through: frozenset[str] = frozenset()
    applied: tuple[str, ...] = ()  # names passed to `<x>.apply(fn)`
    syntax_error: tuple[str, int, int] | None = None
    # Attributes assigned through another object than a method's own `self` (`cache.feats = v`,
    # `agent.policy = v`): attribute -> the values (an instance's attribute may be set from
    # outside its class). Each also escapes as `=<attribute>`, which finds the module by name.
    stores: dict[str, tuple[Descriptor, ...]] = field(default_factory=dict)
    # Of those, the ones assigned through a module-level or imported name (`state.current = v`
    # after `import state`): attribute -> (the receiver's dotted name as the module reads it,
    # the value). The index resolves the receiver: a module's own name rebound from outside.
    name_stores: dict[str, tuple[tuple[str, Descriptor], ...]] = field(default_factory=dict)
    # Names bound only under `if __name__ == "__main__":`: a module imported does not run that
    # block, so `from script import *` does not bring them.
    script_names: frozenset[str] = frozenset()
    # Module-level names imported more than once, from different places (`if arch == "a": from
    # approaches import a as approach`, `else: from approaches import b as approach`): every
    # import of each, in order (`imports` holds the last).
    alternatives: dict[str, tuple[tuple[int, str, str | None], ...]] = field(default_factory=dict)


# A class of the project defining one of nn.Module's tensor iterators (`parameters`), or another
# method whose call is taken as evidence of a tensor (`expand`), itself escapes as OWN_ITERATOR +
# the name.
OWN_ITERATOR = "def:"


OWN_EVIDENCE_METHODS = TENSOR_ITERATORS | {"expand"}


# A module-level function its module defines more than once, or binds otherwise too (`if
# legacy: def f ...` `else: def f ...`): escapes as REDEFINED + the name.
REDEFINED = "redef:"


def _setattr_target(statement: ast.stmt) -> ast.Attribute | None:
    """`setattr(obj, "name", value)` as a statement: the target it stores, as `obj.name = value`."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (type(call) is ast.Call and type(call.func) is ast.Name and call.func.id == "setattr" and len(call.args) == 3):
        return None
    name = call.args[1]
    if not (type(name) is ast.Constant and isinstance(name.value, str) and name.value.isidentifier()):
        return None
    return ast.Attribute(value=call.args[0], attr=name.value, ctx=ast.Store())


def _decorator_name(decorator) -> str:
    """`register` for `@register`, `MODELS.register_module()` for `@MODELS.register_module()`."""
    if isinstance(decorator, ast.Call):
        dotted = _dotted(decorator.func)
        return dotted + "()" if dotted else "?"
    return _dotted(decorator) or "?"


def callee_name(site: CallSite) -> str | None:
    """The last name of what a call site calls (`build` for `pkg.models.build(...)`, `fit` for
    `self.trainer.fit(model)`)."""
    callee = site.callee
    if callee is None:
        return None
    return last_name(callee[1]) if callee[0] == "ref" else callee[2] if callee[0] == "attr" else None


def lookup_names(summary: ModuleSummary) -> tuple[frozenset[str], frozenset[str]]:
    """The last names of what a module calls by name, and of the names it lets escape as values:
    what the index finds a function's callers by, without reading every module's summary."""
    called = frozenset(callee_name(site) for site in summary.calls) - {None}
    return called, frozenset(last_name(local) for local in summary.escapes)


def uses_digest(summary: ModuleSummary) -> str:
    """A digest of what a module calls (with what), what it imports and lets escape: the part of
    it that other modules' call-site evidence reads. Lines are left out, so that an edit above a call does not
    make every result resting on it stale (a note naming that line may then be off until the
    file holding the finding is linted again)."""
    calls = [(site.callee, site.args, site.keywords, site.spread, site.code) for site in summary.calls]
    imports = sorted(summary.imports.items())  # (what a call's name resolves to)
    stores = (sorted(summary.stores.items()), sorted(summary.name_stores.items()))  # (what an attribute may hold)
    return content_digest(repr((sorted(summary.escapes), sorted(summary.read_through), calls, summary.applied, imports,
                                summary.stars, stores)).encode())


def content_digest(data: bytes) -> str:
    """What identifies a module's content (the index cache and the result cache's dependencies)."""
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def summarize(text: str, filename: str = "<module>") -> ModuleSummary:
    return summarize_and_outline(text, filename)[0]


def summarize_and_outline(text: str, filename: str = "<module>") -> tuple[ModuleSummary, Outline | None]:
    """The module's summary, and CPython's outline of it (None when CPython rejects it), from one
    parse: the engine lints the same text from the outline without parsing it again."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename)
    except SyntaxError as error:
        rejected = (error.msg, error.lineno or 1, error.offset or 1)
        return _legacy_summary(text, rejected) or ModuleSummary({}, (), None, syntax_error=rejected), None
    except (ValueError, RecursionError, MemoryError) as error:
        return ModuleSummary({}, (), None, syntax_error=(str(error) or type(error).__name__, 1, 1)), None
    outline = Outline.of(tree)
    summarizer = _Summarizer(text)
    try:
        summary = summarizer.module(tree)
    except RecursionError:
        return ModuleSummary({}, (), None), outline
    except Exception as error:  # a bug of ours: this module is read as knowing nothing; the run goes on
        print(f"torchlint: internal error while summarising {filename}: {type(error).__name__}: {error}", file=sys.stderr)
        return ModuleSummary({}, (), None), outline
    return summary, outline._replace(uses=Uses(frozenset(summarizer.called), frozenset(summarizer.attribute_names)))


def _legacy_summary(text: str, rejected: tuple[str, int, int]) -> ModuleSummary | None:
    """A module written for an older Python (`async` as a name, Python 2) is summarised as that
    Python read it (its classes still tell other files what they import); it stays rejected for
    the engine."""
    reading = legacy.readable(text)
    if reading is None:
        return None
    text = reading[0]
    try:
        summary = _Summarizer(text).module(ast.parse(text))
    except RecursionError:
        return None
    summary.syntax_error = rejected
    return summary


class _Summarizer:
    def __init__(self, text: str):
        self.text = text
        self.summary = ModuleSummary({}, (), None)
        self.calls: list[CallSite] = []
        self.escapes: set[str] = set()
        self.applied: list[str] = []
        self._spans: dict[str, tuple[int, int]] = {}
        self._grad_off_lines: dict[str, set[int]] = {}  # a function's lines that run in its `no_grad` blocks
        self._local_names: dict[str, frozenset[str]] = {}  # function key -> its local names (not its `global`s)
        self._bases_named: set[int] = set()  # ids of the names in module-level classes' bases
        self._lines: list[str] | None = None
        self._scopes_by_line: list[tuple[str | None, frozenset[str]]] | None = None
        self._firsts: frozenset[str] | None = None  # (see _classmethod_firsts)
        self._class_of_self_calls: list[ast.Call] = []  # `type(self)` in a method
        self._init_calls: list[ast.Call] = []  # `<x>.__init__(...)`
        # id of a call inside comprehensions or lambdas -> the names they bind around it
        self._shadowed: dict[int, frozenset[str]] = {}
        self.walrus = ":=" in text  # most files have none: no statement needs walking for one
        self._tree: ast.AST | None = None  # the module's tree (set by `module`)
        self._bound_out_of_sight: dict[str, list[int]] | None = None  # see _params_bound_out_of_sight
        # (function key, line) -> what a plain assignment earlier in the same block gave each name
        # bound more than once (see _reaching_values); `nonlocal` may rebind unseen: none then
        self._reaching: dict[tuple[str, int], dict[str, Descriptor]] = {}
        # module-level name -> the values functions declaring it `global` store into it
        self._global_stores: dict[str, list[Descriptor]] = {}
        self._reaching_known = "nonlocal" not in text
        # function key -> {a name its own imports bind: the hidden module-level name it is kept
        # under} (see _own_imports)
        self._local_imports: dict[str, dict[str, str]] = {}
        self._closures: dict[str, dict[str, str]] = {}  # function key -> {a free name: the enclosing function's key}
        self._stores: dict[str, list[Descriptor]] = {}  # see ModuleSummary.stores
        self._name_stores: dict[str, list[tuple[str, Descriptor]]] = {}  # see ModuleSummary.name_stores
        self._changed: dict[str, set[str]] = {}  # function key -> its names whose attributes it assigns
        # (function key, escape) of each module found by a computed name; the functions that look
        # names up by a computed name (None: the module's own code)
        self._modules_by_computed_name: list[tuple[str | None, str]] = []
        self._scopes_looking_up: set[str | None] = set()
        self._looked_up_owners: set[str] = set()  # what computed lookups read (see _module_holders)
        self._dotted_imports: set[str] = set()  # modules bound by `import a.b` (reached as `a.b`)
        # What the code uses, for the outline (`Uses`): the prefilter's second step asks it
        self.called: set[str] = set()
        self.attribute_names: set[str] = set()

    def _imported(self, local: str, target: tuple[int, str, str | None], in_a_block: bool) -> None:
        """A module-level import binding `local` (see ModuleSummary.alternatives): one in a block
        (an `if`, a `try`) is one more that may hold; one at the top level replaces all before it."""
        before = self.summary.imports.get(local)
        if not in_a_block:
            self.summary.alternatives.pop(local, None)
        elif before is not None and before != target:
            self.summary.alternatives[local] = (*self.summary.alternatives.get(local, (before,)), target)
        self.summary.imports[local] = target

    def module(self, tree: ast.Module) -> ModuleSummary:
        self._tree = tree
        if "Sequential(*" in self.text:
            _mark_sequential_lists(tree)
        if "add_module(" in self.text:
            _mark_filled_sequentials(tree)
        stars = []
        module_statements = list(_statements(tree.body))
        top_level = {id(statement) for statement in tree.body}
        for statement in module_statements:
            in_a_block = id(statement) not in top_level
            if isinstance(statement, ast.Import):
                for alias in statement.names:
                    if alias.asname:
                        self._imported(alias.asname, (0, alias.name, None), in_a_block)
                    else:
                        head = alias.name.split(".")[0]
                        self._imported(head, (0, head, None), in_a_block)
                        if "." in alias.name:
                            self._dotted_imports.add(alias.name)  # `import pkg.models`
            elif isinstance(statement, ast.ImportFrom):
                for alias in statement.names:
                    if alias.name == "*":
                        stars.append((statement.level, statement.module or ""))
                    else:
                        local = alias.asname or alias.name
                        self._imported(local, (statement.level, statement.module or "", alias.name), in_a_block)
                        if alias.asname and alias.asname != alias.name:
                            self.escapes.add(alias.name)  # `import Steps as S`: handed on under another name
        self.summary.stars = tuple(stars)
        names: dict[str, list[Descriptor]] = {}
        imported: set[str] = set()  # the names imports have bound so far
        for statement in module_statements:
            if isinstance(statement, ast.ClassDef):
                self._class(statement)
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if statement.name in self.summary.functions:
                    self.escapes.add(REDEFINED + statement.name)  # (the summary holds the last `def`)
                self._function(statement, statement.name, None)
            elif isinstance(statement, (ast.Import, ast.ImportFrom)):
                imported.update(alias.asname or alias.name.split(".")[0] for alias in statement.names)
            else:
                self._note_stores(statement, None, frozenset(), None)
                for name, value in _bindings(statement, None, frozenset(), walrus=self.walrus):
                    if name in imported and name not in names and name in self.summary.imports:
                        value = self._through_import(name, value)
                    names.setdefault(name, []).append(value)
                    if name == "__all__":
                        self.summary.exported = _string_list(statement)
        for name, values in self._global_stores.items():
            if name not in self.summary.imports and name not in self.summary.functions and name not in self.summary.classes:
                names.setdefault(name, []).extend(values)  # (a module-level value those functions may replace)
        self.summary.names = {name: tuple(values) for name, values in names.items()}
        self.summary.script_names = _script_names(tree, self.text)
        self.escapes.update(REDEFINED + name for name in names.keys() & self.summary.functions.keys())
        self._scan_uses(tree, None, frozenset())
        if _calls_init_outside_classes(tree, self._init_calls):
            self.escapes.add(REINITIALISED)  # `def reset(h, s): h.__init__(s)`: any class's constructor
        self._run_time_modules(tree)
        self.summary.calls = tuple(self.calls)
        if "Lazy" in self.text or "Uninitialized" in self.text:
            # a lazy layer named anywhere (a registry's value, a base class, a comment): the
            # project may build one (see TypeOracle.parameters_may_be_lazy)
            self.escapes.update(_LAZY_LAYER_NAMES.findall(self.text))
        self.summary.escapes = frozenset(self.escapes)
        self.summary.read_through = frozenset(self._read_through)
        self.summary.applied = tuple(self.applied)
        self.summary.stores = {attribute: tuple(values) for attribute, values in self._stores.items()}
        self.summary.name_stores = {attribute: tuple(values) for attribute, values in self._name_stores.items()}
        return self.summary

    def _own_imports(self, statements: list[ast.stmt], key: str, local_names: frozenset[str]) -> dict[str, str]:
        """A function's own imports (`def load(): from models import VAE; return VAE()`): each name
        bound only by one import is kept among the module's imports under a hidden name no code
        can write (`%load:VAE`), and the function's uses of it read that name, so that the index
        resolves them as it resolves the module's own imports (and finds these calls of `VAE`)."""
        found: dict[str, str] = {}
        seen: set[str] = set()
        for statement in statements:
            if not isinstance(statement, (ast.Import, ast.ImportFrom)):
                continue
            for alias in statement.names:
                local = alias.asname or alias.name.split(".")[0]
                if alias.name == "*" or local in local_names:
                    continue  # (also bound otherwise: its other values decide, as before)
                if local in seen:
                    found.pop(local, None)  # imported twice (`if gpu: from a import f else: from b import f`)
                    continue
                seen.add(local)
                hidden = _hidden_import_name(key, alias.name.rsplit(".", 1)[-1] if isinstance(statement, ast.ImportFrom) else local)
                if isinstance(statement, ast.ImportFrom):
                    self.summary.imports[hidden] = (statement.level, statement.module or "", alias.name)
                else:
                    self.summary.imports[hidden] = (0, alias.name if alias.asname else local, None)
                found[local] = hidden
        if found:
            self._local_imports[key] = found
        return found

    def _note_stores(self, statement: ast.stmt, key: str | None, local_names: frozenset[str], own_self: str | None) -> None:
        """`cache.feats = v`, `a.policy, a.critic = p, c`: attributes assigned through another
        object than the method's own `self` (see ModuleSummary.stores)."""
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        elif (stored := _setattr_target(statement)) is not None:
            targets, value = [stored], statement.value.args[2]  # `setattr(cls, "__call__", f)`
        else:
            return  # (`obj.step += 1` keeps what the attribute holds)
        described = None
        for target in targets:
            for stored, path in _stored_attributes(target, ()):
                if type(stored.value) is ast.Name and stored.value.id == own_self:
                    continue  # the class's own attribute
                if key is not None and type(stored.value) is ast.Name and stored.value.id in local_names:
                    self._changed.setdefault(key, set()).add(stored.value.id)  # `cls.__call__ = f` in a decorator
                if described is None and value is not None:
                    described = _describe(value, key, local_names)
                stored_value = select(described, path) if path else described
                self._stores.setdefault(stored.attr, []).append(stored_value)
                self.escapes.add("=" + stored.attr)
                receiver = self._global_receiver(stored.value, key, local_names)
                if receiver is not None:
                    self._name_stores.setdefault(stored.attr, []).append((receiver, stored_value))

    def _global_receiver(self, receiver: ast.expr, key: str | None, local_names: frozenset[str]) -> str | None:
        """`state` in `state.current = v`, `pkg.state` in `pkg.state.current = v`: the dotted name
        as the index must read it, when its head is not a local of the function (an import, the
        function's own import included, or a module-level name)."""
        dotted = _dotted(receiver)
        if dotted is None:
            return None
        head = dotted.partition(".")[0]
        own_imports = self._local_imports.get(key, {}) if key is not None else {}
        if head in local_names and head not in own_imports:
            return None
        return self._as_seen(key, dotted)

    def _as_seen(self, key: str | None, dotted: str) -> str:
        """`dotted` as the index must read it in the function `key`: through its own imports."""
        own = self._local_imports.get(key) if key is not None and self._local_imports else None
        if not own:
            return dotted
        head, dot, rest = dotted.partition(".")
        return own[head] + dot + rest if head in own else dotted

    def _through_import(self, name: str, value: Descriptor) -> Descriptor:
        """`from model import model` then `model = model.RNNPredictor(...)`: the value reads the
        module the import bound, which the new binding hides from every later use (a module-level
        name resolves to its assignments first). Its reads of the name go to the import, kept
        under a name no code can write, as a function's own imports are (`%<module>:model`)."""
        hidden = _hidden_import_name("<module>", name)
        renamed = _renamed_refs(value, {name: hidden})
        if renamed != value:
            self.summary.imports[hidden] = self.summary.imports[name]
        return renamed

    def _class(self, node: ast.ClassDef) -> None:
        methods: dict[str, str] = {}
        attributes: dict[str, list[tuple[str, Descriptor]]] = {}
        for item in node.body:
            # `fit_all = fit`, `def run(self, step=fit)`, `@wrap(fit)` in the class body: the method
            # is handed on and called by another name
            in_class_scope = [item] if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) else [
                *item.decorator_list, *item.args.defaults, *(d for d in item.args.kw_defaults if d is not None)]
            self.escapes.update(f"{node.name}.{n.id}" for part in in_class_scope for n in ast.walk(part) if type(n) is ast.Name)
            if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for name, _ in _bindings(item, None, frozenset(), describe=False):
                    if name in methods or name in _CALL_MACHINERY:
                        methods[name] = UNREAD_METHOD  # `forward = scalar_forward` in the body: not the `def`
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                key = f"{node.name}.{item.name}"
                methods[item.name] = key
                if item.name in OWN_EVIDENCE_METHODS:
                    self.escapes.add(OWN_ITERATOR + item.name)  # (see ProjectIndex.defines_tensor_iterators, defines_method)
                function = self._function(item, key, node.name)
                self_name = function.params[0] if function.params and not _is_static(item) else None
                if self_name:
                    local_names = frozenset(function.locals) | frozenset(function.params)
                    for attribute, value, path, augmented in _self_attributes(item, self_name):
                        described = select(_describe(value, key, local_names), path) if value is not None else None
                        if augmented:
                            described = ("aug", described)  # `self.step += 1`
                        attributes.setdefault(attribute, []).append((key, described))
        for base in node.bases:  # a base is no value handed on: the escape `^Base` says it is one
            dotted = _dotted(base)
            if dotted:
                head, _, last = dotted.rpartition(".")
                self.escapes.add(f"{head}.^{last}" if head else f"^{last}")
                self._bases_named.update(id(n) for n in ast.walk(base))
        if node.decorator_list:
            self.escapes.add(node.name)  # `@register class Net`: the class is handed to the decorator
        self.summary.classes[node.name] = ClassSummary(
            bases=tuple(_describe(base, None, frozenset()) for base in node.bases),
            methods=methods,
            attributes={name: tuple(values) for name, values in attributes.items()},
            line=node.lineno,
            decorators=tuple(_decorator_name(d) for d in node.decorator_list),
            plain=self._plain_class(node),
            plain_methods=self._plain_class(node, methods=True),
            reinitialises=self._reinitialises(node),
        )

    def _reinitialises(self, node: ast.ClassDef) -> bool:
        """See ClassSummary.reinitialises."""
        mentions = self._function_text(node).count("__init__")
        if not mentions:
            return False
        own = [item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__"]
        return mentions > sum(self._function_text(item).count("__init__") for item in own)

    def _plain_class(self, node: ast.ClassDef, methods: bool = False) -> bool:
        """See ClassSummary.plain (`methods`: ClassSummary.plain_methods)."""
        if node.keywords or node.decorator_list:
            return False
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and (item.name == "__init__" or (
                    methods and not item.decorator_list and not item.name.startswith("__")
                    and item.name not in MODULE_ATTRIBUTE_NAMES)):
                continue  # (not `_call_impl`, `__new__`, `__getattribute__`: calling the instance runs them)
            if isinstance(item, ast.Pass) or (isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)):
                continue
            return False
        text = self._function_text(node)
        return not any(word in text for word in _SETTING_OTHERWISE)

    def _function(self, node, key: str, owner: str | None) -> FunctionSummary:
        args = node.args
        params = tuple(arg.arg for arg in [*args.posonlyargs, *args.args])
        kwonly = tuple(arg.arg for arg in args.kwonlyargs)
        bound = set(params) | set(kwonly)
        bound |= {arg.arg for arg in (args.vararg, args.kwarg) if arg is not None}
        statements = list(_statements(node.body))
        for statement in statements:
            bound |= {name for name, _ in _bindings(statement, None, frozenset(), describe=False, walrus=self.walrus)}
        local_names = frozenset(bound) - _declared_global(statements)
        own_imports = self._own_imports(statements, key, local_names)
        own_self = params[0] if owner is not None and params and not _is_static(node) else None
        for statement in statements:
            self._note_stores(statement, key, local_names, own_self)
        locals_: dict[str, list[Descriptor]] = {}
        for index, param in enumerate(params):
            locals_.setdefault(param, []).append(("param", key, index))
        made_at: dict[str, list[tuple[int, ast.stmt]]] = {}  # each value's place, and the plain statement binding it
        grad_off = _grad_off_statements(node.body) if any(type(s) is ast.With and _turns_grad_off(s) for s in statements) else ()
        if grad_off:
            self._grad_off_lines[key] = {line for statement in statements if id(statement) in grad_off
                                         for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1)}
            # (what such a statement names without making it, `loss = out`, keeps its graph)
            grad_off = {id(statement) for statement in statements if id(statement) in grad_off and _computes(statement)}
        for statement in statements:
            for name, value in _bindings(statement, key, local_names, walrus=self.walrus):
                if id(statement) in grad_off and value is not None:
                    value = ("no graph", value)  # made with autograd off (`with torch.no_grad(): l3 = w.norm()`)
                locals_.setdefault(name, []).append(value)
                if not isinstance(statement, _COMPOUND):
                    made_at.setdefault(name, []).append((len(locals_[name]) - 1, statement))
        for name in self._params_bound_out_of_sight(node, params):
            locals_[name].append(None)  # (what it holds after is not known)
        rebound = frozenset(name for name, values in locals_.items() if len(values) > 1)
        reaching: dict[int, dict[str, Descriptor]] = {}
        displays = _mutable_displays(statements)
        if rebound and self._reaching_known:
            nested = any(type(statement) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) for statement in statements) or (
                "lambda" in self._function_text(node))
            reaching = _reaching_values(node.body, key, local_names, rebound, self.walrus, nested)
            for line, values in reaching.items():
                self._reaching[(key, line)] = values
            _read_at_reaching_values(locals_, made_at, reaching, key)
        for name in _declared_module_names(statements) & locals_.keys():
            self._global_stores.setdefault(name, []).extend(locals_[name])  # `global ckpt; ckpt = torch.load(f)`
        grown = _grow_lists(locals_, statements, key, local_names, node, reaching)
        positional_defaults = args.defaults
        defaults = {
            params[len(params) - len(positional_defaults) + i]: _describe(d, None, frozenset())
            for i, d in enumerate(positional_defaults)
        }
        returns = []  # (none for an `async def`: its call gives a coroutine)
        last = _last_top_level_values(node.body, key, local_names, grown)
        dicts = _returned_dicts(node, statements, locals_, local_names)
        # (the returned names, and the names a returned dict display holds: `{"feats": feats}`, then
        # `feats[0] = packed`; grown lists are read already)
        held = {value.id for display in dicts.values() for value in display.values
                if type(value) is ast.Name and value.id in local_names}
        changed = _changed_in_place(node, (_returned_locals(statements, local_names) | held) - grown,
                                    {id(display) for display in dicts.values()} | _returned_tuples(statements))
        # a display's items stored or taken out (`arrs[i] = a.numpy()`), not grown: what it holds
        # is not what it was made with (handing it on changes nothing for that very call)
        stored = displays - grown - changed
        if stored:
            changed |= _items_changed(statements, stored)
            changed |= _items_changed_in_text(self._function_text(node), stored - changed)
        for statement in statements if isinstance(node, ast.FunctionDef) else ():
            if isinstance(statement, ast.Return):
                if id(statement) in dicts:
                    returned = _describe_dict(dicts[id(statement)], key, local_names)
                elif id(statement) in last and not (isinstance(statement.value, ast.Name) and statement.value.id in grown):
                    returned = last[id(statement)]  # `x = layer(x); return x`: the last value
                elif (type(statement.value) is ast.Name and statement.value.id not in grown
                      and (reached := reaching.get(statement.lineno, {}).get(statement.value.id)) is not None):
                    returned = reached  # in a block: `batches = self._to_tensor(batches)`, then `return batches`
                else:
                    returned = _describe_returned(statement.value, key, local_names) if statement.value else ("none",)
                returns.append(_marked_changed(statement.value, returned, changed) if changed else returned)
        for name in changed & locals_.keys():  # (not a `*args` or `**kwargs`: no value is described for them)
            locals_[name] = [("changed", value) for value in locals_[name]]
        closure = self._enclosing_locals(key, local_names, statements)
        if closure:
            self._closures[key] = closure
        if own_imports or closure:
            relabel = self._relabelling(key)
            returns = [relabel(value) for value in returns]
            locals_ = {name: [relabel(value) for value in values] for name, values in locals_.items()}
            for (function_key, line), values in self._reaching.items():
                if function_key == key:
                    self._reaching[(function_key, line)] = {n: relabel(v) for n, v in values.items()}
        summary = FunctionSummary(
            params=params,
            kwonly=kwonly,
            defaults=defaults,
            star=args.vararg is not None or args.kwarg is not None,
            returns=tuple(returns),
            locals={name: tuple(values) for name, values in locals_.items()},
            decorators=tuple(_dotted(d.func if isinstance(d, ast.Call) else d) or "?" for d in node.decorator_list),
            line=node.lineno,
            passes_back=_passes_back(node, params, statements),
            changed=frozenset(self._changed.get(key, ())),
            accumulates=_accumulated_parameters(node, params, statements) if owner is not None else (),
            base_inits=self._base_inits(node, owner, own_self) if node.name == "__init__" else (),
        )
        self.summary.functions[key] = summary
        self._spans[key] = (node.lineno, node.end_lineno or node.lineno)
        self._local_names[key] = local_names
        for statement in statements:  # nested functions, by a key of their own
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(statement, f"{key}.<locals>.{statement.name}", None)
        return summary

    def _runs_own_base_init(self, call: ast.Call, key: str | None) -> bool:
        """`Base.__init__(self, x)` in the `__init__` of a module-level class that names `Base`
        among its bases, passing its own `self`."""
        if key is None or key.count(".") != 1 or not key.endswith(".__init__"):
            return False
        owner = self.summary.classes.get(key.split(".")[0])
        function = self.summary.functions.get(key)
        base = call.func.value.id
        return (owner is not None and function is not None and bool(function.params) and ("ref", base) in owner.bases
                and type(call.args[0]) is ast.Name and call.args[0].id == function.params[0])

    def _base_inits(self, node: ast.AST, owner: str | None, own_self: str | None):
        """A class's `__init__` calling its bases' (see FunctionSummary.base_inits)."""
        text = self._function_text(node)
        if owner is None or own_self is None or text.count("__init__") < 2:
            return () if owner is not None and own_self is not None else None
        found = []
        for inner in _walk_outside_nested_scopes(node):
            if type(inner) is ast.Call and type(inner.func) is ast.Attribute and inner.func.attr == "__init__":
                call = _base_init_call(inner, owner, own_self)
                if call is None:
                    return None
                found.append(call)
        return tuple(found) if text.count("__init__") == len(found) + 1 else None

    def _enclosing_locals(self, key: str, local_names: frozenset[str], statements: list[ast.stmt]) -> dict[str, str]:
        """A nested function's free names that are locals of a function around it (`def main():
        model_w = DataParallel(model)`, `def test(): ExtractFeature(model_w)`): name -> the key of
        the innermost such function. None where a `nonlocal` may rebind one out of sight."""
        if ".<locals>." not in key or not self._reaching_known:
            return {}
        declared = _declared_global(statements)
        found: dict[str, str] = {}
        outer = key
        while ".<locals>." in outer:
            outer = outer.rsplit(".<locals>.", 1)[0]
            for name in self._local_names.get(outer, ()):
                if name not in local_names and name not in declared and name not in found:
                    found[name] = outer
        return found

    def _relabelling(self, key: str | None):
        """What a descriptor made in the function `key` reads, as the index must: its own imports
        under their hidden names, its closure's names as the enclosing function's locals."""
        own_imports = self._local_imports.get(key) if key is not None and self._local_imports else None
        closure = self._closures.get(key) if key is not None and self._closures else None

        def relabel(value: Descriptor) -> Descriptor:
            if own_imports:
                value = _renamed_refs(value, own_imports)
            return _closure_refs(value, closure) if closure else value
        return relabel

    def _params_bound_out_of_sight(self, function: ast.AST, params: tuple[str, ...]) -> set[str]:
        """The parameters a function binds again where `_bindings` does not look: a walrus in a
        compound statement's header (`if (a := b):`), a nested function's `nonlocal`, a `case`
        pattern's capture."""
        if not params:
            return set()
        if self._bound_out_of_sight is None:
            self._bound_out_of_sight = _lines_binding_out_of_sight(self._tree, self.text, self.walrus)
        if not self._bound_out_of_sight:
            return set()
        first, last = function.lineno, function.end_lineno or function.lineno
        return {name for name in params
                if any(first <= line <= last for line in self._bound_out_of_sight.get(name, ()))}

    def _scan_uses(self, tree: ast.AST, key: str | None, local_names: frozenset[str]) -> None:
        """Calls that may reach the project's functions, and names used other than as callees.

        The walk is `_walk`'s, inlined and dispatching on exact types: it visits every node of
        every file of a project, and a generator step and an isinstance chain per node were half
        of a summary's time."""
        callees: set[int] = set()
        heads: set[int] = set()  # `models` in `models.build`: a name read through, not handed on
        loads: list[ast.Name | ast.Attribute] = []
        yields: list[ast.Yield | ast.YieldFrom] = []
        membership: set[int] = set()  # `__dict__` attributes only tested with `in`
        tested: set[int] = set()  # conditions: `if args.train:` reads a flag, it hands no method on
        read_through: set[str] = set()  # escapes used as the head of an attribute
        handed_on: set[str] = set()  # escapes used otherwise
        stores: list[ast.Name] = []
        init_heads: dict[int, ast.Call] = {}  # `Base` in `Base.__init__(self, x)` -> the call
        choices: list[ast.Assign] = []  # `g = a if c else b`: maybe a function's alias
        named_calls: list[ast.Call] = []  # `g(x)`
        Name, Attribute, Call, Load, Subscript, Assign = ast.Name, ast.Attribute, ast.Call, ast.Load, ast.Subscript, ast.Assign
        pending = deque([tree])
        next_node, add, extend = pending.popleft, pending.append, pending.extend
        while pending:
            node = next_node()
            node_type = type(node)
            if node_type is Name:
                if type(node.ctx) is Load:
                    loads.append(node)
                else:
                    stores.append(node)
                continue  # no child a summary reads
            if node_type in _NOT_NODES:
                continue  # an item of a list field that is not a node (`Global.names`, a `None` key)
            if node_type is Attribute:
                if type(node.ctx) is Load:
                    loads.append(node)
                heads.add(id(node.value))
                self.attribute_names.add(node.attr)
            elif node_type is Call:
                self._call_found(node, callees)
                if type(node.func) is Attribute and node.func.attr == "__init__":
                    self._init_calls.append(node)
                    if node.args and type(node.func.value) is Name:
                        init_heads[id(node.func.value)] = node  # `Base.__init__(self, x)`: maybe a base's constructor
                if type(node.func) is Name:
                    named_calls.append(node)
                    if node.func.id == "setattr" and len(node.args) == 3 and type(node.args[1]) is ast.Constant:
                        self.escapes.add(f"={node.args[1].value}")  # `setattr(cls, "__call__", f)`: a store
            elif node_type in _ANNOTATED:
                self._note_unwalked_uses(node)
            elif node_type is Subscript:
                if _dotted(node.value) == "sys.modules":
                    self._module_found_by_name(node, node.slice)  # `getattr(sys.modules[name], f)`
                elif type(node.value) is Call and self._reads_own_namespace(node.value):
                    self.escapes.add("@.*")  # `globals()[name]`: this module's names, and those it imports
            elif node_type is Assign and type(node.value) is Call and self._reads_own_namespace(node.value):
                self.escapes.add("@.*")  # `table = globals()`, read later
            elif node_type is Assign and _chosen_names(node.value) and len(node.targets) == 1 and type(node.targets[0]) is Name:
                choices.append(node)
            elif node_type is ast.Compare:
                membership.update(id(right) for op, right in zip(node.ops, node.comparators)
                                  if type(op) in _MEMBERSHIP and type(right) is Attribute and right.attr == "__dict__")
            elif node_type in _INNER_SCOPES:
                self._shadow_inner_names(node)
            elif node_type in _YIELDS:
                yields.append(node)
            elif node_type in _TESTING:
                tested.add(id(node.test))
            elif node_type is ast.BoolOp and id(node) in tested:
                tested.update(map(id, node.values))
            elif node_type is ast.UnaryOp and type(node.op) is ast.Not and id(node) in tested:
                tested.add(id(node.operand))
            fields = _CHILD_FIELDS.get(node_type)
            if fields is None:
                fields = _CHILD_FIELDS[node_type] = tuple(f for f in node._fields if f not in _LEAF_FIELDS)
            for field in fields:
                value = getattr(node, field, None)
                if type(value) is list:
                    extend(value)
                elif value is not None and type(value) not in _NOT_NODES:
                    add(value)
        for node in yields:  # a generator's call gives a generator, whatever it returns
            key, local_names = self._scope_of(node)
            function = self.summary.functions.get(key)
            if function is not None:
                function.returns = ()
                function.yields += (self._yielded(node, key, local_names),)
        self._calls_through_aliases(choices, named_calls, stores, loads, callees)
        escaped_before = set(self.escapes)
        for node in loads:  # names used other than as callees (all of them are seen before this)
            if id(node) in callees or id(node) in self._bases_named or (id(node) in tested and type(node) is Attribute):
                continue
            if type(node) is Name:
                key, local_names = self._scope_of(node)
                if id(node) in init_heads and self._runs_own_base_init(init_heads[id(node)], key):
                    continue  # a call of the base's constructor, as `super().__init__(x)` is
                if node.id in local_names:
                    if id(node) not in heads and self._names_own_class(key, node.id, "classmethod"):
                        self.escapes.add(key.split(".")[0])  # `cls` handed on: a subclass may be made of it
                else:  # a function's own `loss` is not the module's
                    name = self._as_seen(key, node.id)
                    self.escapes.add(name)
                    (read_through if id(node) in heads else handed_on).add(name)
                    if name in self.summary.imports and id(node) not in heads:
                        self.escapes.add(f"{name}.*")  # `mm = models`: `getattr(mm, name)` may follow
            else:
                # `net.fit` handed on, or `make().fit`: a method of that name may be called unseen
                dotted = _dotted(node)
                if dotted and self._local_imports:
                    dotted = self._as_seen(self._scope_of(node)[0], dotted)
                self.escapes.add(dotted or "." + node.attr)
                (read_through if id(node) in heads else handed_on).add(dotted or "." + node.attr)
                if dotted in self._dotted_imports and id(node) not in heads:
                    self.escapes.add(f"{dotted}.*")  # `mm = pkg.models`: `getattr(mm, name)` may follow
                if node.attr == "__class__" and id(node) not in heads and type(node.value) is Name:
                    key = self._scope_of(node)[0]
                    if self._names_own_class(key, node.value.id):
                        self.escapes.add(key.split(".")[0])  # `self.__class__` handed on
                if node.attr == "__dict__" and id(node) not in membership:
                    # `models.__dict__[arch]`, `type(self).__dict__`; `"models" in self.__dict__`
                    # only asks whether a name is there
                    self._dynamic_lookup(node, node.value)
        for node in self._class_of_self_calls:  # `type(self)` handed on (not called, not read through)
            if id(node) not in callees and id(node) not in heads:
                self.escapes.add(self._scope_of(node)[0].split(".")[0])
        self._read_through = read_through - handed_on - escaped_before

    def _calls_through_aliases(self, choices: list[ast.Assign], named_calls: list[ast.Call], stores: list[ast.Name],
                               loads: list[ast.Name | ast.Attribute], callees: set[int]) -> None:
        """`gen = gen_acrostic if opt.acrostic else generate`, then only `gen(model, words)`: a
        local name bound once, in a function, to one of some names and only ever called calls
        one of them; each call is recorded as a call of each, and the names are not handed on."""
        if not choices:
            return
        for choice in choices:
            alias = choice.targets[0].id
            key, local_names = self._scope_of(choice)
            if key is None or alias not in local_names or self._shadowed.get(id(choice)):
                continue
            if sum(1 for n in stores if n.id == alias and self._scope_of(n)[0] == key) != 1:
                continue  # bound again (or in a loop's target, a `with`, ...)
            scopes = [(n, self._scope_of(n)[0]) for n in loads if type(n) is ast.Name and n.id == alias]
            uses = [n for n, scope in scopes if scope == key]
            if any((scope or "").startswith(f"{key}.<locals>.") for _, scope in scopes):
                continue  # read in a function nested in it too (a closure may call it)
            if not uses or any(id(use) not in callees for use in uses):
                continue  # handed on, or read other than as a callee
            chosen = _chosen_names(choice.value)
            callees.update(id(name) for name in chosen)
            for call in named_calls:
                if call.func.id == alias and self._scope_of(call)[0] == key and not self._shadowed.get(id(call)):
                    for name in chosen:
                        self.called.add(name.id)
                        self._record_call(ast.Call(func=name, args=call.args, keywords=call.keywords, lineno=call.lineno))

    def _names_own_class(self, key: str | None, name: str, decorator: str | None = None) -> bool:
        """`name` is the first parameter of the method `key` (with that decorator): the method's
        class, or an instance of it or of a subclass."""
        function = self.summary.functions.get(key) if key is not None and "." in key and "<locals>" not in key else None
        return (function is not None and bool(function.params) and function.params[0] == name
                and (decorator is None or decorator in function.decorators))

    def _note_unwalked_uses(self, node: ast.AST) -> None:
        """The uses in what the walk leaves out of a definition: its bare decorators (called with
        the definition) and its annotations (`_LEAF_FIELDS`)."""
        for decorator in getattr(node, "decorator_list", ()):
            if type(decorator) is not ast.Call and (name := _dotted(decorator)) is not None:
                self.called.add(name)
        for annotation in (getattr(node, "annotation", None), getattr(node, "returns", None)):
            if annotation is None or type(annotation) in _NO_USES:
                continue  # most annotations: `int`, `"Net"`
            for inner in ast.walk(annotation):
                if type(inner) is ast.Attribute:
                    self.attribute_names.add(inner.attr)
                elif type(inner) is ast.Call and (name := _dotted(inner.func)) is not None:
                    self.called.add(name)

    def _call_found(self, node: ast.Call, callees: set[int]) -> None:
        callees.add(id(node.func))
        func = node.func
        self._note_classes_found_at_run_time(node)
        if (name := _dotted(func)) is not None:
            self.called.add(name)
        if isinstance(func, ast.Attribute) and func.attr == "apply" and len(node.args) == 1:
            argument = node.args[0]
            if isinstance(argument, ast.Name):
                callees.add(id(argument))
                self.applied.append(argument.id)
        elif (how := self._module_lookup_kind(func)) is not None and (how != "vars" or not node.args):
            self._module_lookup(node, how)
        elif (type(func) is ast.Attribute and func.attr == "get" and type(func.value) is ast.Call
              and self._reads_own_namespace(func.value)):
            self.escapes.add("@.*")  # `globals().get(name)`
        elif _called_name(func) in _BY_NAME_LOOKUPS:
            self._lookup_by_name(node, _called_name(func))
        elif type(func) is ast.Name and func.id in _CLASS_QUESTIONS:
            # `super(Net, self)`, `isinstance(x, (Net, Head))`: the class is named, not handed on
            named = node.args[:1] if func.id == "super" else node.args[1:2]
            for argument in named:
                callees.update(id(n) for n in ([argument] if type(argument) is ast.Name else getattr(argument, "elts", ())))
        if isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and (_dotted(func) or node.args or node.keywords)):
            self._record_call(node)

    def _classmethod_firsts(self) -> frozenset[str]:
        """The first parameters of the module's classmethods (`cls`)."""
        if self._firsts is None:
            self._firsts = frozenset(function.params[0] for function in self.summary.functions.values()
                                     if function.params and "classmethod" in function.decorators)
        return self._firsts

    def _note_classes_found_at_run_time(self, node: ast.Call) -> None:
        """`type(self)` in a method (judged once the walk is done: handed on, or only called or
        read through), and an instance built from a class found at run time: `cls(x)` in a
        classmethod, `self.__class__(x)`, `type(self)(x)` make one of the method's class or a
        subclass without naming it (the escape `<Class>.__class__()`; `type(obj)(x)` of any
        class: `*.__class__()`), so the constructor's callers are not all seen."""
        func = node.func
        if (type(func) is ast.Name and func.id == "type" and len(node.args) == 1 and type(node.args[0]) is ast.Name
                and self._names_own_class(self._scope_of(node)[0], node.args[0].id)):
            self._class_of_self_calls.append(node)
        if type(func) is ast.Attribute and func.attr == "__class__":
            source = func.value
        elif type(func) is ast.Call and type(func.func) is ast.Name and func.func.id == "type" and len(func.args) == 1:
            source = func.args[0]
        elif type(func) is ast.Name and func.id in self._classmethod_firsts():
            source = func
        else:
            return
        key = self._scope_of(node)[0]
        function = self.summary.functions.get(key) if key is not None else None
        if source is func and not (function is not None and function.params and function.params[0] == func.id
                                   and "classmethod" in function.decorators):
            return  # a function's own `cls`, not a classmethod's
        own = type(source) is ast.Name and self._names_own_class(key, source.id)
        self.escapes.add(f"{key.split('.')[0] if own else '*'}{MADE_FROM_CLASS}")

    def _lookup_by_name(self, node: ast.Call, how: str) -> None:
        """`getattr(x, "fit")`, `methodcaller("fit", b)`, `attrgetter("fit")`: an attribute named by
        a string is used as a value (the escape `.fit`); `getattr(self, name)`, `vars(type(self))`,
        `getmembers(self)`, `self.__getattribute__(name)`: by a name computed at run time (see
        _dynamic_lookup)."""
        args = node.args
        owner = args[0] if how in ("getattr", "vars", "getmembers") and args else None
        if how == "__getattribute__" and isinstance(node.func, ast.Attribute):
            owner = node.func.value
        names = args[1:2] if how == "getattr" else args if how in ("methodcaller", "attrgetter") else []
        literal = [a.value for a in names if type(a) is ast.Constant and type(a.value) is str]
        self.escapes.update("." + name.rsplit(".", 1)[-1] for name in literal)
        if how == "getattr" and literal and owner is not None and _dotted(owner):
            seen = self._as_seen(self._scope_of(node)[0], _dotted(owner))
            self.escapes.add(f"{seen}.{literal[0]}")  # `getattr(models, "build")`: `build` handed on
        if owner is not None and (how != "getattr" or not literal):
            self._dynamic_lookup(node, owner)
        elif how in ("methodcaller", "attrgetter") and len(literal) < len(names[:1] or [None]):
            self.escapes.add(".*")  # `attrgetter(name)`: any method of anything

    def _module_lookup(self, node: ast.Call, how: str) -> None:
        """`importlib.import_module(name)`, `__import__(name)`, `sys.modules.get(name)`: a module
        found at run time, recorded as the escape `@<module>.*` (see _module_by_name; `globals()[name]`
        is `@.*`, see _reads_own_namespace)."""
        if how in ("import_module", "__import__", "sys.modules.get"):
            named = node.args[:1] or [k.value for k in node.keywords if k.arg == "name"]
            if named:
                fromlist = node.args[3:4] or [k.value for k in node.keywords if k.arg == "fromlist"]
                if how == "__import__" and fromlist and type(named[0]) is ast.Constant and type(named[0].value) is str:
                    # the module itself, and its submodules the list names
                    self._module_found_by_name(node, ast.BinOp(ast.Constant(named[0].value + "."), ast.Add(), fromlist[0]))
                self._module_found_by_name(node, named[0])

    def _reads_own_namespace(self, call: ast.Call) -> bool:
        """`globals()`, and `locals()`/`vars()` at module level: a dict of this module's names
        (read by `[name]` or `.get(name)`; printed or updated, it calls nothing)."""
        how = self._module_lookup_kind(call.func)
        if call.args or type(call.func) is not ast.Name:
            return False
        return how == "globals" or (how in ("vars", "locals") and self._scope_of(call)[0] is None)

    def _module_found_by_name(self, node: ast.AST, name: ast.expr) -> None:
        escape = _module_by_name(name)
        if "<any>" in escape:  # (whether its names are computed too is known once the walk is done)
            self._modules_by_computed_name.append((self._scope_of(node)[0], escape))
        else:
            self.escapes.add(escape)

    def _run_time_modules(self, tree: ast.Module) -> None:
        """A module found by a computed name (`importlib.import_module(args.model)`): where the
        same function also looks a name up by a computed name, or a computed lookup reads where
        the module was put (`MOD = import_module(...)`, `self.m = ...`, a function returning it),
        any of its functions may be called unseen (`@<any>.*`); elsewhere, only those it calls by
        an attribute name (`@~<any>.*`: `model.get_model(k)`)."""
        if not self._modules_by_computed_name:
            return
        anywhere = bool(self._looked_up_owners & self._module_holders(tree))
        for key, escape in self._modules_by_computed_name:
            self.escapes.add(escape if anywhere or key in self._scopes_looking_up else "@~" + escape[1:])

    def _module_holders(self, tree: ast.Module) -> set[str]:
        """Where this file puts a module it imports at run time: the names and attributes it
        assigns one to, and `call:<f>` for a function `f` returning one."""
        holders = set()
        for node in _walk(tree):
            value = getattr(node, "value", None)
            if type(node) is ast.Assign and type(value) is ast.Lambda:
                value = value.body  # `load = lambda mod: importlib.import_module(mod)`
                if type(value) is ast.Call and self._imports_at_run_time(value):
                    holders.update(f"call:{_dotted(target)}" for target in node.targets if _dotted(target))
                continue
            if type(value) is not ast.Call or not self._imports_at_run_time(value):
                continue
            if type(node) is ast.Assign:
                holders.update(_dotted(target) for target in node.targets if _dotted(target))
            elif type(node) is ast.Return:
                key = self._scope_of(node)[0]
                if key is not None:
                    holders.add("call:" + key.rsplit(".", 1)[-1])
        for node in _walk(tree):  # `m = load(mod)` with `load` returning one
            if (type(node) is ast.Assign and type(node.value) is ast.Call
                    and f"call:{_called_name(node.value.func)}" in holders):
                holders.update(_dotted(target) for target in node.targets if _dotted(target))
        return holders

    def _imports_at_run_time(self, call: ast.Call) -> bool:
        return self._module_lookup_kind(call.func) in ("import_module", "__import__")

    def _module_lookup_kind(self, func: ast.expr) -> str | None:
        """`import_module` for `importlib.import_module` and its aliases (`from importlib import
        import_module as load`), else the called name when it is one of _MODULE_LOOKUPS."""
        name = _called_name(func)
        imported = self.summary.imports.get(name) if type(func) is ast.Name else None
        if imported is not None and imported[1] == "importlib" and imported[2] == "import_module":
            return "import_module"
        if _dotted(func) == "sys.modules.get":
            return "sys.modules.get"
        return name if name in _MODULE_LOOKUPS else None

    def _dynamic_lookup(self, node: ast.AST, owner: ast.expr) -> None:
        """`getattr(models, name)`, `getattr(self, "on_" + event)`: an attribute found by a computed
        name, recorded as the escape `<owner>.*` (`<Class>.*` for `self` in a method of `Class`),
        since any function, class or method there may be called unseen."""
        self._scopes_looking_up.add(self._scope_of(node)[0])
        if type(owner) is ast.Call:
            self._looked_up_owners.add(f"call:{_called_name(owner.func)}")
        elif _dotted(owner):
            self._looked_up_owners.add(_dotted(owner))
        if type(owner) is ast.Call and type(owner.func) is ast.Name and owner.func.id == "type" and len(owner.args) == 1:
            owner = owner.args[0]  # `type(self)`
        dotted = _dotted(owner)
        if dotted is None:
            return
        dotted = dotted.removesuffix(".__class__")
        key = self._scope_of(node)[0]
        if dotted == "self" and key is not None and "." in key:
            dotted = key.split(".")[0]
        self.escapes.add(f"{self._as_seen(key, dotted)}.*")

    def _shadow_inner_names(self, node: ast.AST) -> None:
        """`[show(v) for v in items]`, `lambda v: show(v)`: inside, `v` is not the function's or
        the module's `v`, so an argument naming it says nothing (it is seen first: the walk is
        breadth first, and a call is recorded when it is reached)."""
        if isinstance(node, ast.Lambda):
            args = node.args
            bound = {arg.arg for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if arg}
        else:
            bound = {name for generator in node.generators for name, _ in _target_paths(generator.target, ())}
        if bound:
            names = frozenset(bound)
            for inner in _walk(node):
                if type(inner) is ast.Call:
                    self._shadowed[id(inner)] = self._shadowed.get(id(inner), frozenset()) | names

    def _record_call(self, call: ast.Call) -> None:
        key, local_names = self._scope_of(call)
        shadowed = self._shadowed.get(id(call), frozenset())
        if shadowed:
            key, local_names = key or "<comprehension>", local_names | shadowed

        reaching = self._reaching.get((key, call.lineno)) if self._reaching and key else None

        relabel = self._relabelling(key)

        def describe(value: ast.expr) -> Descriptor:
            found = relabel(_describe(value, key, local_names))
            return None if shadowed and _mentions_locals(found, shadowed) else found

        def describe_argument(value: ast.expr) -> Descriptor:
            if reaching and type(value) is ast.Name and value.id in reaching and value.id not in shadowed:
                return reaching[value.id]  # `x = model(x); x = F.softmax(x); pick(x)`: the softmax
            if type(value) is ast.Dict and _string_keyed(value):
                # `save_checkpoint({"epoch": e, "model": net}, path)`: made for the call, so it holds
                # what it shows when the callee starts
                found = relabel(_describe_dict(value, key, local_names))
                return None if shadowed and _mentions_locals(found, shadowed) else found
            found = describe(value)
            if reaching and found is not None and not shadowed and type(value) not in (ast.Name, ast.GeneratorExp, ast.Lambda):
                # `test(classifier.eval(), loader)` after `classifier = DataParallel(classifier)`
                chained = _with_last_values(found, key, reaching)
                return chained if _size_within(chained, _CHAIN_SIZE) else found
            return found

        callee = describe(call.func)
        if callee is None and isinstance(call.func, ast.Attribute):
            callee = ("attr", None, call.func.attr)  # `[v.fit(x) for v in trainers]`: a call of `fit` all the same
        if callee is None or callee[0] not in ("ref", "attr", "local"):
            return
        if callee[0] != "ref" and not (call.args or call.keywords):
            return  # a method called with nothing to say of its parameters (`x.cuda()`, `self.reset()`)
        args = tuple(describe_argument(arg) for arg in call.args if not isinstance(arg, ast.Starred))
        spread = True if any(isinstance(arg, ast.Starred) for arg in call.args) else (
            KEYWORDS_SPREAD if any(k.arg is None for k in call.keywords) else False)
        keywords = tuple((k.arg, describe_argument(k.value)) for k in call.keywords if k.arg)
        code = tuple(self._source(arg)[:60] or "?" for arg in call.args)
        self.calls.append(CallSite(callee, args, keywords, spread, call.lineno, code))

    def _yielded(self, node: ast.Yield | ast.YieldFrom, key: str, local_names: frozenset[str]) -> Descriptor:
        """What a `yield` gives the generator's caller (as a function's locals read it)."""
        if type(node) is ast.YieldFrom:
            return None
        if node.value is None:
            return ("none",)
        relabel = self._relabelling(key)
        described = relabel(_describe(node.value, key, local_names))
        if node.lineno in self._grad_off_lines.get(key, ()):
            return ("no graph", described)  # yielded in a `with torch.no_grad():` block
        return described

    def _scope_of(self, node: ast.AST) -> tuple[str | None, frozenset[str]]:
        """The innermost function summarised around a line: (its key, its local names). A table by
        line, built once: looking through every function for every call is quadratic in big files."""
        if self._scopes_by_line is None:
            table: list[tuple[str | None, frozenset[str]]] = [(None, frozenset())] * (len(self._source_lines()) + 2)
            starts = [0] * len(table)
            for key, function in self.summary.functions.items():
                first, last = self._spans.get(key, (0, -1))
                scope = (key, self._local_names.get(key, frozenset(function.locals)))
                for line in range(max(first, 0), min(last, len(table) - 1) + 1):
                    if first > starts[line]:
                        table[line], starts[line] = scope, first
            self._scopes_by_line = table
        table = self._scopes_by_line
        return table[node.lineno] if 0 <= node.lineno < len(table) else (None, frozenset())

    def _function_text(self, node: ast.AST) -> str:
        """The lines of a function's source."""
        return "\n".join(self._source_lines()[node.lineno - 1 : node.end_lineno or node.lineno])

    def _source_lines(self) -> list[str]:
        if self._lines is None:
            self._lines = _LINE_BREAK.split(self.text)
        return self._lines

    def _source(self, node: ast.AST) -> str:
        """The source of `node` on its first line (`ast.get_source_segment` splits the whole file
        on every call, which is quadratic); column offsets are in UTF-8 bytes."""
        lines = self._source_lines()
        if not 0 < node.lineno <= len(lines):
            return ""
        text = lines[node.lineno - 1]
        line = text if text.isascii() else text.encode()  # (bytes and characters agree in ASCII)
        end = node.end_col_offset if node.end_lineno == node.lineno else len(line)
        found = line[node.col_offset : end]
        return (found if type(found) is str else found.decode(errors="replace")).rstrip()


_CLASS_QUESTIONS = frozenset({"super", "isinstance", "issubclass"})


# Calls that reach an attribute by its name as a string (see _Summarizer._lookup_by_name).
_BY_NAME_LOOKUPS = frozenset({"getattr", "vars", "getmembers", "methodcaller", "attrgetter", "__getattribute__"})


# Calls that reach a module's names by a name computed at run time (`vars()` without arguments,
# at module level; `vars(obj)` is one of _BY_NAME_LOOKUPS).
_MODULE_LOOKUPS = frozenset({"globals", "vars", "locals", "import_module", "__import__"})


_MEMBERSHIP = (ast.In, ast.NotIn)


_YIELDS = frozenset({ast.Yield, ast.YieldFrom})


_TESTING = frozenset({ast.If, ast.While, ast.IfExp, ast.Assert})  # (their `test`: a truth value is read)


# Nodes with decorators or annotations, which the use scan does not walk into.
_ANNOTATED = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.arg, ast.AnnAssign})


_NO_USES = frozenset({ast.Name, ast.Constant})  # expressions that call nothing and read no attribute


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _calls_init_outside_classes(tree: ast.Module, init_calls: list[ast.Call]) -> bool:
    """An `<x>.__init__(...)` call that may run another object's constructor: outside the
    module-level classes' bodies, or inside one on a receiver other than the method's own
    instance (`h.__init__(s)` in `Resetter.reset`); the own ones (`super().__init__()`,
    `Base.__init__(self, x)`, `self.__init__()`) are ClassSummary.reinitialises.
    `inspect.signature(cls.__init__)` reads it and runs nothing."""
    if not init_calls:
        return False
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    for call in init_calls:
        owner = next((cls for cls in classes if cls.lineno <= call.lineno <= (cls.end_lineno or cls.lineno)), None)
        if owner is None:
            return True
        if type(call.func.value) is ast.Call and _dotted(call.func.value.func) == "super":
            continue  # (most of them)
        if not _on_own_instance(call, _enclosing_function(owner, call)):
            return True
    return False


def _enclosing_function(scope: ast.AST, call: ast.Call):
    """The innermost function of the scope whose lines hold the call, or None."""
    inner = None
    for node in ast.walk(scope):
        if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef) and \
                node.lineno <= call.lineno <= (node.end_lineno or node.lineno):
            if inner is None or node.lineno >= inner.lineno:
                inner = node
    return inner


def _on_own_instance(call: ast.Call, function) -> bool:
    """`self.__init__(...)` or `Base.__init__(self, ...)` in a method whose instance is `self`."""
    if function is None or not function.args.args:
        return False
    own = function.args.args[0].arg
    receiver = call.func.value
    if type(receiver) is ast.Name and receiver.id == own:
        return True
    first = call.args[0] if call.args else None
    return type(first) is ast.Name and first.id == own and _dotted(receiver) is not None


def _accumulated_parameters(method: ast.AST, params: tuple[str, ...], statements: list[ast.stmt]) -> tuple[int, ...]:
    """See FunctionSummary.accumulates. A parameter bound again in the method is not counted (its
    value may be `val.item()` by then), nor one added only through a call or an attribute."""
    if len(params) < 2 or method.decorator_list or type(method) is not ast.FunctionDef or method.name == "__init__":
        return ()  # (a coroutine's body does not run at the call; `__init__` runs once for an instance)
    added = [value for value in (_added_to_own_attribute(statement, params[0]) for statement in statements)
             if value is not None]
    named = {name for value in added for name in _graph_keeping_names(value)} & set(params[1:])
    if not named:
        return ()
    # (walked only for the few methods that add a parameter to the instance)
    for node in ast.walk(method):
        if type(node) in (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef) and node is not method:
            return ()
        if type(node) in (ast.Name, ast.Attribute) and _dotted(node) in _GRAD_MODES:
            return ()  # a grad mode may drop the graph
        if type(node) is ast.Name and type(node.ctx) is not ast.Load:
            named.discard(node.id)  # bound again: by then it may be `val.item()`
    return tuple(sorted(i - 1 for i, name in enumerate(params) if i > 0 and name in named))


def _added_to_own_attribute(statement: ast.stmt, self_name: str) -> ast.expr | None:
    """What `self.x += v`, `self.x[k] += v`, `self.x = f(self.x, v)` or `self.x.append(v)` adds
    to an attribute of the instance (None for any other statement)."""
    def own(target: ast.expr) -> str | None:
        while type(target) is ast.Subscript:
            target = target.value
        if type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == self_name:
            return target.attr
        return None

    if type(statement) is ast.AugAssign and type(statement.op) is ast.Add and own(statement.target):
        return statement.value
    if (type(statement) is ast.Assign and type(statement.value) is ast.BinOp and len(statement.targets) == 1
            and (attribute := own(statement.targets[0]))):
        reads_itself = any(type(node) is ast.Attribute and node.attr == attribute and type(node.value) is ast.Name
                           and node.value.id == self_name for node in ast.walk(statement.value))
        return statement.value if reads_itself else None
    call = statement.value if type(statement) is ast.Expr else None
    if (type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "append"
            and own(call.func.value) and len(call.args) == 1):
        return call.args[0]
    return None


# Names of grad modes a method may switch (`with torch.no_grad(): self.sum += val`).
_GRAD_MODES = frozenset({"no_grad", "torch.no_grad", "inference_mode", "torch.inference_mode", "set_grad_enabled",
                         "torch.set_grad_enabled", "enable_grad", "torch.enable_grad"})


def _graph_keeping_names(value: ast.expr) -> set[str]:
    """The names `value` adds as they are: in arithmetic, a subscript, a tuple, not through a call
    or an attribute (`v.item()`, `float(v)`, `to_scalar(v)`, `min(best, v)`, `v.data`, which may
    take the value out of the graph or keep one value only)."""
    names: set[str] = set()
    pending = [value]
    while pending:
        node = pending.pop()
        if type(node) is ast.Name:
            names.add(node.id)
        elif type(node) in (ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Tuple, ast.List):
            pending.extend(ast.iter_child_nodes(node))
    return names


def _script_names(tree: ast.Module, text: str) -> frozenset[str]:
    """The names only a top-level `if __name__ == "__main__":` block binds (not its `else`): an
    import does not run it. None where the module also star-imports (what that brings is not
    read here); a name bound anywhere else (an import, a walrus, a `global` in a function) is
    bound on import too."""
    guards = [s for s in tree.body if type(s) is ast.If and _tests_main(s.test)]
    if not guards:
        return frozenset()
    walrus = ":=" in text
    scripted = _module_level_names([inner for guard in guards for inner in guard.body], walrus)
    if not scripted - {"*"}:
        return frozenset()
    outside = [*(s for s in tree.body if not any(s is guard for guard in guards)),
               *(inner for guard in guards for inner in guard.orelse)]
    on_import = _module_level_names(outside, walrus)
    if "*" in on_import:
        return frozenset()
    if "global" in text:
        on_import |= {name for node in ast.walk(tree) if type(node) is ast.Global for name in node.names}
    return frozenset(scripted - on_import - {"*"})


def _module_level_names(statements: list[ast.stmt], walrus: bool) -> set[str]:
    """Every name these module-level statements may bind (not entering function or class
    bodies), with "*" for a star import; `walrus`: the text has `:=`, so expressions are read too."""
    names: set[str] = set()
    pending: list[ast.AST] = list(statements)
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            names.add(node.name)
            if walrus:
                pending.extend(node.decorator_list)
            continue
        if kind is ast.Name:
            if type(node.ctx) is not ast.Load:
                names.add(node.id)
            continue
        if kind is ast.alias:
            names.add(node.asname or node.name.split(".")[0])
        elif kind in (ast.ExceptHandler, ast.MatchAs, ast.MatchStar) and node.name:
            names.add(node.name)
        elif kind is ast.MatchMapping and node.rest:
            names.add(node.rest)
        if isinstance(node, ast.expr) and not walrus and kind not in _TARGET_NODES:
            continue  # (an expression binds nothing but by a walrus)
        pending.extend(ast.iter_child_nodes(node))
    return names


# Expressions a binding's target is made of.
_TARGET_NODES = frozenset({ast.Tuple, ast.List, ast.Starred, ast.Subscript, ast.Attribute})


def _tests_main(test: ast.expr) -> bool:
    """`__name__ == "__main__"`, either way round."""
    if not (type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) is ast.Eq):
        return False
    return {_guard_side(test.left), _guard_side(test.comparators[0])} == {"name", "main"}


def _guard_side(side: ast.expr) -> str | None:
    if type(side) is ast.Name and side.id == "__name__":
        return "name"
    return "main" if type(side) is ast.Constant and side.value == "__main__" else None


# Words in a class's text by which it may set what a base's code reads other than `self.x = v`.
_SETTING_OTHERWISE = ("setattr", "add_module", "register_module", "register_buffer", "register_parameter",
                      "__dict__", "_modules", "vars(", "property", "forward", "__call__")


def _chosen_names(value: ast.expr) -> list[ast.Name]:
    """The names a value picks among: `a`, `a if c else b` (nested too); none for anything else."""
    if type(value) is ast.Name:
        return [value]
    if type(value) is ast.IfExp:
        body, orelse = _chosen_names(value.body), _chosen_names(value.orelse)
        return body + orelse if body and orelse else []
    return []


def _passes_back(function: ast.FunctionDef | ast.AsyncFunctionDef, params: tuple[str, ...],
                 statements: list[ast.stmt]) -> int | None:
    """The position of the parameter every `return` of a plain function returns by name, when no
    code of the function binds that name again (`def reset_grads(model, flag): ...; return model`).
    `statements`: the function's own (`_statements` of its body)."""
    if not isinstance(function, ast.FunctionDef):
        return None  # (an `async def` gives a coroutine)
    returned = set()
    for statement in statements:
        if isinstance(statement, ast.Return):
            returned.add(statement.value.id if type(statement.value) is ast.Name else None)
    if len(returned) != 1 or None in returned or next(iter(returned)) not in params:
        return None
    (name,) = returned
    own = {id(arg) for arg in (*function.args.posonlyargs, *function.args.args)}
    if any(_names_in_binding(node, name) and id(node) not in own for node in ast.walk(function)):
        return None
    return params.index(name)


def _names_in_binding(node: ast.AST, name: str) -> bool:
    """Whether `node` binds, declares or deletes `name`, in any scope (or makes its function a
    generator)."""
    kind = type(node)
    if kind is ast.Name:
        return node.id == name and type(node.ctx) is not ast.Load
    if kind in (ast.Yield, ast.YieldFrom):
        return True  # a generator: its call gives a generator
    if kind in (ast.Global, ast.Nonlocal):
        return name in node.names
    if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        return node.name == name
    if kind is ast.arg:
        return node.arg == name  # a nested function's or lambda's own parameter of that name
    if kind is ast.alias:
        return (node.asname or node.name.split(".")[0]) == name
    if kind is ast.ExceptHandler:
        return node.name == name
    if kind in (ast.MatchAs, ast.MatchStar):
        return node.name == name
    if kind is ast.MatchMapping:
        return node.rest == name
    return False


def _lines_binding_out_of_sight(tree: ast.AST | None, text: str, walrus: bool) -> dict[str, list[int]]:
    """Name -> the lines where a walrus, a `nonlocal` or a `case` capture may bind it. Walruses and
    `nonlocal`s are found in the text (a name in a string or comment only adds a line: the answer
    errs towards "bound"); `case` captures, in the rare module that has a `case` line, by a walk."""
    found: dict[str, list[int]] = {}
    if walrus or "nonlocal" in text:
        starts = line_starts(text)
        for offset, name in (*_walrus_targets(text), *_nonlocal_names(text)):
            found.setdefault(name, []).append(bisect_right(starts, offset))
    if tree is not None and _CASE_LINE.search(text):
        for node in ast.walk(tree):
            if type(node) in (ast.MatchAs, ast.MatchStar) and node.name:
                found.setdefault(node.name, []).append(node.lineno)
            elif type(node) is ast.MatchMapping and node.rest:
                found.setdefault(node.rest, []).append(node.lineno)
    return found


def _walrus_targets(text: str):
    """(offset, name) of each `name :=` in the text (found from each `:=`, few in a file)."""
    at = text.find(":=")
    while at != -1:
        end = at
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        start = end
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        if start < end:
            yield start, text[start:end]
        at = text.find(":=", at + 2)


def _nonlocal_names(text: str):
    if "nonlocal" not in text:
        return
    for match in _NONLOCAL.finditer(text):
        for name in re.findall(r"\w+", match.group(1)):
            yield match.start(), name


_NONLOCAL = re.compile(r"\bnonlocal\s+([\w \t,]+)")


# A line that may start a `case` block (most files say "case" only in words).
_CASE_LINE = re.compile(r"(?m)^[ \t]+case\b")


# torch's lazy layers and what lazy modules build their parameters from, as a module's text names them.
_LAZY_LAYER_NAMES = re.compile(r"\b(Lazy(?:Linear|Conv[123]d|ConvTranspose[123]d|BatchNorm[123]d|InstanceNorm[123]d|ModuleMixin)"
                               r"|Uninitialized(?:Parameter|Buffer))\b")


def _stored_attributes(target: ast.expr, path: tuple[int, ...]):
    """The attributes a target assigns (`x.a`, and those inside a tuple target), with their place."""
    if isinstance(target, ast.Attribute):
        yield target, path
    elif isinstance(target, (ast.Tuple, ast.List)):
        for index, element in enumerate(target.elts):
            if isinstance(element, ast.Starred):
                continue
            yield from _stored_attributes(element, path + (_place(target.elts, index),))


def _module_by_name(name: ast.expr) -> str:
    """The escape for a module found by the name `name` at run time: `@models.*` for
    `"models"`, `@pkg.archs.<any>.*` for `f"pkg.archs.{arch}"` or `"pkg.archs." + arch`,
    `@<any>.*` for a name computed with no absolute package written, and `@.*` (this module) for
    `sys.modules[__name__]`."""
    if type(name) is ast.Name and name.id == "__name__":
        return "@.*"
    if type(name) is ast.Constant and type(name.value) is str and not name.value.startswith("."):
        return f"@{name.value}.*"
    head = name.values[0] if type(name) is ast.JoinedStr and name.values else name.left if type(name) is ast.BinOp else None
    prefix = head.value if type(head) is ast.Constant and type(head.value) is str else ""
    package = prefix.rpartition(".")[0] if not prefix.startswith(".") else ""
    return f"@{package}.<any>.*" if package else "@<any>.*"


def _base_init_call(call: ast.Call, owner: str, own_self: str) -> tuple[int, int, str | None] | None:
    """`super().__init__(...)`, `super(Owner, self).__init__(...)` or `Base.__init__(self, ...)`."""
    receiver = call.func.value
    if type(receiver) is ast.Call and type(receiver.func) is ast.Name and receiver.func.id == "super" and not receiver.keywords:
        plain = not receiver.args
        named = (len(receiver.args) == 2 and type(receiver.args[0]) is ast.Name and receiver.args[0].id == owner
                 and type(receiver.args[1]) is ast.Name and receiver.args[1].id == own_self)
        return (call.lineno, 1, None) if plain or named else None
    base = _dotted(receiver)
    if base and call.args and type(call.args[0]) is ast.Name and call.args[0].id == own_self:
        return (call.lineno, 0, base)
    return None


def _is_static(function) -> bool:
    return any(_dotted(d) in ("staticmethod", "classmethod") for d in function.decorator_list)


def _declared_module_names(statements: list[ast.stmt]) -> frozenset[str]:
    """The names a function declares `global` (not `nonlocal`: an enclosing function's)."""
    return frozenset(name for statement in statements if isinstance(statement, ast.Global) for name in statement.names)


def _declared_global(statements: list[ast.stmt]) -> frozenset[str]:
    return frozenset(
        name for statement in statements if isinstance(statement, (ast.Global, ast.Nonlocal)) for name in statement.names
    )


def _self_attributes(method, self_name: str):
    """(attribute, value, path, augmented) for each `self.<attribute>` a method assigns: the
    value's element at `path` in a tuple target (`self.net, self.target = Net(), Net()`); value
    None when what is assigned cannot be described (a starred target); `augmented` for `self.n
    += v`, whose value is `v`."""
    for statement in _statements(method.body):
        registered = _registered(statement, self_name)
        if registered is not None:
            yield registered[0], registered[1], (), False  # `self.register_buffer("grid", t)`
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            augmented = isinstance(statement, ast.AugAssign)
            for target in targets:
                for attribute, value, path in _attribute_targets(target, self_name, statement.value, ()):
                    yield attribute, value, path, augmented


def _registered(statement: ast.stmt, self_name: str) -> tuple[str, ast.expr] | None:
    """(name, value) of `self.register_buffer("name", value)` or `register_parameter`."""
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return None
    call = statement.value
    func = call.func
    if (isinstance(func, ast.Attribute) and func.attr in ("register_buffer", "register_parameter")
            and isinstance(func.value, ast.Name) and func.value.id == self_name and len(call.args) >= 2
            and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
        return call.args[0].value, call.args[1]
    return None


def _attribute_targets(target: ast.expr, self_name: str, value: ast.expr | None, path: tuple[int, ...]):
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name:
        yield target.attr, value, path
    elif isinstance(target, (ast.Tuple, ast.List)):
        for index, element in enumerate(target.elts):
            if isinstance(element, ast.Starred):
                yield from _attribute_targets(element.value, self_name, None, path)
            else:
                yield from _attribute_targets(element, self_name, value, path + (index,))


def _string_list(statement: ast.stmt) -> tuple[str, ...] | None:
    value = getattr(statement, "value", None)
    if isinstance(value, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        return tuple(e.value for e in value.elts)
    return None
