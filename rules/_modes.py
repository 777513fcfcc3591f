"""Which mode (train or eval) a model is in at a call: `model.train()`/`model.eval()` and
assignments followed in source order through one function or the script's top level, loops
included (a loop's later iterations start in the mode its body left)."""

from __future__ import annotations

import libcst as cst

from torchlint.walk import SCOPE_NODES, descendants

TRAIN, EVAL, UNKNOWN = "train", "eval", "unknown"


class ModeTracker:
    """Modes followed through one function or the script's top level; across the file's own
    top-level functions too: a call `evaluate(model)` has the effect the function's body has on
    its parameter, and a function's parameter enters in the modes its callers pass it in."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._layouts: dict[int, tuple] = {}
        self._functions = {
            statement.name.value: statement for statement in ctx.module.body if isinstance(statement, cst.FunctionDef)
        }
        self._in_progress: set[str] = set()
        self._owner: cst.ClassDef | None = None  # the class whose method is being followed

    def at(self, scope: cst.CSTNode, call: cst.Call, model: cst.CSTNode, training: bool = False) -> set[str | None]:
        """The modes the model may be in at `call`: for a call inside loops, the mode the code
        before it in the loop body sets, else the one on entering the loop (first iteration) and
        the one the rest of the body leaves (later iterations)."""
        order, position, span = self._layout(scope)
        if id(call) not in position:
            return set()  # in a class body or lambda inside the scope: another scope's code
        outer, self._owner = self._owner, (self._method_of(scope) or (None, None))[1]
        try:
            events = [(position[id(node)], mode) for node in order if (mode := self._event(node, model)) is not None]
        finally:
            self._owner = outer
        branched = self._branched(order, position, model)
        events = [(index, UNKNOWN if index in branched else mode) for index, mode in events]
        loops = [node for node in order if isinstance(node, (cst.For, cst.While))
                 and position[id(node)] < position[id(call)] <= span[id(node)]]
        if training and _last(events, position[id(loops[-1])], position[id(call)]) == EVAL:
            return set()  # `eval()` right before the trained forward in the same iteration: deliberate
        modes = _modes(events, position[id(call)], [(position[id(loop)], span[id(loop)]) for loop in loops])
        if None in modes:
            modes = (modes - {None}) | self._entry_modes(scope, model)
        return modes

    def _branched(self, order: list, position: dict, model: cst.CSTNode) -> set[int]:
        """Positions of mode calls in an `if` whose two branches set different modes
        (`if phase == "train": model.train() else: model.eval()`): which one ran depends on the
        test, so each is unknown."""
        found: set[int] = set()
        for node in order:
            if not isinstance(node, cst.If) or node.orelse is None:
                continue
            sides = []
            for branch in (node.body, node.orelse):
                calls = [c for c in descendants(branch, prune=lambda n: isinstance(n, SCOPE_NODES))
                         if isinstance(c, cst.Call) and isinstance(c.func, cst.Attribute)
                         and c.func.attr.value in ("train", "eval") and c.func.value.deep_equals(model)]
                sides.append(calls)
            if all(sides):
                found.update(position[id(call)] for calls in sides for call in calls if id(call) in position)
        return found

    def _entry_modes(self, scope: cst.CSTNode, model: cst.CSTNode) -> set[str | None]:
        """The modes a function's parameter `model` arrives in: those at each call of the function
        in this file (its module level and top-level functions); {None} when unknown."""
        function = next((f for f in self._functions.values() if f.body is scope), None)
        if function is None:
            return self._method_entry_modes(scope, model)
        if not isinstance(model, cst.Name) or function.name.value in self._in_progress:
            return {None}
        names = [param.name.value for param in function.params.params]
        if model.value not in names:
            return {None}
        self._in_progress.add(function.name.value)
        try:
            found: set[str | None] = set()
            for caller in [self.ctx.module, *(f.body for f in self._functions.values())]:
                for call in descendants(caller, prune=lambda node: isinstance(node, SCOPE_NODES) and node is not caller):
                    if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == function.name.value:
                        argument = _argument_for(call, names, model.value)
                        found |= self.at(caller, call, argument) if argument is not None else {None}
            return found or {None}
        finally:
            self._in_progress.discard(function.name.value)

    def _method_of(self, scope: cst.CSTNode) -> tuple[cst.FunctionDef, cst.ClassDef] | None:
        return next(((f, owner) for f, owner in self.ctx.classes.method_owner.items() if f.body is scope), None)

    def _method_entry_modes(self, scope: cst.CSTNode, model: cst.CSTNode) -> set[str | None]:
        """For a method and a model held by `self` (`self.model`): the modes at each
        `self.<method>()` call in the class's other methods; {None} when there is none."""
        found_method = self._method_of(scope)
        if found_method is None or not _on_self(model):
            return {None}
        function, owner = found_method
        key = f"{owner.name.value}.{function.name.value}"
        if key in self._in_progress:
            return {None}
        self._in_progress.add(key)
        try:
            found: set[str | None] = set()
            for item in owner.body.body:
                if not isinstance(item, cst.FunctionDef) or item is function:
                    continue
                for call in descendants(item.body, prune=lambda node: isinstance(node, SCOPE_NODES)):
                    if _self_call(call) == function.name.value:
                        found |= self.at(item.body, call, model)
            return found or {None}
        finally:
            self._in_progress.discard(key)

    def _find_method(self, cls: cst.ClassDef, name: str, depth: int = 0) -> cst.FunctionDef | None:
        """The method `name` of `cls`, or inherited from a base class defined in this file."""
        found = next((item for item in cls.body.body if isinstance(item, cst.FunctionDef) and item.name.value == name), None)
        if found is not None or depth > 5:
            return found
        for base in cls.bases:
            candidates = self.ctx.classes.by_name.get(base.value.value, []) if isinstance(base.value, cst.Name) else []
            if len(candidates) == 1 and candidates[0] is not cls:
                found = self._find_method(candidates[0], name, depth + 1)
                if found is not None:
                    return found
        return None

    def _method_effect(self, name: str, model: cst.CSTNode) -> str | None:
        """The last mode the method `name` of the class being followed sets on `self.model`."""
        method = self._find_method(self._owner, name)
        key = f"{self._owner.name.value}.{name}"
        if method is None or key in self._in_progress:
            return None
        self._in_progress.add(key)
        try:
            order, _, _ = self._layout(method.body)
            events = [mode for node in order if (mode := self._event(node, model)) is not None]
        finally:
            self._in_progress.discard(key)
        return events[-1] if events else None

    def _effect(self, call: cst.Call, model: cst.CSTNode) -> str:
        """The mode a call that is passed the model leaves it in: for a top-level function of this
        file, the last mode its body sets on that parameter (None: it sets none); else unknown."""
        function = self._functions.get(call.func.value) if isinstance(call.func, cst.Name) else None
        if function is None or function.name.value in self._in_progress:
            return UNKNOWN
        names = [param.name.value for param in function.params.params]
        param = _parameter_for(call, names, model)
        if param is None:
            return UNKNOWN
        self._in_progress.add(function.name.value)
        try:
            order, position, _ = self._layout(function.body)
            events = [mode for node in order if (mode := self._event(node, cst.Name(param))) is not None]
        finally:
            self._in_progress.discard(function.name.value)
        return events[-1] if events else None

    def _layout(self, scope: cst.CSTNode) -> tuple:
        """The scope's nodes in source order, each one's index, and where each loop ends."""
        if id(scope) not in self._layouts:
            order = list(descendants(scope, prune=lambda node: isinstance(node, SCOPE_NODES)))
            position = {id(node): index for index, node in enumerate(order)}
            span = {id(node): _last_index(node, position) for node in order if isinstance(node, (cst.For, cst.While))}
            self._layouts[id(scope)] = (order, position, span)
        return self._layouts[id(scope)]

    def _event(self, node: cst.CSTNode, model: cst.CSTNode) -> str | None:
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.value.deep_equals(model):
                if func.attr.value == "eval":
                    return EVAL
                if func.attr.value == "train":
                    off = node.args and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == "False"
                    return EVAL if off else (TRAIN if not node.args or _is_true(node.args[0].value) else UNKNOWN)
                return None
            if any(arg.value.deep_equals(model) for arg in node.args):
                return self._effect(node, model)
            if self._owner is not None and _on_self(model) and _self_call(node) is not None:
                return self._method_effect(_self_call(node), model)
        elif isinstance(node, cst.Assign) and any(t.target.deep_equals(model) for t in node.targets):
            return self._assigned_mode(node.value)
        return None

    def _assigned_mode(self, value: cst.CSTNode) -> str:
        """`Net()`, `Net().to(device)`: train (modules start so); `m.eval()`, `m.to(d).eval()`:
        eval; anything else (loaded, passed in, wrapped): unknown."""
        while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in _MOVES:
            value = value.func.value
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in ("eval", "train"):
            return EVAL if value.func.attr.value == "eval" or value.args else TRAIN
        if isinstance(value, cst.Call) and self.ctx.is_module(value) and self._is_constructor(value.func):
            return TRAIN
        return UNKNOWN

    def _is_constructor(self, func: cst.CSTNode) -> bool:
        qualified = self.ctx.qualify(func)
        if qualified is not None:
            return qualified.rsplit(".", 1)[-1][:1].isupper()
        return isinstance(func, cst.Name) and func.value[:1].isupper()


_MOVES = frozenset({"to", "cuda", "cpu", "float", "half", "double", "bfloat16"})
# torch.nn layers whose forward does not depend on the mode; containers and unknown classes do.
_MODE_DEPENDENT = ("Sequential", "ModuleList", "ModuleDict", "Dropout", "BatchNorm", "Transformer", "RNN", "LSTM",
                   "GRU", "MultiheadAttention", "InstanceNorm", "AlphaDropout")



def _argument_for(call: cst.Call, names: list[str], param: str) -> cst.CSTNode | None:
    """The expression `call` passes for the parameter `param` (of a function taking `names`)."""
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value == param:
                return arg.value
        elif index < len(names) and names[index] == param:
            return arg.value
    return None


def _parameter_for(call: cst.Call, names: list[str], value: cst.CSTNode) -> str | None:
    """The parameter `call` passes `value` for (None when a star argument hides it)."""
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.value.deep_equals(value):
            if arg.keyword is not None:
                return arg.keyword.value
            return names[index] if index < len(names) else None
    return None


def mode_free(kind) -> bool:
    """A torch.nn layer whose forward is the same in both modes (a loss, a Linear)."""
    origin = kind.origin if kind is not None else None
    if origin is None or not origin.startswith("torch.nn."):
        return False
    return not any(word in origin for word in _MODE_DEPENDENT)


def _on_self(expr: cst.CSTNode) -> bool:
    """`self.model`, `self.nets.g`: an attribute chain rooted at `self`."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
        if isinstance(expr, cst.Name):
            return expr.value == "self"
    return False


def _self_call(node: cst.CSTNode) -> str | None:
    """The method name of a call `self.<name>(...)`."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
        return node.func.attr.value if node.func.value.value == "self" else None
    return None


def _is_true(expr: cst.CSTNode) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "True"


def _modes(events, at: int, loops: list[tuple[int, int]]) -> set[str | None]:
    if not loops:
        return {_last(events, -1, at)}
    start, end = loops[-1]
    before = _last(events, start, at)
    if before is not None:
        return {before}
    first = _modes(events, start, loops[:-1])
    later = _last(events, at, end + 1)
    return first | {later} if later is not None else first


def _last_index(node: cst.CSTNode, position: dict[int, int]) -> int:
    last = position[id(node)]
    for child in descendants(node, prune=lambda current: isinstance(current, SCOPE_NODES)):
        last = max(last, position.get(id(child), last))
    return last


def _last(events: list[tuple[int, str]], after: int, before: int) -> str | None:
    found = [mode for index, mode in events if after < index < before]
    return found[-1] if found else None
