"""What `x.attr` holds: an attribute of an instance of a class the file defines (what its methods
assign to `self.attr`, what its subclasses assign, what its bases give), of a project class through
the index, of torch's own modules (`DataParallel(net).module`), and a layer's parameter by its name
as a guess (`self.conv.weight` of a submodule built where it cannot be read). Part of the type
oracle (a mixin of `TypeOracle`): it asks the oracle what each assigned value is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import libcst as cst

from torchlint.analysis import dotted_name, method_named, walk_statements
from torchlint.codemod import names_used
from torchlint.kinds import (
    CLASS, CYCLE, FUNCTION, GUESSED_LAYER_PARAMETER, MODULE, OBJECT, TENSOR, Kind, attribute_kind, augmented_kind,
    layer_tensor_kind, merge,
)
from torchlint.project.index import ProjectClass
from torchlint.scopes import Binding, Scope, all_params
from torchlint.torch_api import MODULE_ATTRIBUTE_NAMES, MODULE_WRAPPERS, is_optimizer_class, is_torch_module_class
from torchlint.walk import ElidedBlock, descendants

_REGISTERING_METHODS = frozenset({"register_buffer", "register_parameter"})
# Annotations that say nothing against torch (`Any`, `object`, torch's own classes).
_NEUTRAL_ANNOTATION_MODULES = frozenset({"torch", "typing", "typing_extensions", "builtins"})


class AttributeKinds:
    """Mixin of TypeOracle: `_attribute_kind` and what a class's attributes hold."""

    def _attribute_kind(self, expr: cst.Attribute, scope: Scope, at=None) -> Kind | None:
        attribute = expr.attr.value
        if attribute == "module":
            wrapper = self._kind(expr.value, scope, at)
            if wrapper is not None and wrapper.base == MODULE and wrapper.origin in MODULE_WRAPPERS:
                return attribute_kind(wrapper, attribute)  # `DataParallel(net).module`: `net`
        owner = self._instance_class(expr.value, scope)
        if owner is not None:
            held = self._self_attribute_kind(owner, attribute)
            nested = self._own_nested_class(owner, attribute) if held is None else None
            return Kind(CLASS, cls=nested) if nested is not None else held  # `self.Detection()`
        receiver = self._kind(expr.value, scope, at)
        if receiver is None:
            imported = self._imported_kind(self.imports.qualify(expr))
            if imported is not None and imported.base in (FUNCTION, CLASS):
                # `crit = losses.symmetric_mse_loss`, then `crit(a, b)`; `parallel.DataParallelModel`
                return imported
        if receiver is not None and receiver.base == CLASS and isinstance(receiver.cls, cst.ClassDef):
            nested = self._unchanged_nested_class(receiver.cls, attribute)  # `Model.Detection`: in Model's body
            return Kind(CLASS, cls=nested) if nested is not None else attribute_kind(receiver, attribute)
        if receiver is not None and receiver.base in (MODULE, OBJECT):
            own = None
            if isinstance(receiver.cls, cst.ClassDef):
                own = self._class_attribute_kind(receiver.cls, attribute)
            elif isinstance(receiver.cls, ProjectClass):
                own = self.project.class_attribute_kind(receiver.cls, attribute)
            if own is not None:
                outside = self.project.stored_from_outside(attribute)
                # (stores through the name itself count whatever their kind: `h = make(); h.w = memoryview(b)`)
                outside += self._stored_through_name(expr.value, attribute, scope)
                return merge([own, *outside]) if outside else own
            if receiver.cls is not None and self._looked_up_otherwise(receiver.cls, attribute):
                return None  # `@property def weight(self)`: not a layer's parameter
        layer_tensor = _layer_tensor(attribute)
        if (receiver is None and layer_tensor is not None and self._imports_torch()
                and not self._annotated_outside_torch(expr.value, scope)):
            # `self.conv.weight`, `self.head[-1].bias`, `m.bn.running_mean` of a submodule built
            # where it cannot be read (a factory, another package): in torch code a layer's
            # parameter or buffer. A guess, so the kind says so: a fix that rests on it is not
            # applied without asking.
            return layer_tensor
        return attribute_kind(receiver, attribute)

    def _stored_through_name(self, receiver: cst.CSTNode, attribute: str, scope: Scope) -> list[Kind | None]:
        """What the scope assigns to `<receiver>.<attribute>` where the receiver is a plain name
        (`h.w = memoryview(b)`, `setattr(h, "w", v)`: `setattr` of any value is unknown). A value
        made from the attribute itself (`state.history = torch.cat((h, state.history))`) reads it,
        while it is judged, as not known."""
        if not isinstance(receiver, cst.Name):
            return []
        key = (id(scope.node), receiver.value, attribute)
        cache = self.__dict__.setdefault("_stored_through", {})
        return self._memoised(cache, key, [None], lambda: self._stores_through_name(receiver.value, attribute, scope))

    def _stores_through_name(self, name: str, attribute: str, scope: Scope) -> list[Kind | None]:
        found: list[Kind | None] = []

        def stores(target: cst.CSTNode) -> bool:
            return (isinstance(target, cst.Attribute) and target.attr.value == attribute
                    and isinstance(target.value, cst.Name) and target.value.value == name)
        for node in descendants(scope.node):
            if isinstance(node, cst.Assign) and any(stores(target.target) for target in node.targets):
                found.append(self._kind(node.value, scope) if len(node.targets) == 1 else None)
            elif isinstance(node, (cst.AnnAssign, cst.AugAssign)) and stores(node.target):
                found.append(self._kind(node.value, scope) if isinstance(node, cst.AnnAssign) and node.value else None)
            elif (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "setattr"
                  and node.args and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == name):
                found.append(None)
        return found

    def _unchanged_nested_class(self, owner: cst.ClassDef, attribute: str) -> cst.ClassDef | None:
        """The class `owner`'s body defines under `attribute`, undecorated and bound nowhere else in
        the body, when no code of the file can put something else there (no `.<attribute> =`,
        `setattr`, `__dict__`) and no module of the project stores that attribute."""
        nested = _nested_class(owner, attribute)
        if nested is None or nested.decorators:
            return None
        if re.search(rf"\.\s*{re.escape(attribute)}\s*=(?!=)|\bsetattr\b|__dict__", self.text):
            return None
        return None if self.project.stores_attribute(attribute) else nested

    def _own_nested_class(self, owner: cst.ClassDef, attribute: str) -> cst.ClassDef | None:
        """The class `owner`'s body defines under `attribute`, read through an instance
        (`self.Detection`): only where no method assigns the attribute and no class of the file
        or the project derives from `owner` (a subclass may define its own)."""
        nested = self._unchanged_nested_class(owner, attribute)
        if nested is None or self._attribute_bindings(owner, attribute) or self._file_subclasses(owner):
            return None
        summary = self.project.summaries.get(self._project_path)
        if summary is not None and owner.name.value in summary.classes and self.project.has_subclasses(
                self.project.project_class(self._project_path, owner.name.value)):
            return None
        return nested

    def _annotated_outside_torch(self, expr: cst.CSTNode, scope: Scope) -> bool:
        """The expression starts at a parameter annotated with a class from outside torch
        (`ds: xr.Dataset`, `layer: keras.layers.Dense`): its `weight` is that library's."""
        while isinstance(expr, (cst.Attribute, cst.Subscript, cst.Call)):
            expr = expr.func if isinstance(expr, cst.Call) else expr.value
        if not isinstance(expr, cst.Name):
            return False
        for binding in self.scopes.lookup(expr.value, scope) or ():
            if binding.how == "param" and binding.value.annotation is not None:
                qualified = self.imports.qualify(binding.value.annotation.annotation)
                if qualified and qualified.split(".")[0] not in _NEUTRAL_ANNOTATION_MODULES:
                    return True
        return False

    def _self_attribute_kind(self, owner: cst.ClassDef, attribute: str) -> Kind | None:
        """`self.<attribute>` in a method of `owner`: what the class assigns, and what each
        subclass assigning it again does (`self.feats = pack_sequence(...)` in a subclass's
        `__init__`), when they agree."""
        kind = self._class_attribute_kind(owner, attribute)
        if kind is None:
            return self._set_by_subclasses_only(owner, attribute)
        overriding = self._overriding_kinds(owner, attribute)
        return merge([kind, *overriding]) if overriding else kind

    def _overriding_kinds(self, owner: cst.ClassDef, attribute: str) -> list[Kind | None]:
        """What the subclasses of `owner` (in the file and the project) that assign the attribute
        assign, and what other code stores into it."""
        overriding = [self._class_attribute_kind(subclass, attribute) for subclass in self._file_subclasses(owner)
                      if self._attribute_bindings(subclass, attribute)]
        summary = self.project.summaries.get(self._project_path)
        if summary is not None and owner.name.value in summary.classes:
            own = self.project.project_class(self._project_path, owner.name.value)
            overriding += self.project.overriding_attributes(own, attribute, elsewhere_than=self._project_path)
        return overriding + self.project.stored_from_outside(attribute)

    def _set_by_subclasses_only(self, owner: cst.ClassDef, attribute: str) -> Kind | None:
        """`self.ccr_core(x)` in a method of a base class that never sets it, while each subclass
        that does sets a module (`self.ccr_core = Cascade()` in `TopDown.__init__`): the method
        runs on such an instance (on any other, the read would raise). Only where neither the
        class nor a base can set it (bases the index reads, or `nn.Module` for a name it lacks),
        and it is not looked up otherwise."""
        if not self._some_subclass_sets(owner, attribute):
            return None  # (asked first: the cheapest question, and most classes have no such subclass)
        if self._owner_may_give(owner, attribute):
            return None
        if any(self._subclass_gets_otherwise(subclass, owner, attribute) for subclass in self._file_subclasses(owner)):
            return None
        summary = self.project.summaries.get(self._project_path)
        if summary is not None and owner.name.value in summary.classes:
            own = self.project.project_class(self._project_path, owner.name.value)
            if self.project.subclasses_get_otherwise(own, attribute):
                return None
        overriding = self._overriding_kinds(owner, attribute)
        return merge(overriding) if overriding else None

    def _owner_may_give(self, owner: cst.ClassDef, name: str) -> bool:
        """The class, a base, or code elsewhere may give `self.<name>` on an instance of the
        class itself, or its subclasses may not all be seen (a public class of a package)."""
        if self._attribute_bindings(owner, name) or self._looked_up_otherwise(owner, name):
            return True
        if self.project.installable and not owner.name.value.startswith("_"):
            return True  # a public class of a package: its users' subclasses are not seen
        return self._set_above(owner, name, frozenset({owner})) is not False or self._set_otherwise(owner, name)

    def _defined_by_subclasses_only(self, owner: cst.ClassDef, method: str) -> Kind | None:
        """`self.main(x)` in a method of a base class that neither defines nor binds `main`, while
        its subclasses define it as plain methods (BEGAN's `BaseModel.forward` returning
        `self.main(x)`): the call runs one of those (on any other instance it would raise), so it
        returns what they return, where they agree. Only where no base of the class may give the
        name and no subclass gets it otherwise (a decorator, a binding, a mixin, `__getattr__`)."""
        if method.startswith("__") or method in MODULE_ATTRIBUTE_NAMES:
            return None
        if self._owner_may_give(owner, method):
            return None
        results: list[Kind | None] = []
        for subclass in self._file_subclasses(owner):
            function = method_named(subclass, method)
            if function is not None and (function.decorators or self._attribute_bindings(subclass, method)):
                return None
            if function is None and self._subclass_gets_otherwise(subclass, owner, method):
                return None
            if function is not None:
                if self._defines_any(subclass, ("__getattr__", "__getattribute__"), set()):
                    return None
                results.append(self._method_returns(function))
        summary = self.project.summaries.get(self._project_path)
        if summary is not None and owner.name.value in summary.classes:
            own = self.project.project_class(self._project_path, owner.name.value)
            if self.project.subclasses_get_otherwise(own, method, defining=True):
                return None
            results += self.project.overriding_results(own, method, elsewhere_than=self._project_path)
        return merge(results) if results and None not in results else None

    def _file_subclasses(self, owner: cst.ClassDef) -> list[cst.ClassDef]:
        """The file's classes deriving from `owner`, found once per class (a walk over every pair)."""
        if owner not in self._subclasses:
            self._subclasses[owner] = self.classes.subclasses(owner)
        return self._subclasses[owner]

    def _some_subclass_sets(self, owner: cst.ClassDef, attribute: str) -> bool:
        """A subclass of the file, or of the project, assigns `self.<attribute>`."""
        if any(self._attribute_bindings(subclass, attribute) for subclass in self._file_subclasses(owner)):
            return True
        summary = self.project.summaries.get(self._project_path)
        if summary is None or owner.name.value not in summary.classes:
            return False
        own = self.project.project_class(self._project_path, owner.name.value)
        return self.project.some_subclass_assigns(own, attribute, elsewhere_than=self._project_path)

    def _set_otherwise(self, owner: cst.ClassDef, attribute: str) -> bool:
        """The attribute may be set other than by `self.<attribute> = ...` in a class: `setattr` or
        `__dict__` in the class (`for k, v in kwargs.items(): setattr(self, k, v)`), `setattr` of
        that name anywhere in the file, or a store through another object anywhere in the project
        (`b = Base(); b.scale = Table()`)."""
        code = self.module.code_for_node(owner)
        if "setattr(" in code or "__dict__" in code:
            return True
        if self.text and re.search(rf"setattr\([^,()]+,\s*['\"]{re.escape(attribute)}['\"]", self.text):
            return True
        return self.project.stores_attribute(attribute)

    def _subclass_gets_otherwise(self, subclass: cst.ClassDef, owner: cst.ClassDef, attribute: str) -> bool:
        """A subclass of the file gives the attribute other than by assigning it on `self`: a
        property or method of its own, a class-level binding, `setattr`, or another base (a mixin)
        that may set it."""
        if self._looked_up_otherwise(subclass, attribute) or any(
                _binds_in_class_body(statement, attribute) for statement in subclass.body.body
                if not isinstance(statement, (cst.FunctionDef, cst.ClassDef))):
            return True  # (a method or nested class of that name is `_looked_up_otherwise`'s)
        code = self.module.code_for_node(subclass)
        if "setattr(" in code or "__dict__" in code:
            return True
        family = set(self._file_subclasses(owner)) | {owner}
        for arg in subclass.bases:
            _, definitions = self._written_base(arg)
            if definitions and len(definitions) == 1 and definitions[0] in family:
                continue
            if definitions and len(definitions) == 1:
                other = definitions[0]
                if self._attribute_bindings(other, attribute) or self._looked_up_otherwise(other, attribute):
                    return True
                if self._set_above(other, attribute, frozenset({other})) is not False:
                    return True
                continue
            return True  # a base from elsewhere (a mixin the index reads or not) may set it
        return False

    def _set_above(self, owner: cst.ClassDef, attribute: str, seen: frozenset) -> bool | None:
        """Whether a base of `owner` may set `self.<attribute>` (None: a base the index cannot read)."""
        for arg in owner.bases:
            if arg.keyword is not None:
                return None
            qualified, definitions = self._written_base(arg)
            if definitions:
                if len(definitions) != 1 or definitions[0] in seen:
                    return None
                base = definitions[0]
                if self._attribute_bindings(base, attribute) or self._looked_up_otherwise(base, attribute):
                    return True
                above = self._set_above(base, attribute, seen | {base})
                if above is not False:
                    return above
                continue
            if qualified in ("torch.nn.Module", "torch.nn.modules.module.Module"):
                if attribute in MODULE_ATTRIBUTE_NAMES:
                    return True
                continue
            imported = self._imported_kind(qualified)
            if imported is None or not isinstance(imported.cls, ProjectClass):
                return None
            above = self.project.sets_attribute_above(imported.cls, attribute)
            if above is not False:
                return above
        return False

    def _written_base(self, arg: cst.Arg) -> tuple[str | None, list[cst.ClassDef] | None]:
        """A base as a class statement writes it: its qualified name through the imports, or else
        the file's classes of its name."""
        qualified = self.imports.qualify(arg.value)
        local = dotted_name(arg.value) if qualified is None else None
        return qualified, (self.classes.by_name.get(local) if local else None)

    def _class_attribute_kind(self, owner: cst.ClassDef, attribute: str, seen: frozenset = frozenset()) -> Kind | None:
        bindings = self._attribute_bindings(owner, attribute)
        if not bindings:
            if not seen and self._looked_up_otherwise(owner, attribute):
                # a property (what its getter returns), or `__getattr__` handing on another object's
                return self.property_kind(owner, attribute)
            return self._inherited_attribute_kind(owner, attribute, seen | {owner})
        assigned = [binding for binding in bindings if binding.how != "augmented"]
        held = merge(self._binding_kind(binding) for binding in assigned) if assigned else None
        if held is None and assigned:
            held = self._tensor_or_number(assigned)
        if len(assigned) == len(bindings):
            # `self.losses = {}`, then `self.losses["ce"] = loss` in a method
            return held if held is not None else self._stored_items_kind(owner, attribute, assigned)
        # `self.step += 1` in another method: judged as a local's `x += v` is, against the rest; a
        # value read from the attribute itself (`self.running_mean += 0.1 * (m - self.running_mean)`)
        # reads it, while it is judged, as a cycle (as a local's `x += f(x)` is)
        key = (id(owner), attribute)
        judging = self.__dict__.setdefault("_augmented_attributes", set())
        if key in judging:
            return CYCLE
        judging.add(key)
        try:
            return augmented_kind(held, [self._kind(binding.value.value, binding.scope) for binding in bindings
                                         if binding.how == "augmented"])
        finally:
            judging.discard(key)

    def _inherited_attribute_kind(self, owner: cst.ClassDef, attribute: str, seen: frozenset) -> Kind | None:
        """An attribute the class never assigns is its bases' (`self.conv` set in the base class's
        `__init__`, `self.weight` of an `nn.Linear` subclass): the first base, in the order they
        are written, that gives it decides; a base that cannot be read first makes it unknown."""
        for arg in owner.bases:
            if arg.keyword is not None:
                continue
            qualified, definitions = self._written_base(arg)
            if definitions:
                if len(definitions) != 1 or definitions[0] in seen:
                    return None
                if self._attribute_bindings(definitions[0], attribute) or definitions[0].bases:
                    return self._class_attribute_kind(definitions[0], attribute, seen)
                continue  # a base of its own that never sets it: the next base may
            if qualified is not None and is_torch_module_class(qualified):
                return attribute_kind(Kind(MODULE, origin=qualified), attribute)
            if qualified is not None and is_optimizer_class(qualified):
                return attribute_kind(Kind(OBJECT, origin=qualified), attribute)  # `self.param_groups`
            cls = self._imported_kind(qualified)
            if cls is not None and isinstance(cls.cls, ProjectClass):
                return self.project.class_attribute_kind(cls.cls, attribute)
            return None  # a base outside what can be read may set it
        return None

    def _attribute_bindings(self, owner: cst.ClassDef, attribute: str) -> list[Binding]:
        key = (owner, attribute)
        if key not in self._class_attributes:
            self._class_attributes[key] = list(self._collect_attribute_bindings(owner, attribute))
        return self._class_attributes[key]

    def _collect_attribute_bindings(self, owner: cst.ClassDef, attribute: str) -> Iterable[Binding]:
        for method in owner.body.body:
            if not isinstance(method, cst.FunctionDef) or self._method_class(method) is None:
                continue
            params = all_params(method.params)
            if not params:
                continue
            if isinstance(method.body, ElidedBlock) and not method.body.mentions(attribute):
                continue  # its text never names the attribute, so it assigns nothing to it
            self_name = params[0].name.value
            scope = self.scopes.method_scope(method)
            for statement in walk_statements(method.body, into_scopes=False):
                registered = _registered_value(statement, self_name, attribute)
                if registered is not None:
                    yield Binding("value", scope, registered)  # `self.register_buffer("grid", t)`
                elif isinstance(statement, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                    for target in _assignment_targets(statement):
                        value = getattr(statement, "value", None)
                        for path, starred in _attribute_paths(target, self_name, attribute):
                            # `self.net, self.target = Net(), Net()`: the element at `path`
                            if isinstance(statement, cst.AugAssign):
                                yield Binding("augmented", scope, statement)  # `self.step += 1`
                            elif not starred and value is not None:
                                yield Binding("value", scope, value, path)
                            else:
                                yield Binding("opaque", scope)


def _nested_class(owner: cst.ClassDef, name: str) -> cst.ClassDef | None:
    """The class `owner`'s body defines as `name`, when nothing else in the body (in its `try`,
    `if` or `with` blocks too) binds that name."""
    found = None
    for item in owner.body.body:
        if isinstance(item, cst.ClassDef) and item.name.value == name and found is None:
            found = item
        elif isinstance(item, (cst.ClassDef, cst.FunctionDef)):
            if item.name.value == name:
                return None
        elif _binds_in_class_body(item, name):
            return None
    return found


def _binds_in_class_body(statement: cst.CSTNode, name: str) -> bool:
    """Whether a statement of a class body binds `name` there: an assignment, an import, a loop's
    or a `with`'s target, a definition, at any depth but inside functions and classes."""
    for node in descendants(statement, prune=lambda inner: inner is not statement and isinstance(inner, (cst.FunctionDef, cst.ClassDef, cst.Lambda))):
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.name.value == name:
            return True
        if isinstance(node, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor)) and name in names_used(node.target):
            return True
        if isinstance(node, cst.AsName) and isinstance(node.name, cst.Name) and node.name.value == name:
            return True
        if isinstance(node, cst.ImportAlias) and node.asname is None and dotted_name(node.name).split(".")[0] == name:
            return True
        if isinstance(node, cst.NamedExpr) and name in names_used(node.target):
            return True
    return False


def _layer_tensor(attribute: str) -> Kind | None:
    """What a torch layer would hold under this attribute name, as a guess (see `_attribute_kind`)."""
    held = layer_tensor_kind(attribute)
    return Kind(TENSOR, graph=held.graph, origin=GUESSED_LAYER_PARAMETER) if held is not None else None


def _assignment_targets(statement: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(statement, cst.Assign):
        return [target.target for target in statement.targets]
    return [statement.target]


def _registered_value(statement: cst.CSTNode, owner_name: str, attribute: str) -> cst.CSTNode | None:
    """The value of `self.register_buffer("<attribute>", value)` (or `register_parameter`)."""
    if not (isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call)):
        return None
    call = statement.value
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in _REGISTERING_METHODS
            and isinstance(func.value, cst.Name) and func.value.value == owner_name and len(call.args) >= 2):
        return None
    name = call.args[0].value
    if isinstance(name, cst.SimpleString) and name.evaluated_value == attribute:
        return call.args[1].value
    return None


def _attribute_paths(target: cst.CSTNode, owner_name: str, attribute: str,
                     path: tuple[int, ...] = ()) -> Iterable[tuple[tuple[int, ...], bool]]:
    """Where `<owner_name>.<attribute>` stands in an assignment target: (its path in a tuple
    target, whether it is starred)."""
    if _is_attribute_of(target, owner_name, attribute):
        yield path, False
    elif isinstance(target, (cst.Tuple, cst.List)):
        for index, element in enumerate(target.elements):
            if isinstance(element, cst.StarredElement):
                if _is_attribute_of(element.value, owner_name, attribute):
                    yield path, True
            else:
                yield from _attribute_paths(element.value, owner_name, attribute, path + (index,))


def _is_attribute_of(target: cst.CSTNode, owner_name: str, attribute: str) -> bool:
    return (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == owner_name
        and target.attr.value == attribute
    )
