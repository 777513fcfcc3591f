"""What the training-loop rules share: which objects are optimizers, schedulers and scalers (asked
of the type oracle), and the calls of one loop body in source order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from torchlint.oracle import OBJECT
from torchlint.walk import SCOPE_NODES, descendants, path_to

_SCHEDULER_PREFIX = "torch.optim.lr_scheduler."
_SCALERS = frozenset({"torch.amp.GradScaler", "torch.cuda.amp.GradScaler", "torch.amp.grad_scaler.GradScaler",
                      "torch.cpu.amp.GradScaler"})


def _origin(ctx, expr: cst.CSTNode) -> str | None:
    kind = ctx.kind(expr)
    return kind.origin if kind is not None and kind.base == OBJECT else None


def is_optimizer(ctx, expr: cst.CSTNode) -> bool:
    origin = _origin(ctx, expr)
    return origin is not None and origin.startswith("torch.optim.") and not origin.startswith(_SCHEDULER_PREFIX)


def is_scheduler(ctx, expr: cst.CSTNode) -> bool:
    origin = _origin(ctx, expr)
    return origin is not None and origin.startswith(_SCHEDULER_PREFIX)


def is_scaler(ctx, expr: cst.CSTNode) -> bool:
    return _origin(ctx, expr) in _SCALERS


def method_of(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


def calls_in_order(node: cst.CSTNode) -> Iterator[cst.Call]:
    """The calls below `node` in source order, leaving nested functions and classes out."""
    for child in descendants(node, prune=lambda current: isinstance(current, SCOPE_NODES)):
        if isinstance(child, cst.Call):
            yield child


def same_expression(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    return a.deep_equals(b)


def spelled(ctx, qualified: str, where: bool = False) -> cst.BaseExpression | None:
    """`qualified` (e.g. `torch.nn.ModuleList`) spelled with this file's own imports, or None.
    `where`: only through an import that has run where the current node stands (not one further
    down the module, nor one inside another function)."""
    parts = qualified.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        local = ctx.local_name(prefix) if where else ctx.imports.local_name(prefix)
        if local is not None:
            return cst.parse_expression(".".join([local, *parts[cut:]]))
    return None


def without_argument(call: cst.Call, removed: cst.Arg) -> cst.Call:
    """`call` without one argument; a trailing comma stays where the call had one."""
    args = [arg for arg in call.args if arg is not removed]
    if args and call.args[-1] is removed:
        args[-1] = args[-1].with_changes(comma=removed.comma)
    return call.with_changes(args=args)


def is_true(expr: cst.CSTNode) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "True"


def is_backward(call: cst.Call) -> bool:
    """`loss.backward()`, `scaler.scale(loss).backward()`, `accelerator.backward(loss)`."""
    return method_of(call) == "backward"


def stepped_optimizer(ctx, call: cst.Call) -> cst.BaseExpression | None:
    """The optimizer `call` steps: `opt.step()` or `scaler.step(opt)`; None for anything else."""
    if method_of(call) != "step":
        return None
    receiver = call.func.value
    if not call.args and is_optimizer(ctx, receiver):
        return receiver
    if call.args and is_scaler(ctx, receiver) and is_optimizer(ctx, call.args[0].value):
        return call.args[0].value
    return None


def resets_gradients(node: cst.CSTNode) -> bool:
    """`opt.zero_grad()`, `model.zero_grad()`, `p.grad.zero_()`, `p.grad = None`, or any call
    named like a gradient reset (`self.zero_grad_all()`), anywhere below `node`."""
    for child in descendants(node):
        if isinstance(child, cst.Call):
            name = child.func.attr.value if isinstance(child.func, cst.Attribute) else getattr(child.func, "value", "")
            if "zero_grad" in str(name) or (name == "zero_" and _on_grad(child.func.value)):
                return True
        elif isinstance(child, cst.AssignTarget) and isinstance(child.target, cst.Attribute):
            if child.target.attr.value == "grad":
                return True
    return False


def _on_grad(expr: cst.CSTNode) -> bool:
    return isinstance(expr, cst.Attribute) and expr.attr.value == "grad"


def enclosing_loop_or_function(ctx) -> cst.CSTNode | None:
    return ctx.enclosing(cst.For, cst.While, cst.FunctionDef)


def enclosing_statement_block(ctx) -> tuple[cst.BaseSuite, cst.CSTNode] | None:
    """The innermost indented block around the current node and the statement of it that holds
    the node, or None when the node is not inside one."""
    stack = ctx.stack
    for index in range(len(stack) - 2, -1, -1):
        if isinstance(stack[index], (cst.IndentedBlock, cst.Module)):
            return stack[index], stack[index + 1]
        if isinstance(stack[index], SCOPE_NODES):
            return None
    return None


CLIP_FUNCTIONS = frozenset({
    "torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_value_", "torch.nn.utils.clip_grad_norm",
    "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_value_",
    "torch.nn.utils.clip_grads_with_norm_",
})


def is_torch_clip(ctx, call: cst.Call) -> bool:
    return ctx.qualify(call.func) in CLIP_FUNCTIONS


def loss_called(ctx, call: cst.Call, functions: frozenset[str], modules: frozenset[str]) -> cst.Arg | None:
    """The input argument of a loss call: `F.cross_entropy(input, target)` for a qualified name in
    `functions`, or `criterion(input, target)` where `criterion` is a module built from one of
    `modules` (e.g. `torch.nn.CrossEntropyLoss`)."""
    if ctx.qualify(call.func) in functions:
        return _input_argument(call)
    kind = ctx.kind(call.func)
    if kind is not None and kind.origin in modules and kind.base == "module":
        return _input_argument(call)
    return None


def _input_argument(call: cst.Call) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "input":
            return arg
    first = call.args[0] if call.args else None
    return first if first is not None and first.keyword is None and not first.star else None


def produced_by(ctx, expr: cst.CSTNode) -> cst.CSTNode:
    """The expression a name was bound to when it has exactly one binding (`p = softmax(x)`),
    else `expr` itself."""
    if isinstance(expr, cst.Name):
        bindings = ctx.oracle.bindings_of(expr.value, ctx.stack)
        value = ctx.oracle.bound_value(bindings[0]) if bindings and len(bindings) == 1 else None
        if value is not None:
            return value
    return expr


def activation_of(ctx, expr: cst.CSTNode, functions: frozenset[str], method: str, module: str) -> cst.Call | None:
    """`expr` when it applies the activation: a qualified function in `functions`, the tensor
    method `method` (`x.softmax(1)`), or a call of an `nn` module built from `module`."""
    if not isinstance(expr, cst.Call):
        return None
    if ctx.qualify(expr.func) in functions:
        return expr
    if method_of(expr) == method and ctx.is_tensor(expr.func.value):
        return expr
    kind = ctx.kind(expr.func)
    if kind is not None and kind.base == "module" and kind.origin == module:
        return expr
    return None


SOFTMAX = frozenset({"torch.softmax", "torch.nn.functional.softmax", "torch.special.softmax"})
LOG_SOFTMAX = frozenset({"torch.log_softmax", "torch.nn.functional.log_softmax", "torch.special.log_softmax"})
SIGMOID = frozenset({"torch.sigmoid", "torch.nn.functional.sigmoid", "torch.special.expit"})
CROSS_ENTROPY = (frozenset({"torch.nn.functional.cross_entropy"}), frozenset({"torch.nn.CrossEntropyLoss"}))
NLL = (frozenset({"torch.nn.functional.nll_loss"}), frozenset({"torch.nn.NLLLoss"}))
BCE_WITH_LOGITS = (
    frozenset({"torch.nn.functional.binary_cross_entropy_with_logits"}), frozenset({"torch.nn.BCEWithLogitsLoss"}),
)
BCE = (frozenset({"torch.nn.functional.binary_cross_entropy"}), frozenset({"torch.nn.BCELoss"}))


def activation_input(ctx, call: cst.Call, method: str) -> cst.BaseExpression | None:
    """What an activation call is applied to: the tensor of `x.softmax(1)`, the first argument of
    `torch.softmax(x, 1)`; None when neither form is plain."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == method and ctx.is_tensor(call.func.value):
        return call.func.value
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        return call.args[0].value
    return None


def last_assignment_before(ctx, name: str) -> cst.BaseExpression | None:
    """The value last assigned to `name` by a plain `name = value` statement before the current
    node, looking back through the enclosing blocks of its function; None when there is none or
    when a compound statement in between may rebind it (then which value holds is unknown)."""
    stack = ctx.stack
    for index in range(len(stack) - 2, -1, -1):
        block = stack[index]
        if isinstance(block, SCOPE_NODES):
            return None
        if not isinstance(block, (cst.IndentedBlock, cst.Module)):
            continue
        statements = list(block.body)
        current = statements.index(stack[index + 1])
        for statement in reversed(statements[:current]):
            value = _assigned_value(statement, name)
            if value is not None:
                return value
            if _may_rebind(statement, name):
                return None
    return None


def _assigned_value(statement: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    if isinstance(statement, cst.SimpleStatementLine):
        for small in reversed(statement.body):
            if isinstance(small, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets
            ):
                return small.value
    return None


def _may_rebind(statement: cst.CSTNode, name: str) -> bool:
    for child in descendants(statement):
        if isinstance(child, (cst.AssignTarget, cst.For, cst.WithItem, cst.AugAssign, cst.AnnAssign)):
            target = getattr(child, "target", None) or getattr(getattr(child, "asname", None), "name", None)
            if target is not None and any(isinstance(n, cst.Name) and n.value == name for n in descendants(target)):
                return True
    return False


def grad_disabled_at(ctx, stack) -> bool:
    """Inside `with torch.no_grad()`/`inference_mode()` or a function decorated with either, at
    the place `stack` (ancestors, innermost last) describes."""
    saved = ctx.stack
    ctx.stack = list(stack) + [None]
    try:
        return ctx.grad_disabled()
    finally:
        ctx.stack = saved


def model_calls(ctx, node: cst.CSTNode, evaluated: frozenset[str] = frozenset()) -> list[cst.Call]:
    """Calls of modules (`model(x)`) below `node`, nested functions and classes left out; calls of
    the names in `evaluated` count too (see `put_in_eval_mode`)."""
    return [call for call in calls_in_order(node)
            if ctx.is_module(call.func) or (isinstance(call.func, cst.Name) and call.func.value in evaluated)]


def put_in_eval_mode(function: cst.FunctionDef) -> frozenset[str]:
    """The parameters of `function` it calls `.eval()` on (no arguments) before calling them: a
    model of a class the oracle cannot see (`model.eval(); outputs = model(**batch)`)."""
    params = {param.name.value for param in function.params.params}
    found = set()
    for call in calls_in_order(function.body):
        if (method_of(call) == "eval" and not call.args and isinstance(call.func.value, cst.Name)
                and call.func.value.value in params):
            found.add(call.func.value.value)
    return frozenset(found)


def trains(ctx, call: cst.Call) -> bool:
    """`call` runs a training step of this file: a top-level function, or a method of the class
    around the call (`self.train_epoch()`), whose body backpropagates and calls `.step()`."""
    function = None
    if isinstance(call.func, cst.Name):
        function = next((s for s in ctx.module.body if isinstance(s, cst.FunctionDef) and s.name.value == call.func.value), None)
    elif isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name) and call.func.value.value == "self":
        owner = ctx.enclosing(cst.ClassDef)
        function = next((item for item in owner.body.body if isinstance(item, cst.FunctionDef)
                         and item.name.value == call.func.attr.value), None) if owner is not None else None
    if function is None:
        return False
    calls = list(calls_in_order(function.body))
    return any(is_backward(c) for c in calls) and any(method_of(c) == "step" for c in calls)


def has_backward(node: cst.CSTNode) -> bool:
    return any(is_backward(call) or method_of(call) == "grad" for call in calls_in_order(node))


def forward_returns(ctx, expr: cst.CSTNode, functions: frozenset[str]) -> bool:
    """`expr` is a call of a module whose class, defined in this file, returns from `forward`
    only the result of one of `functions` (`return F.softmax(self.fc(x), dim=1)`)."""
    if not isinstance(expr, cst.Call):
        return False
    cls = local_class(ctx, ctx.kind(expr.func))
    if cls is None:
        return False
    forward = next(
        (item for item in cls.body.body if isinstance(item, cst.FunctionDef) and item.name.value == "forward"), None
    )
    if forward is None:
        return False
    returned = [node.value for node in descendants(forward.body, prune=lambda n: isinstance(n, SCOPE_NODES))
                if isinstance(node, cst.Return)]
    return bool(returned) and all(
        isinstance(value, cst.Call) and ctx.qualify(value.func) in functions for value in returned
    )


def follows_training(ctx, scope: cst.CSTNode, loop: cst.CSTNode, model: cst.CSTNode) -> bool:
    """An earlier loop of `scope` (not one around `loop`) calls `model` and backpropagates: `loop`,
    which does not, is the evaluation that follows training (`for x in test_loader:` after the
    epochs of a script)."""
    for node in descendants(scope, prune=lambda n: isinstance(n, SCOPE_NODES) or n is loop):
        if node is loop:
            return False
        if isinstance(node, (cst.For, cst.While)) and path_to(node, loop) is None and has_backward(node.body):
            if any(call.func.deep_equals(model) for call in model_calls(ctx, node.body)):
                return True
    return False


def local_class(ctx, kind) -> cst.ClassDef | None:
    """The class of this file a module kind was built from: the kind's own ClassDef, or the one
    the project index names when it is this file's (a parameter typed from its call sites)."""
    if kind is None or kind.base != "module":
        return None
    if isinstance(kind.cls, cst.ClassDef):
        return kind.cls
    path, name = getattr(kind.cls, "path", None), getattr(kind.cls, "name", None)
    if path is None or Path(path).resolve() != Path(ctx.path).resolve():
        return None
    found = ctx.classes.by_name.get(name, [])
    return found[0] if len(found) == 1 else None
