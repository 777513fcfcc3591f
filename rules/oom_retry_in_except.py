"""TL008 oom-retry-in-except: recovering from CUDA OOM inside the `except` block."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import dotted_name
from torchlint.codemod import free_name, names_used
from torchlint.kinds import TENSOR
from torchlint.rule import Invalid, Rule
from torchlint.walk import path_to
from torchlint.rules.registry import register
from torchlint.walk import SCOPE_NODES, descendants

OOM_ERRORS = frozenset({"torch.cuda.OutOfMemoryError", "torch.OutOfMemoryError"})
_BROAD_ERRORS = frozenset({"RuntimeError", "Exception", "BaseException"})
# Calls that are never "the work again": cleanup, logging, inspecting the error.
_HARMLESS_CALLS = frozenset(
    {"print", "str", "repr", "len", "isinstance", "int", "float", "min", "max", "range", "type", "hasattr",
     "getattr", "format", "gc.collect", "torch.cuda.empty_cache", "torch.cuda.synchronize", "time.sleep",
     "torch.cuda.reset_peak_memory_stats", "warnings.warn"}
)
_LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
_WORK_ROUTINES = frozenset({"forward", "generate"})
# Methods that read or reset a module's or an optimizer's state and compute nothing: a handler
# freeing gradients (`for p in model.parameters(): del p.grad`, `optimizer.zero_grad()`) retries
# no work, though the `try` body called them too.
_STATE_METHODS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers", "children", "named_children",
                            "modules", "named_modules", "state_dict", "zero_grad"})
_STORING_METHODS = frozenset({"append", "add", "insert", "put", "extend", "setdefault"})
_USES_EXC_INFO = frozenset({"exception", "print_exc", "format_exc", "exc_info", "print_exception"})
_FLAG_NAMES = ("oom", "out_of_memory", "oom_retry")
_BUILTINS = frozenset(
    {"range", "len", "list", "tuple", "dict", "set", "zip", "enumerate", "sum", "min", "max", "sorted", "reversed",
     "abs", "round", "int", "float", "str", "bool", "print", "isinstance", "iter", "next", "any", "all", "map"}
)
# Methods of builtin containers and tensors: none reads the active exception.
_PLAIN_METHODS = frozenset(
    {"append", "extend", "pop", "get", "items", "keys", "values", "copy", "update", "split", "chunk", "unbind",
     "to", "cpu", "cuda", "view", "reshape", "size", "item", "tolist", "detach", "clone", "float", "half", "sum",
     "mean", "contiguous", "narrow", "numel", "dim", "unsqueeze", "squeeze", "join", "format"}
)

_RETRY_MESSAGE = "A retry inside the OOM handler runs while the failed attempt's tensors are alive; retry after it"
_STORE_MESSAGE = "Keeping the OOM exception keeps the failed attempt's frames and tensors alive; keep `str(e)`"
T = "import torch\nimport torch.nn as nn\n"


@register
class OomRetryInExcept(Rule):
    """
    ## What it does
    Flags an `except` that caught a CUDA out-of-memory error (`torch.cuda.OutOfMemoryError`,
    `torch.OutOfMemoryError`, or `RuntimeError`/`Exception` guarded by `"out of memory" in str(e)`,
    or by a leading `if "out of memory" not in str(e): raise`)
    and runs the work again inside the handler: it calls the same function as the `try` body (a
    method that reads or resets state called without arguments, `model.parameters()`,
    `optimizer.zero_grad()`, is not that: freeing gradients is recovery, not a retry), calls
    the enclosing function recursively, or calls a model (a module, `forward`, `generate`, a
    `train*` routine). It also flags a handler that keeps the exception beyond the handler
    (`self.err = e`, `errors.append(e)`).

    ## Why is this bad?
    While the handler runs, the exception's traceback references the frames of the failed attempt,
    and through them every tensor it allocated. A retry inside the handler therefore runs with that
    memory still held and often runs out of memory again. Storing the exception keeps the frames
    alive even longer. This is the PyTorch FAQ's "My out of memory exception handler can't allocate
    memory".

    ## Example
    ```python
    try:
        run_model(batch_size)
    except torch.cuda.OutOfMemoryError:
        for _ in range(batch_size):
            run_model(1)
    ```

    ## Use instead
    ```python
    oom = False
    try:
        run_model(batch_size)
    except torch.cuda.OutOfMemoryError:
        oom = True
    if oom:
        for _ in range(batch_size):
            run_model(1)
    ```

    ## Fix safety
    The fix is the FAQ's transformation and is **safe** when it applies: a flag (`oom`, or another
    name free in the scope) is set to `False` before the `try`, the handler body becomes
    `oom = True`, and the handler's original body runs in `if oom:` right after the `try`
    statement, once the exception and its traceback are gone. The same statements run in the same
    order; only the memory is freed first. (An error the retry raises is therefore no longer
    chained to the OOM as its `__context__`: that link is what held the memory.) Leading guards
    that re-raise (`if "out of memory" not in str(e): raise`) need the exception and stay in the
    handler, before `oom = True`. A `return`, `break` or `continue` moves with the recovery and
    leaves the same way, since the flag is tested right after the `try` (so a handler that retries
    by calling its own function recursively, `return step(batch[:half])`, is fixed too). It is
    offered only when the moved statements do not use the exception object and contain no
    `raise`, the `try` has no `else` or `finally`, and nothing in the handler may read the active exception, which is gone after
    the `try`: no `exc_info=` (other than a literal `False`/`None`), no `logger.exception`,
    `traceback.*`, `sys.exc_info()`/`sys.exception()`, and every call is known not to: the work
    of the `try` body again, a module, a `torch` function, a builtin, a container method, any
    method of a value the type oracle knows is a tensor (`loss.backward()`), logging without
    `exc_info`, or a function of this file whose own calls are all such (and that has no bare
    `raise`). Otherwise there is no fix and the message explains the change.

    Not flagged: a handler that logs and re-raises, raises a new error `from e`, returns a sentinel,
    `continue`s or `break`s so the retry happens in the next loop iteration, sets a flag for a retry
    after the `try`, or only calls `torch.cuda.empty_cache()`, `gc.collect()` or `del`; and
    handlers that are not about out-of-memory errors.

    ## References
    - [PyTorch FAQ: My out of memory exception handler can't allocate memory](https://pytorch.org/docs/stable/notes/faq.html#my-out-of-memory-exception-handler-can-t-allocate-memory)
    - [torch.cuda.OutOfMemoryError](https://pytorch.org/docs/stable/generated/torch.cuda.OutOfMemoryError.html)
    """

    code = "TL008"
    preview = False  # released
    name = "oom-retry-in-except"
    summary = "Work retried inside a CUDA out-of-memory handler runs with the failed attempt's memory held"
    severity = "warning"
    fix_safety = ("safe",)
    trigger_tokens = ("OutOfMemoryError", "out of memory")
    scope_tokens = ("except",)  # it visits `try` statements with handlers

    valid = (
        T + "try:\n    step(batch)\nexcept torch.cuda.OutOfMemoryError:\n    logger.error('oom at %d', i)\n    raise\n",
        T + "try:\n    step(batch)\nexcept RuntimeError as e:\n    if 'out of memory' in str(e):\n"
        "        raise RuntimeError('lower the batch size') from e\n    raise\n",
        T + "def run(batch):\n    try:\n        return step(batch)\n    except torch.cuda.OutOfMemoryError:\n"
        "        return None\n",
        T + "for batch in loader:\n    try:\n        step(batch)\n    except torch.cuda.OutOfMemoryError:\n"
        "        torch.cuda.empty_cache()\n        continue\n",
        T + "for batch in loader:\n    try:\n        step(batch)\n    except torch.OutOfMemoryError:\n        break\n",
        T + "oom = False\ntry:\n    run_model(64)\nexcept torch.cuda.OutOfMemoryError:\n    oom = True\n"
        "if oom:\n    for _ in range(64):\n        run_model(1)\n",
        T + "import gc\ntry:\n    outputs = step(batch)\nexcept torch.cuda.OutOfMemoryError:\n    outputs = None\n"
        "    gc.collect()\n    torch.cuda.empty_cache()\n",
        # not about out-of-memory
        T + "try:\n    step(batch)\nexcept ValueError:\n    step(fix(batch))\n",
        T + "try:\n    step(batch)\nexcept RuntimeError:\n    step(batch)\n",
        T + "try:\n    step(batch)\nexcept RuntimeError as e:\n    if 'device-side assert' in str(e):\n"
        "        step(batch)\n",
        # a guard that does not re-raise: the retry is not about out-of-memory
        T + "try:\n    step(batch)\nexcept RuntimeError as e:\n    if 'out of memory' not in str(e):\n"
        "        log.info('other error')\n    step(batch)\n",
        # the guard form with no retry in the handler
        T + "def run(batch):\n    try:\n        return step(batch)\n    except RuntimeError as e:\n"
        "        if 'out of memory' not in str(e):\n            raise\n        return None\n",
        # the retry is defined in the handler, not run there
        T + "try:\n    step(batch)\nexcept torch.cuda.OutOfMemoryError:\n    def later():\n        step(batch)\n"
        "    pending.append(later)\n",
        # gradients freed, though the `try` body read the parameters too: no work runs again
        T + "model = nn.Linear(4, 4)\nfor x in loader:\n    try:\n        model(x).sum().backward()\n"
        "        optimizer.step()\n        ema.update(model.parameters())\n        optimizer.zero_grad()\n"
        "    except RuntimeError as e:\n        if 'out of memory' not in str(e):\n            raise\n"
        "        for p in model.parameters():\n            del p.grad\n        optimizer.zero_grad()\n"
        "        torch.cuda.empty_cache()\n        continue\n",
    )

    invalid = (
        Invalid(
            T + "try:\n    run_model(batch_size)\nexcept torch.cuda.OutOfMemoryError:\n"
            "    for _ in range(batch_size):\n        run_model(1)\n",
            T + "oom = False\ntry:\n    run_model(batch_size)\nexcept torch.cuda.OutOfMemoryError:\n    oom = True\n"
            "if oom:\n    for _ in range(batch_size):\n        run_model(1)\n",
        ),
        Invalid(
            T + "model = nn.Linear(4, 4)\n\ndef predict(x, oom=None):\n"
            "    # try the whole batch first\n"
            "    try:\n        out = model(x)\n    except torch.OutOfMemoryError:  # fall back\n"
            "        torch.cuda.empty_cache()\n        out = torch.cat([model(part) for part in x.split(1)])\n"
            "    return out\n",
            T + "model = nn.Linear(4, 4)\n\ndef predict(x, oom=None):\n"
            "    # try the whole batch first\n"
            "    out_of_memory = False\n"
            "    try:\n        out = model(x)\n    except torch.OutOfMemoryError:\n        out_of_memory = True\n"
            "    if out_of_memory:  # fall back\n"
            "        torch.cuda.empty_cache()\n        out = torch.cat([model(part) for part in x.split(1)])\n"
            "    return out\n",
        ),
        Invalid(
            "from transformers import AutoModelForCausalLM\nimport torch\n"
            "model = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "try:\n    ids = model.generate(prompt, max_new_tokens=256)\n"
            "except (torch.cuda.OutOfMemoryError, ValueError):\n    ids = model.generate(prompt, max_new_tokens=32)\n",
            "from transformers import AutoModelForCausalLM\nimport torch\n"
            "model = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "oom = False\ntry:\n    ids = model.generate(prompt, max_new_tokens=256)\n"
            "except (torch.cuda.OutOfMemoryError, ValueError):\n    oom = True\n"
            "if oom:\n    ids = model.generate(prompt, max_new_tokens=32)\n",
        ),
        # the handler uses the exception: flagged, no fix
        Invalid(
            T + "model = nn.Linear(4, 4)\ntry:\n    out = model(x)\nexcept RuntimeError as e:\n"
            "    if 'CUDA out of memory' in str(e):\n        torch.cuda.empty_cache()\n        out = model(x[:1])\n"
            "    else:\n        raise\n",
            None,
        ),
        # recursion with a return: the return moves after the `try` with the retry
        Invalid(
            T + "def step(batch):\n    try:\n        return train_step(batch)\n"
            "    except torch.cuda.OutOfMemoryError:\n        torch.cuda.empty_cache()\n"
            "        return step(batch[: len(batch) // 2])\n",
            T + "def step(batch):\n    oom = False\n    try:\n        return train_step(batch)\n"
            "    except torch.cuda.OutOfMemoryError:\n        oom = True\n    if oom:\n        torch.cuda.empty_cache()\n"
            "        return step(batch[: len(batch) // 2])\n",
        ),
        # the guard form: the guard needs the exception and stays; the recovery moves
        Invalid(
            T + "def run(model, batch):\n    try:\n        return model(batch)\n    except RuntimeError as e:\n"
            "        if 'out of memory' not in str(e):\n            raise\n"
            "        return run(model, batch[:1])\n",
            T + "def run(model, batch):\n    oom = False\n    try:\n        return model(batch)\n"
            "    except RuntimeError as e:\n        if 'out of memory' not in str(e):\n            raise\n"
            "        oom = True\n    if oom:\n        return run(model, batch[:1])\n",
        ),
        # a recovery that raises would lose the exception it chains to: flagged, no fix
        Invalid(
            T + "def run(batch):\n    try:\n        return step(batch)\n    except torch.cuda.OutOfMemoryError:\n"
            "        out = run(batch[:1])\n        if out is None:\n            raise ValueError('no result')\n"
            "        return out\n",
            None,
        ),
        # storing the exception: flagged, no fix
        Invalid(
            T + "class Runner:\n    def run(self, batch):\n        try:\n            self.step(batch)\n"
            "        except torch.cuda.OutOfMemoryError as e:\n            self.errors.append(e)\n",
            None,
        ),
        Invalid(
            T + "last_error = None\ntry:\n    step(batch)\nexcept torch.cuda.OutOfMemoryError as err:\n    last_error = err\n",
            None,
        ),
        # the handler's code may read the active exception: flagged, no fix
        Invalid(
            T + "try:\n    run_model(64)\nexcept torch.cuda.OutOfMemoryError:\n"
            "    log.warning('retrying', exc_info=True)\n    run_model(1)\n",
            None,
        ),
        Invalid(
            T + "try:\n    run_model(64)\nexcept torch.cuda.OutOfMemoryError:\n    report_failure()\n    run_model(1)\n",
            None,
        ),
        Invalid(
            T + "import traceback\ndef note():\n    traceback.print_exc()\n"
            "try:\n    run_model(64)\nexcept torch.cuda.OutOfMemoryError:\n    note()\n    run_model(1)\n",
            None,
        ),
        # a tensor's method (the oracle knows `part_loss` is a tensor) never reads the exception
        Invalid(
            T + "model = nn.Linear(4, 4)\ntry:\n    model(x).sum().backward()\nexcept torch.cuda.OutOfMemoryError:\n"
            "    for part in x.split(1):\n        part_loss = model(part).sum()\n        part_loss.backward()\n",
            T + "model = nn.Linear(4, 4)\noom = False\ntry:\n    model(x).sum().backward()\n"
            "except torch.cuda.OutOfMemoryError:\n    oom = True\nif oom:\n"
            "    for part in x.split(1):\n        part_loss = model(part).sum()\n        part_loss.backward()\n",
        ),
        # the same method on an object of unknown type may: flagged, no fix
        Invalid(
            T + "model = nn.Linear(4, 4)\nmeter = Meter()\ntry:\n    model(x).sum().backward()\n"
            "except torch.cuda.OutOfMemoryError:\n    meter.backward()\n    model(x[:1]).sum().backward()\n",
            None,
        ),
        # try with finally: flagged, no fix
        Invalid(
            T + "try:\n    run_model(64)\nexcept torch.cuda.OutOfMemoryError:\n    run_model(1)\nfinally:\n    done()\n",
            None,
        ),
    )

    def visit_Try(self, node: cst.Try) -> None:
        tried = self._callees(node.body)
        for handler in node.handlers:
            if not self._is_oom_handler(handler):
                continue
            stored = self._stored_exception(handler)
            if stored is not None:
                self.report(stored, _STORE_MESSAGE)
                continue
            retry = next((call for call in _calls(handler.body) if self._is_retry(call, tried)), None)
            if retry is not None:
                self.report(retry, _RETRY_MESSAGE, self._fix(node, handler, tried))

    # ---- what the handler is about ----------------------------------------------------------
    def _is_oom_handler(self, handler: cst.ExceptHandler) -> bool:
        caught = handler.type
        if caught is None:
            return False
        types = [element.value for element in caught.elements] if isinstance(caught, cst.Tuple) else [caught]
        if any(self.ctx.qualify(t) in OOM_ERRORS for t in types):
            return True
        broad = any(isinstance(t, cst.Name) and t.value in _BROAD_ERRORS and self.ctx.qualify(t) is None for t in types)
        return broad and _mentions_out_of_memory(handler.body)

    def _stored_exception(self, handler: cst.ExceptHandler) -> cst.CSTNode | None:
        if handler.name is None or not isinstance(handler.name.name, cst.Name):
            return None
        error = handler.name.name.value
        for node in _statements_and_calls(handler.body):
            if isinstance(node, (cst.Assign, cst.AnnAssign)) and _is_name(node.value, error):
                return node
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
                if node.func.attr.value in _STORING_METHODS and any(error in names_used(a.value) for a in node.args):
                    return node
        return None

    # ---- is it the work again? --------------------------------------------------------------
    def _callees(self, body: cst.CSTNode) -> set[str]:
        return {name for call in _calls(body)
                if (name := dotted_name(call.func)) and not _is_harmless(name) and not _reads_state(call, name)}

    def _is_retry(self, call: cst.Call, tried: set[str]) -> bool:
        name = dotted_name(call.func)
        if name is None or _is_harmless(self.ctx.qualify(call.func) or name):
            return False
        if name in tried or name.rsplit(".", 1)[-1] in _WORK_ROUTINES or name.rsplit(".", 1)[-1].startswith("train"):
            return True
        function = self.ctx.enclosing(cst.FunctionDef)
        if function is not None and name in (function.name.value, f"self.{function.name.value}"):
            return True
        return self.ctx.is_module(call.func)

    # ---- does the handler's code need the active exception? --------------------------------
    def _runs_without_the_exception(self, handler: cst.ExceptHandler, tried: set[str]) -> bool:
        """Every call in the handler is known to behave the same once the exception is gone: the
        work of the `try` body again, a module, torch, a builtin, a container or tensor method,
        logging without `exc_info`, or a function of this file whose own calls are all such."""
        return all(self._known_call(call, tried, set()) for call in _calls(handler.body))

    def _known_call(self, call: cst.Call, tried: set[str], seen: set[cst.FunctionDef]) -> bool:
        name = dotted_name(call.func)
        qualified = self.ctx.qualify(call.func)
        if _passes_exc_info(call) or any(_reads_exception(n) for n in (name, qualified) if n):
            return False
        if name is not None and (name in tried or (qualified is None and name in _BUILTINS)):
            return True
        if _is_harmless(qualified or name or "") or (qualified or "").startswith("torch."):
            return True
        func = call.func
        if isinstance(func, cst.Attribute) and (func.attr.value in _PLAIN_METHODS or self._is_module_method(func)):
            return True
        if isinstance(func, cst.Attribute) and self._is_tensor(func):
            return True  # `loss.backward()`, `out.softmax(-1)`: a tensor's methods never read it
        if self.ctx.is_module(func):
            return True
        function = self._local_function(func)
        if function is None:
            return False
        if function in seen:
            return True
        seen.add(function)
        if any(isinstance(n, cst.Raise) and n.exc is None for n in descendants(function.body, _outside_handlers)):
            return False  # a bare `raise` re-raises whatever exception is active
        # A recursive retry runs the `try` body's work again, which is known.
        work = tried if function is self.ctx.enclosing(cst.FunctionDef) else set()
        return all(self._known_call(inner, work, seen) for inner in _calls(function.body))

    def _is_tensor(self, func: cst.Attribute) -> bool:
        """The receiver of `func` is a tensor, as the oracle judges it where the call stands."""
        path = path_to(self.ctx.module, func)
        kind = self.ctx.oracle.kind(func.value, path) if path else None
        return kind is not None and kind.base == TENSOR

    def _is_module_method(self, func: cst.Attribute) -> bool:
        return func.attr.value in _WORK_ROUTINES and self.ctx.is_module(func.value)

    def _local_function(self, func: cst.CSTNode) -> cst.FunctionDef | None:
        """The function of this file a call runs: a module-level `def`, or `self.method`."""
        if isinstance(func, cst.Name):
            bindings = self.ctx.oracle.bindings_of(func.value, self.ctx.stack) or []
            values = [b.value for b in bindings]
            if len(values) == 1 and isinstance(values[0], cst.FunctionDef):
                return values[0]
            return None
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            cls = self.ctx.enclosing(cst.ClassDef)
            methods = [m for m in (cls.body.body if cls else ()) if isinstance(m, cst.FunctionDef) and m.name.value == func.attr.value]
            return methods[0] if len(methods) == 1 else None
        return None

    # ---- the fix ----------------------------------------------------------------------------
    def _fix(self, node: cst.Try, handler: cst.ExceptHandler, tried: set[str]):
        block = self.ctx.stack[-2]
        if node.orelse is not None or node.finalbody is not None or not isinstance(block, (cst.IndentedBlock, cst.Module)):
            return None
        guards, recovery_body = _split_guards(handler.body.body)
        recovery_block = handler.body.with_changes(body=recovery_body)
        if not recovery_body or (handler.name is not None and handler.name.name.value in names_used(recovery_block)):
            return None
        if _raises(recovery_block) or not self._runs_without_the_exception(handler, tried):
            return None
        scope = self.ctx.enclosing(cst.FunctionDef) or self.ctx.module
        flag = free_name(scope, _FLAG_NAMES)
        flag_line = cst.SimpleStatementLine(
            body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(flag))], value=cst.Name("False"))],
            leading_lines=node.leading_lines,
        )
        set_flag = cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(flag))], value=cst.Name("True"))])
        handler_body = cst.IndentedBlock(body=[*guards, set_flag])  # the header comment moves with the recovery
        handlers = [h.with_changes(body=handler_body) if h is handler else h for h in node.handlers]
        new_try = node.with_changes(handlers=handlers, leading_lines=())
        recovery = cst.If(test=cst.Name(flag), body=recovery_block)
        index = next(i for i, statement in enumerate(block.body) if statement is node)
        body = [*block.body[:index], flag_line, new_try, recovery, *block.body[index + 1 :]]
        return self.replace(block, block.with_changes(body=body), "Retry after the `try` statement, once the exception is gone")


def _outside_handlers(node: cst.CSTNode) -> bool:
    """A `prune` that stays out of nested scopes and except handlers (a bare raise there is fine)."""
    return isinstance(node, (*SCOPE_NODES, cst.ExceptHandler, cst.ExceptStarHandler))


def _statements_and_calls(body: cst.CSTNode, into_raises: bool = False) -> list[cst.CSTNode]:
    """The nodes of a handler body, not inside nested functions or classes (nor raises, unless
    asked: a raise's argument is never the work again)."""
    skipped = SCOPE_NODES if into_raises else (*SCOPE_NODES, cst.Raise)
    return [node for node in descendants(body, lambda n: isinstance(n, skipped)) if not isinstance(node, skipped)]


def _calls(body: cst.CSTNode) -> list[cst.Call]:
    return [node for node in _statements_and_calls(body) if isinstance(node, cst.Call)]


def _is_harmless(name: str) -> bool:
    if name in _HARMLESS_CALLS:
        return True
    head, _, last = name.rpartition(".")
    return bool(head) and (last in _LOGGING_METHODS or head.split(".")[0] in ("logging", "logger", "log", "warnings"))


def _reads_state(call: cst.Call, name: str) -> bool:
    """`model.parameters()`, `optimizer.zero_grad()`: called in the `try` body too, they are not
    its work (other reasons to take the handler's call for a retry still hold)."""
    return "." in name and name.rsplit(".", 1)[1] in _STATE_METHODS and not call.args


def _is_name(node: cst.CSTNode | None, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _mentions_out_of_memory(body: cst.CSTNode) -> bool:
    if any(_is_raise_guard(s) and _names_out_of_memory(s.test, cst.NotIn) for s in body.body):
        return True  # the guard form: `if "out of memory" not in str(e): raise`, then the recovery
    for node in _statements_and_calls(body):
        if isinstance(node, cst.Comparison) and isinstance(node.left, cst.SimpleString):
            text = node.left.evaluated_value
            if isinstance(text, str) and "out of memory" in text.lower():
                return any(isinstance(target.operator, cst.In) for target in node.comparisons)
    return False


def _raises(body: cst.CSTNode) -> bool:
    """A `raise` moved out of the handler would lose (or, bare, fail for want of) the active
    exception. `return`, `break` and `continue` move unchanged: the flag is tested right after the
    `try`, in the same function and loop, so they leave the same way."""
    return any(isinstance(node, cst.Raise) for node in _statements_and_calls(body, into_raises=True))


def _split_guards(statements) -> tuple[list, list]:
    """The handler's leading guards (`if "out of memory" not in str(e): raise`), which need the
    exception and stay in the handler, and the statements after them, which move."""
    count = 0
    while count < len(statements) and _is_raise_guard(statements[count]):
        count += 1
    return list(statements[:count]), list(statements[count:])


def _is_raise_guard(statement: cst.CSTNode) -> bool:
    if not isinstance(statement, cst.If) or statement.orelse is not None:
        return False
    if not isinstance(statement.body, cst.IndentedBlock):
        return all(isinstance(small, cst.Raise) for small in statement.body.body)
    return all(
        isinstance(line, cst.SimpleStatementLine) and all(isinstance(small, cst.Raise) for small in line.body)
        for line in statement.body.body
    )


def _passes_exc_info(call: cst.Call) -> bool:
    """`exc_info=` with anything but a literal False or None: the call reads the active exception."""
    return any(
        arg.keyword is not None and arg.keyword.value == "exc_info"
        and not (isinstance(arg.value, cst.Name) and arg.value.value in ("False", "None"))
        for arg in call.args
    )


def _reads_exception(name: str) -> bool:
    head, _, last = name.rpartition(".")
    return last in _USES_EXC_INFO or head.split(".")[0] == "traceback" or name in ("sys.exc_info", "sys.exception")


def _names_out_of_memory(test: cst.CSTNode, operator: type) -> bool:
    """`"out of memory" <operator> ...` (the message of CUDA's out-of-memory error)."""
    return (
        isinstance(test, cst.Comparison) and isinstance(test.left, cst.SimpleString)
        and isinstance(test.left.evaluated_value, str) and "out of memory" in test.left.evaluated_value.lower()
        and any(isinstance(target.operator, operator) for target in test.comparisons)
    )
