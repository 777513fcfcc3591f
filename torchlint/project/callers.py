"""Who calls a project function or method, and with what: the kind a parameter takes from its
call sites (a module-level function, a class's `__init__` called through the class, a method
called through instances), and when callers the index cannot see may exist (a name used as a
value, public API of an installable package, a library base that may call a method).

A mixin of ProjectIndex (torchlint.project.index): it reads the index's summaries and asks it for
kinds and resolutions.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from torchlint.kinds import (
    CLASS, CONTAINER, CYCLE, FUNCTION, GUESSED_METHOD_CALLERS, NONE, TENSOR, Kind, merge, with_evidence,
)
from torchlint.project.descriptors import last_name
from torchlint.project.summary import KEYWORDS_SPREAD, MADE_FROM_CLASS, REINITIALISED, CallSite, FunctionSummary, callee_name, content_digest
from torchlint.project.symbols import ProjectClass, Symbol
from torchlint.torch_api import MODULE_ATTRIBUTE_NAMES, MODULE_WRAPPERS, SELF_RETURNING_METHODS, is_torch_module_class

# nn.Module as a base, as `class Net(nn.Module)` resolves it: its machinery calls only the names it
# defines itself on a subclass's instance.
_PLAIN_MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})
_INERT_BASES = frozenset({"abc.ABC"})  # bases that call none of a subclass's methods
# Decorators (as written) that leave a method's parameters as they are; any other may change what a
# call passes (`@inject_config`, a property's setter).
_SIGNATURE_KEEPING = frozenset({"torch.no_grad", "torch.inference_mode", "torch.enable_grad", "no_grad", "inference_mode",
                                "abstractmethod", "abc.abstractmethod", "override", "typing.override",
                                "functools.lru_cache", "lru_cache", "functools.cache"})


# Registrations of hooks that may change what a module's call hands to `forward`, and what it returns.
FORWARD_PRE_HOOKS = frozenset({"register_forward_pre_hook", "register_module_forward_pre_hook"})
FORWARD_HOOKS = frozenset({"register_forward_hook", "register_module_forward_hook"})
# Decorators (as written) that keep what a function returns; those that also turn autograd off.
GRAD_DISABLING_DECORATORS = frozenset({"torch.no_grad", "torch.inference_mode", "no_grad", "inference_mode"})
RESULT_KEEPING_DECORATORS = GRAD_DISABLING_DECORATORS | {
    "staticmethod", "classmethod", "torch.enable_grad", "functools.wraps", "functools.lru_cache", "lru_cache",
    "functools.cache"}
# Class decorators (qualified) that give the class back.
CLASS_KEEPING_DECORATORS = frozenset({"dataclasses.dataclass", "functools.total_ordering", "typing.final"})
# Decorators that call the function with the arguments its callers give (a decorator of the
# project's may hand it something else: `@packed` packing a padded batch).
ARGUMENT_KEEPING_DECORATORS = RESULT_KEEPING_DECORATORS | {
    "property", "abstractmethod", "abc.abstractmethod", "typing.overload", "overload"}

class Callers:
    """The call-site half of ProjectIndex (which calls `_init_callers` when built)."""

    def _init_callers(self) -> None:
        self._own_escapes: frozenset[str] | None = None  # the last names of the escapes of this view's file
        self._calls_by_name: dict[str, list[str]] | None = None
        self._sites_by_name: dict[str, dict[str | None, list[CallSite]]] = {}  # path -> callee name -> calls
        self._escapes_by_name: dict[str, list[str]] | None = None
        self._asked_digests: dict[str, str] = {}  # name -> callers_digest
        # the class hierarchy, as method call sites ask about it
        self._ancestors: dict[ProjectClass, frozenset[ProjectClass]] = {}
        self._bases: dict[ProjectClass, tuple[tuple[ProjectClass, ...], str | None]] = {}
        self._subclasses: dict[ProjectClass, frozenset[ProjectClass]] = {}
        self._built_params: dict[tuple, bool] = {}  # see _passed_built
        self._callee_modules: dict[tuple[str, str], tuple[str, bool] | None] = {}  # see _project_callee

    def is_public_api(self, path: str, key: str) -> bool:
        """A public function of an installable package: callers outside the project exist."""
        if not self.installable:
            return False
        in_package = (Path(path).parent / "__init__.py").exists()
        return in_package and not any(part.startswith("_") for part in key.split("."))

    def call_site_kind(self, path: str, key: str, index: int, extra: Iterable[Kind | None] = ()) -> Kind | None:
        """The kind every call in the project passes for parameter `index` of function `key` (a
        module-level function, or a class's `__init__` called through the class), when all agree.
        `extra`: kinds the caller already found (the linted file's own call sites)."""
        function = self._function(path, key)
        if function is not None and not all(d in ARGUMENT_KEEPING_DECORATORS for d in function.decorators):
            return None  # `@packed def count(seq)`: the wrapper its decorator returns may pass anything
        sites = self.calls_to(path, key)
        if sites is None:
            return None
        if function is not None:
            sites = [(caller, site, offset) for caller, site, offset in sites if _may_bind(function, site, offset)]
        kinds = list(extra)
        kinds.extend(self._argument_kind(path, key, index, offset, caller, site) for caller, site, offset in sites)
        agreed = merge(kinds) if kinds else None
        if agreed is None or not _is_method(key):
            return agreed
        if self._library_may_call(path, key):
            return None  # asked last: it reads the class's subclasses across the project
        if agreed.base == TENSOR:  # found, but a fix resting on it is not proven
            return Kind(TENSOR, graph=agreed.graph, origin=GUESSED_METHOD_CALLERS, evidence=agreed.evidence)
        return agreed

    def _argument_kind(self, path: str, key: str, index: int, offset: int, caller: str, site: CallSite) -> Kind | None:
        function = self._function(path, key)
        position = index - offset
        if function is None or index >= len(function.params):
            return None  # (a name defined twice: the summary holds the last `def`, the use may see another)
        name = function.params[index]
        if not _stands_at(site, position, name):
            return None
        keywords = dict(site.keywords)
        if position < len(site.args):
            value, code = site.args[position], site.code[position] if position < len(site.code) else name
        elif name in keywords:
            value, code = keywords[name], name
        elif name in function.defaults:
            # the default: `None` is neutral (the callers decide), anything else is one more value
            default = function.defaults[name]
            return NONE if default == ("none",) else self.kind(path, default) if default is not None else None
        else:
            return None
        self.consulted.add(caller)
        kind = self.kind(caller, value)
        if kind is not None and kind.keys is not None and (value is None or value[0] != "dict"):
            # a dict by its keys only where the call writes the display: one the caller holds by
            # name may have been changed on its way (`state["model"] = state["model"].state_dict()`)
            kind = Kind(CONTAINER, mapping=True)
        return with_evidence(kind, f"`{name}` is the `{code}` passed at {Path(caller).name}:{site.line}")

    def never_passed(self, path: str, key: str, param: str) -> bool:
        """No call of the function (of a class, for `Class.__init__`) anywhere in the project
        passes `param`, by position or by keyword, and every call is known (none spreads its
        arguments): the parameter always holds its default."""
        function = self._function(path, key)
        if function is None or function.star or param not in function.params:
            return False
        sites = self.calls_to(path, key, subclasses=False)
        if sites is None:
            return False
        index = function.params.index(param)
        return not any(site.spread or index - offset < len(site.args) or param in dict(site.keywords)
                       for _, site, offset in sites)

    def calls_to(self, path: str, key: str, subclasses: bool = True) -> list[tuple[str, CallSite, int]] | None:
        """Every call of a project function (or of a class, for `Class.__init__`), with the offset
        between its arguments and the function's parameters; None when the function can be called
        from places the index cannot see (it escapes as a value, or it is public API)."""
        target_name = key.split(".")[0]
        if "." in key and not _is_init(key):
            return self._method_calls(path, key)
        if self.is_public_api(path, target_name) or self._looked_up_by_name(path, target_name):
            return None
        if _is_init(key) and (self._made_from_class_at_run_time(path, target_name) or self._reinitialised(path, target_name)):
            return None
        wanted = Symbol("class" if _is_init(key) else "function", path, target_name)
        constructors = self._inheriting_constructors(path, target_name) if _is_init(key) and subclasses else ([], [])
        if constructors is None:
            return None
        inheriting, base_calls = constructors
        # (a subclass's `super().__init__(...)` calls this one: those of the project's module-level
        # subclasses are `base_calls`, and those without an `__init__` are `inheriting`; one
        # defined elsewhere, in a function, is unseen)
        for name in (target_name,) if inheriting or base_calls or not subclasses else (target_name, "^" + target_name):
            for module in self._modules_where_escaping(name):
                summary = self.summaries[module]
                for local in summary.escapes:
                    if last_name(local) == name and self.resolve(module, local.replace("^", "")) == wanted:
                        return None
                if any(imported[2] == target_name and last_name(alias) != target_name and self.resolve(module, alias) == wanted
                       for alias, imported in summary.imports.items()):
                    return None  # `from utils import train as fit`: called under another name
        found = []
        for caller, site in self._calls_named(target_name):
            if site.callee is not None and site.callee[0] == "ref" and (
                    self.resolve(caller, site.callee[1]) == wanted or self._resolves_in_another_branch(caller, site.callee[1], wanted)):
                found.append((caller, site, 1 if _is_init(key) else 0))
        found.extend(base_calls)
        for subclass in inheriting:  # `SequenceTrainer(model=model)` runs `Trainer.__init__`
            calls = self.calls_to(subclass.path, f"{subclass.name}.__init__", subclasses=False)
            if calls is None:
                return None
            found.extend(calls)
        return found

    def _resolves_in_another_branch(self, module: str, dotted: str, wanted: Symbol) -> bool:
        """`approach.Appr(model)` where the module imports `approach` in several branches (`from
        approaches import hat as approach`, `elif ...: from approaches import ewc as approach`):
        a call of each class or function those imports can bring."""
        head, _, rest = dotted.partition(".")
        for level, imported, name in self.summaries[module].alternatives.get(head, ()):
            target = f"{imported}.{name}" if name is not None and imported else (name or imported)
            if self._resolve_absolute(module, level, f"{target}.{rest}" if rest else target, frozenset()) == wanted:
                return True
        return False

    def _made_from_class_at_run_time(self, path: str, name: str) -> bool:
        """An instance of the class may be built without naming it: `cls(x)` in a classmethod,
        `self.__class__(x)` or `type(self)(x)` in a method of the class, of a base (whose `self`
        may be one of its instances) or of a subclass (whose construction may run this
        `__init__`), or `type(obj)(x)` anywhere."""
        cls = self.project_class(path, name)
        family = None
        for module in self._modules_where_escaping(MADE_FROM_CLASS[1:]):
            for local in self.summaries[module].escapes:
                if not local.endswith(MADE_FROM_CLASS):
                    continue
                owner = local[: -len(MADE_FROM_CLASS)]
                if owner == "*":
                    return True
                if family is None:
                    family = {cls} | self._project_ancestors(cls) | self._project_subclasses(cls)
                if self.project_class(module, owner) in family:
                    return True
        return False

    def _reinitialised(self, path: str, name: str) -> bool:
        """The class, a project base or a project subclass of it names `__init__` outside its own
        `__init__` (`def reset(self): super().__init__(None, {})`): a constructor runs unseen."""
        if self._reinitialised_anywhere():
            return True  # `def reset(h, s): h.__init__(s)`: which class's, not known
        cls = self.project_class(path, name)
        family = {cls} | self._project_ancestors(cls) | self._project_subclasses(cls)
        return any(self.summaries[member.path].classes[member.name].reinitialises for member in family
                   if member.name in self.summaries[member.path].classes)

    def _reinitialised_anywhere(self) -> bool:
        """A module of the project calls `__init__` outside its classes (summary.REINITIALISED)."""
        return bool(self._modules_where_escaping(last_name(REINITIALISED)))

    def _inheriting_constructors(self, path: str, name: str):
        """How the project's subclasses of the class, at any depth, run its `__init__`: those that
        construct through it as it is (no `__init__` of their own or between), and the calls of it
        from the subclasses' own `__init__`s (`super().__init__(args, model)`, `Base.__init__(self,
        x)`). None where a subclass has several bases (a mixin's `__init__` may call it with other
        values), names `__init__` otherwise, or calls a base's `__init__` the index cannot resolve;
        or where a module deriving from the class defines no subclass the index reads (one may be
        defined in a function)."""
        cls = self.project_class(path, name)
        subclasses = self._project_subclasses(cls)
        inheriting, base_calls = [], []
        for sub in sorted(subclasses, key=lambda sub: (sub.path, sub.name)):
            shape = self.summaries[sub.path].classes[sub.name]
            if len(shape.bases) != 1:
                return None
            runs = self._init_owner(sub, cls)
            if runs is None:
                return None
            if runs == cls:
                inheriting.append(sub)
            elif runs == sub:
                calls = self._base_init_sites(sub, cls)
                if calls is None:
                    return None
                base_calls.extend(calls)
        if base_calls and not self._subclasses_all_read(cls, subclasses):
            return None
        return inheriting, base_calls

    def _init_owner(self, cls: ProjectClass, base: ProjectClass) -> ProjectClass | None:
        """The class whose `__init__` constructing `cls` runs, looked for from `cls` up to `base`
        through single project bases; None when the chain leaves the project."""
        current = cls
        for _ in range(_MAX_CHAIN):
            if current == base or "__init__" in self.summaries[current.path].classes[current.name].methods:
                return current
            parents = self._class_bases(current)[0]
            if len(parents) != 1:
                return None
            current = parents[0]
        return None

    def _base_init_sites(self, sub: ProjectClass, cls: ProjectClass) -> list[tuple[str, CallSite, int]] | None:
        """The calls in `sub`'s own `__init__` that run `cls`'s: `super().__init__(...)` where the
        parent constructs through `cls`'s, `X.__init__(self, ...)` where X does."""
        function = self._function(sub.path, f"{sub.name}.__init__")
        if function is None or function.base_inits is None:
            return None
        summary = self.summaries[sub.path]
        parents = self._class_bases(sub)[0]
        found = []
        for line, offset, named in function.base_inits:
            if named is None:
                target = parents[0] if len(parents) == 1 else None
            else:
                symbol = self.resolve(sub.path, named)
                target = self.project_class(symbol.path, symbol.name) if symbol is not None and symbol.what == "class" else None
                if target is None and symbol is not None and symbol.what == "external":
                    continue  # `nn.Module.__init__(self)`: not a project class's
            if target is None:
                return None
            if self._init_owner(target, cls) != cls:
                continue  # runs another class's `__init__` (one between, with its own)
            sites = [site for site in summary.calls if site.line == line and _calls_init(site.callee, named)]
            found.extend((sub.path, site, offset) for site in sites or [CallSite(("attr", None, "__init__"), (), (), False, line, ())])
        return found

    def _subclasses_all_read(self, cls: ProjectClass, subclasses: frozenset[ProjectClass]) -> bool:
        """Every module that derives a class from `cls` (`class X(cls)`) holds a module-level subclass of it."""
        holders = {sub.path for sub in subclasses}
        wanted = Symbol("class", cls.path, cls.name)
        for module in self._modules_where_escaping("^" + cls.name):
            if module in holders:
                continue
            if any(last_name(local) == "^" + cls.name and self.resolve(module, local.replace("^", "")) == wanted
                   for local in self.summaries[module].escapes):
                return False
        return True

    def _method_calls(self, path: str, key: str) -> list[tuple[str, CallSite, int]] | None:
        """Every call that may run the method `key` (`Class.method`) of an instance: each call of a
        method of that name (`self.fit(...)`, `trainer.fit(...)`) but those on tensors, containers
        and torch's objects. None when callers the index cannot see may exist: the method's name
        is used as a value anywhere (`self.fit` handed on), the class or a base looks its methods
        up by a computed name, it is a dunder, has a decorator that may change its call, is a
        public name of an installable package, is called through the class, or a library base of
        the class or a base may call it. Whether a subclass may bring such a base in, or exist
        unseen, is asked by call_site_kind once the calls agree (it reads more of the project)."""
        owner_name, _, method = key.partition(".")
        function = self._function(path, key)
        if (function is None or "." in method or method.startswith("__")
                or (self.installable and not method.startswith("_"))  # (through a public subclass, a returned instance)
                or any(d not in _SIGNATURE_KEEPING and d != "staticmethod" for d in function.decorators)):
            return None
        static = "staticmethod" in function.decorators
        if static and method == "forward":
            return None
        offset = 0 if static else 1  # a bound method's instance is its first parameter; a static one has none
        owner = self.project_class(path, owner_name)
        family = {owner} | self._project_ancestors(owner)
        if method == "forward" and not self._escapes_as_attribute(method) and not self._dispatched_by_name(family):
            return self._forward_calls(owner, family)
        if (self._escapes_as_attribute(method) or any(self._has_library_caller(member, method) for member in family)
                or self._dispatched_by_name(family)):
            return None  # (the class's subclasses are asked last, in call_site_kind: that reads more)
        found = []
        for caller, site in self._calls_named(method):
            target = self._site_targets(caller, site, owner)
            if target is None:
                return None
            if target:
                found.append((caller, site, offset))
        return found

    def _forward_calls(self, owner: ProjectClass, family: set[ProjectClass]) -> list[tuple[str, CallSite, int]] | None:
        """The calls that run a module's `forward`: `.forward(...)` calls (as for any method) and
        calls of its instances (`net(x)`, `self.enc(h)`), which nn.Module's `__call__` hands to
        `forward` as they are. Instances are looked for in the modules that build the class (and
        its own): one handed elsewhere, or put in a Sequential, is called unseen, so what is found
        is a guess (call_site_kind says so). None when a base other than torch's module classes
        may call it otherwise."""
        if not all(self._torch_module_bases_only(member) for member in family):
            return None
        if self.may_override(owner, "__call__") or self.registers_hooks(FORWARD_PRE_HOOKS):
            return None  # what an instance's call passes may reach `forward` changed
        found = []
        for caller, site in self._calls_named("forward"):
            target = self._site_targets(caller, site, owner)
            if target is None:
                return None
            if target:
                found.append((caller, site, 1))
        classes = [owner, *self._inheriting_forward(owner)]
        built = frozenset(Symbol("class", cls.path, cls.name) for cls in classes)
        builders = {caller for cls in classes for caller, site in self._calls_named(cls.name)
                    if site.callee[0] == "ref" and self.resolve(caller, site.callee[1]) in built}
        scanned = builders | {owner.path}
        handed = self._handed_to(builders, built, scanned)
        if handed is None:
            return None  # handed to a function a decorator wraps: called there unseen
        for module in sorted(scanned | handed):
            found.extend((module, site, 1) for site in self.summaries[module].calls if self._calls_instance(module, site, built))
        return found

    def _inheriting_forward(self, owner: ProjectClass) -> list[ProjectClass]:
        """The project's subclasses of a module class whose instances run its `forward` as it is:
        none of them, or of the classes between them and it, defines `forward` or `__call__`, and
        their other bases are torch's module classes (`class TopDown(AttModel)` adding layers only)."""
        subclasses = self._project_subclasses(owner)
        inheriting = []
        for subclass in sorted(subclasses, key=lambda cls: (cls.path, cls.name)):
            between = {subclass} | (self._project_ancestors(subclass) & subclasses)
            if not self.defines_any(subclass, ("__call__",)) and all(
                    self._torch_module_bases_only(cls) and not self._defines_method(cls, "forward") for cls in between):
                inheriting.append(subclass)
        return inheriting

    def registers_hooks(self, names: frozenset[str]) -> bool:
        """Whether the project calls one of these hook registrations anywhere (a hook may be put on
        any module: `model.apply(lambda m: m.register_forward_pre_hook(f))`)."""
        return any(self._calls_named(name) for name in sorted(names))

    def _calls_instance(self, module: str, site: CallSite, built: frozenset[Symbol]) -> bool:
        """Whether the call's callee is a name or `self` attribute that holds only instances the
        module builds of the classes `built` (`blk = Block()`, `self.enc = Block().cuda()`, and
        `model = nn.DataParallel(model)` beside such a binding): read from the bindings
        themselves, not by asking their kinds (which may ask about this very parameter)."""
        callee = site.callee
        if callee[0] in ("ref", "local"):
            values = self._bindings(module, callee)
        elif callee[0] == "attr" and callee[1] is not None and callee[1][0] == "local" and callee[2] != "forward":
            values = self._self_attribute_values(module, callee[1], callee[2])
        else:
            return False
        built_here = [value for value in values if self._builds(module, value, built) or self._passed_built(module, value, built)]
        return bool(built_here) and all(value in built_here or self._wraps_itself(module, value, callee) for value in values)

    def _bindings(self, module: str, name) -> tuple:
        """The values bound to a module-level name (`("ref", ...)`) or a function's local."""
        if name[0] == "ref":
            symbol = self.resolve(module, name[1])
            return self.summaries[module].names.get(name[1], ()) if symbol == Symbol("name", module, name[1]) else ()
        function = self._function(module, name[1])
        return function.locals.get(name[2], ()) if function is not None else ()

    def _handed_to(self, builders: set[str], built: frozenset[Symbol], scanned: set[str]) -> set[str] | None:
        """The modules of the project functions and classes the builders hand a built instance to
        (`train(model, loader)`, `EncoderRNN(cell)`): their calls of the parameter run `forward`.
        None where one is a function a decorator wraps (its wrapper may hand the instance on to
        calls no parameter shows)."""
        modules = set()
        for module in builders:
            for site in self.summaries[module].calls:
                if site.callee is None or site.callee[0] != "ref":
                    continue
                target = self._project_callee(module, site.callee[1])
                if target is None or (target[0] in modules or target[0] in scanned) and not target[1]:
                    continue  # (asked first: what is handed on is asked only of calls that may count)
                if any(self._holds_built(module, value, built) for value in (*site.args, *(v for _, v in site.keywords))):
                    if target[1]:
                        return None
                    modules.add(target[0])
        return modules

    def _project_callee(self, module: str, dotted: str) -> tuple[str, bool] | None:
        """The module of the project function or class a call of `dotted` in `module` runs, and
        whether a decorator that may change what it is passed wraps it."""
        key = (module, dotted)
        if key not in self._callee_modules:
            symbol = self.resolve(module, dotted)
            found = None
            if symbol is not None and symbol.what in ("class", "function"):
                function = self._function(symbol.path, symbol.name) if symbol.what == "function" else None
                wrapped = function is not None and not all(d in ARGUMENT_KEEPING_DECORATORS for d in function.decorators)
                found = (symbol.path, wrapped)
            self._callee_modules[key] = found
        return self._callee_modules[key]

    def _holds_built(self, module: str, value, built: frozenset[Symbol], depth: int = 0) -> bool:
        """`Block()` itself, or a name every binding of which is one (or a parameter every call
        of its function passes one for): read from the bindings, not by asking kinds."""
        if self._builds(module, value, built):
            return True
        value = _without_moves(value)
        if value is None or depth > 2:
            return False
        if value[0] not in ("ref", "local"):
            return self._passed_built(module, value, built, depth)
        bindings = self._bindings(module, value)
        return bool(bindings) and all(self._builds(module, binding, built) or self._passed_built(module, binding, built, depth)
                                      for binding in bindings)

    def _passed_built(self, module: str, value, built: frozenset[Symbol], depth: int = 0) -> bool:
        """A parameter of a function or constructor (or a name bound to one: `self.cell =
        cell.to(device)`) that every call in the project passes a built instance for, each call known."""
        value = _without_moves(value)
        if value is not None and value[0] == "local":
            bindings = self._bindings(module, value)
            return bool(bindings) and all(binding is not None and binding[0] == "param"
                                          and self._passed_built(module, binding, built, depth)
                                          for binding in bindings)
        if value is None or value[0] != "param" or depth > 2 or _is_method(value[1]):
            return False  # (a method's callers are found through the instances: asked here, a cycle)
        key, index = value[1], value[2]
        function = self._function(module, key)
        if function is None or index >= len(function.params) or not all(d in ARGUMENT_KEEPING_DECORATORS for d in function.decorators):
            return False  # (a decorator's wrapper may call it with anything)
        memo_key = (module, value, built, depth)
        if memo_key not in self._built_params:
            self._built_params[memo_key] = False  # (a cycle of hand-offs proves nothing)
            self._built_params[memo_key] = self._every_call_passes_built(module, function, key, index, built, depth)
        return self._built_params[memo_key]

    def _every_call_passes_built(self, module: str, function: FunctionSummary, key: str, index: int,
                                 built: frozenset[Symbol], depth: int) -> bool:
        sites = self.calls_to(module, key)
        if not sites:
            return False
        name = function.params[index]
        binding = [(caller, site, offset) for caller, site, offset in sites if _may_bind(function, site, offset)]
        for caller, site, offset in binding:
            position, keywords = index - offset, dict(site.keywords)
            passed = site.args[position] if 0 <= position < len(site.args) else keywords.get(name)
            if not _stands_at(site, position, name) or passed is None or not self._holds_built(caller, passed, built, depth + 1):
                return False
        return bool(binding)

    def _wraps_itself(self, module: str, value, callee: tuple) -> bool:
        """`model = nn.DataParallel(model)` (`.cuda()` and other moves chained on it too): the
        wrapper's call hands its inputs to the module it wraps, which the name's other bindings say."""
        value = _without_moves(value)
        if value is None or value[0] != "call" or value[1] is None or value[1][0] != "ref" or value[2] != callee:
            return False
        symbol = self.resolve(module, value[1][1])
        return symbol is not None and symbol.what == "external" and symbol.qualified in MODULE_WRAPPERS

    def _self_attribute_values(self, module: str, receiver: tuple, attribute: str) -> tuple:
        """What the class of the method `receiver` is `self` in assigns to `self.<attribute>`."""
        key, name = receiver[1], receiver[2]
        function = self._function(module, key)
        owner_name = key.split(".")[0] if key and "." in key else None
        classes = self.summaries[module].classes
        if function is None or owner_name not in classes or not function.params or function.params[0] != name:
            return ()
        return tuple(value for _, value in classes[owner_name].attributes.get(attribute, ()))

    def _builds(self, module: str, value, built: frozenset[Symbol]) -> bool:
        """`Block(...)`, or one with device and mode moves chained on it (`Block().cuda()`)."""
        value = _without_moves(value)
        return (value is not None and value[0] == "call" and value[1] is not None and value[1][0] == "ref"
                and self.resolve(module, value[1][1]) in built)

    def _torch_module_bases_only(self, cls: ProjectClass) -> bool:
        """Every base of the class that is not a project class is one of torch.nn's module classes
        (whose machinery calls `forward` only through `__call__`), `object` or `ABC`."""
        bases = self._resolved_bases(cls)
        return bases is not None and all(
            (symbol is not None and (symbol.what == "class" or (symbol.what == "external" and is_torch_module_class(symbol.qualified))))
            or (symbol is None and base in (("ref", "object"), ("ref", "ABC")))
            for base, symbol in bases)

    def _resolved_bases(self, cls: ProjectClass) -> list[tuple[tuple | None, Symbol | None]] | None:
        """Each base the class's summary names, with what it resolves to (None: not a plain
        name, or not resolved); None when the index cannot read the class."""
        summary = self.summaries.get(cls.path)
        if summary is None or cls.name not in summary.classes:
            return None
        return [(base, self.resolve(cls.path, base[1]) if base is not None and base[0] == "ref" else None)
                for base in summary.classes[cls.name].bases]

    def _looked_up_by_name(self, path: str, name: str) -> bool:
        """`getattr(models, name)(...)`, `models.__dict__[arch]()`, `mm = models`, `globals()[name]`,
        `importlib.import_module(name)` reaching the module `path`: any of its functions and classes
        (`name` among them) may be called unseen."""
        for module in self._modules_where_escaping("*"):
            for local in self.summaries[module].escapes:
                if local.startswith("@"):
                    if self._found_at_run_time(module, local[1:-2], path, name):
                        return True
                elif local.endswith(".*") and local[:-2]:
                    symbol = self.resolve(module, local[:-2])
                    if symbol is not None and symbol.what == "module" and self._holds(symbol.path, path, name):
                        return True
        return False

    def _holds(self, namespace: str, path: str, name: str) -> bool:
        """Whether the module `namespace` holds `name` of the module `path`: it is that module, or
        it imports the name from it (`archs/__init__.py` re-exporting `from .resnet import *`)."""
        return namespace == path or any(self._imports_from(namespace, level, dotted, imported, path, name)
                                        for level, dotted, imported in self._imported(namespace))

    def _found_at_run_time(self, looker: str, module_name: str, path: str, name: str) -> bool:
        """Whether `looker` may find `name` of the module `path` by the module name `module_name`
        (summary's _module_by_name; "" for `looker`'s own globals: its names, the names it imports,
        and the modules it imports)."""
        if module_name == "":
            return looker == path or any(self._imports_from(looker, level, dotted, imported, path, name)
                                         for level, dotted, imported in self._imported(looker))
        by_attribute = module_name.startswith("~")  # (only the names it calls as `mod.name(...)`)
        package, any_name, _ = module_name.removeprefix("~").partition("<any>")
        if not any_name:
            found = self.resolve_module(looker, 0, module_name)
            return found is not None and self._holds(found, path, name)
        if by_attribute and not self._calls_as_attribute(looker, name):
            return False
        # (the display is relative to the project's root, which may hold the package in a folder)
        return not package or f".{package}" in f".{self.display(path)}"

    def _calls_as_attribute(self, module: str, name: str) -> bool:
        summary = self.summaries[module]
        return any(escape.endswith(f".{name}") for escape in summary.escapes) or any(
            site.callee is not None and site.callee[0] == "attr" and site.callee[2] == name for site in summary.calls)

    def _imported(self, module: str) -> list[tuple[int, str, str | None]]:
        summary = self.summaries[module]
        return [*summary.imports.values(), *((level, dotted, "*") for level, dotted in summary.stars)]

    def _imports_from(self, looker: str, level: int, dotted: str, imported: str | None, path: str, name: str) -> bool:
        """`import models`, `from pkg import models`, `from models import *` or `from models import
        build` in `looker` brings `name` of `path` into its globals."""
        if imported is None or imported == "*" or imported == name:
            if self.resolve_module(looker, level, dotted) == path:
                return True
        return imported not in (None, "*") and self.resolve_module(looker, level, f"{dotted}.{imported}".lstrip(".")) == path

    def _dispatched_by_name(self, classes: set[ProjectClass]) -> bool:
        """`getattr(self, "on_" + event)(x)` in a method of one of `classes`: any method of theirs
        may be called by a name the index cannot read."""
        names = {f"{cls.name}.*" for cls in classes} | {".*"}  # (`attrgetter(name)`: of anything)
        return any(local in names for module in self._modules_where_escaping("*") for local in self.summaries[module].escapes)

    def _escapes_as_attribute(self, name: str) -> bool:
        """An attribute `name` used other than as a callee anywhere (`hooks.append(self.fit)`): a
        bare name elsewhere is another variable, not the method."""
        return any(local != name and local.endswith("." + name)
                   for module in self._modules_where_escaping(name) for local in self.summaries[module].escapes)

    def _site_targets(self, caller: str, site: CallSite, owner: ProjectClass) -> bool | None:
        """Whether a call of a method named like one of `owner`'s may run it; None when it may, but
        with the instance passed explicitly (`Class.fit(obj, x)`, `type(self).fit(self, x)`).
        An instance of another project class may run it too (a subclass mixing both in, an
        attribute reassigned from outside): only tensors, containers, functions and torch's own
        objects are set aside."""
        callee = site.callee
        if callee[0] == "ref":
            receiver_name, _, _ = callee[1].rpartition(".")
            if not receiver_name or self.resolve(caller, callee[1]) is not None:
                return False  # a function called by name (`fit(x)`, `utils.fit(x)`), a library's
            receiver = self.kind(caller, ("ref", receiver_name))
        elif _names_a_class(callee[1]):
            return None
        else:
            receiver = self.kind(caller, callee[1]) if callee[1] is not None else None
        if receiver is None or receiver.base in (NONE, CYCLE):
            return True
        if receiver.base == CLASS:
            return None
        if callee[0] == "attr" and callee[1] is not None and callee[1][0] == "attr":
            return True  # `self.head.stats(b)`: what `self.head` holds may be reassigned from outside
        if receiver.base in (TENSOR, CONTAINER, FUNCTION):
            return False
        return isinstance(receiver.cls, ProjectClass) or not (receiver.origin or "").startswith("torch.")

    def _project_ancestors(self, cls: ProjectClass, seen: frozenset = frozenset()) -> frozenset[ProjectClass]:
        known = self._ancestors.get(cls)
        if known is not None:
            return known
        if cls in seen:
            return frozenset()
        found = set()
        for parent in self._class_bases(cls)[0]:
            found |= {parent} | self._project_ancestors(parent, seen | {cls})
        self._ancestors[cls] = frozenset(found)
        return self._ancestors[cls]

    def _class_bases(self, cls: ProjectClass) -> tuple[tuple[ProjectClass, ...], str | None]:
        """The class's bases that are project classes, and what its other bases are: None (only
        `object`/`ABC`), "module" (nn.Module among them) or "library" (another library class, or
        one that cannot be resolved; also a class the index cannot read)."""
        known = self._bases.get(cls)
        if known is not None:
            return known
        bases = self._resolved_bases(cls)
        if bases is None:
            self._bases[cls] = ((), "library")
            return self._bases[cls]
        parents, library = [], None
        for base, symbol in bases:
            if symbol is not None and symbol.what == "class":
                parents.append(self.project_class(symbol.path, symbol.name))
            elif symbol is None and base in (("ref", "object"), ("ref", "ABC")):
                continue
            elif symbol is not None and symbol.what == "external" and symbol.qualified in _PLAIN_MODULE_BASES:
                library = library or "module"
            elif not (symbol is not None and symbol.what == "external" and symbol.qualified in _INERT_BASES):
                library = "library"
        self._bases[cls] = (tuple(parents), library)
        return self._bases[cls]

    def _library_may_call(self, path: str, key: str) -> bool:
        """Whether code outside the project may call the method `key` on an instance of a project
        subclass of its class: a base of the subclass (or of its bases) is a library class other
        than nn.Module (whose machinery calls only the names it defines) or `object`, or cannot be
        resolved. (The class's own bases are asked first, by _method_calls.)"""
        owner_name, _, method = key.partition(".")
        cls = self.project_class(path, owner_name)
        subclasses = self._project_subclasses(cls)
        if any(self._used_as_value(member) for member in {cls} | subclasses):
            return True  # a subclass the index cannot read may exist (`type("Lit", (Steps, LightningModule), {})`)
        if self._dispatched_by_name({member for sub in subclasses for member in {sub} | self._project_ancestors(sub)}):
            return True  # `getattr(self, name)` in a subclass
        members = {member for subclass in subclasses for member in {subclass} | self._project_ancestors(subclass)}
        if method == "forward":
            # nn.Module's machinery runs `forward` only through `__call__`, whose calls of the
            # subclasses' instances that inherit it _forward_calls reads; other bases may not
            return not all(self._torch_module_bases_only(member) for member in members)
        return any(self._has_library_caller(member, method) for member in members)

    def _used_as_value(self, cls: ProjectClass) -> bool:
        """The class's name is used other than as the base of a module-level class somewhere (a
        class defined in a function, `type(...)`, a registry, a class decorator, an import under
        another name): a subclass may exist unseen. (By name: a namesake elsewhere counts too.)
        Read through (`Logger.load_cpk(path)`, `Config.SIZE`), it is not handed on."""
        for module in self._modules_where_escaping(cls.name):
            summary = self.summaries[module]
            if any(last_name(local) == cls.name and local not in summary.read_through for local in summary.escapes):
                return True
        return False

    def _has_library_caller(self, cls: ProjectClass, method: str) -> bool:
        library = self._class_bases(cls)[1]
        return library == "library" or (library == "module" and method in MODULE_ATTRIBUTE_NAMES)

    def _project_subclasses(self, cls: ProjectClass) -> frozenset[ProjectClass]:
        """The project's classes that inherit from `cls`, at any depth (found among the modules
        that use its name as a value, as a `class Sub(Base)` statement does)."""
        known = self._subclasses.get(cls)
        if known is not None:
            return known
        self._subclasses[cls] = frozenset()  # (a cycle of bases ends here)
        found: set[ProjectClass] = set()
        for module in self._modules_where_escaping("^" + cls.name):
            for name in self.summaries[module].classes:
                child = self.project_class(module, name)
                if child != cls and child not in found and cls in self._class_bases(child)[0]:
                    found |= {child} | self._project_subclasses(child)
        self._subclasses[cls] = frozenset(found)
        return self._subclasses[cls]

    def names_any_of(self, names: Iterable[str]) -> bool:
        """Whether a module of the project (this view's file as it is now) calls something whose
        last name is one of `names`, or names it otherwise (a value, a base class)."""
        return any(self._calls_named(name) or self._modules_where_escaping(name) for name in sorted(names))

    def named_elsewhere(self, path: str, name: str) -> bool:
        """Whether a module of the project other than `path` names `name` (last name) other than
        as a callee: reads it, stores into it, imports it under another name."""
        return any(module != path for module in self._modules_where_escaping(name))

    def _calls_named(self, name: str) -> list[tuple[str, CallSite]]:
        """Calls whose callee's last name is `name`: the run's table, with this view's file as it is now."""
        self.consulted.add(ASKED + name)
        if self._base is None:
            return [pair for path in self._tables()[0].get(name, []) for pair in self._sites_named(path, name)]
        base = self._base
        shared = [pair for path in base._tables()[0].get(name, []) if path != self._own
                  for pair in base._sites_named(path, name)]
        return shared + self._sites_named(self._own, name)

    def _sites_named(self, path: str, name: str) -> list[tuple[str, CallSite]]:
        table = self._sites_by_name.get(path)
        if table is None:
            table = self._sites_by_name[path] = {}
            for site in self.summaries[path].calls:
                table.setdefault(callee_name(site), []).append(site)
        return [(path, site) for site in table.get(name, ())]

    def _modules_where_escaping(self, name: str) -> list[str]:
        self.consulted.add(ASKED + name)
        if self._base is None:
            return self._tables()[1].get(name, [])
        own = self._own
        shared = [path for path in self._base._tables()[1].get(name, []) if path != own]
        if self._own_escapes is None:
            self._own_escapes = frozenset(last_name(local) for local in self.summaries[own].escapes)
        return shared + ([own] if name in self._own_escapes else [])

    def callers_digest(self, name: str) -> str:
        """Which modules call `name` or let it escape, and what they call and let escape: what a
        result resting on the callers of `name` depends on (a call added in a module it did not
        read changes it)."""
        base = self._base or self
        known = base._asked_digests.get(name)
        if known is None:
            calls, escapes = base._tables()
            modules = sorted({*calls.get(name, ()), *escapes.get(name, ())})
            listed = "\0".join(f"{module}\0{base._uses_digest(module)}" for module in modules)
            known = base._asked_digests[name] = content_digest(listed.encode())
        return known

    def _tables(self):
        """Last name -> the modules that call something by it, and that let it escape: read from
        the names each module is looked up by, so only the modules found are unpickled."""
        if self._calls_by_name is None:
            calls, escapes = {}, {}
            for path in self.summaries:
                called, escaped = self._lookup_names(path)
                for name in called:
                    calls.setdefault(name, []).append(path)
                for name in escaped:
                    escapes.setdefault(name, []).append(path)
            self._calls_by_name, self._escapes_by_name = calls, escapes
        return self._calls_by_name, self._escapes_by_name


_MAX_CHAIN = 64  # classes climbed from a subclass to its base (a cycle of bases ends there)

# A key of `consulted` (beside module paths): the callers of the name that follows were asked.
ASKED = "\0callers of "


def _without_moves(value):
    """`Block()` for `Block().cuda().train()`: the value the device and mode moves return."""
    while value is not None and value[0] == "call" and value[1] is not None and value[1][0] == "attr" \
            and value[1][2] in SELF_RETURNING_METHODS:
        value = value[1][1]
    return value


def _may_bind(function: FunctionSummary, site: CallSite, offset: int) -> bool:
    """Whether the call may run the function: a call of a method of the same name that passes a
    keyword no parameter takes, or too few arguments for its parameters without defaults
    (`agent.train(step)` against `train(self, buffer, low_con)`), would raise were it a call of
    this one; in a program that runs, it calls another class's method. (Too many positional
    arguments, or one parameter twice, is no proof: `type(obj).m(obj, x)` passes the instance.)"""
    if function.star or site.spread:
        return True  # (`*args`/`**kwargs` on either side: any number may fit)
    keywords = {name for name, _ in site.keywords}
    if not keywords <= set(function.params) | set(function.kwonly):
        return False
    return all(name in keywords or name in function.defaults for name in function.params[len(site.args) + offset:])


def _names_a_class(receiver) -> bool:
    """`type(self)`, `self.__class__`: a class object, whose methods take the instance explicitly."""
    if receiver is None:
        return False
    if receiver[0] == "call" and receiver[1] == ("ref", "type"):
        return True
    return receiver[0] == "attr" and receiver[2] == "__class__" or receiver[:1] == ("ref",) and receiver[1].endswith(".__class__")


def _stands_at(site: CallSite, position: int, name: str | None) -> bool:
    """Whether what the call passes for the parameter `name` at `position` is known: no spread,
    or one of keywords only (`f(x, y, **kwargs)`) with the argument given by position or by name
    (the spread cannot pass it again)."""
    if position < 0 or name is None:
        return False
    return not site.spread or site.spread == KEYWORDS_SPREAD and (position < len(site.args) or name in dict(site.keywords))


def _calls_init(callee, named: str | None) -> bool:
    """The recorded callee of `super().__init__(...)` (named None) or of `named.__init__(self, ...)`."""
    if named is None:
        return callee is not None and callee[0] == "attr" and callee[2] == "__init__" and callee[1] is not None \
            and callee[1][0] == "call" and callee[1][1] == ("ref", "super")
    return callee == ("ref", f"{named}.__init__")


def _is_method(key: str) -> bool:
    return "." in key and not _is_init(key) and "<locals>" not in key


def _is_init(key: str) -> bool:
    return key.endswith(".__init__") and key.count(".") == 1
