"""What a dict or list kept on an instance holds, when the class alone fills it: `self.losses = {}`
in `__init__`, `self.losses["ce"] = F.cross_entropy(out, y)` in one method, `self.losses["ce"].data`
in another; `self.targets = []`, `self.targets.append(m.weight)`, `self.targets[i].data`; tensors,
or DataLoaders (`self.data_loader["train"] = DataLoader(...)`, iterated in another method). Part of
the type oracle (a mixin of `TypeOracle`): it asks the oracle what each stored
value is.

The answer is a guess (fixes resting on it are unsafe): code the file does not show could store
something else under another key. Within the file it is sure: every mention of the attribute must
be the class's own, and each must read the dict, iterate it, delete from it or store an item into
it (for a list, `append` and `insert` store too); anything else (handing it on, `update`, a subclass or a base that is not torch's) makes it
unknown.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Sequence

import libcst as cst

from torchlint.analysis import dotted_name
from torchlint.codemod import names_used
from torchlint.parsing import python_tree
from torchlint.kinds import CONTAINER, GUESSED_STORED_ITEM, OBJECT, TENSOR, UNPICKLED, Kind, merge
from torchlint.scopes import all_params
from torchlint.torch_api import DATA_LOADERS, is_torch_module_class
from torchlint.walk import ElidedBlock, descendants, paths

# Methods of a dict that neither store into it nor hand it on.
_READING_METHODS = frozenset({"keys", "values", "items", "get", "clear", "pop", "__contains__"})
# Builtins that only read what they are given.
_READING_BUILTINS = frozenset({"len", "list", "sorted", "enumerate", "iter", "bool", "print"})


class StoredItems:
    """Mixin of TypeOracle: `_stored_items_kind`."""

    def _stored_items_kind(self, owner: cst.ClassDef, attribute: str, assigned: list) -> Kind | None:
        """`self.<attribute>`, bound only to empty dicts (or only to empty lists): a mapping (a list)
        of what the class's item assignments (and appends) store, when they all store tensors."""
        if not assigned or any(binding.how != "value" for binding in assigned):
            return None
        if all(_empty_dict(binding.value) for binding in assigned):
            mapping = True
        elif all(_empty_list(binding.value) for binding in assigned):
            mapping = False
        else:
            return None
        cache = self.__dict__.setdefault("_stored_items", {})
        return self._memoised(cache, (owner, attribute), None,
                              lambda: self._stored_in_methods(owner, attribute, mapping, cache))

    def _stored_in_methods(self, owner: cst.ClassDef, attribute: str, mapping: bool, cache: dict) -> Kind | None:
        if not self._closed_class(owner) or _sets_attributes_by_name(owner):
            return None
        stores = self._item_stores(owner, attribute, mapping)
        if not stores:
            return None
        # What the stores of other values agree on is the answer while the stores of values
        # computed from the dict itself (`self.losses["total"] = self.losses["ce"] * 2`) are judged.
        from_itself = [attribute in names_used(store[0]) for store in stores]
        plain = [store for store, own in zip(stores, from_itself) if not own]
        kinds = [self._kind(*store) for store in plain]
        if UNPICKLED in kinds:
            return None  # `self.xs.append(torch.load(p))`: whatever was saved (neutral in a merge)
        dict_kind = _holding(merge(kinds), mapping) if plain else None
        if dict_kind is None:
            return None
        cache[(owner, attribute)] = dict_kind
        try:
            rest = [self._kind(*store) for store, own in zip(stores, from_itself) if own]
            return _holding(merge([dict_kind.element, *rest]), mapping)
        finally:
            del cache[(owner, attribute)]

    def _item_stores(self, owner: cst.ClassDef, attribute: str, mapping: bool) -> list[tuple] | None:
        """For each item assignment into `self.<attribute>` in the class (and for a list, each
        `append`/`insert`): the value, its scope and where it is; None when a mention of it does
        anything but read and store."""
        stored: list[tuple] = []
        mentions = 0
        for method, self_name in _methods_with_self(owner):
            start = self.scopes.parents.path_to(self.module, method)
            if start is None:
                return None
            prune = lambda node: type(node) is ElidedBlock and not node.mentions(attribute)  # noqa: E731
            for path in paths(method.body, prune):
                node = path[-1]
                if not _is_self_attribute(node, self_name, attribute):
                    continue
                mentions += 1
                use = _dict_use(path) if mapping else _list_use(path)
                if use is _ESCAPES:
                    return None
                if use is not _READ:
                    statement, value = use
                    full = [*start, *path]
                    at = full[: next(i for i, n in enumerate(full) if n is statement) + 1]
                    stored.append((value, self.scopes.at(at), (*at, value)))
        if mentions != self._attribute_mentions(attribute):
            return None  # named elsewhere in the file too: another class's, or filled from outside
        return stored

    def _attribute_mentions(self, attribute: str) -> int | None:
        """How many times the file's code reads or sets an attribute of that name (comments do
        not count); None when a string names it (`getattr(self, "xs")`, `vars(self)["xs"]`,
        `exec("self.xs.append(x)")`: a use the count cannot see). Text CPython rejects is counted
        as text."""
        found = self.__dict__.get("_attribute_counts")
        if found is None:
            tree = python_tree(self.text)
            if tree is None:
                found = ({}, "")
            else:
                nodes = list(ast.walk(tree))
                found = (Counter(node.attr for node in nodes if type(node) is ast.Attribute),
                         "\0".join(node.value for node in nodes if type(node) is ast.Constant and type(node.value) is str))
            self.__dict__["_attribute_counts"] = found
        counts, strings = found
        if not counts:
            return len(re.findall(rf"\.\s*{re.escape(attribute)}\b", self.text))
        if re.search(rf"\b{re.escape(attribute)}\b", strings):
            return None
        return counts.get(attribute, 0)

    def _closed_class(self, owner: cst.ClassDef) -> bool:
        """No class derives from it (in the file or the project) and its bases are torch's (or
        none): its own methods are all the code that runs on its instances' attributes."""
        if self.classes.subclasses(owner):
            return False
        summary = self.project.summaries.get(self._project_path)
        if summary is not None and owner.name.value in summary.classes and self.project.has_subclasses(
                self.project.project_class(self._project_path, owner.name.value)):
            return False
        for base in owner.bases:
            qualified = self.imports.qualify(base.value)
            if base.keyword is not None or qualified is None or not is_torch_module_class(qualified):
                if dotted_name(base.value) != "object":
                    return False
        return True


# What `_dict_use` says of a mention that only reads, and of one that lets the dict go.
_READ = ("read",)
_ESCAPES = ("escapes",)


def _dict_use(path: Sequence[cst.CSTNode]):
    """What the mention of the dict at the end of `path` does with it: `_READ`, `_ESCAPES`, or
    `(statement, value)` for an item assignment storing `value`."""
    node, parent = path[-1], path[-2]
    grandparent = path[-3] if len(path) > 2 else None
    if isinstance(parent, (cst.AssignTarget, cst.AnnAssign)) and parent.target is node:
        return _READ  # `self.losses = {}`: a binding, judged on its own
    if isinstance(parent, cst.Subscript) and parent.value is node:
        if isinstance(grandparent, cst.AssignTarget) and len(path) > 3 and len(path[-4].targets) == 1:
            return path[-4], path[-4].value  # `self.losses["ce"] = loss`
        if isinstance(grandparent, cst.AugAssign) and grandparent.target is parent:
            return grandparent, grandparent.value  # `self.losses["ce"] += loss`
        if isinstance(grandparent, (cst.AssignTarget, cst.AsName)) or _unpacked_into(path[:-1]) or (
                isinstance(grandparent, (cst.For, cst.CompFor)) and grandparent.target is parent):
            return _ESCAPES  # an item bound by unpacking, a loop or `as`: what it gets is not seen
        return _READ  # `self.losses["ce"].item()`, `del self.losses[k]`, `return self.losses["ce"], n`
    if isinstance(parent, cst.Attribute) and isinstance(grandparent, cst.Call) and grandparent.func is parent:
        return _READ if parent.attr.value in _READING_METHODS else _ESCAPES
    if isinstance(parent, cst.For) and parent.iter is node:
        return _READ
    if isinstance(parent, (cst.Comparison, cst.ComparisonTarget)):
        return _READ
    if (isinstance(parent, cst.Arg) and isinstance(grandparent, cst.Call)
            and dotted_name(grandparent.func) in _READING_BUILTINS):
        return _READ
    if isinstance(parent, cst.Element) and _iterated_to_read(path):
        return _READ  # `for d in [self.losses, self.outputs]: del d[k]`
    return _ESCAPES


def _holding(element: Kind | None, mapping: bool) -> Kind | None:
    """A dict (a list) of the tensors the class stores, a guess; or of its DataLoaders
    (`self.data_loader["train"] = DataLoader(...)`), whose batches are a guess already."""
    if element is not None and element.base == OBJECT and element.origin in DATA_LOADERS:
        return Kind(CONTAINER, mapping=mapping, element=element)
    if element is None or element.base != TENSOR:
        return None
    return Kind(CONTAINER, mapping=mapping, element=Kind(TENSOR, graph=element.graph, origin=GUESSED_STORED_ITEM))


# Methods of a list that put an element into it: the position of the element among the arguments.
_LIST_STORES = {"append": 0, "insert": 1}


def _list_use(path: Sequence[cst.CSTNode]):
    """`_dict_use` for a list: `append(v)` and `insert(i, v)` store `v`; any other method but
    the reading ones lets the list go (`extend`, `sort`, handed to a call)."""
    parent = path[-2]
    grandparent = path[-3] if len(path) > 2 else None
    if isinstance(parent, cst.Attribute) and isinstance(grandparent, cst.Call) and grandparent.func is parent:
        position = _LIST_STORES.get(parent.attr.value)
        if position is not None:
            args = grandparent.args
            if len(args) != position + 1 or any(arg.keyword is not None or arg.star for arg in args):
                return _ESCAPES
            return grandparent, args[position].value
        return _READ if parent.attr.value in _READING_LIST_METHODS else _ESCAPES
    return _dict_use(path)


_READING_LIST_METHODS = frozenset({"index", "count", "pop", "clear", "copy", "__contains__"})


def _unpacked_into(path: Sequence[cst.CSTNode]) -> bool:
    """The node at the end of `path` is an element of a tuple or list an assignment (or a `for`)
    unpacks into: `a, self.losses["ce"] = ...`."""
    depth = len(path) - 2
    while depth >= 0 and isinstance(path[depth], (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
        depth -= 1
    if depth == len(path) - 2 or depth < 0:
        return False
    above, below = path[depth], path[depth + 1]
    return isinstance(above, cst.AssignTarget) or (isinstance(above, (cst.For, cst.CompFor)) and above.target is below)


def _iterated_to_read(path: Sequence[cst.CSTNode]) -> bool:
    """The mention is an element of a list or tuple a `for` loop iterates, and the loop's
    variable is only read (`for d in [self.a, self.b]: for k in d.keys(): del d[k]`)."""
    if len(path) < 4 or not isinstance(path[-3], (cst.List, cst.Tuple)):
        return False
    loop = path[-4]
    if not (isinstance(loop, cst.For) and loop.iter is path[-3] and isinstance(loop.target, cst.Name)):
        return False
    variable = loop.target.value
    for inner in paths(loop.body, lambda node: False):
        if isinstance(inner[-1], cst.Name) and inner[-1].value == variable and len(inner) > 1:
            if _dict_use([loop, *inner]) is not _READ:
                return False
    return True


def _methods_with_self(owner: cst.ClassDef):
    for method in owner.body.body:
        if isinstance(method, cst.FunctionDef) and not any(
                dotted_name(d.decorator) in ("staticmethod", "classmethod") for d in method.decorators):
            params = all_params(method.params)
            if params:
                yield method, params[0].name.value


def _is_self_attribute(node: cst.CSTNode, self_name: str, attribute: str) -> bool:
    return (isinstance(node, cst.Attribute) and node.attr.value == attribute
            and isinstance(node.value, cst.Name) and node.value.value == self_name)


def _sets_attributes_by_name(owner: cst.ClassDef) -> bool:
    """`self.__dict__.update(kw)`, `vars(self).update(kw)`, `setattr(self, k, v)` in the class: an
    attribute may be bound to anything given."""
    unread = lambda node: type(node) is ElidedBlock and not any(node.mentions(w) for w in ("__dict__", "vars", "setattr"))  # noqa: E731
    return any((isinstance(node, cst.Attribute) and node.attr.value == "__dict__")
               or (isinstance(node, cst.Call) and dotted_name(node.func) in ("vars", "setattr"))
               for node in descendants(owner, prune=unread))


def _empty_list(value: cst.CSTNode | None) -> bool:
    if isinstance(value, cst.List):
        return not value.elements
    return isinstance(value, cst.Call) and not value.args and dotted_name(value.func) == "list"


def _empty_dict(value: cst.CSTNode | None) -> bool:
    if isinstance(value, cst.Dict):
        return not value.elements
    return (isinstance(value, cst.Call) and not value.args
            and dotted_name(value.func) in ("dict", "OrderedDict", "collections.OrderedDict"))
