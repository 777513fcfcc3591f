"""TL003 loss-accumulated-with-graph: `total += loss` keeps every iteration's graph alive."""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

from torchlint.analysis import dotted_name, walk_statements
from torchlint.codemod import method_call, names_used
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register
from torchlint.walk import descendants, outside_nested_scopes

# Calls through which an accumulated loss is backpropagated: receiver.backward(), and
# accelerator.backward(x), torch.autograd.grad(x, ...), scaler.scale(x), ...
_BACKWARD_METHODS = frozenset({"backward"})
_BACKWARD_SINKS = frozenset({"backward", "grad", "scale"})

T = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
SETUP = T + "model = nn.Linear(4, 1)\ncriterion = nn.MSELoss()\n"


@register
class LossAccumulatedWithGraph(Rule):
    """
    ## What it does
    Flags `total += loss`, `total = total + loss` and `history.append(loss)` inside a loop when
    `loss` is a tensor that carries an autograd graph (a criterion or `F.*loss` result, a module's
    output, arithmetic on those, a model output's `.loss`) and the accumulator is bound before the
    loop, so it outlives the iteration.

    ## Why is this bad?
    Adding a graph-carrying tensor to an accumulator makes the accumulator part of the graph, so
    every iteration's graph, with all the activations it saved, stays alive until the accumulator
    is freed. Memory grows with each step until the epoch ends or the process runs out of memory.
    This is the PyTorch FAQ's "Don't accumulate history across your training loop".

    ## Example
    ```python
    total_loss = 0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        total_loss += loss
    ```

    ## Use instead
    ```python
    total_loss = 0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        total_loss += loss.detach()   # or loss.item() when a Python number is all you need
    ```

    ## Fix safety
    The fix wraps the added value in `.detach()` and is **safe**: the accumulator gets the same
    value, dtype and device, there is no host synchronisation (unlike `.item()`), and later
    `.item()` or `dist.all_reduce(total)` calls keep working. The only difference is that the old
    graphs are freed.

    Not flagged: gradient accumulation (the accumulator is later `.backward()`ed, or passed to
    `torch.autograd.grad`, `scaler.scale(...)` or `accelerator.backward(...)`, directly or through
    other variables), a loss being composed and returned (`total += term; return total`) when the
    term is not itself backpropagated in the loop, a `grad_norm += g.pow(2).sum()` later added to a
    loss that is backpropagated, anything under `torch.no_grad()`/`torch.inference_mode()` or in a
    function decorated with them, values already `.item()`ed, `.detach()`ed or `float(...)`ed,
    plain numbers, an accumulator reset inside the loop, and values of unknown type.

    For speed, the rule only looks at files where a line that accumulates (`+=`, `.append(`,
    `x = x + ...`) also names a loss, a criterion or logits; an accumulation of, say, raw model
    outputs on a line that names none of these is not checked.

    ## References
    - [PyTorch FAQ: Don't accumulate history across your training loop](https://pytorch.org/docs/stable/notes/faq.html#my-model-reports-cuda-runtime-error-2-out-of-memory)
    - [torch.Tensor.detach](https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html)
    """

    code = "TL003"
    name = "loss-accumulated-with-graph"
    summary = "A graph-carrying loss accumulated across loop iterations keeps every graph alive"
    severity = "warning"
    fix_safety = ("safe",)
    trigger_tokens = ("loss", "criterion", "logit")
    scope_tokens = ("+", "append")  # it visits `+=`, `x = x + ...` and `.append(...)`

    @classmethod
    def could_fire(cls, text: str) -> bool:
        return super().could_fire(text) and _a_line_accumulates_a_loss(text)

    valid = (
        # gradient accumulation: the accumulator is backpropagated
        SETUP + "total = 0\nfor x, y in batches:\n    total = total + criterion(model(x), y)\ntotal.backward()\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\n"
        "grads = torch.autograd.grad(total, model.parameters())\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\nscaler.scale(total).backward()\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\naccelerator.backward(total / 4)\n",
        SETUP + "losses = []\nfor x, y in batches:\n    losses.append(criterion(model(x), y))\n"
        "torch.stack(losses).mean().backward()\n",
        # a loss being composed and returned
        T + "class MultiHead(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.head = nn.Linear(4, 1)\n"
        "        self.criterion = nn.MSELoss()\n"
        "    def loss(self, x, ys):\n"
        "        total = 0\n"
        "        for y in ys:\n"
        "            total += self.criterion(self.head(x), y)\n"
        "        return total\n",
        # a penalty accumulated into a loss that is backpropagated
        SETUP + "loss = criterion(model(x), y)\ngrad_norm = 0\nfor p in model.parameters():\n"
        "    grad_norm += p.pow(2).sum()\nloss = loss + 0.1 * grad_norm\nloss.backward()\n",
        # no graph recorded
        SETUP + "total = 0\nwith torch.no_grad():\n    for x, y in batches:\n        total += criterion(model(x), y)\n",
        SETUP + "total = 0\nwith torch.inference_mode():\n    for x, y in batches:\n        total += criterion(model(x), y)\n",
        SETUP + "@torch.no_grad()\ndef evaluate(batches):\n    total = 0\n    for x, y in batches:\n"
        "        total += criterion(model(x), y)\n    return total\n",
        # already detached or converted
        SETUP + "total = 0\nfor x, y in batches:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    total += loss.item()\n",
        SETUP + "total = 0\nfor x, y in batches:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    total += loss.detach()\n",
        SETUP + "total = 0\nfor x, y in batches:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    total += float(loss)\n",
        SETUP + "losses = []\nfor x, y in batches:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    losses.append(loss.item())\n",
        # plain numbers, unknown types, an accumulator reset every iteration, no loop
        "count = 0\nfor batch in batches:\n    count += 1\n",
        "total = 0\nfor batch in batches:\n    loss = compute(batch)\n    loss.backward()\n    total += loss\n",
        SETUP + "for x, y in batches:\n    step_total = 0\n    step_total += criterion(model(x), y)\n",
        SETUP + "total = 0\nloss = criterion(model(x), y)\ntotal += loss\n",
        # data, not losses
        T + "total = 0\nfor x in batches:\n    total += torch.ones(3)\n",
    )

    invalid = (
        Invalid(
            SETUP + "total_loss = 0\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
            "    total_loss += loss\nprint(total_loss / len(loader))\n",
            SETUP + "total_loss = 0\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
            "    total_loss += loss.detach()\nprint(total_loss / len(loader))\n",
        ),
        Invalid(
            SETUP + "total = 0.0\nstep = 0\nwhile step < 10:\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n"
            "    total = total + loss\n    step += 1\n",
            SETUP + "total = 0.0\nstep = 0\nwhile step < 10:\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n"
            "    total = total + loss.detach()\n    step += 1\n",
        ),
        Invalid(
            SETUP + "history = []\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    history.append(loss)\n",
            SETUP + "history = []\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    history.append(loss.detach())\n",
        ),
        Invalid(
            SETUP + "def train_epoch(loader, opt):\n    total = 0.0\n    for x, y in loader:\n"
            "        opt.zero_grad()\n        loss = criterion(model(x), y)\n        loss.backward()\n"
            "        opt.step()\n        total += loss * x.size(0)\n    return total / len(loader.dataset)\n",
            SETUP + "def train_epoch(loader, opt):\n    total = 0.0\n    for x, y in loader:\n"
            "        opt.zero_grad()\n        loss = criterion(model(x), y)\n        loss.backward()\n"
            "        opt.step()\n        total += (loss * x.size(0)).detach()\n    return total / len(loader.dataset)\n",
        ),
        Invalid(
            SETUP + "for epoch in range(3):\n    epoch_loss = 0\n    for x, y in loader:\n"
            "        epoch_loss += F.cross_entropy(model(x), y)\n",
            SETUP + "for epoch in range(3):\n    epoch_loss = 0\n    for x, y in loader:\n"
            "        epoch_loss += F.cross_entropy(model(x), y).detach()\n",
        ),
        Invalid(
            "from transformers import AutoModelForCausalLM\nmodel = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "running = 0\nfor batch in loader:\n    outputs = model(**batch)\n    loss = outputs.loss\n"
            "    loss.backward()\n    running += loss\n",
            "from transformers import AutoModelForCausalLM\nmodel = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "running = 0\nfor batch in loader:\n    outputs = model(**batch)\n    loss = outputs.loss\n"
            "    loss.backward()\n    running += loss.detach()\n",
        ),
    )

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, cst.AddAssign) and isinstance(node.target, cst.Name):
            self._check(node.target.value, node.value, node)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return
        value = node.value
        if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)):
            return
        accumulator = node.targets[0].target.value
        for same, other in ((value.left, value.right), (value.right, value.left)):
            if isinstance(same, cst.Name) and same.value == accumulator:
                self._check(accumulator, other, node)
                return

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "append" and isinstance(func.value, cst.Name)):
            return
        if len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star:
            self._check(func.value.value, node.args[0].value, node)

    def _check(self, accumulator: str, value: cst.BaseExpression, report_at: cst.CSTNode) -> None:
        loop = self.ctx.innermost_loop()
        if loop is None or self.ctx.grad_disabled() or not self.ctx.is_tensor(value, graph=True):
            return
        scope_body = self._scope_body()
        if not _bound_before(accumulator, loop, scope_body) or _bound_in(accumulator, loop):
            return
        added_is_backpropagated = _backpropagated_in(value, loop)
        if accumulator in _names_reaching_backward(scope_body, include_returns=not added_is_backpropagated):
            return
        code = self.ctx.module.code_for_node(value)
        message = (
            f"Accumulating `{code}` into `{accumulator}` keeps every iteration's autograd graph alive; "
            f"add `{code}.detach()` instead, or use `.item()` if only a Python number is needed"
        )
        self.report(report_at, message, self.replace(value, method_call(value, "detach"), "Accumulate `.detach()`"))

    def _scope_body(self) -> cst.CSTNode:
        function = self.ctx.enclosing(cst.FunctionDef)
        return function.body if function is not None else self.ctx.module


# `+=`, `.append(`, `x = x + ...`; and a loss, a criterion or logits named on the same line
_ACCUMULATION = re.compile(r"\+=|\.append\(|=[ \t]*[\w.]+[ \t]*\+")
_LOSS_WORD = re.compile(r"loss|criterion|logit", re.IGNORECASE)


def _a_line_accumulates_a_loss(text: str) -> bool:
    """The file gate: some line's code (before any `#`) accumulates and names a loss. Scanning from
    each accumulation, which few lines have, is much faster than testing every line."""
    for match in _ACCUMULATION.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.start())
        code = text[line_start : line_end if line_end >= 0 else len(text)].split("#", 1)[0]
        if match.start() - line_start < len(code) and _LOSS_WORD.search(code):
            return True
    return False


def _assigned_names(statement: cst.CSTNode) -> list[str]:
    if isinstance(statement, cst.Assign):
        return [t.target.value for t in statement.targets if isinstance(t.target, cst.Name)]
    if isinstance(statement, cst.AnnAssign) and statement.value is not None and isinstance(statement.target, cst.Name):
        return [statement.target.value]
    return []


def _bound_before(name: str, loop: cst.CSTNode, scope_body: cst.CSTNode) -> bool:
    """`name` is assigned in the scope before `loop` starts (statements come in source order)."""
    for statement in walk_statements(scope_body, into_scopes=False):
        if statement is loop:
            return False
        if name in _assigned_names(statement):
            return True
    return False


def _bound_in(name: str, loop: cst.CSTNode) -> bool:
    """Reset inside the loop body (not `name = name + x`): then each iteration starts afresh."""
    return any(
        name in _assigned_names(statement) and name not in names_used(statement.value)
        for statement in walk_statements(loop.body, into_scopes=False)
    )


@dataclass
class _Flow:
    calls: list[cst.Call]
    returned: list[cst.CSTNode]  # returned and yielded values


def _collect(node: cst.CSTNode) -> _Flow:
    flow = _Flow([], [])
    for child in descendants(node, outside_nested_scopes):
        if isinstance(child, cst.Call):
            flow.calls.append(child)
        elif isinstance(child, (cst.Return, cst.Yield)) and child.value is not None:
            flow.returned.append(child.value)
    return flow


def _backward_sink_names(calls: list[cst.Call]) -> set[str]:
    """Names used in what is backpropagated: `x.backward()` receivers and sink arguments."""
    names: set[str] = set()
    for call in calls:
        func = call.func
        method = func.attr.value if isinstance(func, cst.Attribute) else dotted_name(func)
        if isinstance(func, cst.Attribute) and method in _BACKWARD_METHODS:
            names |= names_used(func.value)
        if method in _BACKWARD_SINKS:
            for arg in call.args:
                names |= names_used(arg.value)
    return names


def _backpropagated_in(value: cst.BaseExpression, loop: cst.CSTNode) -> bool:
    """The added value (or a name in it) is `.backward()`ed inside the loop."""
    sinks = _backward_sink_names(_collect(loop.body).calls)
    return bool(names_used(value) & sinks)


def _names_reaching_backward(scope_body: cst.CSTNode, include_returns: bool) -> set[str]:
    """Names whose values flow into a backward sink (or a return), through assignments."""
    collected = _collect(scope_body)
    reaching = _backward_sink_names(collected.calls)
    if include_returns:
        for value in collected.returned:
            reaching |= names_used(value)
    flows: list[tuple[str, set[str]]] = []
    for statement in walk_statements(scope_body, into_scopes=False):
        if isinstance(statement, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and statement.value is not None:
            targets = _assigned_names(statement)
            if isinstance(statement, cst.AugAssign) and isinstance(statement.target, cst.Name):
                targets = [statement.target.value]
            for target in targets:
                flows.append((target, names_used(statement.value)))
    changed = True
    while changed:
        changed = False
        for target, sources in flows:
            if target in reaching and not sources <= reaching:
                reaching |= sources
                changed = True
    return reaching
