"""Whether a container a function makes still holds what it was made with where it is read: grown
through `append` and item stores (a list of what was added), or changed out of sight (handed to a
call, aliased, read by a nested scope, its items stored or taken out). Names with a leading
underscore are the project index's internals, shared by its modules."""

from __future__ import annotations

import ast
import re

from torchlint.kinds import CONTAINER_MUTATING_METHODS
from torchlint.project.descriptors import Descriptor, _LAST_ITEM, _describe, _string_keyed
from torchlint.project.syntax import _COMPOUND, _NESTED_SCOPES, _all_children, _called_name, _dotted, _statements


def _returned_dicts(function: ast.AST, statements: list[ast.stmt], locals_: dict[str, list],
                    local_names: frozenset[str]) -> dict[int, ast.Dict]:
    """The dict displays with string keys a function returns and nothing changes first (id of the
    `return` -> the display): `return {"clip": out, "emb": e}`, or a local `output = {...}` bound
    once and read only by `return output` (an item stored, a method called, the name handed on,
    declared `global`, captured by a `case`, or the function reading `locals()`, may change what a
    key holds)."""
    found: dict[int, ast.Dict] = {}
    named: dict[str, list[ast.Return]] = {}
    for statement in statements:
        if type(statement) is not ast.Return:
            continue
        if type(statement.value) is ast.Dict and _string_keyed(statement.value):
            found[id(statement)] = statement.value
        elif (type(statement.value) is ast.Name and statement.value.id in local_names
              and len(locals_.get(statement.value.id, ())) == 1):
            named.setdefault(statement.value.id, []).append(statement)
    for name, returns in named.items():
        display = next((s.value for s in statements if type(s) is ast.Assign and len(s.targets) == 1
                        and type(s.targets[0]) is ast.Name and s.targets[0].id == name), None)
        if type(display) is not ast.Dict or not _string_keyed(display):
            continue
        if _named_only_by(function, name) == len(returns) + 1:  # the binding and the returns: nothing else
            found.update((id(r), display) for r in returns)
    return found


def _named_only_by(function: ast.AST, name: str) -> int | None:
    """How many Name nodes of the function are `name`; None where it names it otherwise too (a
    `global`/`nonlocal`, a `case` capture, an `except ... as`, an import, a definition, a
    parameter) or reads its namespace (`locals()`, `vars()`, `exec`, `eval`)."""
    count = 0
    for node in ast.walk(function):
        kind = type(node)
        if kind is ast.Name:
            if node.id == name:
                count += 1
            elif node.id in NAMESPACE_READERS:
                return None
        elif kind in (ast.Global, ast.Nonlocal, ast.alias, ast.MatchAs, ast.MatchStar, ast.MatchMapping,
                      ast.ExceptHandler, ast.arg, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            if name in _names_declared(node):
                return None
    return count


NAMESPACE_READERS = frozenset({"locals", "vars", "exec", "eval"})


def _names_declared(node: ast.AST) -> set[str]:
    """The names a node binds other than through a Name node."""
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return set(node.names)
    if isinstance(node, ast.alias):
        return {node.asname or node.name.split(".")[0]}
    if isinstance(node, ast.MatchMapping):
        return {node.rest} if node.rest else set()
    if isinstance(node, (ast.MatchAs, ast.MatchStar, ast.ExceptHandler)):
        return {node.name} if node.name else set()
    if isinstance(node, ast.arg):
        return {node.arg}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    return set()


def _returned_locals(statements: list[ast.stmt], local_names: frozenset[str]) -> set[str]:
    """The locals a function returns by name (`return res`, `return out, res`)."""
    found = set()
    for statement in statements:
        if type(statement) is ast.Return and statement.value is not None:
            value = statement.value
            for element in value.elts if type(value) is ast.Tuple else (value,):
                if type(element) is ast.Name and element.id in local_names:
                    found.add(element.id)
    return found


def _changed_in_place(function: ast.AST, names: set[str], returned_displays: set[int]) -> set[str]:
    """The names that may hold a container changed after it was made: an item stored or deleted
    (`res["mse"] = res["mse"].item()`), a method that puts in or takes out (`res.update(...)`),
    or handed on, aliased or read by a nested scope (see _handed_on); held by a returned dict
    display (`returned_displays`, by id) is none of these."""
    if not names:
        return set()
    return _handed_on(function, names, changed_here=True, kept_by=returned_displays, rebinding=_rebinding_calls(function, names))


def _rebinding_calls(function: ast.AST, names: set[str]) -> set[tuple[int, str]]:
    """(id of the call, name) for each `name = call(..., name, ...)`: the call may change what the
    name held, but the name holds the call's result after it (`batches = self._to_tensor(batches)`)."""
    return {(id(node.value), node.targets[0].id) for node in _statements(function.body)
            if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name
            and node.targets[0].id in names and type(node.value) is ast.Call}


_MUTABLE_DISPLAYS = (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp)


def _mutable_displays(statements: list[ast.stmt]) -> set[str]:
    """The names a plain assignment binds to a list, dict or set display or comprehension (`arrs =
    [t.cpu() for t in batch]`): an item stored later (`arrs[i] = a.numpy()`), or the container
    handed to code that may change it, leaves its elements unknown (a tuple cannot change)."""
    return {statement.targets[0].id for statement in statements
            if type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name
            and type(statement.value) in _MUTABLE_DISPLAYS}


def _returned_tuples(statements: list[ast.stmt]) -> set[int]:
    """The ids of the tuple and list displays a `return` gives (nested ones too): a name in one
    (`return (out, aux), saved_for_loss`) is returned, not handed on."""
    found = set()
    pending = [statement.value for statement in statements if type(statement) is ast.Return]
    while pending:
        value = pending.pop()
        if type(value) in (ast.Tuple, ast.List):
            found.add(id(value))
            pending.extend(value.elts)
    return found


def _items_changed(statements: list[ast.stmt], names: set[str]) -> set[str]:
    """The names among `names` whose items the function's own statements store, delete or take
    out (`arrs[i] = a.numpy()`, `del d[k]`, `d.update(other)`, `x = q.pop()`): read at statement
    level, by the forms those take (a change inside a nested scope or deep in an expression is not
    looked for)."""
    found = set()
    for statement in statements:
        kind = type(statement)
        targets = statement.targets if kind in (ast.Assign, ast.Delete) else [statement.target] if kind in (ast.AugAssign, ast.AnnAssign) else ()
        for target in targets:
            if type(target) is ast.Subscript and type(target.value) is ast.Name and target.value.id in names:
                found.add(target.value.id)
        value = getattr(statement, "value", None)
        if type(value) is ast.Call and type(value.func) is ast.Attribute and type(value.func.value) is ast.Name:
            if value.func.value.id in names and value.func.attr in CONTAINER_MUTATING_METHODS:
                found.add(value.func.value.id)
    return found


def _items_changed_in_text(text: str, names: set[str]) -> set[str]:
    """The names among `names` whose items the function's text may store, delete or take out
    anywhere, a nested function or comprehension included (`def tag(): feats[0] = r`, `[feats.append(r)
    for r in extra]`), which `_items_changed` does not look into: read by the forms those take
    in the text (a comment or string that looks like one only costs a finding)."""
    wanted = {name for name in names if name in text}
    return wanted & _names_changing_items(text) if wanted else set()


def _names_changing_items(text: str) -> set[str]:
    """Every name the text shows changing items: `feats.append(r)`, `feats[0] = r`, `feats[i] += 1`,
    `del feats[0]`. One scan for all names (a pattern per name cost a compile per name); the
    name's pattern is a lookahead, so `b` in `a[b[0]] = 1` is found as well as `a`."""
    found = {match.group(1) for match in _ITEM_METHOD_CALL.finditer(text)}
    found.update(match.group(1) for match in _ITEM_STORE.finditer(text))
    for deletion in _DELETION.finditer(text):
        line_end = text.find("\n", deletion.end())
        rest = text[deletion.end() : len(text) if line_end < 0 else line_end]
        found.update(_SUBSCRIPTED.findall(rest))
    return found


_ITEM_METHOD_CALL = re.compile(rf"\b((?!\d)\w+)(?=\s*\.\s*(?:{'|'.join(sorted(CONTAINER_MUTATING_METHODS))})\b)")


_ITEM_STORE = re.compile(r"\b((?!\d)\w+)(?=\s*\[.*\]\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=))")


_DELETION = re.compile(r"\bdel\b")


_SUBSCRIPTED = re.compile(r"\b((?!\d)\w+)\s*\[")


def _marked_changed(value: ast.expr | None, returned: Descriptor, changed: set[str]) -> Descriptor:
    """A returned description with each changed name's part wrapped as ("changed", part)."""
    if type(value) is ast.Name and value.id in changed:
        return ("changed", returned)
    if type(value) is ast.Tuple and returned is not None and returned[0] == "list" and len(returned[1]) == len(value.elts):
        return ("list", tuple(("changed", part) if type(e) is ast.Name and e.id in changed else part
                              for e, part in zip(value.elts, returned[1])))
    return returned


# The mark of a grown list's descriptor whose elements are all tuple displays: `("list", (element,), OF_TUPLES)`.
OF_TUPLES = "of tuples"


def _grow_lists(locals_: dict[str, list[Descriptor]], statements: list[ast.stmt], key: str,
                local_names: frozenset[str], function: ast.AST, reaching: dict[int, dict[str, Descriptor]]) -> set[str]:
    """`hits = []`, then `hits.append(k * 100.0)` in a loop: the local holds a list of what its
    display and the `append`/`insert`/`extend([...])` calls and item stores (`hits[i] = x`) put
    in, places unknown (as the file's own oracle judges it); a name added at a line `reaching`
    knows it there (see _reaching_values) by that value. A list changed any other way
    (`hits.extend(other)`, `del hits[0]`) is left to `_changed_in_place`. Returns the names of
    the lists grown."""
    lists = {name for name, values in locals_.items()
             if values[0] is not None and values[0][0] in ("list", "each")
             and all(_adds_a_display(value) for value in values[1:])}  # (`params += [w, b]`: grown)
    if not lists:
        return set()
    lists -= _handed_on(function, lists, kept_by=_returned_tuples(statements))
    if not lists:
        return set()
    added: dict[str, list[Descriptor]] = {}
    of_tuples = set(lists)  # the lists made empty and only given tuple displays (see kinds.container_of)
    for statement in statements:
        for name, values, tuples in _list_growth(statement, lists, key, local_names, reaching.get(statement.lineno)):
            if values is None:
                lists.discard(name)
            else:
                added.setdefault(name, []).extend(values)
                if not tuples:
                    of_tuples.discard(name)
    for name in lists & added.keys():
        made = locals_[name][0]
        elements = [*((made[1],) if made[0] == "each" else made[1]), *added[name]]
        either = elements[0]
        for element in elements[1:]:
            either = ("either", either, element)
        locals_[name] = [("list", (either,), OF_TUPLES) if name in of_tuples and made == ("list", ()) else ("list", (either,))]
    return lists & added.keys()


def _handed_on(function: ast.AST, names: set[str], changed_here: bool = False, kept_by: set[int] = frozenset(),
               rebinding: set[tuple[int, str]] = frozenset()) -> set[str]:
    """The names that may be changed out of sight: passed to a call (`add_records(items, raw)`),
    aliased (`rows = items`), or read by a nested function, lambda or comprehension. Growing
    through `items.append(...)`, looking up `items[i]`, iterating and returning are not; with
    `changed_here`, an item stored or deleted (`items[0] = x`) and a method that puts in or takes
    out (`items.pop()`) count too. `rebinding`: (id of a call, name) where the call's result is
    bound to the name it is passed (see _rebinding_calls). One walk of every node, each with its
    parent and whether it lies in a nested scope."""
    found = set()
    pending: list[tuple[ast.AST, ast.AST | None, bool]] = [(function, None, False)]
    while pending:
        node, parent, nested = pending.pop()
        if type(node) is ast.Name:
            if node.id in names and type(node.ctx) is ast.Load and (
                    nested or not (_kept_in_place(node, parent) or id(parent) in kept_by or (id(parent), node.id) in rebinding)
                    or (changed_here and _changed_through(node, parent))):
                found.add(node.id)
            continue
        inner = nested or (node is not function and type(node) in _NESTED_SCOPES)
        for child in _all_children(node):
            pending.append((child, node, inner))
    return found


def _kept_in_place(name: ast.Name, parent: ast.AST | None) -> bool:
    """`items.append(x)`, `items[i]`, `for x in items`, `return items`, `*items`, `len(items)`."""
    return (isinstance(parent, (ast.Attribute, ast.Return, ast.For, ast.Starred))  # (changes through methods: apart)
            or (isinstance(parent, ast.Subscript) and parent.value is name)
            or (isinstance(parent, ast.Call) and _called_name(parent.func) == "len"))


def _changed_through(name: ast.Name, parent: ast.AST | None) -> bool:
    """`items[k] = v`, `del items[k]`, `items.update(...)`, `drop = items.pop`."""
    if type(parent) is ast.Subscript:
        return parent.value is name and type(parent.ctx) is not ast.Load
    return type(parent) is ast.Attribute and parent.attr in CONTAINER_MUTATING_METHODS


def _list_growth(statement: ast.stmt, lists: set[str], key: str, local_names: frozenset[str],
                 reaching: dict[str, Descriptor] | None = None):
    """(name, the values added, or None when the list changes otherwise, whether each value added
    is a tuple display) for the statement's changes to the lists named; a name added is read at
    the value `reaching` gives it."""
    if (type(statement) is ast.AugAssign and type(statement.op) is ast.Add and type(statement.target) is ast.Name
            and statement.target.id in lists and type(statement.value) in (ast.List, ast.Tuple)
            and not any(type(element) is ast.Starred for element in statement.value.elts)):
        yield (statement.target.id, [_describe(element, key, local_names) for element in statement.value.elts],
               _all_tuples(statement.value.elts))
        return
    if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
        targets = statement.targets if isinstance(statement, (ast.Assign, ast.Delete)) else [statement.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in lists:
                if type(statement) is ast.Assign and len(targets) == 1 and type(target.slice) is not ast.Slice:
                    # `masks[i] = Variable(masks[i].data)`: one more value its elements may hold
                    yield target.value.id, [_describe(statement.value, key, local_names)], _all_tuples([statement.value])
                else:
                    yield target.value.id, None, False
        return
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return
    call = statement.value
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in lists):
        return
    def describe(value: ast.expr) -> Descriptor:
        if reaching and isinstance(value, ast.Name) and value.id in reaching:
            return reaching[value.id]
        return _describe(value, key, local_names)

    if func.attr == "append" and len(call.args) == 1 and not call.keywords:
        yield func.value.id, [describe(call.args[0])], _all_tuples(call.args)
    elif func.attr == "insert" and len(call.args) == 2 and not call.keywords:
        yield func.value.id, [describe(call.args[1])], _all_tuples(call.args[1:])
    elif (func.attr == "extend" and len(call.args) == 1 and isinstance(call.args[0], (ast.List, ast.Tuple))
          and not any(isinstance(element, ast.Starred) for element in call.args[0].elts)):
        yield func.value.id, [describe(element) for element in call.args[0].elts], _all_tuples(call.args[0].elts)
    elif func.attr in _LIST_CHANGES:
        yield func.value.id, None, False


def _all_tuples(values: list[ast.expr]) -> bool:
    """Every value a tuple display (no code can change one: its places hold what they were given)."""
    return all(type(value) is ast.Tuple and not any(type(e) is ast.Starred for e in value.elts) for value in values)


def _adds_a_display(value: Descriptor) -> bool:
    """A local's value `params += [w, b]` gives it: ("aug", ("list", ...))."""
    return value is not None and value[0] == "aug" and value[1] is not None and value[1][0] == "list"


# List methods that change a list's contents (beside `append`, `insert` and `extend` of a display).
_LIST_CHANGES = frozenset({"extend", "append", "insert", "__setitem__", "__iadd__"})


def _mark_sequential_lists(tree: ast.AST) -> None:
    """On each `Sequential(*layers)` in a simple statement, the item `layers` ends with there, from
    the statement before it in its block that last touches the name (`layers += [conv, nn.Tanh()]`,
    `layers.append(x)`, `layers = [...]`): the Sequential returns what that item returns. Not for
    a list its scope reads otherwise than through its methods (`tail = layers`, `grow(layers)`:
    it may grow out of sight)."""
    for scope in ast.walk(tree):
        if isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            read_otherwise = _read_otherwise(scope)
            for block in _blocks(scope.body):
                for index, statement in enumerate(block):
                    if not isinstance(statement, _COMPOUND):
                        _mark_in_statement(statement, block[:index], read_otherwise)


def _mark_filled_sequentials(tree: ast.AST) -> None:
    """On each Sequential built empty by a plain assignment (`model = nn.Sequential()`,
    `self.out = nn.Sequential()`) and filled in its block by `add_module` statements, the module
    added last (see _added_by_add_module): the Sequential returns what that module returns."""
    for scope in ast.walk(tree):
        if isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            for block in _blocks(scope.body):
                for index, statement in enumerate(block):
                    if (type(statement) is ast.Assign and len(statement.targets) == 1
                            and type(statement.value) is ast.Call and not statement.value.args
                            and not statement.value.keywords and _called_name(statement.value.func) == "Sequential"
                            and (target := _dotted(statement.targets[0])) is not None):
                        item = _added_by_add_module(target, block[index + 1:])
                        if item is not None:
                            setattr(statement.value, _LAST_ITEM, item)


def _added_by_add_module(target: str, after: list[ast.stmt]) -> ast.expr | None:
    """The module the last `target.add_module("name", m)` statement of `after` adds, when the
    Sequential ends with it: every mention of `target` before that statement is an `add_module`
    call's receiver (a loop of them too: each appends before it) giving a name that cannot be the
    last one's (the same name, or one computed that may be it, replaces a module in place; one
    computed as `'hidden_%d' % i` never is `'output'`, see never_named), and after it
    `target` is only called, returned or bound anew, or assigned whole to a name that is then
    used so too (not grown, indexed or handed on)."""
    last = next((i for i in range(len(after) - 1, -1, -1) if _adds_module(after[i], target)), None)
    if last is None:
        return None
    final = after[last].value
    for statement in after[:last]:
        for node in ast.walk(statement):
            if _dotted_is(node, target) and not _receives_add_module(statement, node):
                return None
            if (type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "add_module"
                    and _dotted_is(node.func.value, target)
                    and not (node.args and never_named(_name_affixes(node.args[0]), final.args[0].value))):
                return None
    aliases = {target}
    for statement in after[last + 1:]:
        whole = set()
        if type(statement) in (ast.Return, ast.Assign) and statement.value is not None:
            whole.add(id(statement.value))
        if type(statement) is ast.Assign:
            whole.update(map(id, statement.targets))
        whole.update(id(node.func) for node in ast.walk(statement) if type(node) is ast.Call)
        if any(type(node) in (ast.Name, ast.Attribute) and _dotted(node) in aliases and id(node) not in whole
               for node in ast.walk(statement)):
            return None
        if type(statement) is ast.Assign and _dotted(statement.value) in aliases:
            aliases.update(_dotted(t) for t in statement.targets if _dotted(t))  # `head = model`: the same Sequential
    return final.args[1]


def _name_affixes(name: ast.expr) -> tuple[str, str | None] | None:
    """A module name as never_named reads it: a literal (`(name, None)`), or the literal start and
    end one computed always has (`f"act_{i}"`, `'hidden_%d' % i`, `'fc' + str(i)`,
    `'{}_bn'.format(i)`); None when neither is known."""
    if type(name) is ast.Constant and type(name.value) is str:
        return name.value, None
    if type(name) is ast.JoinedStr:
        parts = [part.value if type(part) is ast.Constant else None for part in name.values]
        return ("".join(parts), None) if None not in parts else joined_affixes(parts)
    if type(name) is ast.BinOp and type(name.left) is ast.Constant and type(name.left.value) is str:
        if type(name.op) is ast.Mod:
            return formatted_affixes(name.left.value, "%")
        if type(name.op) is ast.Add:
            return name.left.value, ""
    if type(name) is ast.BinOp and type(name.op) is ast.Add and type(name.right) is ast.Constant and type(name.right.value) is str:
        return "", name.right.value
    if (type(name) is ast.Call and type(name.func) is ast.Attribute and name.func.attr == "format"
            and type(name.func.value) is ast.Constant and type(name.func.value.value) is str):
        return formatted_affixes(name.func.value.value, "{")
    return None


def joined_affixes(parts: list[str | None]) -> tuple[str, str]:
    """An f-string's literal start and end (`None` for each replacement field)."""
    start = "".join(part for part in _until_none(parts))
    end = "".join(reversed(list(_until_none(reversed(parts)))))
    return start, end


def _until_none(parts):
    for part in parts:
        if part is None:
            return
        yield part


def formatted_affixes(template: str, marker: str) -> tuple[str, str]:
    """The literal start (and, for `str.format`, end) of what a template formats to: the text
    before its first `%` (or `{`), and after its last `}` (an escaped `%%` or `{{` only ends the
    start sooner)."""
    start = template.split(marker, 1)[0]
    end = template.rsplit("}", 1)[1] if marker == "{" and "}" in template else ""
    return start, end


def never_named(affixes: tuple[str, str | None] | None, name: str) -> bool:
    """Whether a module name written so (`_name_affixes`: a literal, or the literal start and end
    of one computed) can never be `name`."""
    if affixes is None:
        return False
    start, end = affixes
    if end is None:
        return start != name
    return not (name.startswith(start) and name.endswith(end) and len(name) >= len(start) + len(end))


def _adds_module(statement: ast.stmt, target: str) -> bool:
    """`target.add_module("name", module)` as a statement of its own."""
    call = statement.value if type(statement) is ast.Expr else None
    return (type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "add_module"
            and _dotted_is(call.func.value, target) and len(call.args) == 2 and not call.keywords
            and type(call.args[0]) is ast.Constant and type(call.args[0].value) is str
            and type(call.args[1]) is not ast.Starred)


def _receives_add_module(statement: ast.stmt, node: ast.AST) -> bool:
    return any(type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "add_module"
               and call.func.value is node for call in ast.walk(statement))


def _dotted_is(node: ast.AST, dotted: str) -> bool:
    return type(node) in (ast.Name, ast.Attribute) and _dotted(node) == dotted


def _blocks(body: list[ast.stmt]):
    """A scope's statement lists: its body and those of its compound statements (not nested scopes)."""
    yield body
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for inner in (*[getattr(statement, field, None) for field in ("body", "orelse", "finalbody")],
                      *[part.body for part in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ()))]):
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _blocks(inner)


def _read_otherwise(scope: ast.AST) -> set[str]:
    """Names a scope (nested ones included) reads other than as the head of an attribute or the
    list a call spreads (`layers.append(x)`, `f(*layers)`)."""
    through: set[int] = set()
    names = []
    for node in ast.walk(scope):
        if type(node) in (ast.Attribute, ast.Starred):
            through.add(id(node.value))
        elif type(node) is ast.Name and type(node.ctx) is ast.Load:
            names.append(node)
    return {node.id for node in names if id(node) not in through}


def _mark_in_statement(statement: ast.stmt, before: list[ast.stmt], read_otherwise: set[str]) -> None:
    for node in ast.walk(statement):
        if (type(node) is ast.Call and node.args and _called_name(node.func) == "Sequential"
                and isinstance(node.args[-1], ast.Starred) and type(node.args[-1].value) is ast.Name
                and node.args[-1].value.id not in read_otherwise):
            name = node.args[-1].value.id
            touching = next((s for s in reversed(before) if _names(s, name)), None)
            item = _item_added_last(touching, name) if touching is not None else None
            if item is not None:
                setattr(node, _LAST_ITEM, item)


def _names(statement: ast.stmt, name: str) -> bool:
    return any(type(node) is ast.Name and node.id == name for node in ast.walk(statement))


def _item_added_last(statement: ast.stmt, name: str) -> ast.expr | None:
    """What a statement puts last into the list `name`, when it is one plain growth or display."""
    if isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.Add):
        target, display = statement.target, statement.value
    elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, display = statement.targets[0], statement.value
    elif (isinstance(statement, ast.Expr) and type(statement.value) is ast.Call
          and type(statement.value.func) is ast.Attribute and not statement.value.keywords):
        call = statement.value
        if not (type(call.func.value) is ast.Name and call.func.value.id == name):
            return None
        if call.func.attr == "append" and len(call.args) == 1 and not isinstance(call.args[0], ast.Starred):
            return call.args[0]
        if call.func.attr == "extend" and len(call.args) == 1 and isinstance(call.args[0], (ast.List, ast.Tuple)):
            target, display = call.func.value, call.args[0]
        else:
            return None
    else:
        return None
    if not (type(target) is ast.Name and target.id == name and isinstance(display, (ast.List, ast.Tuple))):
        return None
    return display.elts[-1] if display.elts and not isinstance(display.elts[-1], ast.Starred) else None
