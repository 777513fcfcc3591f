"""What a function's names hold where they are read: the value bound last before a statement in
its block (and through the compound statements that cannot rebind it), after a branch or a
loop, at a `return`; the statements run with autograd off. Names with a leading underscore are
the project index's internals, shared by its modules."""

from __future__ import annotations

import ast

from torchlint.project.containers import _handed_on
from torchlint.project.descriptors import Descriptor, _describe, _describe_returned, _target_bindings, _target_paths
from torchlint.project.syntax import _COMPOUND, _dotted, _statements, _walk


def _runs_later(statement: ast.stmt) -> bool:
    """A statement holding a generator expression or a lambda: their bodies run when consumed
    or called, not where the statement stands (`gen = (net for _ in r)`, then `net = ...`)."""
    return any(type(node) in (ast.GeneratorExp, ast.Lambda) for node in ast.walk(statement))


def _bindings(statement: ast.stmt, key: str | None, local_names: frozenset[str], describe: bool = True,
              walrus: bool = True):
    """(name, descriptor) for each name the statement binds (not entering nested scopes)."""
    d = (lambda value: _describe(value, key, local_names)) if describe else (lambda value: None)
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            yield from _target_bindings(target, d(statement.value) if describe else None, ())
    elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        yield statement.target.id, d(statement.value) if statement.value is not None else None
    elif isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name):
        yield statement.target.id, ("aug", d(statement.value)) if describe else None
    elif isinstance(statement, (ast.For, ast.AsyncFor)):
        iterated = d(statement.iter) if describe else None
        for name, path in _target_paths(statement.target, ()):
            yield name, ("iter", iterated, path) if describe and iterated is not None else None
    elif isinstance(statement, (ast.With, ast.AsyncWith)):
        for item in statement.items:
            if item.optional_vars is not None:
                for name, _ in _target_paths(item.optional_vars, ()):
                    yield name, None
    elif isinstance(statement, (ast.Import, ast.ImportFrom)) and key is not None:
        for alias in statement.names:
            if alias.name != "*":
                yield (alias.asname or alias.name.split(".")[0]), None
    elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and key is not None:
        yield statement.name, None
    elif isinstance(statement, ast.Try):
        for handler in statement.handlers:
            if handler.name:
                yield handler.name, None
    if walrus and not isinstance(statement, _COMPOUND):  # walrus targets bind in the enclosing scope
        for node in _walk(statement):
            if isinstance(node, ast.NamedExpr):
                yield node.target.id, d(node.value) if describe else None


def _last_top_level_values(body: list[ast.stmt], key: str, local_names: frozenset[str],
                           grown: set[str] = frozenset()) -> dict[int, Descriptor]:
    """For a `return name` in the function's own body (not in a block, but for the body of a
    `try` or `with` standing in it: `try: ...; return output, hidden` `except: log(...)`), what
    the name was last bound to by a plain assignment before it, when no statement between them
    may rebind it: `x = self.conv(x); x = self.fc(x); return x` returns the `fc` call (id of the
    return -> descriptor). A list the function grows (`grown`: `saved = []`, then
    `saved.append(out)`) is returned as the local, which holds what was added too."""
    returns = list(_sequential_returns(body))
    returned = {name.id for s in returns for name in _returned_names(s.value)}
    returned |= {name for s in returns for name in _names_read_by_call(s.value)}
    returned -= grown
    if not returned:
        return {}  # most functions: nothing to work out
    found: dict[int, Descriptor] = {}
    _last_values_in_block(body, {}, returned, found, key, local_names)
    return found


def _stores_in_items(statement: ast.stmt, name: str) -> bool:
    """`with recording() as log:` binds `log` before the body runs."""
    items = statement.items if isinstance(statement, ast.With) else []
    return any(isinstance(node, ast.Name) and node.id == name
               for item in items if item.optional_vars is not None for node in ast.walk(item.optional_vars))


def _names_bound_by(node: ast.AST) -> list[str]:
    """The names a node binds where it stands: a stored name, an import's, a definition's."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return [node.id]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [alias.asname or alias.name.split(".")[0] for alias in node.names]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    return []


def _sequential_returns(body: list[ast.stmt]):
    """The `return`s of a block, and of the `try` and `with` bodies standing in it (their
    statements run in order, as the block's own do)."""
    for statement in body:
        if isinstance(statement, ast.Return):
            yield statement
        elif isinstance(statement, (ast.Try, ast.With)):
            yield from _sequential_returns(statement.body)


def _last_values_in_block(body: list[ast.stmt], last: dict[str, Descriptor], returned: set[str],
                          found: dict[int, Descriptor], key: str, local_names: frozenset[str], grad_off: bool = False) -> None:
    for statement in body:
        if isinstance(statement, (ast.Try, ast.With)):
            # its body continues the block (with what was bound before it, but what `as` binds);
            # after it, what it binds may or may not have been bound (an exception): unknown, as below
            before = {name: value for name, value in last.items() if not _stores_in_items(statement, name)}
            _last_values_in_block(statement.body, before, returned, found, key, local_names,
                                  (grad_off or _turns_grad_off(statement)) and not _turns_grad_on(statement))
        if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Name):
            if last.get(statement.value.id) is not None:
                found[id(statement)] = last[statement.value.id]
        elif isinstance(statement, ast.Return) and _returned_names(statement.value):
            # `return output, hidden`: each name by its last value, the others as written
            elements = tuple(last.get(e.id) if isinstance(e, ast.Name) and last.get(e.id) is not None
                             else _describe_returned(e, key, local_names) for e in statement.value.elts)
            found[id(statement)] = ("list", elements)
        elif isinstance(statement, ast.Return) and last and _names_read_by_call(statement.value):
            # `output = self.head(output); return output.view(-1)`: read at its last value
            described = _describe(statement.value, key, local_names)
            at_return = _with_last_values(described, key, last)
            if at_return != described:
                found[id(statement)] = at_return
        elif (isinstance(statement, ast.Assign) and len(statement.targets) == 1
              and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id in returned):
            # the names it reads at their own last values (`x = self.fc(x); x = x.view(-1)`), while
            # the description stays small (a forward of a hundred `x = layer(x)` keeps the last few)
            described = _describe(statement.value, key, local_names)
            chained = _with_last_values(described, key, last)
            value = chained if _size_within(chained, _CHAIN_SIZE) else described
            # (made with autograd off: `with torch.no_grad(): l3 = model.weight.norm()`)
            last[statement.targets[0].id] = ("no graph", value) if grad_off and value is not None and _computes(statement) else value
        elif isinstance(statement, ast.If) and any(_stores(statement, name) for name in returned):
            # `if arch == "a": arch = A() elif ...: arch = B() else: raise ...`: every branch binds;
            # `x = self.conv(x)`, `if self.bn is not None: x = self.bn(x)`: either value
            for name in returned:
                if _stores(statement, name):
                    value = _value_after_if(statement, name, key, local_names)
                    if value is None and not statement.orelse and last.get(name) is not None:
                        value = _either_after_if(statement, name, last, key, local_names)
                    last[name] = value if value is not _LEAVES else None
        elif last:
            # anything else that may bind a returned name (in a block, a tuple target, a walrus,
            # a `for`, an import, a `def` or `class`): which value reaches the return is not known,
            # but for a loop whose body ends binding it (`for conv in self.convs: x = conv(x)`)
            after_loop = {name: _either_after_loop(statement, name, last, key, local_names) for name in returned if name in last}
            for node in _walk(statement):
                for bound in _names_bound_by(node):
                    last.pop(bound, None)
            last.update((name, value) for name, value in after_loop.items() if value is not None)


_LEAVES = ("leaves",)  # a block that never runs to its end (it raises, returns, breaks or continues)


def _grad_off_statements(body: list[ast.stmt], off: bool = False) -> set[int]:
    """The ids of the simple statements of a function's blocks that run in a `with
    torch.no_grad():` block of it (not in an `enable_grad()` block inside one)."""
    found = set()
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        inner = off
        if isinstance(statement, ast.With):
            if _turns_grad_off(statement):
                inner = True
            elif _turns_grad_on(statement):
                inner = False
        if not isinstance(statement, _COMPOUND):
            if off:
                found.add(id(statement))
            continue
        for field in ("body", "orelse", "finalbody"):
            found |= _grad_off_statements(getattr(statement, field, None) or [], inner if field == "body" else off)
        for clause in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
            found |= _grad_off_statements(clause.body, off)
    return found


def _computes(statement: ast.stmt) -> bool:
    """Whether a statement's assigned value makes a new object (a call, arithmetic, an index)
    rather than naming one that exists (`loss = out`, `best = a if c else b`); `x += y` makes one."""
    if type(statement) is ast.AugAssign:
        return True
    if type(statement) not in (ast.Assign, ast.AnnAssign) or statement.value is None:
        return False
    return _makes_new(statement.value)


def _makes_new(value: ast.expr) -> bool:
    kind = type(value)
    if kind in (ast.Name, ast.Attribute):
        return False
    if kind is ast.IfExp:
        return _makes_new(value.body) and _makes_new(value.orelse)
    if kind in (ast.Tuple, ast.List):
        return all(type(e) is not ast.Starred and _makes_new(e) for e in value.elts)
    return True


def _turns_grad_on(statement: ast.stmt) -> bool:
    """`with torch.enable_grad():`, or `set_grad_enabled(...)` (with whatever argument)."""
    return isinstance(statement, ast.With) and any(
        (_dotted(item.context_expr.func if type(item.context_expr) is ast.Call else item.context_expr) or "")
        .rsplit(".", 1)[-1] in ("enable_grad", "set_grad_enabled") for item in statement.items)


def _turns_grad_off(statement: ast.stmt) -> bool:
    """`with torch.no_grad():`, `with torch.inference_mode():` (as written, given no argument)."""
    return isinstance(statement, ast.With) and any(
        type(item.context_expr) is ast.Call and not item.context_expr.args and not item.context_expr.keywords
        and (_dotted(item.context_expr.func) or "").rsplit(".", 1)[-1] in ("no_grad", "inference_mode")
        for item in statement.items)


def _reaching_values(body: list[ast.stmt], key: str, local_names: frozenset[str], rebound: frozenset[str],
                     walrus: bool, nested: bool = True) -> dict[int, dict[str, Descriptor]]:
    """For the simple statements of a function's blocks (a line each), what a name bound more
    than once holds there when a plain assignment earlier in the same block gave it its value
    and nothing between may have rebound it: `x = model(x)`, `x = F.softmax(x)`, then `pick(x)`
    passes the softmax. The same block runs in order on every pass of a loop around it, so a
    value found there is the one that reaches. Lines holding two statements are left out.
    `nested`: the function may hold a nested function, class or lambda."""
    found: dict[int, dict[str, Descriptor]] = {}
    shared: set[int] = set()
    # names a nested function or lambda reads: a call of it may change a display they hold at any
    # statement (`def tag(): feats[0] = r`, then `tag()`), so no display they hold reaches on
    in_closures = _read_in_nested_scopes(body) & rebound if nested else set()

    def keeps(name: str, value: Descriptor) -> bool:
        return name in rebound and value is not None and not (name in in_closures and _holds_display(value))

    def scan(block: list[ast.stmt], seed: dict[str, Descriptor] | None = None) -> None:
        last: dict[str, Descriptor] = dict(seed) if seed else {}
        for statement in block:
            if isinstance(statement, _COMPOUND):
                if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    # what reaches the statement reaches its blocks, for the names nothing in it
                    # binds, deletes or changes (`loader = DataLoader(loader)`, then `for epoch in
                    # range(n): train(loader)`): every pass of a loop sees that one value
                    held = _kept_through(statement, last)
                    entering = _loop_entry_values(statement, {name: value for name, value in last.items() if name not in held},
                                                  key, local_names, walrus, in_closures) if len(held) < len(last) else {}
                    for field in ("body", "orelse", "finalbody"):
                        targets = _loop_targets(statement, key, local_names, rebound) if field == "body" else None
                        seed = {**held, **entering, **(targets or {})} if field == "body" else held
                        scan(getattr(statement, field, None) or [], seed)
                    for clause in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
                        scan(clause.body, held)
                bound = _bound_names(statement) if last or isinstance(statement, ast.If) else ()
                for name in [name for name in last if name in bound]:
                    after_loop = _either_after_loop(statement, name, last, key, local_names)
                    if after_loop is not None:
                        last[name] = after_loop  # `x = self.lin(x)`, `for conv in self.convs: x = conv(x)`
                    else:
                        del last[name]
                for name in _displays_changed(statement, last):
                    del last[name]
                if isinstance(statement, ast.If) and statement.orelse:
                    # `if cuda: targets = [a.cuda() for a in targets]`, `else: targets = [...]`: either
                    # branch's last plain assignment, read at what reaches it there (after the
                    # statement's own changes to what reached it: these are its values)
                    for name in sorted(bound & rebound):
                        either = [_last_assigned(branch, name, key, local_names, found) for branch in (statement.body, statement.orelse)]
                        if None not in either and _size_within(("either", *either), _CHAIN_SIZE) and keeps(name, ("either", *either)):
                            last[name] = ("either", *either)
                coerced = _coerced_name(statement)  # `if not isinstance(v, Variable): v = Variable(v)`
                if coerced in rebound:
                    value = _value_after_if(statement, coerced, key, local_names)
                    if value is not None and value is not _LEAVES:
                        last[coerced] = value
                continue
            if last and not (walrus and any(isinstance(node, ast.NamedExpr) for node in _walk(statement))):
                for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1):
                    if line in found:
                        shared.add(line)
                    found[line] = dict(last)
            before = dict(last)
            bound = _bound_names(statement) if last else ()
            for name in [name for name in last if name in bound] + _displays_changed(statement, last):
                last.pop(name, None)
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and (
                    isinstance(statement.targets[0], (ast.Tuple, ast.List)) or (
                    isinstance(statement.targets[0], ast.Name) and statement.targets[0].id in rebound)):
                # `points, label = points.float().cuda(), label.long().cuda()`: each name at its
                # element, read at the values that reach the statement
                value = _describe(statement.value, key, local_names)
                if before and value is not None:
                    chained = _with_last_values(value, key, before)
                    value = chained if chained != value and _size_within(chained, _CHAIN_SIZE) and not _runs_later(statement) else value
                for name, element in _target_bindings(statement.targets[0], value, ()):
                    if keeps(name, element):
                        last[name] = element

    scan(body)
    for line in shared:
        del found[line]
    return found


def _kept_through(statement: ast.stmt, last: dict[str, Descriptor]) -> dict[str, Descriptor]:
    """The values of `last` no part of the compound statement may rebind, delete or change."""
    if not last:
        return {}
    touched = set(_displays_changed(statement, last)) | _bound_by_patterns_and_clauses(statement)
    for node in _walk(statement):
        if type(node) is ast.Name and type(node.ctx) is not ast.Load:
            touched.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            touched.update(node.names)
    return {name: value for name, value in last.items() if name not in touched}


def _loop_entry_values(loop: ast.stmt, last: dict[str, Descriptor], key: str, local_names: frozenset[str],
                       walrus: bool, in_closures: set[str]) -> dict[str, Descriptor]:
    """What a name the loop's body binds again holds at the top of the body, where a plain
    assignment just before the loop gave it its value (`x_adv = Variable(x_adv.cuda(), ...)`, then
    `for t in range(steps): ... x_adv = linf_clamp(x_adv, ...)`): that value on the first pass, one
    the body binds on the others. `("loop", local, before, (values the body binds...))`, which the
    index judges by induction (ProjectIndex._loop_entry_kind). Not for a name the body binds
    where no value is described (a loop target, a tuple element unknown, `del`), nor for one a
    nested function reads (see _reaching_values), nor for displays (changed in place unseen)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or not last:
        return {}
    if walrus and any(type(node) is ast.NamedExpr for node in _walk(loop)):
        return {}  # (a `while (x := ...)` test binds it on every pass too)
    bound: dict[str, list[Descriptor]] = {}
    for statement in _statements(loop.body):
        for name, value in _bindings(statement, key, local_names, walrus=walrus):
            if name in last:
                bound.setdefault(name, []).append(value)
        if isinstance(statement, ast.Delete):
            return {}
    bound_otherwise = _bound_by_patterns_and_clauses(loop)
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        bound_otherwise |= {node.id for node in _walk(loop.target) if type(node) is ast.Name}  # the loop's own target
    found = {}
    for name, values in bound.items():
        before = last[name]
        if (name in in_closures or name in bound_otherwise or _holds_display(before)
                or any(value is None or _holds_display(value) for value in values)):
            continue
        # (the body's reads of the name are of what it holds in the loop: judged as the entry value,
        # by induction, without judging every other value read from the name that way)
        inside = ("loopvar", key, name)
        entry = ("loop", ("local", key, name), before, tuple(_renamed_local(value, key, name, inside) for value in values))
        if _size_within(entry, _CHAIN_SIZE):
            found[name] = entry
    return found


def _renamed_local(descriptor: Descriptor, key: str, name: str, renamed: tuple) -> Descriptor:
    """The descriptor with each read of the function's local `name` as `renamed`."""
    if not isinstance(descriptor, tuple):
        return descriptor
    if descriptor == ("local", key, name):
        return renamed
    return tuple(_renamed_local(part, key, name, renamed) for part in descriptor)


def _bound_by_patterns_and_clauses(statement: ast.stmt) -> set[str]:
    """The names a statement binds where `_bindings` describes no value: `case Box() as x`, a
    `case [*rest]` or `{**rest}` capture, `except E as x`, an import, a `def` or `class`."""
    found = set()
    for node in _walk(statement):
        kind = type(node)
        if kind in (ast.MatchAs, ast.MatchStar, ast.ExceptHandler) and node.name:
            found.add(node.name)
        elif kind is ast.MatchMapping and node.rest:
            found.add(node.rest)
        elif kind in (ast.Import, ast.ImportFrom):
            found.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            found.add(node.name)
    return found


def _read_in_nested_scopes(body: list[ast.stmt]) -> set[str]:
    """The names read inside the functions, lambdas and classes nested in `body` (walked only
    where there is one)."""
    found = set()
    for statement in body:
        for node in ast.walk(statement):
            if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef):
                found.update(inner.id for inner in ast.walk(node) if type(inner) is ast.Name)
    return found


def _loop_targets(statement: ast.stmt, key: str, local_names: frozenset[str], rebound: frozenset[str]) -> dict[str, Descriptor] | None:
    """What a `for` statement's target names (those bound more than once) hold at the start of its
    body, on every pass: `for x, label in loader:` gives `label` a batch's element there, whatever
    else the function binds to `label`."""
    if not isinstance(statement, (ast.For, ast.AsyncFor)):
        return None
    found = {name: value for name, value in _bindings(statement, key, local_names, walrus=False)
             if name in rebound and value is not None}
    return found or None


def _read_at_reaching_values(locals_: dict[str, list[Descriptor]], made_at: dict[str, list[tuple[int, ast.stmt]]],
                             reaching: dict[int, dict[str, Descriptor]], key: str) -> None:
    """Each local's value that reads a name bound more than once, read where the statement stands:
    `checkpoint = torch.load(checkpoint)`, then `decoder = checkpoint["decoder"]` holds what was
    loaded, not what the parameter or the load may hold (see _reaching_values). A value made from
    the name it binds (`x = x.cuda()`, `loss = loss + l`) is left to the index, which judges the
    local's values by induction (`_rebound_local_kind`)."""
    for name, places in made_at.items():
        values = locals_[name]
        for position, statement in places:
            last = reaching.get(statement.lineno)
            value = values[position]
            if last and value is not None and (len(last) > 1 or name not in last):
                read = _with_last_values(value, key, {other: v for other, v in last.items() if other != name})
                if read is not value and read != value and _size_within(read, _CHAIN_SIZE) and not _runs_later(statement):
                    values[position] = read


def _either_after_if(statement: ast.If, name: str, last: dict[str, Descriptor], key: str,
                     local_names: frozenset[str]) -> Descriptor | None:
    """What `name` holds after an `if` without an `else` that may bind it: the body's value (read
    at the last values it names) or the value it had before (`last`); the one before alone when
    the body never goes on."""
    body = _value_after(statement.body, name, key, local_names)
    if body is _LEAVES:
        return last[name]
    if body is None:
        return None
    if len(statement.body) == 1 and isinstance(statement.body[0], ast.Assign):  # (a longer block may bind what it reads)
        chained = _with_last_values(body, key, last)
        body = chained if _size_within(chained, _CHAIN_SIZE) else body
    return ("either", body, last[name])


def _either_after_loop(statement: ast.stmt, name: str, last: dict[str, Descriptor], key: str,
                       local_names: frozenset[str]) -> Descriptor | None:
    """What `name` holds after a `for`/`while` (without `else`) whose body ends binding it, and
    whose target does not: the value before the loop (no pass ran) or the body's (read at the
    values before it: by induction each pass gives that kind again). None where a `break` or
    `continue` may leave a value the body bound earlier, or the body's is not known."""
    if not isinstance(statement, (ast.For, ast.AsyncFor, ast.While)) or statement.orelse or last.get(name) is None:
        return None
    if isinstance(statement, (ast.For, ast.AsyncFor)) and any(
            isinstance(node, ast.Name) and node.id == name for node in ast.walk(statement.target)):
        return None
    if any(isinstance(node, (ast.Break, ast.Continue, ast.NamedExpr)) for node in ast.walk(statement)):
        return None  # (a walrus in the test or the body may rebind what the body reads)
    if any(isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
           and name in _names_bound_by(node) for inner in statement.body for node in ast.walk(inner)):
        return None  # `import torch.utils as x` in the body: not an assignment `_value_after` reads
    body = _value_after(statement.body, name, key, local_names)
    if body is None or body is _LEAVES:
        return None
    if len(statement.body) == 1 and isinstance(statement.body[0], ast.Assign):  # (a longer block may bind what it reads)
        chained = _with_last_values(body, key, last)
        body = chained if _size_within(chained, _CHAIN_SIZE) else body
    return ("either", body, last[name])


def _coerced_name(statement: ast.stmt) -> str | None:
    """`v` for `if not isinstance(v, ...):` (or `not torch.is_tensor(v)`) without an `else`."""
    if not isinstance(statement, ast.If) or statement.orelse:
        return None
    test = statement.test
    if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Call)):
        return None
    args = test.operand.args
    return args[0].id if args and isinstance(args[0], ast.Name) else None


def _last_assigned(block: list[ast.stmt], name: str, key: str, local_names: frozenset[str],
                   found: dict[int, dict[str, Descriptor]]) -> Descriptor:
    """What `name` holds at the end of a branch whose last statement binding it is a plain
    assignment standing in the branch itself (read at the values reaching it); None otherwise
    (a branch that leaves, or binds it some other way or deeper)."""
    after: list[ast.stmt] = []  # the branch's statements after the one binding it
    for statement in reversed(block):
        if isinstance(statement, (ast.Raise, ast.Return, ast.Continue, ast.Break)):
            return None
        if not _binds(statement, name):
            after.append(statement)
            continue
        if any(_handed_on(later, {name}, changed_here=True) for later in after):
            return None  # `feats = [...]`, then `feats[0] = r` in the branch: not what was made
        if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id == name):
            value = _describe(statement.value, key, local_names)
            reaching = found.get(statement.lineno)
            if value is not None and reaching and not _runs_later(statement):
                value = _with_last_values(value, key, {other: v for other, v in reaching.items() if other != name})
            return value
        return None
    return None


def _displays_changed(statement: ast.stmt, last: dict[str, Descriptor]) -> list[str]:
    """The names whose value in `last` is a list, dict or comprehension display that the statement
    may change: an item stored (`ms[0] = ms[0].state_dict()`), a method that puts in or takes out,
    or the container handed to a call or aliased. The statement itself reads what the display
    made (`loss = criterion(out, targets)`); the ones after it may not."""
    displays = {name for name, value in last.items() if _holds_display(value)}
    return sorted(_handed_on(statement, displays, changed_here=True)) if displays else []


def _holds_display(value: Descriptor) -> bool:
    """A list, dict or comprehension display, or a choice (`either`) one of whose options is one."""
    if value is None:
        return False
    if value[0] in ("list", "each", "dict"):
        return True
    return value[0] == "either" and any(_holds_display(option) for option in value[1:])


def _bound_names(statement: ast.stmt) -> set[str]:
    """Every name `_binds` says the statement may bind (one walk for all of them)."""
    names = {node.id for node in _walk(statement) if type(node) is ast.Name and type(node.ctx) is ast.Store}
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        names.add(statement.name)
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        names.update(alias.asname or alias.name.split(".")[0] for alias in statement.names)
    return names


def _binds(statement: ast.stmt, name: str) -> bool:
    """The statement may bind `name`: an assignment of any form, a `def` or `class` of that
    name, an import under it."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and statement.name == name:
        return True
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return any((alias.asname or alias.name.split(".")[0]) == name for alias in statement.names)
    return _stores(statement, name)


def _returned_names(value: ast.expr | None) -> list[ast.Name]:
    """The names a `return` gives back: itself, or a tuple's (or list's) plain names."""
    if isinstance(value, ast.Name):
        return [value]
    if isinstance(value, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in value.elts):
        return [e for e in value.elts if isinstance(e, ast.Name)]
    return []


def _names_read_by_call(value: ast.expr | None) -> list[str]:
    """`return out.view(-1)`, `return self.fc(out)`: the plain names a returned call reads as its
    receiver chain or first argument (what decides its kind)."""
    if not isinstance(value, ast.Call):
        return []
    names = []
    receiver = value.func.value if isinstance(value.func, ast.Attribute) else None
    while isinstance(receiver, (ast.Attribute, ast.Call, ast.Subscript)):
        receiver = receiver.func if isinstance(receiver, ast.Call) else receiver.value
    if isinstance(receiver, ast.Name):
        names.append(receiver.id)
    if value.args and isinstance(value.args[0], ast.Name):
        names.append(value.args[0].id)
    return names


_CHAIN_SIZE = 120  # how many tuples a descriptor of chained last values may hold, counted as a tree


def _size_within(descriptor: Descriptor, limit: int) -> bool:
    """Whether the descriptor, read as a tree (its shared parts counted each time they appear:
    hashing and evaluating it does so), holds at most `limit` tuples; stops counting past it."""
    count = 0
    pending = [descriptor]
    while pending:
        part = pending.pop()
        if isinstance(part, tuple):
            count += 1
            if count > limit:
                return False
            pending.extend(part)
    return True


def _with_last_values(descriptor: Descriptor, key: str, last: dict[str, Descriptor], kept: bool = True) -> Descriptor:
    """The descriptor with each of the function's locals read as its last value, where known. A
    display is not read where the value is that very object (`feats = t`, `pair = [t, u]`, `t if c
    else u`: `kept`): a later change through the other name (`t[0] = r`) would not show there."""
    if not isinstance(descriptor, tuple):
        return descriptor
    if descriptor[:1] == ("local",) and len(descriptor) == 3 and descriptor[1] == key:
        value = last.get(descriptor[2])
        return value if value is not None and not (kept and _holds_display(value)) else descriptor
    tag = descriptor[0] if kept else None
    if descriptor[:1] == ("loop",):
        return descriptor  # (its values read the name as the loop's body binds it, not as `last` says)
    if tag == "either":
        return (tag, *(_with_last_values(part, key, last) for part in descriptor[1:]))
    if tag == "list" and len(descriptor) == 2 and isinstance(descriptor[1], tuple):
        return (tag, tuple(_with_last_values(part, key, last) for part in descriptor[1]))
    if tag == "dict" and len(descriptor) == 3 and isinstance(descriptor[2], tuple):
        return (tag, descriptor[1], tuple(_with_last_values(part, key, last) for part in descriptor[2]))
    return tuple(_with_last_values(part, key, last, False) for part in descriptor)


def _stores(statement: ast.stmt, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
               for node in _walk(statement))


def _value_after_if(statement: ast.If, name: str, key: str, local_names: frozenset[str]) -> Descriptor | None:
    """What `name` surely holds after an `if` that binds it in every branch that goes on (None:
    not known; _LEAVES: no branch goes on). Without an `else`, a test that fails only for an
    instance of a class (`if not isinstance(v, Variable): v = Variable(v)`) gives that instance."""
    if statement.orelse:
        otherwise = _value_after(statement.orelse, name, key, local_names)
    else:
        otherwise = _passed_type_test(statement.test, name, key, local_names)
        if otherwise is None:
            return None
    values = [_value_after(statement.body, name, key, local_names), otherwise]
    going_on = [value for value in values if value is not _LEAVES]
    if not going_on:
        return _LEAVES
    if any(value is None for value in going_on):
        return None
    return going_on[0] if len(going_on) == 1 else ("either", going_on[0], going_on[1])


def _passed_type_test(test: ast.expr, name: str, key: str, local_names: frozenset[str]) -> Descriptor | None:
    """`("instance", cls)` when `test` is false only for an instance of `cls`: `not isinstance(name,
    cls)` (one class), `not torch.is_tensor(name)`."""
    if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Call)):
        return None
    call = test.operand
    if call.keywords or not call.args or not (isinstance(call.args[0], ast.Name) and call.args[0].id == name):
        return None
    called = _dotted(call.func)
    if called == "isinstance" and len(call.args) == 2 and _dotted(call.args[1]) is not None:
        return ("instance", _describe(call.args[1], key, local_names))
    if called == "torch.is_tensor" and len(call.args) == 1:  # (`tu.is_tensor` may be anything's)
        return ("instance", ("ref", "torch.Tensor"))
    return None


def _value_after(body: list[ast.stmt], name: str, key: str, local_names: frozenset[str]) -> Descriptor | None:
    """What `name` surely holds when `body` runs to its end (None: not known, or never bound)."""
    value = None
    for statement in body:
        if isinstance(statement, (ast.Raise, ast.Return, ast.Continue, ast.Break)):
            return _LEAVES
        if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id == name):
            value = _describe(statement.value, key, local_names)
        elif isinstance(statement, ast.If) and _stores(statement, name):
            value = _value_after_if(statement, name, key, local_names)
            if value is _LEAVES:
                return _LEAVES
        elif _stores(statement, name):
            value = None
    return value
