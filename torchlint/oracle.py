"""The type oracle: is this expression an nn.Module instance? a Tensor that carries an autograd
graph? a DataLoader? Answers come from evidence in the file; `None` means unknown, and a rule that
gets unknown stays silent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import libcst as cst

from torchlint.analysis import ClassIndex, ImportTable, dotted_name, walk_statements
from torchlint.walk import ElidedBlock, descendants, outside_nested_scopes
from torchlint.torch_api import (
    GRAPH_CUTTING_METHODS,
    MODEL_OUTPUT_TENSOR_FIELDS,
    MODULE_ONLY_METHODS,
    MODULE_WRAPPERS,
    NON_TENSOR_METHODS,
    SELF_RETURNING_METHODS,
    constructor_returns_tensor_module,
    is_model_constructor,
    is_tensor_function,
    is_torch_module_class,
    looks_like_pretrained_model_class,
)

MODULE = "module"
TENSOR = "tensor"
CLASS = "class"  # a class object itself, never an instance
OBJECT = "object"  # an instance of something else, named by `origin`
MODEL_OUTPUT = "model-output"  # origin of what a module returns when it is not known to be a tensor


@dataclass(frozen=True)
class Kind:
    base: str
    graph: bool = False  # a tensor that may carry an autograd graph
    output: Kind | None = None  # a module: the kind its call returns, when known
    origin: str | None = None  # what built it: a qualified constructor name, or a local class name
    cls: cst.ClassDef | None = None  # a module or object built from a class defined in the file


def tensor(graph: bool) -> Kind:
    return Kind(TENSOR, graph=graph)


_NONE = Kind("none")  # the literal None: neutral when merging a name's bindings
_CYCLE = Kind("cycle")
_SCOPE_TYPES = (cst.FunctionDef, cst.Lambda, cst.Module)
_COMPREHENSION_TYPES = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_ELEMENT_KIND_OF_ITERATOR = {
    "modules": Kind(MODULE), "children": Kind(MODULE), "parameters": tensor(True), "buffers": tensor(False),
}
_PAIR_KIND_OF_ITERATOR = {
    "named_modules": Kind(MODULE), "named_children": Kind(MODULE), "named_parameters": tensor(True),
    "named_buffers": tensor(False),
}
_TENSOR_ATTRIBUTES = {"grad": False, "data": False}  # attribute -> keeps the graph?
_VIEW_ATTRIBUTES = frozenset({"T", "mT", "H", "mH", "real", "imag"})


def merge(kinds: Iterable[Kind | None]) -> Kind | None:
    """What a name is when every binding agrees on the base kind; unknown otherwise."""
    found = [kind for kind in kinds if kind not in (_CYCLE, _NONE)]
    if not found or any(kind is None for kind in found):
        return None
    first = found[0]
    if any(kind.base != first.base for kind in found):
        return None
    return Kind(
        first.base,
        graph=all(kind.graph for kind in found),
        output=first.output if all(kind.output == first.output for kind in found) else None,
        origin=first.origin if all(kind.origin == first.origin for kind in found) else None,
        cls=first.cls if all(kind.cls is first.cls for kind in found) else None,
    )


@dataclass(frozen=True, eq=False)
class Binding:
    """One place a name is bound in a scope."""

    how: str  # "value" | "for" | "param" | "class" | "import" | "opaque"
    scope: Scope
    value: cst.CSTNode | None = None
    path: tuple[int, ...] = ()


@dataclass(eq=False)
class Scope:
    node: cst.CSTNode
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    declared_global: set[str] = field(default_factory=set)
    evidence: dict[str, set[str]] | None = None

    def add(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


class TypeOracle:
    def __init__(self, module: cst.Module, imports: ImportTable, classes: ClassIndex):
        self.module = module
        self.imports = imports
        self.classes = classes
        self._scopes: dict[cst.CSTNode, Scope] = {}
        self._in_progress: set[int] = set()
        self._binding_kinds: dict[int, Kind | None] = {}
        self._forward_outputs: dict[int, Kind | None] = {}
        self._class_attributes: dict[tuple[cst.ClassDef, str], list[Binding]] = {}

    # ---- public questions -------------------------------------------------------------------
    def release(self) -> None:
        """Scopes and their bindings refer to each other. Emptying the scopes when the file is done
        lets reference counting free its tree at once; the cyclic collector is paused meanwhile."""
        for scope in self._scopes.values():
            scope.bindings.clear()
        self._scopes.clear()

    def kind(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> Kind | None:
        """What `expr` is, at the place in the tree that `stack` (its ancestors) describes."""
        scope = self.scope_at(stack)
        if isinstance(expr, cst.Name):
            bindings = list(self._comprehension_bindings(expr.value, stack, scope))
            if bindings:
                return self._public(merge(self._binding_kind(b) for b in bindings))
        return self._public(self._kind(expr, scope))

    def instance_class(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> cst.ClassDef | None:
        """The class whose method `expr` (a `self` parameter) belongs to, if it is one."""
        return self._instance_class(expr, self.scope_at(stack))

    def bindings_of(self, name: str, stack: Sequence[cst.CSTNode]) -> list[Binding] | None:
        return self._lookup(name, self.scope_at(stack))

    def binding_kind(self, binding: Binding) -> Kind | None:
        return self._public(self._binding_kind(binding))

    def scope_at(self, stack: Sequence[cst.CSTNode]) -> Scope:
        scope = None
        for node in stack:
            if isinstance(node, _SCOPE_TYPES):
                scope = self._scope(node, scope)
        return scope or self._scope(self.module, None)

    @staticmethod
    def _public(kind: Kind | None) -> Kind | None:
        return None if kind in (_NONE, _CYCLE) else kind

    # ---- scopes -----------------------------------------------------------------------------
    def _scope(self, node: cst.CSTNode, parent: Scope | None) -> Scope:
        scope = self._scopes.get(node)
        if scope is None:
            scope = Scope(node, parent)
            self._collect_bindings(scope)
            self._scopes[node] = scope
        return scope

    def _module_scope(self) -> Scope:
        return self._scope(self.module, None)

    def _method_scope(self, method: cst.FunctionDef) -> Scope:
        return self._scopes.get(method) or self._scope(method, self._module_scope())

    def _collect_bindings(self, scope: Scope) -> None:
        node = scope.node
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            for param in all_params(node.params):
                scope.add(param.name.value, Binding("param", scope, param))
        if isinstance(node, cst.Lambda):
            return
        body = node.body if isinstance(node, cst.FunctionDef) else node
        for statement in walk_statements(body, into_scopes=False):
            self._bind_statement(scope, statement)

    def _bind_statement(self, scope: Scope, statement: cst.CSTNode) -> None:
        if isinstance(statement, cst.Assign):
            for target in statement.targets:
                self._bind_target(scope, target.target, Binding("value", scope, statement.value))
        elif isinstance(statement, cst.AnnAssign) and statement.value is not None:
            self._bind_target(scope, statement.target, Binding("value", scope, statement.value))
        elif isinstance(statement, cst.AugAssign):
            self._bind_target(scope, statement.target, Binding("opaque", scope))
        elif isinstance(statement, cst.With):
            for item in statement.items:
                if item.asname is not None:
                    self._bind_target(scope, item.asname.name, Binding("opaque", scope))
        elif isinstance(statement, cst.For):
            self._bind_target(scope, statement.target, Binding("for", scope, statement.iter))
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            how = "class" if isinstance(statement, cst.ClassDef) else "opaque"
            scope.add(statement.name.value, Binding(how, scope, statement))
        elif isinstance(statement, (cst.Import, cst.ImportFrom)):
            for local in _imported_names(statement):
                scope.add(local, Binding("import", scope, cst.Name(local)))
        elif isinstance(statement, (cst.ExceptHandler, cst.ExceptStarHandler)):
            if statement.name is not None:
                self._bind_target(scope, statement.name.name, Binding("opaque", scope))
        elif isinstance(statement, cst.Global):
            scope.declared_global.update(item.name.value for item in statement.names)

    def _bind_target(self, scope: Scope, target: cst.CSTNode, binding: Binding) -> None:
        if isinstance(target, cst.Name):
            scope.add(target.value, binding)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for index, element in enumerate(target.elements):
                if isinstance(element, cst.StarredElement):
                    self._bind_target(scope, element.value, Binding("opaque", scope))
                else:
                    nested = Binding(binding.how, scope, binding.value, binding.path + (index,))
                    self._bind_target(scope, element.value, nested)

    def _comprehension_bindings(self, name: str, stack, scope: Scope) -> Iterable[Binding]:
        for node in reversed(stack):
            if isinstance(node, _SCOPE_TYPES):
                return
            if isinstance(node, _COMPREHENSION_TYPES):
                comp_for = node.for_in
                while comp_for is not None:
                    probe = Scope(node, scope)
                    self._bind_target(probe, comp_for.target, Binding("for", scope, comp_for.iter))
                    if name in probe.bindings:
                        yield from probe.bindings[name]
                        return
                    comp_for = comp_for.inner_for_in

    def _lookup(self, name: str, scope: Scope) -> list[Binding] | None:
        current: Scope | None = scope
        if name in scope.declared_global:
            current = self._module_scope()
        while current is not None:
            if name in current.bindings:
                return current.bindings[name]
            current = current.parent
        return None

    # ---- kinds ------------------------------------------------------------------------------
    def _kind(self, expr: cst.CSTNode, scope: Scope) -> Kind | None:
        if isinstance(expr, cst.Name):
            return self._name_kind(expr.value, scope)
        if isinstance(expr, cst.Call):
            return self._call_kind(expr, scope)
        if isinstance(expr, cst.Attribute):
            return self._attribute_kind(expr, scope)
        if isinstance(expr, cst.BinaryOperation):
            return self._arithmetic_kind([expr.left, expr.right], scope)
        if isinstance(expr, cst.UnaryOperation) and not isinstance(expr.operator, cst.Not):
            return self._arithmetic_kind([expr.expression], scope)
        if isinstance(expr, cst.Subscript):
            return self._subscript_kind(expr, scope)
        return None

    def _name_kind(self, name: str, scope: Scope) -> Kind | None:
        if name == "None":
            return _NONE
        bindings = self._lookup(name, scope)
        if bindings is None:
            return None
        kinds = [self._binding_kind(binding) for binding in bindings]
        merged = merge(kinds)
        if merged is not None:
            return merged
        if all(k in (_CYCLE, _NONE) for k in kinds):
            return _NONE
        if all(k is None or k in (_CYCLE, _NONE) for k in kinds) and self._has_module_evidence(name, bindings):
            return Kind(MODULE)
        return None

    def _memoised(self, cache: dict, key: int, on_cycle, compute):
        """`compute()` once per key; a key met again while it is being computed gives `on_cycle`.

        Memoised because a name rebound many times (`h = layer(h)` down a whole forward) would
        otherwise re-evaluate every other binding of it recursively, which is exponential.
        """
        if key in cache:
            return cache[key]
        if key in self._in_progress:
            return on_cycle
        self._in_progress.add(key)
        try:
            value = compute()
        finally:
            self._in_progress.discard(key)
        cache[key] = value
        return value

    def _binding_kind(self, binding: Binding) -> Kind | None:
        return self._memoised(self._binding_kinds, id(binding), _CYCLE, lambda: self._evaluate_binding(binding))

    def _evaluate_binding(self, binding: Binding) -> Kind | None:
        if binding.how == "value":
            value = _select_path(binding.value, binding.path)
            return self._kind(value, binding.scope) if value is not None else None
        if binding.how == "for":
            return self._element_kind(binding.value, binding.path, binding.scope)
        if binding.how == "param":
            return self._param_kind(binding.value, binding.scope)
        if binding.how == "class":
            return Kind(CLASS, cls=binding.value)
        if binding.how == "import":
            qualified = self.imports.qualify(binding.value)
            return Kind(CLASS, origin=qualified) if qualified and is_torch_module_class(qualified) else None
        return None

    def _param_kind(self, param: cst.Param, scope: Scope) -> Kind | None:
        if param.annotation is not None:
            return self._instance_kind_of_class(param.annotation.annotation)
        owner = self._method_class(scope.node)
        if owner is not None and is_first_param(scope.node, param):
            return self._local_instance_kind(owner)
        return None

    def _instance_kind_of_class(self, expr: cst.CSTNode) -> Kind | None:
        qualified = self.imports.qualify(expr)
        if qualified is not None:
            if qualified in ("torch.Tensor", "torch.nn.Parameter"):
                return tensor(qualified == "torch.nn.Parameter")
            return Kind(MODULE, origin=qualified) if is_torch_module_class(qualified) else None
        name = dotted_name(expr)
        definitions = self.classes.by_name.get(name or "")
        return self._local_instance_kind(definitions[0]) if definitions and len(definitions) == 1 else None

    def _local_instance_kind(self, cls: cst.ClassDef) -> Kind:
        name = cls.name.value
        if self.classes.is_module_class(name):
            return Kind(MODULE, output=self._forward_output(cls), origin=name, cls=cls)
        return Kind(OBJECT, origin=name, cls=cls)

    def _forward_output(self, cls: cst.ClassDef) -> Kind | None:
        """What a local module's `forward` returns, when every `return` agrees on a tensor."""
        forward = next(
            (item for item in cls.body.body if isinstance(item, cst.FunctionDef) and item.name.value == "forward"),
            None,
        )
        if forward is None:
            return None
        return self._memoised(self._forward_outputs, id(forward), None, lambda: self._returned_tensor(forward))

    def _returned_tensor(self, forward: cst.FunctionDef) -> Kind | None:
        scope = self._method_scope(forward)
        returns = [s.value for s in walk_statements(forward.body, False) if isinstance(s, cst.Return)]
        if not returns or any(value is None for value in returns):
            return None
        kind = merge(self._kind(value, scope) for value in returns)
        return tensor(True) if kind is not None and kind.base == TENSOR else None

    def _method_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        if not isinstance(node, cst.FunctionDef) or _is_static_or_classmethod(node):
            return None
        return self.classes.method_owner.get(node)

    def _element_kind(self, iterator: cst.CSTNode, path: tuple[int, ...], scope: Scope) -> Kind | None:
        if not (isinstance(iterator, cst.Call) and isinstance(iterator.func, cst.Attribute)):
            return None
        method = iterator.func.attr.value
        receiver = self._kind(iterator.func.value, scope)
        if receiver is None or receiver.base != MODULE:
            return None
        if path == () and method in _ELEMENT_KIND_OF_ITERATOR:
            return _ELEMENT_KIND_OF_ITERATOR[method]
        if path == (1,) and method in _PAIR_KIND_OF_ITERATOR:
            return _PAIR_KIND_OF_ITERATOR[method]
        return None

    def _call_kind(self, call: cst.Call, scope: Scope) -> Kind | None:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "from_pretrained":
            return self._pretrained_kind(func.value)
        qualified = self.imports.qualify(func)
        if qualified is not None:
            return self._library_call_kind(qualified, call, scope)
        if isinstance(func, cst.Name):
            bindings = self._lookup(func.value, scope) or []
            if bindings and all(binding.how == "class" for binding in bindings) and len(bindings) == 1:
                return self._local_instance_kind(bindings[0].value)
        callee = self._kind(func, scope)
        if callee is not None and callee.base == MODULE:
            return callee.output or Kind(OBJECT, origin=MODEL_OUTPUT)
        if isinstance(func, cst.Attribute):
            return self._method_call_kind(func, scope)
        return None

    def _library_call_kind(self, qualified: str, call: cst.Call, scope: Scope) -> Kind | None:
        if qualified in MODULE_WRAPPERS and call.args:
            inner = self._kind(call.args[0].value, scope)
            if inner is not None and inner.base == MODULE:
                return Kind(MODULE, output=inner.output, origin=qualified, cls=inner.cls)
            return None if qualified == "torch.compile" else Kind(MODULE, origin=qualified)
        if is_model_constructor(qualified):
            keywords = {arg.keyword.value for arg in call.args if arg.keyword is not None}
            output = tensor(True) if constructor_returns_tensor_module(qualified, keywords) else None
            return Kind(MODULE, output=output, origin=qualified)
        if is_tensor_function(qualified):
            return tensor(self._any_graph(call, scope) or _requests_grad(call))
        if qualified == "torch.nn.Parameter":
            return tensor(True)
        if qualified.rsplit(".", 1)[-1][:1].isupper():
            return Kind(OBJECT, origin=qualified)
        return None

    def _any_graph(self, call: cst.Call, scope: Scope) -> bool:
        for arg in call.args:
            kind = self._kind(arg.value, scope)
            if kind is not None and kind.base == TENSOR and kind.graph:
                return True
        return False

    def _method_call_kind(self, func: cst.Attribute, scope: Scope) -> Kind | None:
        method = func.attr.value
        receiver = self._kind(func.value, scope)
        if receiver is None:
            return None
        if receiver.base == MODULE and method in SELF_RETURNING_METHODS:
            return receiver
        if receiver.base == MODULE and method == "forward":
            return receiver.output or Kind(OBJECT, origin=MODEL_OUTPUT)
        if receiver.base != TENSOR or method in NON_TENSOR_METHODS:
            return None
        if method in GRAPH_CUTTING_METHODS:
            return tensor(False)
        if method == "requires_grad_":
            return tensor(True)
        return tensor(receiver.graph)

    def _pretrained_kind(self, receiver: cst.CSTNode) -> Kind | None:
        name = dotted_name(receiver)
        if name is None:
            return None
        if self.classes.is_module_class(name) or looks_like_pretrained_model_class(name):
            return Kind(MODULE, origin=f"{name}.from_pretrained")
        return None

    def _attribute_kind(self, expr: cst.Attribute, scope: Scope) -> Kind | None:
        attribute = expr.attr.value
        owner = self._instance_class(expr.value, scope)
        if owner is not None:
            return self._class_attribute_kind(owner, attribute)
        receiver = self._kind(expr.value, scope)
        if receiver is None:
            return None
        if receiver.base == TENSOR:
            if attribute in _TENSOR_ATTRIBUTES:
                return tensor(_TENSOR_ATTRIBUTES[attribute] and receiver.graph)
            return receiver if attribute in _VIEW_ATTRIBUTES else None
        if receiver.base == MODULE:
            if attribute == "module":
                return Kind(MODULE)  # the module a DataParallel/DDP wrapper holds
            if attribute in ("weight", "bias"):
                return tensor(True)
            if receiver.cls is not None:
                return self._class_attribute_kind(receiver.cls, attribute)
        if receiver.base == OBJECT and receiver.origin == MODEL_OUTPUT and attribute in MODEL_OUTPUT_TENSOR_FIELDS:
            return tensor(True)
        return None

    def _class_attribute_kind(self, owner: cst.ClassDef, attribute: str) -> Kind | None:
        bindings = self._attribute_bindings(owner, attribute)
        if not bindings:
            return None
        return merge(self._binding_kind(binding) for binding in bindings)

    def _subscript_kind(self, expr: cst.Subscript, scope: Scope) -> Kind | None:
        receiver = self._kind(expr.value, scope)
        if receiver is None:
            return None
        if receiver.base == TENSOR:
            return receiver
        if receiver.base == OBJECT and receiver.origin == MODEL_OUTPUT and len(expr.slice) == 1:
            index = expr.slice[0].slice
            if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
                if index.value.evaluated_value in MODEL_OUTPUT_TENSOR_FIELDS:
                    return tensor(True)
        return None

    def _arithmetic_kind(self, operands: list[cst.CSTNode], scope: Scope) -> Kind | None:
        kinds = [self._kind(operand, scope) for operand in operands]
        tensors = [kind for kind in kinds if kind is not None and kind.base == TENSOR]
        if not tensors:
            return None
        return tensor(any(kind.graph for kind in tensors))

    def _instance_class(self, expr: cst.CSTNode, scope: Scope) -> cst.ClassDef | None:
        if not isinstance(expr, cst.Name):
            return None
        bindings = self._lookup(expr.value, scope)
        if not bindings or len(bindings) != 1 or bindings[0].how != "param":
            return None
        (binding,) = bindings
        owner = self._method_class(binding.scope.node)
        if owner is not None and is_first_param(binding.scope.node, binding.value):
            return owner
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
            scope = self._method_scope(method)
            for statement in walk_statements(method.body, into_scopes=False):
                if isinstance(statement, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                    for target in _assignment_targets(statement):
                        if _is_attribute_of(target, self_name, attribute):
                            value = getattr(statement, "value", None)
                            how = "value" if not isinstance(statement, cst.AugAssign) and value else "opaque"
                            yield Binding(how, scope, value)

    # ---- usage evidence ---------------------------------------------------------------------
    def _has_module_evidence(self, name: str, bindings: list[Binding]) -> bool:
        owner_scope = bindings[0].scope
        if owner_scope.evidence is None:
            owner_scope.evidence = _collect_method_calls_on_names(owner_scope.node)
        return bool(owner_scope.evidence.get(name, set()) & MODULE_ONLY_METHODS)


def _collect_method_calls_on_names(scope: cst.CSTNode) -> dict[str, set[str]]:
    """name -> the methods called on it, in one scope (nested functions and classes left out)."""
    calls: dict[str, set[str]] = {}
    for node in descendants(scope, outside_nested_scopes):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
            calls.setdefault(node.func.value.value, set()).add(node.func.attr.value)
    return calls


def _requests_grad(call: cst.Call) -> bool:
    return any(
        arg.keyword is not None and arg.keyword.value == "requires_grad"
        and isinstance(arg.value, cst.Name) and arg.value.value == "True"
        for arg in call.args
    )


def all_params(params: cst.Parameters) -> list[cst.Param]:
    found = [*params.posonly_params, *params.params]
    if isinstance(params.star_arg, cst.Param):
        found.append(params.star_arg)
    found.extend(params.kwonly_params)
    if params.star_kwarg is not None:
        found.append(params.star_kwarg)
    return found


def is_first_param(function: cst.CSTNode, param: cst.CSTNode) -> bool:
    if not isinstance(function, cst.FunctionDef):
        return False
    positional = [*function.params.posonly_params, *function.params.params]
    return bool(positional) and positional[0] is param


def _is_static_or_classmethod(function: cst.FunctionDef) -> bool:
    return any(
        dotted_name(decorator.decorator) in ("staticmethod", "classmethod")
        for decorator in function.decorators
    )


def _select_path(value: cst.CSTNode, path: tuple[int, ...]) -> cst.CSTNode | None:
    for index in path:
        if not isinstance(value, (cst.Tuple, cst.List)) or index >= len(value.elements):
            return None
        element = value.elements[index]
        if isinstance(element, cst.StarredElement):
            return None
        value = element.value
    return value


def _assignment_targets(statement: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(statement, cst.Assign):
        return [target.target for target in statement.targets]
    return [statement.target]


def _is_attribute_of(target: cst.CSTNode, owner_name: str, attribute: str) -> bool:
    return (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == owner_name
        and target.attr.value == attribute
    )


def _imported_names(statement: cst.Import | cst.ImportFrom) -> list[str]:
    if isinstance(statement.names, cst.ImportStar):
        return []
    names = []
    for alias in statement.names:
        if alias.asname is not None:
            names.append(alias.asname.name.value)
        else:
            full = dotted_name(alias.name) or ""
            names.append(full.split(".")[0] if isinstance(statement, cst.Import) else full)
    return names
