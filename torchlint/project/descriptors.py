"""How the summaries describe a value, without judging it: a small tuple (a descriptor).

A value is described by a small tuple (a descriptor):
    ("ref", "a.b.c")                 a dotted name, resolved in the module's namespace
    ("local", fn, "name")            a local variable of the function keyed `fn`
    ("param", fn, index)             the positional parameter `index` of function `fn`
    ("call", callee, first_arg, kw, last_arg)  the result of a call (`kw`: the keyword names passed;
                                     `last_arg`: a `Sequential(...)`'s last argument, of two or more;
                                     ("default",) for `getattr`/`next`/`iter` given a fallback;
                                     ("args", (each...)) for `zip` of two or more)
    ("arith", (operands...))         arithmetic: a tensor when an operand is one
    ("compare", (left, right))       an element-wise comparison: booleans, a tensor when a side is one
    ("aug", value)                   `name += value` (a function's locals), `self.name += value` (attributes)
    ("item", value, path)            the element at `path` of a value unpacked into a tuple target
    ("attr", value, "name")          an attribute
    ("sub", value, index)            a subscript (`index` when it is a string or integer literal)
    ("iter", value, path)            a loop target: the element of `value` at `path` in the target
    ("list", (elements...))          a list, tuple or set display (a third part, containers.OF_TUPLES:
                                     a list made empty and grown only by tuple displays)
    ("each", element)                a comprehension: every element is `element` (places unknown)
    ("either", a, b)                 `a if cond else b`
    ("instance", cls)                what passed a type test against the class `cls` (`isinstance(v, cls)`)
    ("none",)                        None
    ("number",)                      an int or float literal (unknown, but starts a sum: `loss = 0`)
    None                             anything else

Names with a leading underscore are the project index's internals, shared by its modules.
"""

from __future__ import annotations

import ast

from torchlint.kinds import NO_BATCHING, SPREAD_KEYWORDS
from torchlint.project.syntax import _called_name, _dotted
from torchlint.torch_api import ELEMENTWISE_WITH_OTHER


Descriptor = tuple | None


# The last names of torch_api.ELEMENTWISE_WITH_OTHER: their calls keep the other tensor (`_other_extremum`).
_ELEMENTWISE_EXTREMA = frozenset(name.rpartition(".")[2] for name in ELEMENTWISE_WITH_OTHER)


_ELEMENTWISE_COMPARISONS = frozenset({ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE})


def _string_keyed(display: ast.Dict) -> bool:
    """Every key a distinct string written in place (no `**other`)."""
    keys = [k.value if type(k) is ast.Constant and type(k.value) is str else None for k in display.keys]
    return bool(keys) and None not in keys and len(set(keys)) == len(keys)


def _describe_returned(value: ast.expr, key: str | None, local_names: frozenset[str]) -> Descriptor:
    """A returned value, a dict display with string keys in a returned tuple too (`return loss,
    {"pred": out}`): made for the caller, it holds what it shows."""
    if type(value) is ast.Dict and _string_keyed(value):
        return _describe_dict(value, key, local_names)
    if type(value) in (ast.Tuple, ast.List) and any(type(e) is ast.Dict for e in value.elts) and not any(
            type(e) is ast.Starred for e in value.elts):
        return ("list", tuple(_describe_returned(e, key, local_names) for e in value.elts))
    return _describe(value, key, local_names)


def _describe_dict(display: ast.Dict, key: str | None, local_names: frozenset[str]) -> Descriptor:
    """("dict", ("keys", *keys), values): the keys behind a tag of their own, so that no walk over
    descriptors reads a key named "ref" or "call" as one."""
    keys = ("keys", *(k.value for k in display.keys))
    return ("dict", keys, tuple(_describe(v, key, local_names) for v in display.values))


# The attribute `_mark_sequential_lists` sets on a `Sequential(*layers)` call: the list's last item.
_LAST_ITEM = "torchlint_last_item"


def _target_bindings(target: ast.expr, value: Descriptor, path: tuple[int, ...]):
    if isinstance(target, ast.Name):
        yield target.id, select(value, path)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for index, element in enumerate(target.elts):
            if isinstance(element, ast.Starred):
                for name, _ in _target_paths(element.value, ()):
                    yield name, None
            else:
                yield from _target_bindings(element, value, path + (_place(target.elts, index),))


def select(value: Descriptor, path: tuple[int, ...]) -> Descriptor:
    """The element at `path` of a value unpacked into a tuple target."""
    for position, index in enumerate(path):
        if value is not None and value[0] in ("call", "ref", "local", "attr", "sub"):
            return ("item", value, path[position:])  # an element of what the value is, when known
        if value is not None and value[0] == "each":
            value = value[1]  # `a, b = [x.cuda() for x in batch]`: any element
            continue
        if value is None or value[0] != "list" or not -len(value[1]) <= index < len(value[1]):
            return None
        value = value[1][index]
    return value


def _target_paths(target: ast.expr, path: tuple[int, ...]):
    if isinstance(target, ast.Name):
        yield target.id, path
    elif isinstance(target, (ast.Tuple, ast.List)):
        for index, element in enumerate(target.elts):
            inner = element.value if isinstance(element, ast.Starred) else element
            yield from _target_paths(inner, path + (_place(target.elts, index),) if not isinstance(element, ast.Starred) else (-1,))


def _place(elements: list[ast.expr], index: int) -> int:
    """Where a tuple target's element takes its value from: after a starred one, counted from
    the end (`*_, last = ...`)."""
    star = next((i for i, e in enumerate(elements) if isinstance(e, ast.Starred)), None)
    return index if star is None or index < star else index - len(elements)


def _describe(expr: ast.expr | None, key: str | None, local_names: frozenset[str]) -> Descriptor:
    kind = type(expr)  # exact types: every argument of every call of every file is described
    if kind is ast.Constant:
        value = expr.value
        return ("none",) if value is None else ("number",) if type(value) in (int, float) else None
    if kind is ast.Name:
        return ("local", key, expr.id) if key is not None and expr.id in local_names else ("ref", expr.id)
    if kind is ast.Attribute:
        dotted = _dotted(expr)
        head = dotted.split(".")[0] if dotted else None
        if dotted and not (key is not None and head in local_names):
            return ("ref", dotted)
        return ("attr", _describe(expr.value, key, local_names), expr.attr)
    if kind is ast.Call:
        first = expr.args[0] if expr.args and not isinstance(expr.args[0], ast.Starred) else None
        keywords = _keyword_names(expr)
        # a Sequential's last module too: it returns what that module returns (only for calls
        # named so: describing every call's last argument is a tenth of a summary's time)
        last = None
        if len(expr.args) > 1 and _called_name(expr.func) == "Sequential" and not isinstance(expr.args[-1], ast.Starred):
            last = _describe(expr.args[-1], key, local_names)
        elif len(expr.args) > 2 and type(expr.func) is ast.Name and expr.func.id == "getattr":
            last = ("default",)  # `getattr(models, name, fallback)`: not only the module's names
        elif len(expr.args) > 1 and type(expr.func) is ast.Name and expr.func.id in ("next", "iter"):
            last = ("default",)  # `next(it, None)`, `iter(read, b"")`: not only what `it` yields
        elif len(expr.args) > 1 and type(expr.func) is ast.Name and expr.func.id == "zip" and not any(
                isinstance(arg, ast.Starred) for arg in expr.args):
            last = ("args", tuple(_describe(arg, key, local_names) for arg in expr.args))  # each iterable, at its place
        elif (item := getattr(expr, _LAST_ITEM, None)) is not None:  # `nn.Sequential(*model)` (see _mark_sequential_lists)
            last = _describe(item, key, local_names)
        elif (other := _other_extremum(expr)) is not None:
            last = _describe(other, key, local_names)  # `torch.max(a, b)`: a tensor `b` picks the elementwise overload
        return ("call", _describe(expr.func, key, local_names), _describe(first, key, local_names), keywords, last)
    if expr is None:
        return None
    if kind is ast.BinOp:
        return ("arith", tuple(_describe(operand, key, local_names) for operand in _operands(expr)))
    if isinstance(expr, ast.UnaryOp) and not isinstance(expr.op, ast.Not):
        return ("arith", (_describe(expr.operand, key, local_names),))
    if isinstance(expr, ast.Subscript):
        index = _literal_index(expr.slice)
        return ("sub", _describe(expr.value, key, local_names), index)
    if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
        if any(isinstance(element, ast.Starred) for element in expr.elts):
            return None
        return ("list", tuple(_describe(element, key, local_names) for element in expr.elts))
    if isinstance(expr, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
        bound = {name for generator in expr.generators for name, _ in _target_paths(generator.target, ())}
        inner = local_names | bound if key is not None else frozenset(bound)
        element = _describe(expr.value if kind is ast.DictComp else expr.elt, key or "<comprehension>", inner)
        # the first loop's variables are what iterating its iterable gives (`[x.cuda() for x in
        # batch]`); the later loops' are unknown values (`[torch.as_tensor(a) for a in arrays]`
        # still holds tensors)
        element = _without_locals(_with_loop_values(element, _first_loop_values(expr, key, local_names)), bound)
        if kind is ast.DictComp:
            return ("dict", ("keys", None), (element,))  # `{p: DataLoader(sets[p]) for p in phases}`
        return ("each", element)
    if isinstance(expr, ast.IfExp):
        return ("either", _describe(expr.body, key, local_names), _describe(expr.orelse, key, local_names))
    if isinstance(expr, ast.NamedExpr):
        return _describe(expr.value, key, local_names)
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and type(expr.ops[0]) in _ELEMENTWISE_COMPARISONS:
        # `pred == labels`: a tensor of booleans when either side is a tensor
        return ("compare", (_describe(expr.left, key, local_names), _describe(expr.comparators[0], key, local_names)))
    return None


def _keyword_names(call: ast.Call) -> tuple[str, ...]:
    """The keyword names a call passes, with kinds.keyword_names's marks (`**`, `batch_size=None`)."""
    if not call.keywords:
        return ()
    names = set()
    for keyword in call.keywords:
        if keyword.arg is None:
            names.add(SPREAD_KEYWORDS)
            continue
        names.add(keyword.arg)
        if keyword.arg == "batch_size" and type(keyword.value) is ast.Constant and keyword.value.value is None:
            names.add(NO_BATCHING)
    return tuple(sorted(names))


# Hidden imports (see _Summarizer._own_imports, _through_import); escapes starting with `@` are
# modules found by name.
_OWN_IMPORT = "%"


def _renamed_refs(value: Descriptor, renames: dict[str, str]) -> Descriptor:
    """`value` with its references to each name of `renames` (`name`, `name.attr`) made to the name
    it maps to."""
    if type(value) is not tuple:
        return value
    if value and value[0] == "ref":
        head, dot, rest = value[1].partition(".")
        return ("ref", renames[head] + dot + rest) if head in renames else value
    if value and value[0] == "call":  # (its keyword names are strings, not descriptors)
        return (value[0], *(_renamed_refs(part, renames) if i != 2 else part for i, part in enumerate(value[1:])))
    return tuple(_renamed_refs(part, renames) for part in value)


def _closure_refs(value: Descriptor, closure: dict[str, str]) -> Descriptor:
    """`value` with its references to each name of `closure` (`model_w`, `model_w.module`) made
    to that local of the enclosing function `closure` maps it to."""
    if type(value) is not tuple:
        return value
    if value and value[0] == "ref":
        head, _, rest = value[1].partition(".")
        if head not in closure:
            return value
        found: Descriptor = ("local", closure[head], head)
        for attribute in rest.split(".") if rest else ():
            found = ("attr", found, attribute)
        return found
    if value and value[0] == "call":  # (its keyword names are strings, not descriptors)
        return (value[0], *(_closure_refs(part, closure) if i != 2 else part for i, part in enumerate(value[1:])))
    return tuple(_closure_refs(part, closure) for part in value)


def _hidden_import_name(key: str, name: str) -> str:
    """The module-level name a function's own import of `name` is kept under: no code can write
    it, it holds no dot, and its last part is the imported name (`last_name`)."""
    return _OWN_IMPORT + key.replace(".", "/") + ":" + name


def last_name(dotted: str) -> str:
    """The last name of a dotted name as the index looks calls up by it (`build` for
    `pkg.models.build`; `VAE` for a function's own import of it, `%load:VAE`)."""
    last = dotted.rsplit(".", 1)[-1]
    return last.rsplit(":", 1)[-1] if last.startswith(_OWN_IMPORT) else last


def _operands(expr: ast.BinOp) -> list[ast.expr]:
    """The operands of a chain of binary operations, flat (`a + b * c - d`: a, b, c, d): arithmetic
    gives a tensor when any operand is one, however they are grouped, and a chain of a thousand
    string pieces must not nest its description (nor its pickle) a thousand deep."""
    operands, pending = [], [expr]
    while pending:
        node = pending.pop()
        if type(node) is ast.BinOp:
            pending += (node.right, node.left)
        else:
            operands.append(node)
    return operands


def _literal_index(index: ast.expr) -> str | int | None:
    """`x["loss"]`, `x[0]`, `x[-1]`: the index when it is a string or integer literal."""
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and isinstance(index.operand, ast.Constant):
        value = index.operand.value
        return -value if type(value) is int else None
    value = index.value if isinstance(index, ast.Constant) else None
    return value if type(value) in (str, int) else None


def _other_extremum(call: ast.Call) -> ast.expr | None:
    """`b` of `torch.max(a, b)` or `torch.min(a, other=b)` (see torch_api.ELEMENTWISE_WITH_OTHER)."""
    if _called_name(call.func) not in _ELEMENTWISE_EXTREMA or any(isinstance(arg, ast.Starred) for arg in call.args):
        return None
    if len(call.args) == 2 and not call.keywords:
        return call.args[1]
    if len(call.args) == 1 and len(call.keywords) == 1 and call.keywords[0].arg == "other":
        return call.keywords[0].value
    return None


def _first_loop_values(expr: ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp, key: str | None,
                       local_names: frozenset[str]) -> dict[str, Descriptor]:
    """The first loop's variables of a comprehension, each described as an element of the first
    iterable (which the enclosing scope evaluates); not a name a later loop binds again."""
    first, later = expr.generators[0], expr.generators[1:]
    rebound = {name for generator in later for name, _ in _target_paths(generator.target, ())}
    iterated = _describe(first.iter, key, local_names)
    if iterated is None:
        return {}
    return {name: ("iter", iterated, path) for name, path in _target_paths(first.target, ())
            if name not in rebound and -1 not in path}


def _with_loop_values(descriptor: Descriptor, values: dict[str, Descriptor]) -> Descriptor:
    """The descriptor with each read of a comprehension's loop variable named in `values` (as a
    local) made to its described value."""
    if not values or not isinstance(descriptor, tuple):
        return descriptor
    if descriptor[:1] == ("local",) and len(descriptor) == 3 and descriptor[2] in values:
        return values[descriptor[2]]
    return tuple(_with_loop_values(part, values) if isinstance(part, tuple) else part for part in descriptor)


def _without_locals(descriptor: Descriptor, names: set[str]) -> Descriptor:
    """The descriptor with `names` (a comprehension's own variables, not the function's locals of
    the same names) read as values that cannot be described."""
    if not isinstance(descriptor, tuple):
        return descriptor
    if descriptor[:1] == ("local",) and len(descriptor) == 3 and descriptor[2] in names:
        return None
    return tuple(_without_locals(part, names) if isinstance(part, tuple) else part for part in descriptor)


def _mentions_locals(descriptor: Descriptor, names: set[str]) -> bool:
    """A comprehension element that depends on its own loop variable cannot be described."""
    if not isinstance(descriptor, tuple):
        return False
    if descriptor[:1] == ("local",) and len(descriptor) == 3 and descriptor[2] in names:
        return True
    return any(_mentions_locals(part, names) for part in descriptor if isinstance(part, tuple))
