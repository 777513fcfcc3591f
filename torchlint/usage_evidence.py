"""Usage evidence: what a scope does with a name of unknown kind says what it holds
(`.parameters()` only modules have, `loss.backward()`, a read `.grad`, `x.size(0)`, passed first to
one of torch.nn.functional's functions). Part of the type oracle (a mixin of `TypeOracle`, as
narrowing.py is): each use says so only of the bindings that reach it, and the uses of a scope are
collected once (`collect_uses`, which the oracle also reads for what grows a container).
"""

from __future__ import annotations

import re

import libcst as cst

from torchlint.analysis import dotted_name, method_named
from torchlint.kinds import GUESSED_TENSOR_USE, MODULE, SOME_MODULE, OBJECT, TENSOR, TENSOR_ITERATORS, Kind, tensor
from torchlint.scopes import COMPREHENSION_TYPES, Binding, Scope, reaching
from torchlint.torch_api import is_torch_module_class, MODULE_ONLY_METHODS, SELF_RETURNING_METHODS, TENSOR_ATTRIBUTE_NAMES, TENSOR_ONLY_METHODS, TENSOR_SHAPE_QUERIES
from torchlint.walk import descendants, outside_nested_scopes, paths, unparsed_without

_TENSOR_ONLY_METHODS = frozenset({"backward()"})
_TYPE_TESTED = "<type tested>"  # in a scope's evidence: the name is given to isinstance/type/hasattr
# ... by a test that only decides whether to convert it (`if type(out) == list: out = torch.cat(out)`)
_NORMALISING_TEST = "<type tested to convert>"
_TYPE_TESTS = frozenset({"isinstance", "type", "hasattr", "getattr", "callable"})
_GRAD_READ = ".grad"  # in a scope's evidence: the name's `.grad` is read
_REQUIRES_GRAD_READ = ".requires_grad"  # in a scope's evidence: the name's `.requires_grad` is read
_PASSED_FIRST_TO = "<first argument of> "  # in a scope's evidence: a call the name is passed to first
_BUILT_THEN_CALLED = "()"  # before a callee's name: an instance built and called at once (`nn.MSELoss()(x, y)`)
ITEM_STORED = "[]="  # in a scope's evidence: an item of the name is assigned
_EXPANDED = "expand(int, ...)"  # in a scope's evidence: `x.expand(n, 3, 28, 28)`
_TENSOR_USES = TENSOR_ONLY_METHODS | TENSOR_SHAPE_QUERIES | {_EXPANDED}
_GRAPH_DROPPING = frozenset({"detach_", "requires_grad_"})  # in place: `loss.detach_()` after its backward


class UsageEvidence:
    """Mixin of TypeOracle: `_usage_evidence` and what it rests on."""

    def _usage_evidence(self, name: str, bindings: list[Binding], model_output: bool = False) -> Kind | None:
        """What is called on a name of unknown kind (every binding unknown): `.parameters()` only
        modules have, `.backward()` only tensors in a graph (`loss = self.compute(batch)` then
        `loss.backward()`; a class of the project with its own `backward` is a known kind), a
        read `.grad` in a file that uses torch (`for p in group["params"]: if p.grad is None: ...`),
        and what only tensors answer to (`x.size(0)`, `x.permute(...)`, a read `.requires_grad`:
        a guess). A use says so
        only of the bindings that reach it (`loss.backward(); loss = loss.item()`: the float is
        not a tensor). An instance of a class not seen (`n = Node()`) may have any of these: no
        evidence."""
        if not bindings or any(b.how == "param" and b.value.annotation is not None for b in bindings):
            return None  # (an annotation the oracle cannot read says what the parameter is)
        if any(b.how == "import" for b in bindings):
            return None  # a module or what it defines: `torch.bmm(a, b)` says nothing of `torch`
        # (each in its own scope: a name declared `global` may be bound in several functions)
        marks = [self._uses_by_binding(name, binding.scope).get(_binding_key(binding), set()) | self._moved_uses(name, binding)
                 for binding in bindings]
        if model_output:
            # (a model output converted where it is a list stays what a module returned: a guess
            # may still be made of it, not of a parameter so converted, which may hold anything)
            marks = [mark - {_NORMALISING_TEST} for mark in marks]
        said_of_all = set.intersection(*marks) if marks else set()
        said_of_any = set().union(*marks)
        module_only = said_of_all & MODULE_ONLY_METHODS
        if module_only and self.project.defines_tensor_iterators():
            module_only -= TENSOR_ITERATORS  # a class of the project has a `parameters()` of its own
        if module_only:
            return Kind(MODULE, origin=SOME_MODULE)
        if any(_constructs_instance(b.value) for b in bindings) or not _tensor_could_answer(said_of_any):
            return None  # `loss.reset(); loss.backward()`: an object of a class of its own
        if any(self._iterates_a_non_module(binding) for binding in bindings):
            return None  # `for p in neuron.parameters()`: a micrograd-style value, with `.grad` of its own
        if not self._imports_torch():
            return None  # other autodiff libraries' values have `.backward()` and `.grad` too (micrograd)
        if said_of_all & _TENSOR_ONLY_METHODS:
            return tensor(True)  # backpropagated in its own scope: a tensor that carries a graph
        if _GRAD_READ in said_of_all:
            return tensor(True)  # its gradient is read: a leaf that requires grad (a Parameter)
        own = self._own_method_names()
        uses = {use for use in said_of_all & _TENSOR_USES if use.split("(")[0] not in own}
        if _EXPANDED in uses and self.project.defines_method("expand"):
            uses.discard(_EXPANDED)  # a class of the project has an `expand(rows, cols)` of its own
        # (not when a class of the file keeps a `requires_grad` of its own: an autograd of its own)
        requires_grad = _REQUIRES_GRAD_READ in said_of_all and not _KEEPS_REQUIRES_GRAD.search(self.text)
        passed = self._passed_where_only_a_tensor_goes(said_of_all, bindings[0].scope)
        if (uses or passed or requires_grad) and not {_TYPE_TESTED, _NORMALISING_TEST} & said_of_any:
            # `def forward(self, src, trg): max_len = trg.size(0) ... trg.data[0]`: only a tensor
            # answers so. Not when the scope tests what the name is (`if isinstance(x,
            # PackedSequence): x.data ... else: x.size(0)`): each branch has its own kind.
            return Kind(TENSOR, origin=GUESSED_TENSOR_USE)
        return None

    def _moved_uses(self, name: str, binding: Binding) -> set[str]:
        """`criterion = SplitCrossEntropyLoss(...)`, then `criterion = criterion.cuda()` and
        `criterion.parameters()`: where every other binding of the name in its scope moves the
        same object (`name = name.cuda()`, `.to(device)`, `.train()`), the uses each of them
        reaches are uses of the one object the first binding made; nothing where the scope
        binds the name to anything else."""
        every = binding.scope.bindings.get(name, [])
        moves = [other for other in every if _moves_itself(other, name)]
        if not moves or len(every) - len(moves) != 1 or name in binding.scope.declared_global | binding.scope.declared_nonlocal:
            return set()
        uses = self._uses_by_binding(name, binding.scope)
        return set().union(*(uses.get(_binding_key(other), set()) for other in every))

    def _evidence_from_other_results(self, name: str, bindings: list[Binding]) -> Kind | None:
        """`batch_loss, n = masked_cross_entropy(out, y)` then `batch_loss.backward()` in `train`:
        what the same callee returns, at the same place of its result, is a tensor in `evaluate`
        too, which never backpropagates it (`batch_loss.data[0]`). A guess (fixes resting on it
        are not applied without asking), and only where nothing can read the callee: a function
        or method of the project the index reads has its returns judged, and when they disagree
        (`return loss.item()` under `if not train`) a backward elsewhere says nothing of this call.
        The callee must be the same object, called the same way, where that result is
        backpropagated outside any test of what it is: a name bound once in one scope (an import,
        a global), an attribute chain on it, or a method on `self` that the class does not keep as
        an attribute; the calls pass as many positional arguments, the same keywords and the same
        constants (`compute(x, train=False)` is not `compute(x)`). Not for a class being
        instantiated (a micrograd `Value()` has a `backward` of its own), nor where the scope asks
        what the name holds or reads what no tensor has."""
        if not bindings or ".backward(" not in self.text or not self._imports_torch():
            return None  # (nothing is backpropagated in the file: no other site can say so)
        if self._type_tested(name, bindings) or self._reads_what_no_tensor_has(name, bindings):
            return None
        for binding in bindings:
            call = binding.value
            if binding.how != "value" or type(call) is not cst.Call or _constructs_instance(call):
                return None
            callee = self._callee_identity(call, binding.scope)
            if callee is None or not self._backpropagated_elsewhere(callee, _call_shape(call), binding.path):
                return None
        return Kind(TENSOR, graph=True, origin=GUESSED_TENSOR_USE)

    def _callee_identity(self, call: cst.Call, scope: Scope) -> tuple | None:
        """What a call calls, the same at every site that gives the same answer: the scope that binds
        the callee's first name and the dotted name (`self` stands for the method's class). None
        where the callee is one the index reads (its returns are judged) or may be rebound."""
        dotted = dotted_name(call.func)
        if dotted is None:
            return None
        root, _, rest = dotted.partition(".")
        if root == "self":
            owner = self._method_class(scope.node)
            if owner is None or not rest or self._attribute_bindings(owner, rest.split(".")[0]):
                return None  # `self.model(x)`: an object kept on the instance, called
            if "." not in rest and method_named(owner, rest) is not None:
                return None  # a method of the class: its returns are read
            return (owner, dotted)
        bindings = self.scopes.lookup(root, scope)
        if not bindings or len(bindings) != 1:
            return None  # a builtin (`sum(losses)`), a star import, or rebound
        binding = bindings[0]
        if binding.how in ("def", "class"):
            return None  # a function of the file: its returns are read
        if binding.how == "import" and self._imported_kind(self.imports.qualify(call.func)) is not None:
            return None  # a function or class of the project: its returns are read
        if rest and isinstance(call.func, cst.Attribute):
            receiver = self._kind(call.func.value, scope)
            if receiver is not None and receiver.cls is not None:
                return None  # a method of a class the oracle reads: its returns are judged
        return (binding.scope.node, dotted)

    def _backpropagated_elsewhere(self, callee: tuple, shape: tuple, path: tuple[int, ...]) -> bool:
        """Somewhere in the file, the result of a call of `callee` made the same way is
        backpropagated at `path`."""
        key = (callee, shape, path)
        if self.text.count(callee[1].rsplit(".", 1)[-1]) < 2:
            return False  # called once in the file: no other site
        if key not in self._backpropagated_results:
            self._backpropagated_results[key] = any(
                _call_shape(node) == shape and self._backpropagated_result(node, callee, path)
                for node in self._calls_of(callee[1]))
        return self._backpropagated_results[key]

    def _calls_of(self, dotted: str) -> list[cst.Call]:
        """Every call of `dotted` in the file (bodies not parsed yet are read only where they name it)."""
        last = dotted.rsplit(".", 1)[-1]
        return [node for node in descendants(self.module, unparsed_without(last))
                if type(node) is cst.Call and dotted_name(node.func) == dotted]

    def _backpropagated_result(self, call: cst.Call, callee: tuple, path: tuple[int, ...]) -> bool:
        statement_path = self.scopes.parents.path_to(self.module, call)
        if statement_path is None or len(statement_path) < 2:
            return False
        scope = self.scopes.at(statement_path)
        if self._callee_identity(call, scope) != callee:
            return False
        parent = statement_path[-2]
        if type(parent) is cst.Attribute and parent.attr.value == "backward" and not path:
            return len(statement_path) > 2 and type(statement_path[-3]) is cst.Call  # `f(x).backward()`
        if type(parent) is not cst.Assign or parent.value is not call:
            return False
        for target in parent.targets:
            element = _target_at(target.target, path)
            if type(element) is not cst.Name:
                continue
            for binding in scope.bindings.get(element.value, ()):
                if (binding.value is call and binding.path == path and self._backpropagated(element.value, [binding])
                        and not self._type_tested(element.value, [binding])):
                    return True
        return False

    def _reads_what_no_tensor_has(self, name: str, bindings: list[Binding]) -> bool:
        """Where one of these bindings reaches, the scope reads an attribute of the name, or calls
        a method, that torch.Tensor does not have (`sample.mask` of a batch's namedtuple): not a
        tensor, whatever a guess said."""
        for binding in bindings:
            marks = self._uses_by_binding(name, binding.scope).get(_binding_key(binding), set())
            read = {mark[len(_ATTRIBUTE_READ):] for mark in marks if mark.startswith(_ATTRIBUTE_READ)}
            if not read <= TENSOR_ATTRIBUTE_NAMES or not _tensor_could_answer(marks):
                return True
        return False

    def _type_tested(self, name: str, bindings: list[Binding], converting_too: bool = True) -> bool:
        """The scope asks what the name holds where one of these bindings reaches (`isinstance(out,
        PackedSequence)`, `hasattr(out, "data")`); with `converting_too` False, not by a test that only
        decides whether to convert it (`if type(out) == list: out = torch.cat(out)`)."""
        asked = {_TYPE_TESTED} if not converting_too else {_TYPE_TESTED, _NORMALISING_TEST}
        return any(asked & self._uses_by_binding(name, binding.scope).get(_binding_key(binding), set()) for binding in bindings)

    def _backpropagated(self, name: str, bindings: list[Binding]) -> bool:
        """`name.backward()` is reached by every one of these bindings: a tensor it holds carries a
        graph (backward on one that does not raises), whatever the oracle could prove of how it was
        made (`loss = nll * steps` of a helper's tensor); not where the scope drops it in place
        (`loss.detach_()`)."""
        marks = [self._uses_by_binding(name, binding.scope).get(_binding_key(binding), set()) for binding in bindings]
        return bool(marks) and all(_TENSOR_ONLY_METHODS <= mark and not mark & _GRAPH_DROPPING for mark in marks)

    def _iterates_a_non_module(self, binding: Binding) -> bool:
        """A loop over `x.parameters()` (or another of a module's tensor iterators) where `x` is
        known not to be a module, or only in some of its bindings: what it yields is that class's own."""
        iterator = binding.value
        if binding.how != "for" or not isinstance(iterator, cst.Call) or not isinstance(iterator.func, cst.Attribute):
            return False
        if iterator.func.attr.value not in TENSOR_ITERATORS:
            return False
        receiver = self._kind(iterator.func.value, binding.scope)
        return receiver is not None and receiver.base == OBJECT

    def _passed_where_only_a_tensor_goes(self, marks: set[str], scope: Scope) -> bool:
        """Passed first to one of torch.nn.functional's functions (`F.avg_pool2d(x, k)`) or to a
        torch loss module (`criterion(output, y)` with `criterion` an `nn.CrossEntropyLoss()`),
        which take a tensor there and nothing else."""
        for mark in marks:
            if not mark.startswith(_PASSED_FIRST_TO):
                continue
            callee = mark[len(_PASSED_FIRST_TO):]
            built = callee.startswith(_BUILT_THEN_CALLED)
            dotted = callee[len(_BUILT_THEN_CALLED):] if built else callee
            if "." in dotted and not self._names_an_import(dotted.split(".")[0], scope):
                continue  # `def f(nn, out, y)`: another `nn` than torch's
            if not built and (self.imports.qualify_name(dotted) or "").startswith("torch.nn.functional."):
                return True
            if built and _is_torch_loss_class(self.imports.qualify_name(dotted)):
                return True
            if "." not in callee and _is_torch_loss(self._name_kind(callee, scope)):
                return True
        return False

    def _names_an_import(self, name: str, scope: Scope) -> bool:
        """Every binding of `name` the scope sees is an import (not a parameter or local of that name)."""
        bindings = self.scopes.lookup(name, scope)
        return bool(bindings) and all(binding.how == "import" for binding in bindings)

    def _uses_by_binding(self, name: str, scope: Scope) -> dict[tuple, set[str]]:
        """For each of the name's bindings in `scope` (by `_binding_key`), what the uses it reaches say."""
        if scope.evidence is None:
            scope.evidence = {}
        if name not in scope.evidence:
            if scope.uses is None:
                scope.uses = collect_uses(scope.node)
            every = scope.bindings.get(name, [])
            # a use no binding of the function reaches reads the module's value of a name it
            # declares `global` (for a local name it could not run): it says nothing of these
            fallback = () if name in scope.declared_global | scope.declared_nonlocal else every
            reached: dict[tuple, set[str]] = {}
            for marks, path in scope.uses.get(name, ()):
                for binding in reaching(every, scope, path) or fallback:
                    reached.setdefault(_binding_key(binding), set()).update(marks)
            scope.evidence[name] = reached
        return scope.evidence[name]

    def _own_method_names(self) -> frozenset[str]:
        """Methods the file's classes define: `boxes.clamp(...)` may be one of them, not a tensor's."""
        if self._defined_methods is None:
            self._defined_methods = frozenset(method.name.value for method in self.classes.method_owner)
        return self._defined_methods

    def _imports_torch(self) -> bool:
        """Other frameworks' values have `.grad` too (chainer's Variable): the file must use torch."""
        if any(target.split(".")[0] == "torch" for target in self.imports.aliases.values()):
            return True
        return self.imports.star_fallback is not None and self.imports.target_of("torch") == "torch"


def _moves_itself(binding: Binding, name: str) -> bool:
    """`name = name.cuda()`, `name = name.to(device)`: the object the name held, moved (a
    module's own, or a tensor's copy of the same kind)."""
    value = binding.value
    return (binding.how == "value" and not binding.path and isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute) and value.func.attr.value in SELF_RETURNING_METHODS
            and isinstance(value.func.value, cst.Name) and value.func.value.value == name)


def _is_torch_loss(kind: Kind | None) -> bool:
    """A module of one of torch's loss classes (`nn.MSELoss()`): its first argument is a tensor."""
    return kind is not None and kind.base == MODULE and isinstance(kind.origin, str) and _is_torch_loss_class(kind.origin)


def _is_torch_loss_class(qualified: str | None) -> bool:
    return qualified is not None and qualified.startswith("torch.nn.") and qualified.endswith("Loss") and is_torch_module_class(qualified)


def _binding_key(binding: Binding) -> tuple:
    """What a binding is known by in a scope's evidence: the value it binds and where in it, so that
    the module scope's copy of a function's binding of a name it declares `global` (`global
    model; model = build()`) takes the uses in that function."""
    return (id(binding.value), binding.path, binding.how) if binding.value is not None else (id(binding),)


def collect_uses(scope: cst.CSTNode) -> dict[str, list[tuple[set[str], tuple[cst.CSTNode, ...]]]]:
    """name -> its uses that say what it holds, in one scope (nested functions and classes left
    out): the methods called on it (`m()` when called with keywords at most, `size(int)` for
    `x.size(0)`), `.grad` when its gradient is read, a type test; each with the path down to it
    (so that only the bindings reaching the use take its evidence). A use inside a comprehension
    that binds the name is the comprehension's own variable's, not the scope's: left out."""
    uses: dict[str, list[tuple[set[str], tuple[cst.CSTNode, ...]]]] = {}
    not_reads: set[int] = set()  # attributes called or assigned to (a parent is met before its children)
    every_time = _statements_run_every_time(scope)
    for path in paths(scope, outside_nested_scopes):
        for name, marks in (_use_marks(path[-1], not_reads), _first_argument_use(path, every_time)):
            if marks == {_TYPE_TESTED} and _normalising_test(path, name):
                marks = {_NORMALISING_TEST}
            if marks and _tried_for_missing_attributes(path):
                marks = {mark for mark in marks if not _is_evidence(mark)}
            if name is not None and not _comprehension_binds(path, name):
                uses.setdefault(name, []).append((marks, tuple(path)))
    return uses


def _tried_for_missing_attributes(path: list[cst.CSTNode]) -> bool:
    """The use stands in the body of a `try` one of whose handlers names AttributeError: `try: n
    = out.size(0)` `except AttributeError: n = None` doubts that the value is a tensor, so the use
    says nothing of it. (`except Exception:` around a training step doubts nothing in particular.)"""
    for depth, node in enumerate(path[:-1]):
        if isinstance(node, cst.Try) and path[depth + 1] is node.body and any(
                _catches_missing_attribute(handler.type) for handler in node.handlers):
            return True
    return False


def _catches_missing_attribute(caught: cst.BaseExpression | None) -> bool:
    if isinstance(caught, cst.Tuple):
        return any(_catches_missing_attribute(element.value) for element in caught.elements)
    return caught is not None and dotted_name(caught) in ("AttributeError", "builtins.AttributeError")


def _is_evidence(mark: str) -> bool:
    """A mark `_usage_evidence` takes as saying what the name holds (a module's or a tensor's
    method, a read gradient, a call only a tensor is passed first to). Other marks stay where a
    `try` doubts the value: they take guesses away, or record a container changed (`append`)."""
    return mark in _EVIDENCE_MARKS or mark in MODULE_ONLY_METHODS or mark.startswith(_PASSED_FIRST_TO)


_EVIDENCE_MARKS = _TENSOR_ONLY_METHODS | _TENSOR_USES | {_GRAD_READ, _REQUIRES_GRAD_READ}


def _normalising_test(path: list[cst.CSTNode], name: str) -> bool:
    """A type test that only decides whether to convert the value: `if type(output) == list:
    output = torch.cat(output)`, with no `else`. After it the name holds the converted value or one
    the test turned down; it asks nothing of the uses that follow (the code goes on as with one
    kind), so it takes no guess away from them."""
    for depth in range(len(path) - 2, -1, -1):
        node = path[depth]
        if isinstance(node, cst.If):
            if path[depth + 1] is not node.test or node.orelse is not None:
                return False
            return any(isinstance(line, cst.SimpleStatementLine) and any(
                isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                and small.targets[0].target.value == name for small in line.body) for line in node.body.body)
        if isinstance(node, (cst.BaseCompoundStatement, cst.SimpleStatementLine)):
            return False
    return False


def _first_argument_use(path: list[cst.CSTNode], every_time: set[int]) -> tuple[str | None, set[str]]:
    """`F.avg_pool2d(x, k)`: the name passed first, marked with the callee as written (one of
    torch.nn.functional's says it is a tensor: see `_usage_evidence`) when the call runs every
    time the scope does; `torch.is_tensor(x)`: a type test."""
    node = path[-1]
    if not isinstance(node, cst.Call) or not node.args:
        return None, set()
    first = node.args[0]
    callee = dotted_name(node.func)
    if callee is None and isinstance(node.func, cst.Call) and (made := dotted_name(node.func.func)) is not None:
        callee = _BUILT_THEN_CALLED + made  # `nn.CrossEntropyLoss()(out, y)`
    if first.keyword is not None or first.star or not isinstance(first.value, cst.Name) or callee is None:
        return None, set()
    if callee.rsplit(".", 1)[-1] == "is_tensor":
        return first.value.value, {_TYPE_TESTED}
    if not _runs_every_time(path, every_time):
        return None, set()  # `if packed: F.dropout(x.data) else: F.dropout(x)`: each branch its own kind
    return first.value.value, {_PASSED_FIRST_TO + callee}


def _statements_run_every_time(scope: cst.CSTNode) -> set[int]:
    """Ids of the scope's own simple statements that every run of it reaches (none of the
    statements before them can leave it: no `return`, `raise`, `break` or `continue` inside), and
    of a loop's or `with` block's that every pass of it reaches (`for x, y in loader: out =
    net(x); loss = F.cross_entropy(out, y)`: whenever `out` is bound there, it is passed on)."""
    body = scope.body if isinstance(scope, cst.Module) else getattr(getattr(scope, "body", None), "body", None)
    found: set[int] = set()
    for statement in body if isinstance(body, (list, tuple)) else ():
        if isinstance(statement, cst.SimpleStatementLine):
            found.add(id(statement))
        elif isinstance(statement, (cst.For, cst.While, cst.With)):
            found |= _statements_run_every_time(statement)
        if any(isinstance(node, _EXITS) for node in descendants(statement, outside_nested_scopes)):
            break
    return found


_EXITS = (cst.Return, cst.Raise, cst.Break, cst.Continue)


def _runs_every_time(path: list[cst.CSTNode], every_time: set[int]) -> bool:
    """The node at the end of `path` is in a statement run every time, and no conditional
    expression, short-circuit or nested scope stands between."""
    top = next((index for index, node in enumerate(path) if id(node) in every_time), None)
    return top is not None and not any(isinstance(node, _CONDITIONAL_EXPRESSIONS) for node in path[top:])


_CONDITIONAL_EXPRESSIONS = (cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp,
                            cst.GeneratorExp)


def _use_marks(node: cst.CSTNode, not_reads: set[int]) -> tuple[str | None, set[str]]:
    """The name a node uses and what the use says about it (see `collect_uses`)."""
    if isinstance(node, cst.Call):
        not_reads.add(id(node.func))
        if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
            method = node.func.attr.value
            marks = {method}
            if not any(arg.keyword is None for arg in node.args):
                marks.add(method + "()")  # called with keywords at most
            elif method in ("size", "view") and is_int_literal(node.args[0].value):
                # `x.size(0)`: numpy's and pandas' `size` is a number; `x.view(-1)`: numpy's
                # `view` takes a dtype
                marks.add(method + "(int)")
            elif method == "view" and sum(1 for arg in node.args if arg.keyword is None) >= 3:
                marks.add("view(int)")  # `x.view(B, C, H, W)`: numpy's takes a dtype and a type at most
            elif method == "expand" and sum(1 for arg in node.args if arg.keyword is None) >= 2:
                # `x.expand(n, 3, 28, 28)`: a distribution's `expand` takes one shape, sympy's keywords
                marks.add(_EXPANDED)
            return node.func.value.value, marks
        if (isinstance(node.func, cst.Name) and node.func.value in _TYPE_TESTS and node.args
                and isinstance(node.args[0].value, cst.Name)):
            return node.args[0].value.value, {_TYPE_TESTED}
    elif isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
        not_reads.add(id(node.target))
        if isinstance(node.target, cst.Subscript) and isinstance(node.target.value, cst.Name):
            return node.target.value.value, {ITEM_STORED}  # `params["extra"] = stats`, `del items[0]`
    elif isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and id(node) not in not_reads:
        attribute = node.attr.value
        if attribute in _READ_MARKS:
            return node.value.value, {_READ_MARKS[attribute]}
        if attribute not in TENSOR_ATTRIBUTE_NAMES and node.value.value != "self":
            return node.value.value, {_ATTRIBUTE_READ + attribute}  # what no tensor has (see _reads_what_no_tensor_has)
    return None, set()


_ATTRIBUTE_READ = "."  # in a scope's evidence, before a name: that attribute of the name is read


_READ_MARKS = {"grad": _GRAD_READ, "requires_grad": _REQUIRES_GRAD_READ}


# A class of the file keeps a `requires_grad` of its own: `self.requires_grad = ...`, or a field
# (`requires_grad: bool = False` in a dataclass's body).
_KEEPS_REQUIRES_GRAD = re.compile(r"self\.requires_grad\s*=|^[ \t]+requires_grad\s*:", re.MULTILINE)


def _comprehension_binds(path: list[cst.CSTNode], name: str) -> bool:
    for node in path:
        if isinstance(node, COMPREHENSION_TYPES):
            comp_for = node.for_in
            while comp_for is not None:
                if any(isinstance(n, cst.Name) and n.value == name for n in descendants(comp_for.target)):
                    return True
                comp_for = comp_for.inner_for_in
    return False


def _tensor_could_answer(called: set[str]) -> bool:
    """Whether every method called on a name is one tensors have (the evidence also holds marks
    such as `backward()` and `.grad`, which are not method names)."""
    methods = {entry for entry in called if entry.isidentifier()}
    return methods <= TENSOR_ATTRIBUTE_NAMES


def _call_shape(call: cst.Call) -> tuple:
    """How a call is made, for telling calls of one callee apart: its positional arguments'
    count, its keywords, and the constants it passes where (`train=False`, `compute(x, True)`)."""
    constants = []
    for index, arg in enumerate(call.args):
        value = arg.value
        constant = (isinstance(value, (cst.Integer, cst.Float, cst.SimpleString))
                    or (isinstance(value, cst.Name) and value.value in ("True", "False", "None")))
        key = arg.keyword.value if arg.keyword is not None else index
        constants.append((key, arg.star, value.value if constant else None))
    return tuple(constants)


def _target_at(target: cst.CSTNode, path: tuple[int, ...]) -> cst.CSTNode | None:
    """The part of an assignment's target that binds the element at `path` of the value (no starred
    targets)."""
    for index in path:
        if type(target) not in (cst.Tuple, cst.List) or not 0 <= index < len(target.elements):
            return None
        element = target.elements[index]
        if isinstance(element, cst.StarredElement):
            return None
        target = element.value
    return target


def _constructs_instance(value: cst.CSTNode | None) -> bool:
    """`Meter()`: an instance of a class not seen, which may define a `backward` of its own."""
    if not isinstance(value, cst.Call):
        return False
    func = value.func.attr if isinstance(value.func, cst.Attribute) else value.func
    return isinstance(func, cst.Name) and func.value[:1].isupper()


def is_int_literal(expr: cst.CSTNode) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, cst.Integer)
