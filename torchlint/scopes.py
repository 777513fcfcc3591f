"""Scopes and bindings: where each name of a file is bound, and which of a name's bindings can
reach a use. The type oracle (oracle.py) judges what the bound values are; this module only finds
them, walking the libcst tree of the file (a function's bindings are collected the first time a
use inside it is asked about).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import libcst as cst

from torchlint.analysis import dotted_name, walk_statements
from torchlint.walk import ElidedBlock, Parents, children, descendants

SCOPE_TYPES = (cst.FunctionDef, cst.Lambda, cst.Module)
COMPREHENSION_TYPES = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_BLOCKS = (cst.IndentedBlock, cst.Module, cst.SimpleStatementSuite)


@dataclass(frozen=True, eq=False)
class Binding:
    """One place a name is bound in a scope."""

    how: str  # "value" | "augmented" | "for" | "param" | "class" | "def" | "import" | "opaque"
    scope: Scope
    value: cst.CSTNode | None = None
    path: tuple[int, ...] = ()
    # ids of the statements around the binding, outermost first, its own statement last; empty for
    # bindings made from another scope (`global`, `nonlocal`), which flow analysis cannot place.
    chain: tuple[int, ...] = ()
    # a walrus: it may sit under `and`/`or`, a conditional expression or a comprehension that does
    # not run it, so it never counts as surely binding the name
    maybe: bool = False


@dataclass(eq=False)
class Scope:
    node: cst.CSTNode
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    declared_global: set[str] = field(default_factory=set)
    declared_nonlocal: set[str] = field(default_factory=set)
    # what a use of a name says about it, kept for the type oracle (see its usage evidence)
    uses: dict | None = None
    evidence: dict | None = None

    def add(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


class ScopeTable:
    """The scopes of one module, each built the first time it is asked for."""

    def __init__(self, module: cst.Module, text: str):
        self.module = module
        self.parents = Parents(module)  # where a node stands, for the questions that need its path
        self._scopes: dict[cst.CSTNode, Scope] = {}
        # Looked up once: asking the whole text per statement is quadratic in the file's size.
        self._words = {word: word in text for word in ("global", "nonlocal", ":=")}

    def at(self, stack: Sequence[cst.CSTNode]) -> Scope:
        """The scope of the place in the tree that `stack` (its ancestors) describes."""
        scope = None
        for node in stack:
            if isinstance(node, SCOPE_TYPES):
                scope = self.scope(node, scope)
        return scope or self.scope(self.module, None)

    def release(self) -> None:
        """Scopes and their bindings refer to each other: emptying them lets reference counting
        free the file's tree at once."""
        self.parents = Parents(self.module)
        for scope in self._scopes.values():
            scope.bindings.clear()
            scope.uses = scope.evidence = None
        self._scopes.clear()

    # ---- scopes -----------------------------------------------------------------------------
    def scope(self, node: cst.CSTNode, parent: Scope | None) -> Scope:
        scope = self._scopes.get(node)
        if scope is None:
            scope = Scope(node, parent)
            self._scopes[node] = scope
            self._collect_bindings(scope)
        return scope

    def module_scope(self) -> Scope:
        return self.scope(self.module, None)

    def method_scope(self, method: cst.FunctionDef) -> Scope:
        return self._scopes.get(method) or self.scope(method, self.module_scope())

    def _collect_bindings(self, scope: Scope) -> None:
        node = scope.node
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            for param in all_params(node.params):
                scope.add(param.name.value, Binding("param", scope, param))
        if isinstance(node, cst.Lambda):
            return
        body = node.body if isinstance(node, cst.FunctionDef) else node
        self._bind_block(scope, body, ())
        if isinstance(node, cst.Module) and self._words["global"]:
            self._bind_from_inner_scopes(scope, cst.Global)
        elif isinstance(node, cst.FunctionDef) and self._words["nonlocal"]:
            self._bind_from_inner_scopes(scope, cst.Nonlocal)

    def _bind_block(self, scope: Scope, block: cst.CSTNode, chain: tuple[int, ...]) -> None:
        """Bindings of the statements in `block` and the blocks nested in them (not nested scopes),
        each with the chain of statements around it."""
        for child in children(block):
            if isinstance(child, cst.SimpleStatementLine):
                inner = (*chain, id(child))
                for small in child.body:
                    self._bind_statement(scope, small, inner)
            elif isinstance(child, cst.BaseSmallStatement):  # in a one-line suite: `if a: x = 1`
                self._bind_statement(scope, child, (*chain, id(child)))
            elif isinstance(child, (cst.BaseCompoundStatement, cst.ExceptHandler, cst.ExceptStarHandler)):
                inner = (*chain, id(child))
                self._bind_statement(scope, child, inner)
                if not isinstance(child, (cst.FunctionDef, cst.ClassDef)):
                    self._bind_block(scope, child, inner)
            elif isinstance(child, (cst.BaseSuite, cst.Else, cst.Finally, cst.MatchCase)):
                if type(child) is ElidedBlock and not child.is_parsed:
                    continue  # a body left unparsed binds nothing a rule looks at
                if isinstance(child, cst.MatchCase):
                    self._bind_statement(scope, child, (*chain, id(child)))  # its pattern's captures
                self._bind_block(scope, child, chain)

    def _bind_statement(self, scope: Scope, statement: cst.CSTNode, chain: tuple[int, ...]) -> None:
        if isinstance(statement, cst.Assign):
            for target in statement.targets:
                bind_target(scope, target.target, Binding("value", scope, statement.value, (), chain))
        elif isinstance(statement, cst.AnnAssign) and statement.value is not None:
            bind_target(scope, statement.target, Binding("value", scope, statement.value, (), chain))
        elif isinstance(statement, cst.AugAssign):
            bind_target(scope, statement.target, Binding("augmented", scope, statement, (), chain))
        elif isinstance(statement, cst.With):
            for item in statement.items:
                if item.asname is not None:
                    bind_target(scope, item.asname.name, Binding("opaque", scope, None, (), chain))
        elif isinstance(statement, cst.For):
            bind_target(scope, statement.target, Binding("for", scope, statement.iter, (), chain))
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            how = "class" if isinstance(statement, cst.ClassDef) else "def"
            scope.add(statement.name.value, Binding(how, scope, statement, (), chain))
        elif isinstance(statement, (cst.Import, cst.ImportFrom)):
            for local in imported_names(statement):
                scope.add(local, Binding("import", scope, cst.Name(local), (), chain))
        elif isinstance(statement, (cst.ExceptHandler, cst.ExceptStarHandler)):
            if statement.name is not None:
                bind_target(scope, statement.name.name, Binding("opaque", scope, None, (), chain))
        elif isinstance(statement, cst.Global):
            scope.declared_global.update(item.name.value for item in statement.names)
        elif isinstance(statement, cst.Nonlocal):
            scope.declared_nonlocal.update(item.name.value for item in statement.names)
        elif isinstance(statement, cst.MatchCase):
            for node in descendants(statement.pattern):
                if isinstance(node, (cst.MatchAs, cst.MatchStar)) and node.name is not None:
                    scope.add(node.name.value, Binding("opaque", scope, None, (), chain))
        if self._words[":="]:
            self._bind_walruses(scope, statement, chain)

    def _bind_walruses(self, scope: Scope, statement: cst.CSTNode, chain: tuple[int, ...]) -> None:
        """`(m := Pipeline())` binds `m` in the enclosing scope (comprehensions included)."""
        parts = [statement] if isinstance(statement, cst.BaseSmallStatement) else headers(statement)
        for part in parts:
            for node in descendants(part, lambda n: isinstance(n, (cst.Lambda, cst.BaseSuite))):
                if isinstance(node, cst.NamedExpr) and isinstance(node.target, cst.Name):
                    scope.add(node.target.value, Binding("value", scope, node.value, (), chain, maybe=True))

    def _bind_from_inner_scopes(self, scope: Scope, declaration: type) -> None:
        """Assignments in nested functions that declare the name `global` (for the module scope)
        or `nonlocal` (for their enclosing function) rebind it here."""
        outer = scope.node
        keyword = "global" if declaration is cst.Global else "nonlocal"
        # A body left unparsed that never says the keyword declares nothing: it stays unparsed.
        worth_parsing = lambda block: block.is_parsed or block.mentions(keyword)  # noqa: E731
        body = outer.body if isinstance(outer, cst.FunctionDef) else outer
        for statement in walk_statements(body, into_elided=worth_parsing):
            if not isinstance(statement, cst.FunctionDef) or statement is outer:
                continue
            if type(statement.body) is ElidedBlock and not worth_parsing(statement.body):
                continue
            declared = {
                item.name.value for small in walk_statements(statement.body, into_scopes=False)
                if isinstance(small, declaration) for item in small.names
            }
            if declared and (declaration is cst.Global or self._encloses_directly(outer, statement)):
                inner = self.scope(statement, self._scope_chain_to(statement, scope))
                for name in declared:
                    for binding in inner.bindings.get(name, []):
                        if binding.how != "param":
                            scope.add(name, Binding(binding.how, inner, binding.value, binding.path, ()))

    def _encloses_directly(self, outer: cst.FunctionDef, inner: cst.FunctionDef) -> bool:
        return any(statement is inner for statement in walk_statements(outer.body, into_scopes=False))

    def _scope_chain_to(self, function: cst.FunctionDef, outer: Scope) -> Scope:
        """The scope a nested function's scope hangs from (its enclosing function's, or `outer`).
        A body still unparsed cannot hold `function` (a node of a parsed tree): it stays unparsed."""
        parsed = lambda block: block.is_parsed  # noqa: E731
        body = outer.node.body if isinstance(outer.node, cst.FunctionDef) else outer.node
        for statement in walk_statements(body, into_elided=parsed):
            if isinstance(statement, cst.FunctionDef) and statement is not outer.node:
                if type(statement.body) is ElidedBlock and not statement.body.is_parsed:
                    continue
                if any(s is function for s in walk_statements(statement.body, into_scopes=False)):
                    return self.scope(statement, self._scope_chain_to(statement, outer))
        return outer

    def comprehension_bindings(self, name: str, stack, scope: Scope) -> Iterable[Binding]:
        for node in reversed(stack):
            if isinstance(node, SCOPE_TYPES):
                return
            if isinstance(node, COMPREHENSION_TYPES):
                comp_for = node.for_in
                while comp_for is not None:
                    probe = Scope(node, scope)
                    bind_target(probe, comp_for.target, Binding("for", scope, comp_for.iter))
                    if name in probe.bindings:
                        yield from probe.bindings[name]
                        return
                    comp_for = comp_for.inner_for_in

    def lookup(self, name: str, scope: Scope) -> list[Binding] | None:
        current: Scope | None = scope
        if name in scope.declared_global:
            current = self.module_scope()
        elif name in scope.declared_nonlocal:
            current = scope.parent
        while current is not None:
            if name in current.bindings:
                return current.bindings[name]
            current = current.parent
        return None

    def scope_of_node(self, target: cst.CSTNode) -> Scope | None:
        """The scope holding `target`, found by walking down from the module (rarely needed)."""
        path = self.parents.path_to(self.module, target)
        return self.at(path) if path is not None else None


def bind_target(scope: Scope, target: cst.CSTNode, binding: Binding) -> None:
    if isinstance(target, cst.Name):
        scope.add(target.value, binding)
    elif isinstance(target, (cst.Tuple, cst.List)):
        elements = target.elements
        star = next((i for i, e in enumerate(elements) if isinstance(e, cst.StarredElement)), None)
        for index, element in enumerate(elements):
            if isinstance(element, cst.StarredElement):
                bind_target(scope, element.value, Binding("opaque", scope, None, (), binding.chain))
            else:
                # after a starred target, a name's place counts from the end (`*_, last = ...`)
                place = index if star is None or index < star else index - len(elements)
                nested = Binding(binding.how, scope, binding.value, binding.path + (place,), binding.chain)
                bind_target(scope, element.value, nested)


# ---- flow: the bindings that can reach a use ----------------------------------------------
def reaching(bindings: list[Binding], scope: Scope, at: Sequence[cst.CSTNode],
             within_iteration: bool = False) -> list[Binding] | None:
    """The bindings that can reach the use `at` describes, walking back from it through the
    statements before it; None when they cannot be told apart (then all of them count).
    `within_iteration`: None as well when a binding from a loop's previous iteration may reach."""
    if any(binding.scope is not scope or (not binding.chain and binding.how != "param") for binding in bindings):
        return None
    top = next((i for i in range(len(at) - 1, -1, -1) if at[i] is scope.node), None)
    if top is None:
        return None
    reaching: list[Binding] = []
    for depth in range(len(at) - 1, top, -1):
        node, parent = at[depth], at[depth - 1]
        if isinstance(parent, (cst.For, cst.While)) and node is parent.body:
            own = [b for b in bindings if b.how == "for" and b.chain and b.chain[-1] == id(parent)]
            if own and isinstance(parent, cst.For):
                return reaching + own  # the loop target, rebound at each iteration's start
            previous = [b for b in bindings if id(parent) in b.chain]  # the previous iteration's
            previous = _left_by_loop(parent, previous) if previous else previous
            if previous and within_iteration:
                return None
            reaching += previous
        if isinstance(parent, (cst.Try, cst.TryStar, cst.For, cst.While)) and node is not parent.body:
            # a handler, `else` or `finally`: what the `try` body (or the loop) bound may have run,
            # or not: all of the statement's bindings may reach
            reaching += [b for b in bindings if id(parent) in b.chain and b not in reaching]
        # (a `match` has cases, not a body: its subject binds no name the cases could see first)
        if isinstance(parent, cst.BaseCompoundStatement) and node in (getattr(parent, "body", None),
                                                                      getattr(parent, "orelse", None)):
            # the header (a walrus in the test, `with ... as name`) runs before the body or else
            header = [b for b in bindings if b.chain and b.chain[-1] == id(parent) and b.how != "for"]
            if header:
                return reaching + header
        if isinstance(parent, _BLOCKS):
            siblings = list(parent.body)
            position = next((i for i, s in enumerate(siblings) if s is node), None)
            found, surely = _walked_back(siblings[:position] if position is not None else [], bindings)
            reaching += found
            if surely:
                return reaching
    reaching += [b for b in bindings if b.how == "param"]
    return reaching or None


def _left_by_loop(loop: cst.For | cst.While, hits: list[Binding]) -> list[Binding]:
    """Of a loop's bindings of a name, those that can still hold after it: where every pass ends by
    rebinding the name (`img = batch` then `img = Variable(img.cuda())`), the earlier ones of a pass
    are overwritten before the loop can end. All of them when a pass can leave early (`break`,
    `continue`) or the loop has an `else`."""
    if loop.orelse is not None or not isinstance(loop.body, cst.IndentedBlock) or _jumps(loop.body):
        return hits
    left, surely = _walked_back(loop.body.body, hits)
    # a walrus in the header runs before any pass (and a `while` test after every pass): it holds
    # too; without a sure rebinding, so does the loop target (or what the previous pass left: `left`)
    header = [b for b in hits if b.chain and b.chain[-1] == id(loop) and (b.how != "for" or not surely)]
    return left + header


def _walked_back(statements: Sequence[cst.CSTNode], bindings: list[Binding]) -> tuple[list[Binding], bool]:
    """Walking back from the end of `statements`: the bindings that can hold past the last one,
    and whether one of them surely happens (then nothing before it can)."""
    found: list[Binding] = []
    for statement in reversed(statements):
        hits = [b for b in bindings if id(statement) in b.chain]
        if hits and isinstance(statement, cst.With) and _runs_through(statement):
            inner, surely = _with_walked_back(statement, hits)
            found += inner
            if surely:
                return found, True
            continue
        if hits and isinstance(statement, cst.If):
            found += _if_walked_back(statement, hits)
            if always_binds(statement, hits):
                return found, True
            continue
        if hits and isinstance(statement, (cst.For, cst.While)):
            hits = _left_by_loop(statement, hits)
        found += hits
        if hits and always_binds(statement, hits):
            return found, True
    return found, False


def _if_walked_back(statement: cst.If, hits: list[Binding]) -> list[Binding]:
    """An `if`: each branch runs its body as straight-line code, so what a branch binds last
    overwrites what it bound before (`enc = DataParallel(net)`, then `enc = next(enc.children())`):
    the bindings that can hold past the statement are each branch's last ones, and a walrus in a
    test unless every branch surely rebinds. (An exception leaving a branch halfway leaves the
    statement too: a handler around it is judged with every binding of its `try`.)"""
    tests: list[Binding] = []
    found: list[Binding] = []
    every_branch_binds = True
    branch: cst.CSTNode | None = statement
    while isinstance(branch, cst.If):  # the `if`, then each `elif`
        tests += [b for b in hits if b.chain[-1] == id(branch)]
        inner, surely = _walked_back(branch.body.body, hits)
        found += inner
        every_branch_binds = every_branch_binds and surely
        branch = branch.orelse
    if branch is None:
        return found + tests  # no `else`: the statement may bind nothing
    inner, surely = _walked_back(branch.body.body, hits)
    return found + inner + ([] if every_branch_binds and surely else tests)


def _with_walked_back(statement: cst.With, hits: list[Binding]) -> tuple[list[Binding], bool]:
    """A `with` block runs its body through, as straight-line code: what the body binds last
    overwrites what it bound before (`out = model(x)`, then `out = out.clamp(0, 1)`), and the
    `as` targets hold when the body does not rebind them."""
    inner, surely = _walked_back(statement.body.body, hits)
    if surely:
        return inner, True
    header = [b for b in hits if b.chain[-1] == id(statement)]
    return inner + header, any(not b.maybe for b in header)


# Context managers known never to swallow an exception raised in their body (a `with` whose
# manager may, `contextlib.suppress` under any name, a class whose `__exit__` returns True, a
# `@contextmanager` catching, `subTest`, lets the code after the block run without the body's
# last statements): torch's own, and files and warnings.
# Named so as written: a bare name (as imported from torch, or the builtin `open`) or under the
# module that defines it; `store.open()`, a method of the program's own, may swallow anything.
_RUN_THROUGH_CONTEXTS = frozenset({"no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "autocast",
                                   "open", "catch_warnings", "amp.autocast", "io.open", "warnings.catch_warnings"})


def _runs_through(statement: cst.With) -> bool:
    if not isinstance(statement.body, cst.IndentedBlock) or statement.asynchronous is not None:
        return False
    for item in statement.items:
        manager = dotted_name(item.item.func if isinstance(item.item, cst.Call) else item.item) or ""
        if manager.split(".")[0] != "torch" and manager not in _RUN_THROUGH_CONTEXTS:
            return False
    return True


def _jumps(block: cst.CSTNode) -> bool:
    """A `break` or `continue` of this loop's body (not of a loop or function inside it)."""
    inner = (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda)
    return any(isinstance(node, (cst.Break, cst.Continue))
               for node in descendants(block, prune=lambda node: isinstance(node, inner)))


def always_binds(statement: cst.CSTNode, hits: list[Binding]) -> bool:
    """One of `hits` surely happens when `statement` runs and control goes on past it: it is one of
    the statement's own small statements, or every branch of an `if`/`elif`/`else` binds or leaves
    (`if arch == "a": net = A() elif ...: net = B() else: raise ValueError(arch)`)."""
    if isinstance(statement, cst.SimpleStatementLine):
        return any(binding.chain[-1] == id(statement) and not binding.maybe for binding in hits)
    if isinstance(statement, cst.If) and statement.orelse is not None:
        rest = statement.orelse if isinstance(statement.orelse, cst.If) else statement.orelse.body
        return _block_always_binds(statement.body, hits) and (
            always_binds(rest, hits) if isinstance(rest, cst.If) else _block_always_binds(rest, hits))
    return False


def _block_always_binds(block: cst.CSTNode, hits: list[Binding]) -> bool:
    if isinstance(block, cst.SimpleStatementSuite):  # `else: raise ValueError(arch)` on one line
        return _leaves(block.body) or any(binding.chain[-1] == id(small) and not binding.maybe
                                          for small in block.body for binding in hits)
    return any(always_binds(statement, hits) or (isinstance(statement, cst.SimpleStatementLine)
                                                  and _leaves(statement.body))
               for statement in block.body)


def _leaves(smalls: Sequence[cst.CSTNode]) -> bool:
    """Small statements after which the block's next statements do not run (`raise`, `return`)."""
    return any(isinstance(small, (cst.Raise, cst.Return, cst.Continue, cst.Break)) for small in smalls)


def headers(statement: cst.CSTNode) -> list[cst.CSTNode]:
    """The expressions in a compound statement's header (where a walrus can stand)."""
    for name in ("test", "iter", "items", "subject"):
        value = getattr(statement, name, None)
        if value is not None:
            return list(value) if isinstance(value, (list, tuple)) else [value]
    return []


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


def imported_names(statement: cst.Import | cst.ImportFrom) -> list[str]:
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
