"""TL627 gradient-accumulation-unscaled: accumulating gradients over k micro-steps without
dividing the loss by k (or, under DDP, without `no_sync()`)."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import calls_in_order, is_backward, method_of, produced_by, stepped_optimizer
from torchlint.rules.registry import register
from torchlint.walk import SCOPE_NODES, descendants

_DDP = frozenset({"torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel"})
SETUP = (
    "import torch\nmodel = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
)
HEAD = "for i, (x, y) in enumerate(loader):\n"
STEP = "    if (i + 1) % accum == 0:\n        opt.step()\n        opt.zero_grad()\n"


@register
class GradientAccumulationUnscaled(Rule):
    """
    ## What it does
    Flags a loop that calls `backward()` on every iteration and steps the optimizer only under
    a modulo condition (`if (i + 1) % k == 0:`), i.e. gradient accumulation, when
    - the loss given to `backward()` is not divided (no `/` or `*` in its expression or in the
      assignments to it in the loop, no `loss /= k`; a product counts as scaled), or
    - the model is a `DistributedDataParallel` called in the loop and `no_sync()` appears nowhere
      in it, so every micro-step all-reduces gradients.

    ## Why is this bad?
    `backward()` sums gradients. Over k micro-batches the accumulated gradient is k times the
    gradient of the mean loss, so the effective learning rate is k times the one configured
    (and gradient clipping thresholds mean something else): training diverges or needs retuning
    whenever k changes. Under DDP, each `backward()` outside `no_sync()` runs an all-reduce; the
    result is the same, but the communication cost is paid k times.

    ## Example
    ```python
    for i, (x, y) in enumerate(loader):
        loss = loss_fn(model(x), y)
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
    ```

    ## Use instead
    ```python
    for i, (x, y) in enumerate(loader):
        loss = loss_fn(model(x), y) / accum_steps
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
    ```

    ## Fix safety
    There is no fix: dividing changes the effective learning rate, which some recipes tuned
    around (summing on purpose with a smaller learning rate).

    Not flagged: a loss divided anywhere on its way to `backward()`, a step not under a modulo
    condition, `accelerator.backward(loss)` (Accelerate scales inside `accumulate()`), and
    optimizers of unknown type.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [AMP examples: gradient accumulation ("loss = loss / iters_to_accumulate")](https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-accumulation)
    - [DistributedDataParallel.no_sync](https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html#torch.nn.parallel.DistributedDataParallel.no_sync)
    """

    code = "TL627"
    name = "gradient-accumulation-unscaled"
    summary = "Gradient accumulation without dividing the loss (or without no_sync under DDP)"
    severity = "warning"
    default_enabled = False
    trigger_tokens = ("%",)
    scope_tokens = ("%",)

    valid = (
        SETUP + HEAD + "    loss = model(x).sum() / accum\n    loss.backward()\n" + STEP,
        SETUP + HEAD + "    loss = model(x).sum()\n    loss = loss / accum\n    loss.backward()\n" + STEP,
        SETUP + HEAD + "    loss = model(x).sum()\n    loss /= accum\n    loss.backward()\n" + STEP,
        SETUP + HEAD + "    (model(x).sum() / accum).backward()\n" + STEP,
        SETUP + HEAD + "    loss = model(x).sum()\n    loss.backward()\n    opt.step()\n    opt.zero_grad()\n"
        "    if i % 100 == 0:\n        print(loss.item())\n",
        SETUP + HEAD + "    loss = model(x).sum()\n    accelerator.backward(loss)\n" + STEP,
        "for i, x in enumerate(loader):\n    loss = f(x)\n    loss.backward()\n    if (i + 1) % 4 == 0:\n        optimizer.step()\n",
        # the compiled module is not DDP, and the DDP one uses no_sync
        SETUP + "compiled = torch.compile(model)\n" + HEAD + "    loss = compiled(x).sum() / accum\n    loss.backward()\n" + STEP,
        ("import torch\nfrom torch.nn.parallel import DistributedDataParallel as DDP\n"
            "ddp = DDP(torch.nn.Linear(2, 1))\nopt = torch.optim.SGD(ddp.parameters(), lr=0.1)\n"
            "model = torch.compile(ddp)\n" + HEAD + "    with ddp.no_sync():\n        loss = model(x).sum() / accum\n"
            "        loss.backward()\n" + STEP),
    )
    invalid = (
        Invalid(SETUP + HEAD + "    loss = model(x).sum()\n    loss.backward()\n" + STEP),
        Invalid(SETUP + "scaler = torch.amp.GradScaler()\n" + HEAD + "    scaler.scale(model(x).sum()).backward()\n"
                "    if (i + 1) % 8 == 0:\n        scaler.step(opt)\n        scaler.update()\n        opt.zero_grad()\n"),
        Invalid(
            "import torch\nfrom torch.nn.parallel import DistributedDataParallel as DDP\n"
            "model = DDP(torch.nn.Linear(2, 1))\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
            + HEAD + "    loss = model(x).sum() / accum\n    loss.backward()\n" + STEP
        ),
        # compiling the DDP module keeps its all-reduce on every backward
        Invalid("import torch\nfrom torch.nn.parallel import DistributedDataParallel as DDP\n"
            "ddp = DDP(torch.nn.Linear(2, 1))\nopt = torch.optim.SGD(ddp.parameters(), lr=0.1)\n"
                "model = torch.compile(ddp)\n" + HEAD + "    loss = model(x).sum() / accum\n    loss.backward()\n" + STEP),
    )

    def visit_For(self, node: cst.For) -> None:
        self._check(node)

    def visit_While(self, node: cst.While) -> None:
        self._check(node)

    def _check(self, loop: cst.CSTNode) -> None:
        if not self._steps_every_k(loop):
            return
        backward = next((call for call in self._unconditional_calls(loop) if is_backward(call) and not call.args), None)
        if backward is None:
            return
        if not self._divided(loop, backward.func.value):
            self.report(backward, "The loss is not divided by the accumulation steps, so the step applies their sum, not mean")
        elif self._ddp_without_no_sync(loop):
            self.report(backward, "Under DDP every accumulation micro-step all-reduces; run the others in `model.no_sync()`")

    def _steps_every_k(self, loop: cst.CSTNode) -> bool:
        for child in descendants(loop.body, prune=lambda n: isinstance(n, (*SCOPE_NODES, cst.For, cst.While))):
            if isinstance(child, cst.If) and _has_modulo(child.test):
                if any(stepped_optimizer(self.ctx, call) is not None for call in calls_in_order(child.body)):
                    return True
        return False

    @staticmethod
    def _unconditional_calls(loop: cst.CSTNode):
        stop = (*SCOPE_NODES, cst.If, cst.For, cst.While, cst.Try, cst.With)
        for child in descendants(loop.body, prune=lambda n: isinstance(n, stop)):
            if isinstance(child, cst.Call):
                yield child

    def _divided(self, loop: cst.CSTNode, loss: cst.CSTNode) -> bool:
        if isinstance(loss, cst.Call) and method_of(loss) == "scale" and loss.args:
            loss = loss.args[0].value
        if _has_division(loss):
            return True
        if not isinstance(loss, cst.Name):
            return False
        for child in descendants(loop.body, prune=lambda n: isinstance(n, SCOPE_NODES)):
            if isinstance(child, cst.AugAssign) and child.target.deep_equals(loss):
                if isinstance(child.operator, (cst.DivideAssign, cst.MultiplyAssign)):
                    return True
            if isinstance(child, cst.Assign) and any(t.target.deep_equals(loss) for t in child.targets):
                if _has_division(child.value):
                    return True
        return False

    def _ddp_without_no_sync(self, loop: cst.CSTNode) -> bool:
        calls = list(calls_in_order(loop.body))
        if any(method_of(call) == "no_sync" for call in calls):
            return False
        for call in calls:
            model = call.func
            built = produced_by(self.ctx, model)
            if isinstance(built, cst.Call) and self.ctx.qualify(built.func) == "torch.compile" and built.args:
                model = built.args[0].value  # `torch.compile(ddp_model)` all-reduces as the DDP module does
            kind = self.ctx.kind(model)
            if kind is not None and kind.base == "module" and kind.origin in _DDP:
                return True
        return False


def _has_modulo(expr: cst.CSTNode) -> bool:
    return any(isinstance(n, cst.BinaryOperation) and isinstance(n.operator, cst.Modulo) for n in descendants(expr))


def _has_division(expr: cst.CSTNode) -> bool:
    return any(
        isinstance(n, cst.BinaryOperation) and isinstance(n.operator, (cst.Divide, cst.Multiply)) for n in descendants(expr)
    )
