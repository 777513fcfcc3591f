"""The type oracle: is this expression an nn.Module instance? a Tensor? Answers come from evidence
in the file; `None` means unknown, and a rule that gets unknown stays silent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import libcst as cst

from torchlint.analysis import (
    ClassIndex,
    ImportTable,
    dotted_name,
    is_model_constructor,
    is_torch_module_class,
    looks_like_pretrained_model_class,
    walk_statements,
)

MODULE = "module"
TENSOR = "tensor"
CLASS = "class"  # a class object itself, never an instance
_NONE = "none"  # the literal None: neutral when merging a name's bindings
_CYCLE = "cycle"

# Methods that return their receiver (module or tensor alike).
_SELF_RETURNING_METHODS = frozenset(
    {"to", "cuda", "cpu", "xpu", "eval", "train", "half", "float", "double", "bfloat16",
     "requires_grad_", "to_empty", "share_memory"}
)
# Calling one of these on a name is evidence that it holds an nn.Module.
_MODULE_ONLY_METHODS = frozenset(
    {"parameters", "named_parameters", "modules", "named_modules", "children", "named_children",
     "buffers", "named_buffers", "register_forward_hook", "register_forward_pre_hook",
     "register_full_backward_hook", "add_module", "register_module"}
)
# Callables whose result is the module passed as their first argument, wrapped or compiled.
_MODULE_WRAPPERS = frozenset(
    {"torch.compile", "torch.distributed.fsdp.fully_shard",
     "torch.distributed._composable.fsdp.fully_shard"}
)
_ELEMENT_KIND_OF_ITERATOR = {
    "modules": MODULE, "children": MODULE, "parameters": TENSOR, "buffers": TENSOR,
}
_PAIR_KIND_OF_ITERATOR = {
    "named_modules": MODULE, "named_children": MODULE, "named_parameters": TENSOR,
    "named_buffers": TENSOR,
}
_SCOPE_TYPES = (cst.FunctionDef, cst.Lambda, cst.Module)
_COMPREHENSION_TYPES = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


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
    _evidence: dict[str, set[str]] | None = None

    def add(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


class TypeOracle:
    def __init__(self, module: cst.Module, imports: ImportTable, classes: ClassIndex):
        self.module = module
        self.imports = imports
        self.classes = classes
        self._scopes: dict[cst.CSTNode, Scope] = {}
        self._in_progress: set[int] = set()
        self._class_attributes: dict[tuple[cst.ClassDef, str], list[Binding]] = {}

    # ---- public questions -------------------------------------------------------------------
    def kind(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> str | None:
        """What `expr` is, at the place in the tree that `stack` (its ancestors) describes."""
        scope = self._scope_from_stack(stack)
        name = expr.value if isinstance(expr, cst.Name) else None
        if name is not None:
            for binding in self._comprehension_bindings(name, stack, scope):
                return self._public(self._binding_kind(binding))
        return self._public(self._kind(expr, scope))

    def is_module(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> bool:
        return self.kind(expr, stack) == MODULE

    def instance_class(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> cst.ClassDef | None:
        """The class whose method `expr` (a `self` parameter) belongs to, if it is one."""
        return self._instance_class(expr, self._scope_from_stack(stack))

    @staticmethod
    def _public(kind: str | None) -> str | None:
        return kind if kind in (MODULE, TENSOR, CLASS) else None

    # ---- scopes -----------------------------------------------------------------------------
    def _scope_from_stack(self, stack: Sequence[cst.CSTNode]) -> Scope:
        scope = None
        for node in stack:
            if isinstance(node, _SCOPE_TYPES):
                scope = self._scope(node, scope)
        return scope or self._scope(self.module, None)

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
            for param in _all_params(node.params):
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
        elif isinstance(statement, (cst.AugAssign, cst.With)):
            for target in _with_or_aug_targets(statement):
                self._bind_target(scope, target, Binding("opaque", scope))
        elif isinstance(statement, (cst.For,)):
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
    def _kind(self, expr: cst.CSTNode, scope: Scope) -> str | None:
        if isinstance(expr, cst.Name):
            return self._name_kind(expr.value, scope)
        if isinstance(expr, cst.Call):
            return self._call_kind(expr, scope)
        if isinstance(expr, cst.Attribute):
            return self._attribute_kind(expr, scope)
        return None

    def _name_kind(self, name: str, scope: Scope) -> str | None:
        if name == "None":
            return _NONE
        bindings = self._lookup(name, scope)
        if bindings is None:
            qualified = self.imports.qualify(cst.Name(name))
            return CLASS if qualified and is_torch_module_class(qualified) else None
        kinds = {self._binding_kind(binding) for binding in bindings} - {_CYCLE, _NONE}
        if len(kinds) == 1:
            (kind,) = kinds
            if kind is not None:
                return kind
        if not kinds - {None} and self._has_module_evidence(name, scope, bindings):
            return MODULE
        return None if kinds else _NONE

    def _binding_kind(self, binding: Binding) -> str | None:
        key = id(binding)
        if key in self._in_progress:
            return _CYCLE
        self._in_progress.add(key)
        try:
            return self._evaluate_binding(binding)
        finally:
            self._in_progress.discard(key)

    def _evaluate_binding(self, binding: Binding) -> str | None:
        if binding.how == "value":
            value = _select_path(binding.value, binding.path)
            return self._kind(value, binding.scope) if value is not None else None
        if binding.how == "for":
            return self._element_kind(binding.value, binding.path, binding.scope)
        if binding.how == "param":
            return self._param_kind(binding.value, binding.scope)
        if binding.how == "class":
            return CLASS
        if binding.how == "import":
            qualified = self.imports.qualify(binding.value)
            return CLASS if qualified and is_torch_module_class(qualified) else None
        return None

    def _param_kind(self, param: cst.Param, scope: Scope) -> str | None:
        if param.annotation is not None:
            return self._instance_kind_of_class(param.annotation.annotation)
        owner = self._method_class(scope.node)
        if owner is not None and _is_first_param(scope.node, param):
            return MODULE if self.classes.is_module_class(owner.name.value) else None
        return None

    def _instance_kind_of_class(self, expr: cst.CSTNode) -> str | None:
        qualified = self.imports.qualify(expr)
        if qualified is not None:
            if qualified == "torch.Tensor" or qualified == "torch.nn.Parameter":
                return TENSOR
            return MODULE if is_torch_module_class(qualified) else None
        name = dotted_name(expr)
        return MODULE if name and self.classes.is_module_class(name) else None

    def _method_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        if not isinstance(node, cst.FunctionDef) or _is_static_or_classmethod(node):
            return None
        return self.classes.method_owner.get(node)

    def _element_kind(self, iterator: cst.CSTNode, path: tuple[int, ...], scope: Scope) -> str | None:
        if not (isinstance(iterator, cst.Call) and isinstance(iterator.func, cst.Attribute)):
            return None
        method = iterator.func.attr.value
        if self._kind(iterator.func.value, scope) != MODULE:
            return None
        if path == () and method in _ELEMENT_KIND_OF_ITERATOR:
            return _ELEMENT_KIND_OF_ITERATOR[method]
        if path == (1,) and method in _PAIR_KIND_OF_ITERATOR:
            return _PAIR_KIND_OF_ITERATOR[method]
        return None

    def _call_kind(self, call: cst.Call, scope: Scope) -> str | None:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "from_pretrained":
            return self._pretrained_kind(func.value, scope)
        qualified = self.imports.qualify(func)
        if qualified is not None:
            if is_model_constructor(qualified):
                return MODULE
            if qualified in _MODULE_WRAPPERS and call.args:
                return MODULE if self._kind(call.args[0].value, scope) == MODULE else None
            return None
        if isinstance(func, cst.Name):
            return self._instance_kind_of_local_class(func.value, scope)
        if isinstance(func, cst.Attribute):
            if func.attr.value in _SELF_RETURNING_METHODS:
                receiver = self._kind(func.value, scope)
                return receiver if receiver in (MODULE, TENSOR) else None
        return None

    def _instance_kind_of_local_class(self, name: str, scope: Scope) -> str | None:
        bindings = self._lookup(name, scope) or []
        if bindings and all(binding.how == "class" for binding in bindings):
            return MODULE if self.classes.is_module_class(name) else None
        return None

    def _pretrained_kind(self, receiver: cst.CSTNode, scope: Scope) -> str | None:
        name = dotted_name(receiver)
        if name is None:
            return None
        if self.classes.is_module_class(name) or looks_like_pretrained_model_class(name):
            return MODULE
        return None

    def _attribute_kind(self, expr: cst.Attribute, scope: Scope) -> str | None:
        attribute = expr.attr.value
        if attribute == "module" and self._kind(expr.value, scope) == MODULE:
            return MODULE  # the module a DataParallel/DDP wrapper holds
        owner = self._instance_class(expr.value, scope)
        if owner is None:
            return None
        bindings = self._attribute_bindings(owner, attribute)
        kinds = {self._binding_kind(binding) for binding in bindings} - {_CYCLE, _NONE}
        return kinds.pop() if len(kinds) == 1 else None

    def _instance_class(self, expr: cst.CSTNode, scope: Scope) -> cst.ClassDef | None:
        if not isinstance(expr, cst.Name):
            return None
        bindings = self._lookup(expr.value, scope)
        if not bindings or len(bindings) != 1 or bindings[0].how != "param":
            return None
        (binding,) = bindings
        owner = self._method_class(binding.scope.node)
        if owner is not None and _is_first_param(binding.scope.node, binding.value):
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
            params = _all_params(method.params)
            if not params:
                continue
            self_name = params[0].name.value
            scope = self._method_scope(method)
            for statement in walk_statements(method.body, into_scopes=False):
                if isinstance(statement, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                    for target in _assignment_targets(statement):
                        if _is_attribute_of(target, self_name, attribute):
                            value = getattr(statement, "value", None)
                            how = "value" if not isinstance(statement, cst.AugAssign) else "opaque"
                            yield Binding(how, scope, value)

    # ---- usage evidence ---------------------------------------------------------------------
    def _has_module_evidence(self, name: str, scope: Scope, bindings: list[Binding]) -> bool:
        owner_scope = bindings[0].scope
        if owner_scope._evidence is None:
            owner_scope._evidence = _collect_method_calls_on_names(owner_scope.node)
        return bool(owner_scope._evidence.get(name, set()) & _MODULE_ONLY_METHODS)


class _MethodCallCollector(cst.CSTVisitor):
    def __init__(self, root: cst.CSTNode):
        self.root = root
        self.calls: dict[str, set[str]] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node is self.root

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return node is self.root

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            self.calls.setdefault(func.value.value, set()).add(func.attr.value)


def _collect_method_calls_on_names(node: cst.CSTNode) -> dict[str, set[str]]:
    collector = _MethodCallCollector(node)
    node.visit(collector)
    return collector.calls


def _all_params(params: cst.Parameters) -> list[cst.Param]:
    found = [*params.posonly_params, *params.params]
    if isinstance(params.star_arg, cst.Param):
        found.append(params.star_arg)
    found.extend(params.kwonly_params)
    if params.star_kwarg is not None:
        found.append(params.star_kwarg)
    return found


def _is_first_param(function: cst.CSTNode, param: cst.CSTNode) -> bool:
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


def _with_or_aug_targets(statement: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(statement, cst.AugAssign):
        return [statement.target]
    return [item.asname.name for item in statement.items if item.asname is not None]


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
