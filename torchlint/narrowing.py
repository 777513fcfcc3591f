"""Narrowing: what a type test around a use says a name is (`if isinstance(m, nn.Linear):
m...`, `x.data if isinstance(x, Variable) else x`, `[x for x in xs if torch.is_tensor(x)]`,
`classname.find("Conv") != -1`; `if not isinstance(v, torch.Tensor): v.data`, no tensor). Part of the type oracle (a mixin of `TypeOracle`): it asks the
oracle what instances of the tested classes are.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from torchlint.analysis import dotted_name
from torchlint.codemod import names_used
from torchlint.kinds import MODULE, OBJECT, TENSOR, Kind, merge, tensor
from torchlint.scopes import COMPREHENSION_TYPES, SCOPE_TYPES, Scope
from torchlint.walk import descendants

# What a name is where a test has just said it is no tensor (`if not isinstance(v, torch.Tensor):
# v = v.data`): some other object.
NOT_A_TENSOR = Kind(OBJECT, origin="not-a-tensor")
_BUILTIN_CLASSES = frozenset({"dict", "list", "tuple", "set", "frozenset", "str", "bytes", "int", "float", "bool",
                              "complex", "bytearray", "memoryview", "range", "slice", "type", "object"})
# What passed a type test against a class of unknown kind (`isinstance(a, np.ndarray)`, a class
# imported in a `try`): maybe no tensor, so no tensor its bindings or annotation claim holds
# there; what else they say (a module, a guess from its use) stands.
MAYBE_NOT_A_TENSOR = Kind(OBJECT, origin="maybe-not-a-tensor")
_TENSOR_CLASSES = frozenset({"torch.Tensor", "torch.autograd.Variable", "torch.autograd.variable.Variable"})

# Class-name fragments that only torch.nn layers have: `classname.find("Conv") != -1` guards a module.
_LAYER_NAME_FRAGMENTS = ("Conv", "Linear", "BatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm", "Embedding",
                         "LSTM", "GRU", "RNN", "Bilinear", "Norm")


class Narrowing:
    """Mixin of TypeOracle: `narrowed_by_type_test` and `_narrowed`."""

    # ---- narrowing: `isinstance` and class-name checks around a use -----------------------------
    def narrowed_by_type_test(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> bool:
        """`if isinstance(m, nn.Linear): m...`: the name's kind here comes from a type test, which
        any subclass passes (a class of the project deriving from `nn.Linear` too)."""
        if not isinstance(expr, cst.Name):
            return False
        scope = self.scope_at(stack)
        return self._narrowed(expr.value, scope, stack) is not None or self._coercion_guard(expr.value, scope, stack) is not None

    def _narrowed(self, name: str, scope: Scope, at: Sequence[cst.CSTNode]) -> Kind | None:
        for depth in range(len(at) - 1, 0, -1):
            node, parent = at[depth], at[depth - 1]
            if isinstance(parent, COMPREHENSION_TYPES) and node is not parent.for_in:
                # `[x.data for x in xs if isinstance(x, Variable)]`: the element is made only
                # for the items the conditions let through
                tests = _conditions_on(parent.for_in, name)
                kind = next((kind for test in tests if (kind := self._narrowing_test(test, name, scope)) is not None), None)
                return None if kind is None or _rebinds(node, name) else kind
            if isinstance(parent, SCOPE_TYPES):
                return None
            if isinstance(parent, (cst.If, cst.IfExp)) and node is parent.body:
                # `if isinstance(m, nn.Linear): m...`, `x.data if isinstance(x, Variable) else x`
                if self._tests_no_tensor(parent.test, name):
                    rebound = (_rebinds(parent.body, name) if isinstance(parent, cst.IfExp)
                               else _rebound_before(parent.body, at[depth + 1:], name))
                    return None if rebound else NOT_A_TENSOR
                kind = self._narrowing_test(parent.test, name, scope)
                if kind is not None:
                    # (not when the branch binds the name again before the use may run)
                    rebound = (_rebinds(parent.body, name) if isinstance(parent, cst.IfExp)
                               else _rebound_before(parent.body, at[depth + 1:], name))
                    return None if rebound else kind
        return None

    def _coerced(self, name: str, scope: Scope, at: Sequence[cst.CSTNode], bindings: list) -> Kind | None:
        """`if not isinstance(v, Variable): v = Variable(v)` (or a body that leaves: `raise`,
        `return`, `continue`, `break`), then a use of `v` after it in the same block or one
        inside a later statement: the bindings from before the test reach the use only where
        it passed, as instances of the class; those inside keep their own kinds."""
        guard = self._coercion_guard(name, scope, at)
        if guard is None:
            return None
        kind = self._narrowing_test(guard.test.expression, name, scope)
        if kind is None:
            return None
        order = self._document_order(scope.node)
        place = order.get(id(guard))
        inside = [binding for binding in bindings if id(guard) in binding.chain]
        before = [binding for binding in bindings if id(guard) not in binding.chain]
        if place is None or any(binding.how != "param" and (not binding.chain or order.get(binding.chain[-1], place) >= place)
                                for binding in before):
            return None  # bound from another scope, or after the test (a loop's next pass)
        return merge([*(self._binding_kind(binding) for binding in inside), *([kind] if before else [])])

    def _coercion_guard(self, name: str, scope: Scope, at: Sequence[cst.CSTNode]) -> cst.If | None:
        """The `if not isinstance(name, ...)` guard the use `at` describes follows (see _coerced)."""
        guards = self._coercing_guards(scope).get(name)
        return _guard_before(name, at, guards) if guards else None

    def _coercing_guards(self, scope: Scope) -> dict[str, list[cst.If]]:
        """The scope's `if not <type test of a name>:` statements without an `else` whose body
        surely binds the name or leaves, by the name tested."""
        cache = self.__dict__.setdefault("_guards", {})
        found = cache.get(scope.node)
        if found is None:
            found = cache[scope.node] = {}
            for node in descendants(scope.node, prune=lambda inner: inner is not scope.node and isinstance(inner, SCOPE_TYPES)):
                if (isinstance(node, cst.If) and node.orelse is None and isinstance(node.test, cst.UnaryOperation)
                        and isinstance(node.test.operator, cst.Not)):
                    for name in names_used(node.test.expression):
                        if _binds_or_leaves(node.body, name):
                            found.setdefault(name, []).append(node)
        return found

    def _tests_no_tensor(self, test: cst.CSTNode, name: str) -> bool:
        """`not isinstance(name, torch.Tensor)` (a tuple holding the class too), `not
        torch.is_tensor(name)`: where it holds, the name is no tensor."""
        if not (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)):
            return False
        test = test.expression
        if not (isinstance(test, cst.Call) and test.args and isinstance(test.args[0].value, cst.Name)
                and test.args[0].value.value == name):
            return False
        callee = self.imports.qualify(test.func)
        if callee == "torch.is_tensor" and len(test.args) == 1:
            return True
        if dotted_name(test.func) != "isinstance" or len(test.args) != 2:
            return False
        classes = test.args[1].value
        options = [e.value for e in classes.elements] if isinstance(classes, cst.Tuple) else [classes]
        return any(self.imports.qualify(option) in _TENSOR_CLASSES for option in options)

    def _narrowing_test(self, test: cst.CSTNode, name: str, scope: Scope) -> Kind | None:
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            return self._narrowing_test(test.left, name, scope) or self._narrowing_test(test.right, name, scope)
        if isinstance(test, cst.Call) and dotted_name(test.func) == "isinstance" and len(test.args) == 2:
            subject, classes = test.args[0].value, test.args[1].value
            if isinstance(subject, cst.Name) and subject.value == name:
                options = [e.value for e in classes.elements] if isinstance(classes, cst.Tuple) else [classes]
                kind = merge(self._instance_kind_of_class(option) for option in options)
                if kind is not None and kind.base in (MODULE, TENSOR):
                    return Kind(kind.base, origin=kind.origin if len(options) == 1 else None)
                # `left.data if isinstance(left, Affine) else left`: an instance of a class known
                # to be no tensor (with a `.data` of its own), whatever the annotation or the
                # callers say (a module stays one); `isinstance(a, np.ndarray)`: maybe
                known = [self._instance_kind_of_class(option) for option in options]
                if all(option is not None for option in known):
                    return NOT_A_TENSOR
                # (only classes named as such: a tuple kept in a variable, `type(b)`, a union say nothing)
                return MAYBE_NOT_A_TENSOR if all(self._names_a_class(option) for option in options) else None
            return None
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(
            test.comparisons[0].operator, (cst.Equal, cst.Is)
        ):
            # `type(h) == Variable`, `type(x) is torch.Tensor`
            left, right = test.left, test.comparisons[0].comparator
            if isinstance(left, cst.Call) and dotted_name(left.func) == "type" and len(left.args) == 1:
                subject = left.args[0].value
                if isinstance(subject, cst.Name) and subject.value == name:
                    kind = self._instance_kind_of_class(right)
                    if kind is not None and kind.base in (MODULE, TENSOR):
                        return kind
                    if kind is not None:
                        return NOT_A_TENSOR
                    return MAYBE_NOT_A_TENSOR if self._names_a_class(right) else None
        if isinstance(test, cst.Call) and self.imports.qualify(test.func) == "torch.is_tensor" and len(test.args) == 1:
            subject = test.args[0].value
            return tensor(False) if isinstance(subject, cst.Name) and subject.value == name else None
        if self._tests_layer_class_name(test, name, scope):
            return Kind(MODULE)
        return None

    def _names_a_class(self, expr: cst.CSTNode) -> bool:
        """`np.ndarray`, `Box` imported from elsewhere, `dict`: a name a type test gives as a class
        (an import, a class statement, a builtin), not a variable holding classes or a call."""
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return False
        if self.imports.qualify(expr) is not None:
            return True
        return isinstance(expr, cst.Name) and (expr.value in _BUILTIN_CLASSES or expr.value in self.classes.by_name)

    def _tests_layer_class_name(self, test: cst.CSTNode, name: str, scope: Scope) -> bool:
        """`classname.find("Conv") != -1`, `"Linear" in classname`, `classname.startswith("BatchNorm")`,
        `type(m).__name__ == "Conv2d"`, where the class name is `name`'s."""
        strings: list[str] = []
        subject = None
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            left, right = test.left, test.comparisons[0].comparator
            if isinstance(left, cst.Call) and isinstance(left.func, cst.Attribute) and left.func.attr.value == "find":
                subject, strings = left.func.value, _string_arguments(left)
            elif isinstance(left, cst.SimpleString) and isinstance(test.comparisons[0].operator, cst.In):
                subject, strings = right, _strings(left)
            else:
                subject, strings = left, _strings(right)
        elif isinstance(test, cst.Call) and isinstance(test.func, cst.Attribute) and test.func.attr.value in (
            "startswith", "endswith"
        ):
            subject, strings = test.func.value, _string_arguments(test)
        if not strings or not all(s.startswith(_LAYER_NAME_FRAGMENTS) for s in strings):
            return False
        return self._class_name_of(subject, scope) == name

    def _class_name_of(self, expr: cst.CSTNode | None, scope: Scope) -> str | None:
        """`m` for `m.__class__.__name__`, `type(m).__name__`, or a name bound once to either."""
        if isinstance(expr, cst.Name):
            bindings = self.scopes.lookup(expr.value, scope) or []
            if len(bindings) == 1 and bindings[0].how == "value":
                return self._class_name_of(self.bound_value(bindings[0]), scope)
            return None
        if not (isinstance(expr, cst.Attribute) and expr.attr.value == "__name__"):
            return None
        owner = expr.value
        if isinstance(owner, cst.Attribute) and owner.attr.value == "__class__" and isinstance(owner.value, cst.Name):
            return owner.value.value
        if isinstance(owner, cst.Call) and dotted_name(owner.func) == "type" and len(owner.args) == 1:
            subject = owner.args[0].value
            return subject.value if isinstance(subject, cst.Name) else None
        return None


def _rebinds(branch: cst.CSTNode, name: str) -> bool:
    """Whether the branch binds `name` (an assignment, a walrus, a loop or `with ... as`)."""
    for node in descendants(branch):
        if isinstance(node, cst.NamedExpr) and isinstance(node.target, cst.Name) and node.target.value == name:
            return True
        target = getattr(node, "target", None) if isinstance(node, _BINDING_NODES) else None
        if isinstance(node, cst.WithItem) and node.asname is not None:
            target = node.asname.name
        if target is not None and name in names_used(target):
            return True
    return False


_BINDING_NODES = (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor)


def _rebound_before(block: cst.CSTNode, below: Sequence[cst.CSTNode], name: str) -> bool:
    """Whether the statements of `block` can bind `name` before the use that `below` (the path
    from the block's statement down to it) leads to: an earlier statement does, or the use's own
    statement is compound and does, or a walrus does in the use's own simple statement (its
    assignment targets are bound after its value is computed: `x = x.data` reads `x` first)."""
    statements = list(getattr(block, "body", ()))
    statement = below[0] if below else None
    position = next((i for i, s in enumerate(statements) if s is statement), len(statements))
    if any(_rebinds(earlier, name) for earlier in statements[:position]):
        return True
    if statement is None:
        return False
    if isinstance(statement, (cst.With, cst.If)) and len(below) > 1 and below[1] is statement.body:
        # its header first, then its body, run once: the same question one block down
        header = statement.items if isinstance(statement, cst.With) else [statement.test]
        return any(_rebinds(part, name) for part in header) or _rebound_before(statement.body, below[2:], name)
    if (isinstance(statement, cst.If) and len(below) > 2 and isinstance(below[1], cst.Else)
            and below[2] is below[1].body):  # the `else` of an `if`: its test, then the `else` body
        return _rebinds(statement.test, name) or _rebound_before(below[1].body, below[3:], name)
    if not isinstance(statement, cst.SimpleStatementLine):
        return _rebinds(statement, name)
    small = below[1] if len(below) > 1 else None
    for earlier in statement.body:
        if earlier is small:
            return any(isinstance(node, cst.NamedExpr) and name in names_used(node.target) for node in descendants(small))
        if _rebinds(earlier, name):
            return True
    return False


def _binds_or_leaves(body: cst.BaseSuite, name: str) -> bool:
    """A statement of the block itself (not one nested in it) binds `name` by a plain assignment,
    or leaves the block (`raise`, `return`, `continue`, `break`); the block on the `if`'s own
    line too (`if not torch.is_tensor(x): x = torch.tensor(x)`)."""
    if isinstance(body, cst.SimpleStatementSuite):
        smalls = list(body.body)
    else:
        smalls = [small for statement in body.body if isinstance(statement, cst.SimpleStatementLine)
                  for small in statement.body]
    for small in smalls:
        if isinstance(small, (cst.Raise, cst.Return, cst.Continue, cst.Break)):
            return True
        targets = [target.target for target in small.targets] if isinstance(small, cst.Assign) else (
            [small.target] if isinstance(small, cst.AnnAssign) and small.value is not None else [])
        if any(isinstance(target, cst.Name) and target.value == name for target in targets):
            return True
    return False


def _guard_before(name: str, at: Sequence[cst.CSTNode], guards: list[cst.If]) -> cst.If | None:
    """The guard among `guards` that the use `at` describes follows in its own block or an outer
    one of its scope, with no statement between that may bind `name`."""
    for depth in range(len(at) - 2, -1, -1):
        block, below = at[depth], at[depth + 1]
        if isinstance(block, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return None  # (the guard and the use in one scope)
        statements = getattr(block, "body", None)
        if not isinstance(statements, Sequence) or isinstance(block, cst.SimpleStatementLine):
            continue
        position = next((i for i, statement in enumerate(statements) if statement is below), None)
        if position is None:
            continue
        for earlier in reversed(statements[:position]):
            if any(earlier is guard for guard in guards):
                return earlier
            if _rebinds(earlier, name):
                return None
        if isinstance(block, cst.Module):
            return None
    return None


def _conditions_on(first: cst.CompFor, name: str) -> list[cst.BaseExpression]:
    """The `if` tests of a comprehension made after its last `for` binding `name`."""
    tests: list[cst.BaseExpression] = []
    current: cst.CompFor | None = first
    while current is not None:
        if name in names_used(current.target):
            tests = []
        tests.extend(condition.test for condition in current.ifs)
        current = current.inner_for_in
    return tests


def _strings(expr: cst.CSTNode) -> list[str]:
    if isinstance(expr, cst.SimpleString) and isinstance(expr.evaluated_value, str):
        return [expr.evaluated_value]
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        found = [_strings(element.value) for element in expr.elements]
        return [s for group in found for s in group] if all(found) else []
    return []


def _string_arguments(call: cst.Call) -> list[str]:
    return _strings(call.args[0].value) if len(call.args) == 1 else []
