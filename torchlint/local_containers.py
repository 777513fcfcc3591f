"""What a scope puts into a local list or dict, and takes out of it, before a use: `Gs = []`,
`Gs.append(G)` per scale, then `torch.save(Gs, p)`; `ckpt = {"epoch": e}`, `ckpt["arch"] = model`;
`ckpt.pop("model")`, `del ckpt["model"]`, or handing the container to code that may change it.
Part of the type oracle (a mixin of `TypeOracle`, as narrowing.py is): it asks the oracle what
each stored value is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from torchlint.analysis import dotted_name
from torchlint.kinds import CONTAINER, MODULE, TENSOR, Kind, merge
from torchlint.kinds import CONTAINER_MUTATING_METHODS, container_of
from torchlint.project.containers import NAMESPACE_READERS, formatted_affixes, joined_affixes, never_named
from torchlint.scopes import Binding, Scope, reaching
from torchlint.usage_evidence import ITEM_STORED, collect_uses
from torchlint.torch_api import MODULE_CONTAINERS, MODULE_WRAPPERS, SEQUENTIAL_CONTAINERS, is_torch_module_class
from torchlint.walk import descendants

# What puts another element into a list or dict: its elements' kind is then not the one built.
_MUTATIONS = CONTAINER_MUTATING_METHODS | {ITEM_STORED}
_LIST_GROWTH = frozenset({"append", "extend", "insert"})
# Calls that read a list they are given without keeping or changing it (`next` advances an
# iterator, leaving what it yields as it was).
_READING_CALLS = frozenset({"len", "enumerate", "zip", "sorted", "reversed", "iter", "next", "list", "tuple", "sum", "print",
                            "torch.stack", "torch.cat", "min", "max", "any", "all", "isinstance", "type", "id", "hash",
                            "repr", "str", "bool", "hasattr", "set", "frozenset", "format"})


# torch's modules that run other modules when called (of any class): what those do with an argument
# is not known.
_RUNNING_OTHER_MODULES = MODULE_CONTAINERS.keys() | MODULE_WRAPPERS | SEQUENTIAL_CONTAINERS | {"torch.nn.Module"} | {
    # (and those that hand back what they are given: `alias = ident(feats)`, then `alias[0] = v`)
    "torch.nn.Identity", "torch.nn.modules.linear.Identity"}
# Hook registrations through which code may change what a module is given.
_ARGUMENT_HOOKS = frozenset({"register_forward_pre_hook", "register_module_forward_pre_hook"})


class LocalContainers:
    """Mixin of TypeOracle: the contents of a scope's own lists and dicts."""

    def _empty_container_call(self, value: cst.CSTNode | None, scope: Scope, builtin: str = "list") -> bool:
        """`list()` (or `dict()`): an empty one, as `[]` is (where the name is the builtin)."""
        return (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Name)
                and value.func.value == builtin and not self.scopes.lookup(builtin, scope))

    def _filled_dict(self, name: str, scope: Scope, bindings: list[Binding]) -> Kind | None:
        """A dict the scope builds (`{}`, a display, `dict()`) and only fills by plain item stores,
        under any key (`grad[name] = p.grad`, `d["l"] = loss`): a mapping of what every value
        given or stored agrees on, when a tensor. Not where it is handed on, changed by a
        method (`update`, `pop`, `setdefault`) or stored into otherwise (`d[k] += 1`, `del d[k]`)."""
        displays = [self.bound_value(binding) for binding in bindings]
        if not displays or any(binding.scope is not scope for binding in bindings) or not all(
                (isinstance(value, cst.Dict) and all(isinstance(e, cst.DictElement) for e in value.elements))
                or self._empty_container_call(value, scope, "dict") for value in displays):
            return None
        if handed_on(name, scope.node, self._torch_call):
            return None
        stored, plain = [], set()
        for marks, path in scope.uses.get(name, ()):
            if not marks & _MUTATIONS:
                continue
            value = _plain_item_store(path)
            if value is None:
                return None
            plain.add(id(path[-1].target))
            stored.append(self._kind(value, scope, (*path, value)))
        if not stored or any(id(sub) not in plain for sub in _subscripts_stored(name, scope.node)):
            return None
        given = [self._kind(element.value, scope) for value in displays if isinstance(value, cst.Dict)
                 for element in value.elements]
        element = merge(given + stored)
        # (tensors only: a dict of modules is read where it is saved, store by store: see items_added_before)
        return Kind(CONTAINER, element=element, mapping=True) if element is not None and element.base == TENSOR else None

    def _grown_list(self, name: str, scope: Scope, bindings: list[Binding]) -> Kind | None:
        """A list the scope builds and only grows by `append`, `insert` and `extend` of displays:
        a container of what every element given or added agrees on (modules, tensors)."""
        grown_by_addition = [binding.value.value for binding in bindings if binding.how == "augmented"]
        if not all(_added_display(binding.value) for binding in bindings if binding.how == "augmented"):
            return None
        bindings = [binding for binding in bindings if binding.how != "augmented"]  # (`params += [w, b]`: grown)
        displays = [self.bound_value(binding) for binding in bindings]
        if not displays or any(binding.scope is not scope for binding in bindings) or not all(
                (isinstance(value, cst.List) and not any(isinstance(e, cst.StarredElement) for e in value.elements))
                or self._empty_container_call(value, scope) for value in displays):
            return None
        if handed_on(name, scope.node, self._torch_call):
            # `add_records(items, raw)`, `rows = items`, a closure: grown out of sight (torch's
            # own functions keep what they are given: `torch.save(Gs, path)`, `nn.ModuleList(layers)`)
            return None
        added_values = [element.value for display in grown_by_addition for element in display.elements]
        added = [self._kind(value, scope) for value in added_values]
        for marks, path in scope.uses.get(name, ()):
            if marks & _MUTATIONS and not marks & _LIST_GROWTH:
                return None  # `layers[0] = ...`, `layers.update(...)`: not only grown
            if marks & _LIST_GROWTH:
                values = _grown_by(path[-1])
                if values is None:
                    return None
                added_values += values
                added += [self._kind(value, scope, (*path, value)) for value in values]
        if not added:
            return None
        given_values = [element.value for value in displays if isinstance(value, cst.List) for element in value.elements]
        given = [self._kind(value, scope) for value in given_values]
        # (its positions are not the display's: only the element counts)
        grown = container_of(given + added, of_tuples=all(isinstance(value, cst.Tuple) for value in given_values + added_values))
        return Kind(CONTAINER, element=grown.element) if grown is not None and grown.element is not None else None

    def _maybe_changed_out_of_sight(self, name: str, scope: Scope, bindings: list[Binding]) -> bool:
        """A list or dict the scope hands to a call that may change it (any but a reading builtin
        or torch's own: `optim.SGD(params)` keeps them as they are), aliases, or lets a nested
        function use; a tuple display cannot change."""
        if all(binding.how == "value" and isinstance(self.bound_value(binding), cst.Tuple) for binding in bindings):
            return False
        if name in scope.declared_global or name in scope.declared_nonlocal:
            return True  # another function may change it (`global OUT`, then a helper's `OUT["mse"] = ...`)
        cache = self.__dict__.setdefault("_changed_out_of_sight", {})
        key = (scope.node, name)
        if key not in cache:
            cache[key] = handed_on(name, scope.node, lambda call: self._torch_call(call) or self._torch_layer_call(call, scope))
        return cache[key]

    def _torch_call(self, call: cst.Call) -> bool:
        """A call of torch's own, which keeps the list it is given as it is (not torch.distributed's:
        `all_gather_object(gathered, obj)` fills the list it is given)."""
        qualified = self.imports.qualify(call.func) or ""
        return qualified.startswith("torch.") and not qualified.startswith("torch.distributed.")

    def _torch_layer_call(self, call: cst.Call, scope: Scope) -> bool:
        """A call of one of torch's own layers (`out, hc = lstm(x, hc)`): it reads what it is
        given (not a container or wrapper of modules, which runs modules of any class)."""
        if not isinstance(call.func, (cst.Name, cst.Attribute, cst.Subscript)):
            return False
        if self.project.registers_hooks(_ARGUMENT_HOOKS):
            return False  # a pre-hook may change what the layer is given
        callee = self._kind(call.func, scope)
        return (callee is not None and callee.base == MODULE and callee.cls is None and isinstance(callee.origin, str)
                and is_torch_module_class(callee.origin) and callee.origin not in _RUNNING_OTHER_MODULES)

    def items_added_before(self, name: str, stack: Sequence[cst.CSTNode]) -> list[Kind | None]:
        """What the scope adds to the list `name` (`xs.append(v)`, `insert`, `extend` of a display)
        or stores in the dict `name` under a literal key (`ckpt["arch"] = model`, the last store
        of each key) before the use `stack` describes, while the binding of `name` that reaches
        it holds: among its items there, whatever else it holds (`Gs.append(G)`, then
        `torch.save(Gs, p)`), unless the scope takes items out, stores under a key it cannot
        read, or hands the container to code that may in between."""
        added, stored = self._items_before(name, stack)
        return added + [kind for _, kind, _ in stored.values()]

    def keys_replaced_before(self, name: str, stack: Sequence[cst.CSTNode]) -> frozenset[str]:
        """The literal keys (as `repr` of their values) the dict `name` surely holds a new value
        under at the use `stack` describes: their last store before it stands in the use's own
        block or one around it (`ckpt = {"model": model}`, then `ckpt["model"] =
        model.state_dict()`: what the display put there is gone)."""
        return frozenset(key for key, (_, _, sure) in self._items_before(name, stack)[1].items() if sure)

    def _items_before(self, name: str, stack: Sequence[cst.CSTNode]):
        """(the kinds added to the list `name`, literal key -> (place, kind, surely run) of the
        last store into the dict `name`) before the use `stack` describes (see items_added_before)."""
        scope = self.scope_at(stack)
        bindings = self.scopes.lookup(name, scope)
        if not bindings or any(binding.scope is not scope for binding in bindings):
            return [], {}
        self._mutated(name, scope)  # (collects the scope's uses)
        uses = scope.uses.get(name, ())
        handed = _hand_offs(name, scope.node, self._torch_call)
        order = self._document_order(scope.node)
        here = order.get(id(stack[-1]))
        # item stores under literal keys count in a dict the scope built (or was given), never a
        # list (`xs.insert(0, sd)` moves the items) nor a dict another name holds too; and not
        # where a loop around the use stores again after it (the next pass reaches the use)
        dict_stores = (all(binding.how == "param" or isinstance(self.bound_value(binding), cst.Dict) for binding in bindings)
                       and not any(marks & _LIST_GROWTH for marks, _ in uses)
                       and not _stored_again_in_loop(name, scope, stack, order, here))
        spoilers = self._spoilers(name, scope, handed, dict_stores)
        if handed is None or here is None or None in spoilers:
            return [], {}
        held = {id(binding) for binding in reaching(bindings, scope, stack) or bindings}
        added: list[Kind | None] = []
        stored: dict[str, tuple[int, Kind | None, bool]] = {}  # literal key -> (place, kind, surely run) of its last store
        for marks, path in uses:
            position = order.get(id(path[-1]))
            store = _item_store(path) if dict_stores else None
            if not (marks & _LIST_GROWTH or store) or position is None or position >= here:
                continue
            if any(position < spoiler < here for spoiler in spoilers):
                continue
            if {id(binding) for binding in reaching(bindings, scope, path) or bindings} != held:
                continue  # `Gs = []` again in between: another list
            if store is not None:
                key, value = store
                if not _store_reaches(path, scope, stack):
                    continue  # `if full: ckpt["arch"] = model; torch.save(ckpt, p); return`, then another save
                if key not in stored or stored[key][0] < position:
                    stored[key] = (position, self._kind(value, scope, (*path, value)), _surely_run_before(path, scope, stack))
                continue
            added += [self._kind(value, scope, (*path, value)) for value in _grown_by(path[-1]) or ()]
        return added, stored

    def _spoilers(self, name: str, scope: Scope, handed: list[cst.Call] | None, literal_stores: bool) -> list[int | None]:
        """Where (in document order) the scope may take items out of the container `name` or
        replace them unseen: `Gs.pop()`, `del ckpt["m"]`, `Gs[0] = x` (a store under a literal key
        too, unless `literal_stores` counts those as read), `export(Gs)`."""
        uses = scope.uses.get(name, ())
        order = self._document_order(scope.node)
        simple = {id(path[-1].target) for _, path in uses if literal_stores and _item_store(path) is not None}
        spoilers = [order.get(id(path[-1])) for marks, path in uses
                    if marks & _MUTATIONS and not marks & _LIST_GROWTH and id(getattr(path[-1], "target", None)) not in simple]
        spoilers += [order.get(id(call)) for call in handed or ()]
        # an item stored some other way (`ckpt["m"], step = ...`, `for ckpt[k] in ...`)
        spoilers += [order.get(id(sub)) for sub in _subscripts_stored(name, scope.node) if id(sub) not in simple]
        return spoilers

    def items_may_leave(self, name: str, stack: Sequence[cst.CSTNode]) -> bool:
        """Whether the scope of the use `stack` describes, which binds `name`, may take items out
        of what `name` holds or replace them in a way not read (`ckpt.pop("model")`, `del
        ckpt["model"]`, `ckpt[key] = sd`, `ckpt.update(other)`, handing it to code that may, an
        alias or a nested scope that may), anywhere in it (a loop may bring a later one round before the use): then what its
        display or its kind says it holds may be gone. Stores under literal keys are read
        (`keys_replaced_before`); a name bound in another scope is not judged (False)."""
        scope = self.scope_at(stack)
        bindings = self.scopes.lookup(name, scope)
        if not bindings or any(binding.scope is not scope for binding in bindings):
            return False
        self._mutated(name, scope)  # (collects the scope's uses)
        handed = _hand_offs(name, scope.node, self._torch_call)
        return handed is None or bool(self._spoilers(name, scope, handed, literal_stores=True))

    def _document_order(self, node: cst.CSTNode) -> dict[int, int]:
        """Each node below `node` (its own scope's, nested ones too) by its place in the text."""
        orders = self.__dict__.setdefault("_orders", {})
        if node not in orders:
            orders[node] = {id(inner): index for index, inner in enumerate(descendants(node))}
        return orders[node]

    def _mutated(self, name: str, scope: Scope) -> bool:
        """Whether the scope puts something into the container `name` holds: `name[k] = v`,
        `name.append(v)`, `name.update(...)`, ..."""
        if scope.uses is None:
            scope.uses = collect_uses(scope.node)
        return any(marks & _MUTATIONS for marks, _ in scope.uses.get(name, ()))


def handed_on(name: str, scope: cst.CSTNode, keeps: Callable[[cst.Call], bool] = lambda call: False) -> bool:
    """Whether the scope lets the list `name` be changed out of its sight: passes it to a call
    other than a reading builtin (`nn.Sequential(*layers)` passes its elements) or one that
    `keeps` it as it is, aliases it, or uses it in a nested function, lambda or comprehension that
    grows it."""
    calls = _hand_offs(name, scope, keeps)
    return calls is None or bool(calls)


def _hand_offs(name: str, scope: cst.CSTNode, keeps: Callable[[cst.Call], bool]) -> list[cst.Call] | None:
    """The calls through which the list `name` may change out of the scope's sight (see
    `handed_on`); None when it may change anywhere (aliased, or used by a nested scope)."""
    calls = []
    nodes = list(descendants(scope.body if isinstance(scope, cst.FunctionDef) else scope))
    called = {id(node.func) for node in nodes if isinstance(node, cst.Call)}
    targets = {id(inner) for node in nodes for target in _targets(node) for inner in descendants(target)}
    returned = {id(node.value) for node in nodes if isinstance(node, cst.Return)}  # (`return params, master`: done with it)
    for node in nodes:
        if id(node) not in targets and id(node) not in returned and _aliased_in_place(node, name, called):
            return None  # `for s in [state]`, `drop = state.pop`, `vars()`: changed out of sight
        if isinstance(node, cst.Call) and dotted_name(node.func) not in _READING_CALLS and any(
                isinstance(arg.value, cst.Name) and arg.value.value == name and arg.star != "*" for arg in node.args
        ) and not keeps(node):
            calls.append(node)
        if isinstance(node, (cst.Assign, cst.AnnAssign)) and isinstance(node.value, cst.Name) and node.value.value == name and (
                isinstance(node, cst.AnnAssign) or not all(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets)):
            return None  # (`x, y = batch` unpacks it: no alias)
        if _gives_itself(node, name):
            return None  # `e = d if c else {}`, `e = (f := d)`, `next(it, d)`: the container under another name
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)) and any(
                isinstance(inner, cst.Name) and inner.value == name for inner in descendants(node)):
            if isinstance(node, (cst.FunctionDef, cst.Lambda)) or any(
                    isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute)
                    and isinstance(inner.func.value, cst.Name) and inner.func.value.value == name
                    for inner in descendants(node)):
                return None
    return calls


def _gives_itself(node: cst.CSTNode, name: str) -> bool:
    """An expression whose value may be the container `name` itself: a choice (`d if c else {}`,
    `d or {}`), a walrus, or a reading builtin that returns an argument (`next(it, d)`, `max(d, e)`)."""
    def named(expr: cst.CSTNode | None) -> bool:
        return isinstance(expr, cst.Name) and expr.value == name
    if isinstance(node, cst.IfExp):
        return named(node.body) or named(node.orelse)
    if isinstance(node, cst.BooleanOperation):
        return named(node.left) or named(node.right)
    if isinstance(node, cst.NamedExpr):
        return named(node.value)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("next", "max", "min"):
        given = [arg.value for arg in node.args if arg.keyword is None]
        returnable = given[1:] if node.func.value == "next" else given if len(given) > 1 else []
        return any(named(value) for value in returnable) or any(
            arg.keyword is not None and arg.keyword.value == "default" and named(arg.value) for arg in node.args)
    return False


def _targets(node: cst.CSTNode) -> list[cst.CSTNode]:
    """What a node binds to (`s, d = ...`, `for k, v in ...`): tuples there are no displays."""
    if isinstance(node, cst.AssignTarget):
        return [node.target]
    if isinstance(node, (cst.For, cst.CompFor)):
        return [node.target]
    if isinstance(node, cst.AsName):
        return [node.name]
    return []


def _aliased_in_place(node: cst.CSTNode, name: str, called: set[int]) -> bool:
    """The container `name` put in a display, a method of it that changes it taken without
    calling it, or the scope's namespace read by name (`vars()`, `locals()`, `exec`)."""
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return any(isinstance(e.value, cst.Name) and e.value.value == name for e in node.elements)
    if isinstance(node, cst.Dict):
        return any(isinstance(e, cst.DictElement) and isinstance(e.value, cst.Name) and e.value.value == name
                   for e in node.elements)
    if isinstance(node, cst.Attribute) and id(node) not in called:
        return isinstance(node.value, cst.Name) and node.value.value == name and node.attr.value in CONTAINER_MUTATING_METHODS
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in NAMESPACE_READERS



def item_added_last(statement: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """What a statement puts last into the list `name`, when it is one plain growth or display."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign):
        target, display = small.target, small.value
    elif isinstance(small, cst.Assign) and len(small.targets) == 1:
        target, display = small.targets[0].target, small.value
    elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Attribute):
        target, added = small.value.func.value, _grown_by(small.value)
        at_the_end = small.value.func.attr.value in ("append", "extend")  # (`insert(0, x)` puts x first)
        return added[-1] if added and at_the_end and isinstance(target, cst.Name) and target.value == name else None
    else:
        return None
    if not (isinstance(target, cst.Name) and target.value == name and isinstance(display, (cst.List, cst.Tuple))):
        return None
    elements = display.elements
    return elements[-1].value if elements and not isinstance(elements[-1], cst.StarredElement) else None


def added_by_add_module(target: str, after: Sequence[cst.CSTNode]) -> cst.BaseExpression | None:
    """The module the last `target.add_module("name", m)` statement of `after` (the statements
    after `target = nn.Sequential()` in its block) adds, when the Sequential ends with it: every
    mention of `target` before that statement is an `add_module` call's receiver giving a name
    that cannot be the last one's (the same name, or one computed that may be it, replaces a
    module in place), and after it `target` is only called, returned or bound anew, or assigned
    whole to a name used so too (the summaries' `_added_by_add_module`, on libcst)."""
    last = next((i for i in range(len(after) - 1, -1, -1) if _module_added(after[i], target) is not None), None)
    if last is None:
        return None
    name, added = _module_added(after[last], target)
    for statement in after[:last]:
        calls = [call for call in _add_module_calls(statement) if _dotted_is(call.func.value, target)]
        receivers = {id(call.func.value) for call in calls}
        for node in descendants(statement):
            if _dotted_is(node, target) and id(node) not in receivers:
                return None
        if any(not call.args or not never_named(_name_affixes(call.args[0].value), name) for call in calls):
            return None
    aliases = {target}
    for statement in after[last + 1:]:
        whole = {id(node.func) for node in descendants(statement) if isinstance(node, cst.Call)}
        aliased = []
        for node in descendants(statement):
            if isinstance(node, (cst.Return, cst.Assign)) and node.value is not None:
                whole.add(id(node.value))
                if isinstance(node, cst.Assign) and dotted_name(node.value) in aliases:
                    aliased.extend(dotted_name(t.target) for t in node.targets)  # `head = model`
            elif isinstance(node, cst.AssignTarget):
                whole.add(id(node.target))
        if any(isinstance(node, (cst.Name, cst.Attribute)) and dotted_name(node) in aliases and id(node) not in whole
               for node in descendants(statement)):
            return None
        aliases.update(alias for alias in aliased if alias)
    return added


def _module_added(statement: cst.CSTNode, target: str) -> tuple[str, cst.BaseExpression] | None:
    """`target.add_module("name", module)` as a statement of its own: the name and the module."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    call = statement.body[0].value if isinstance(statement.body[0], cst.Expr) else None
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "add_module"
            and _dotted_is(call.func.value, target) and len(call.args) == 2
            and not any(arg.keyword is not None or arg.star for arg in call.args)):
        return None
    name = _string_value(call.args[0].value)
    return (name, call.args[1].value) if name is not None else None


def _add_module_calls(statement: cst.CSTNode) -> list[cst.Call]:
    return [node for node in descendants(statement) if isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute) and node.func.attr.value == "add_module"]


def _name_affixes(name: cst.BaseExpression) -> tuple[str, str | None] | None:
    """A module name as never_named reads it (the summaries' `_name_affixes`, on libcst)."""
    if isinstance(name, cst.SimpleString):
        return name.evaluated_value, None
    if isinstance(name, cst.FormattedString):
        parts = [part.value if isinstance(part, cst.FormattedStringText) else None for part in name.parts]
        return ("".join(parts), None) if None not in parts else joined_affixes(parts)
    if isinstance(name, cst.BinaryOperation) and isinstance(name.left, cst.SimpleString):
        if isinstance(name.operator, cst.Modulo):
            return formatted_affixes(name.left.evaluated_value, "%")
        if isinstance(name.operator, cst.Add):
            return name.left.evaluated_value, ""
    if isinstance(name, cst.BinaryOperation) and isinstance(name.operator, cst.Add) and isinstance(name.right, cst.SimpleString):
        return "", name.right.evaluated_value
    if (isinstance(name, cst.Call) and isinstance(name.func, cst.Attribute) and name.func.attr.value == "format"
            and isinstance(name.func.value, cst.SimpleString)):
        return formatted_affixes(name.func.value.evaluated_value, "{")
    return None


def _string_value(expr: cst.BaseExpression) -> str | None:
    return expr.evaluated_value if isinstance(expr, cst.SimpleString) else None


def _dotted_is(node: cst.CSTNode, dotted: str) -> bool:
    return isinstance(node, (cst.Name, cst.Attribute)) and dotted_name(node) == dotted


def _item_store(path: Sequence[cst.CSTNode]) -> tuple[str, cst.BaseExpression] | None:
    """`ckpt["arch"] = model` as the use `path` ends at (its target): the literal key and the
    value; None for any other use (a computed key, `del`, `+=`)."""
    target, statement = path[-1], path[-2] if len(path) > 1 else None
    if not (isinstance(target, cst.AssignTarget) and isinstance(statement, cst.Assign)
            and isinstance(target.target, cst.Subscript) and len(target.target.slice) == 1):
        return None
    index = target.target.slice[0].slice
    key = literal_key(index.value) if isinstance(index, cst.Index) else None
    return None if key is None else (key, statement.value)


def _added_display(statement: cst.CSTNode) -> bool:
    """`params += [layer.weight, layer.bias]`: a list or tuple display added to the name."""
    return (isinstance(statement, cst.AugAssign) and isinstance(statement.operator, cst.AddAssign)
            and isinstance(statement.value, (cst.List, cst.Tuple))
            and not any(isinstance(e, cst.StarredElement) for e in statement.value.elements))


def _plain_item_store(path: Sequence[cst.CSTNode]) -> cst.BaseExpression | None:
    """The value of `d[key] = value` (one target, any key) as the use `path` ends at its target."""
    target, statement = path[-1], path[-2] if len(path) > 1 else None
    if not (isinstance(target, cst.AssignTarget) and isinstance(statement, cst.Assign) and len(statement.targets) == 1
            and isinstance(target.target, cst.Subscript) and len(target.target.slice) == 1
            and isinstance(target.target.slice[0].slice, cst.Index)):
        return None
    return statement.value


def literal_key(expr: cst.BaseExpression | None) -> str | None:
    """A dict key written as a string or integer literal, by its value (`"m"`, `'m'` and `"\x6d"`
    are one key); None for any other key."""
    if isinstance(expr, (cst.SimpleString, cst.Integer)):
        return repr(expr.evaluated_value)
    return None


def _subscripts_stored(name: str, node: cst.CSTNode) -> list[cst.Subscript]:
    """`name[...]` as (part of) a target below `node`: assigned, augmented, deleted, a loop's or
    a `with`'s target."""
    found = []
    for holder in descendants(node):
        if isinstance(holder, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del, cst.For, cst.CompFor)):
            target = holder.target
        elif isinstance(holder, cst.AsName):
            target = holder.name
        else:
            continue
        found += [sub for sub in (target, *descendants(target))
                  if isinstance(sub, cst.Subscript) and isinstance(sub.value, cst.Name) and sub.value.value == name]
    return found


def _store_reaches(path: Sequence[cst.CSTNode], scope: Scope, stack: Sequence[cst.CSTNode]) -> bool:
    """Whether the item store `path` ends at can be what holds at the use `stack` describes (not
    in another branch of an `if`, nor followed by a `return` before it)."""
    statements = path[next((i + 1 for i, node in enumerate(path) if node is scope.node), 0):]
    chain = tuple(id(node) for i, node in enumerate(statements)
                  if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement, cst.ExceptHandler, cst.MatchCase))
                  or (isinstance(node, cst.BaseSmallStatement) and i and isinstance(statements[i - 1], cst.SimpleStatementSuite)))
    store = Binding("value", scope, None, (), chain)
    return store in (reaching([store], scope, stack) or []) and _in_plain_branches(statements, stack)


def _surely_run_before(path: Sequence[cst.CSTNode], scope: Scope, stack: Sequence[cst.CSTNode]) -> bool:
    """The statement `path` ends in stands in the block of the use `stack` describes or in one
    around it: whenever the use runs, it ran (no `if`, loop, `try` or `with` of its own between,
    nor another part of one around both: a loop's `else`, a `try`'s handlers or `finally`)."""
    below_scope = path[next((i + 1 for i, node in enumerate(path) if node is scope.node), 0):]
    line = next((i for i, node in enumerate(below_scope) if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite))),
                len(below_scope))
    on_use = {id(node) for node in stack}
    return all(id(node) in on_use for node in below_scope[:line])


def _in_plain_branches(statements: Sequence[cst.CSTNode], stack: Sequence[cst.CSTNode]) -> bool:
    """The store stands in the use's own block or an outer one, or in branches of `if`s that do
    not hold the use and never leave early (no `return`, `raise`, `break`, `continue` or exit in
    them): the use follows whichever way they went."""
    on_use = {id(node) for node in stack}
    for node in statements[:-1]:
        if id(node) in on_use or not isinstance(node, cst.BaseCompoundStatement):
            continue
        if not isinstance(node, cst.If) or any(_leaves(inner) for inner in descendants(node)):
            return False
    return True


def _leaves(node: cst.CSTNode) -> bool:
    if isinstance(node, (cst.Return, cst.Raise, cst.Break, cst.Continue)):
        return True
    return isinstance(node, cst.Call) and dotted_name(node.func) in ("sys.exit", "exit", "quit", "os._exit")


def _stored_again_in_loop(name: str, scope: Scope, stack: Sequence[cst.CSTNode], order: dict[int, int],
                          here: int | None) -> bool:
    """A loop around the use (in its scope) stores an item of `name` after it: the next pass
    reaches the use with that store made."""
    loops = [node for node in stack if isinstance(node, (cst.For, cst.While)) and id(node) in order]
    return here is not None and any((order.get(id(sub)) or 0) > here for loop in loops for sub in _subscripts_stored(name, loop))


def _grown_by(call: cst.CSTNode) -> list[cst.BaseExpression] | None:
    """What `xs.append(v)`, `xs.insert(i, v)` or `xs.extend([a, b])` adds; None when not known."""
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
        return None
    method, args = call.func.attr.value, call.args
    if any(arg.keyword is not None or arg.star for arg in args):
        return None
    if method == "append" and len(args) == 1:
        return [args[0].value]
    if method == "insert" and len(args) == 2:
        return [args[1].value]
    if method == "extend" and len(args) == 1 and isinstance(args[0].value, (cst.List, cst.Tuple)):
        elements = args[0].value.elements
        return None if any(isinstance(e, cst.StarredElement) for e in elements) else [e.value for e in elements]
    return None
