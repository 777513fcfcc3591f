"""TL620 scheduler-step-before-optimizer-step: `scheduler.step()` before `optimizer.step()`."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import (
    calls_in_order,
    enclosing_statement_block,
    is_scheduler,
    method_of,
    stepped_optimizer,
    trains,
)
from torchlint.rules.registry import register

SETUP = (
    "import torch\nmodel = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)\n"
)


@register
class SchedulerStepBeforeOptimizerStep(Rule):
    """
    ## What it does
    Flags `scheduler.step()` on a `torch.optim.lr_scheduler` scheduler inside a loop when the same
    loop steps an optimizer (`opt.step()` or `scaler.step(opt)`, or a call of a function or
    `self.` method of the file that backpropagates and steps, such as `train_one_epoch(...)`)
    later in the iteration and not before it.

    ## Why is this bad?
    Since PyTorch 1.1.0 the scheduler must be stepped after the optimizer. Stepping it first skips
    the first value of the learning-rate schedule: the first update already uses the decayed rate,
    and every later one runs one step (or epoch) ahead. PyTorch warns "Detected call of
    `lr_scheduler.step()` before `optimizer.step()`", once, and the run goes on.

    ## Example
    ```python
    for x, y in loader:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        scheduler.step()
        optimizer.step()
    ```

    ## Use instead
    ```python
    for x, y in loader:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()
        scheduler.step()
    ```

    ## Fix safety
    When both calls are statements of the same block, the fix moves `scheduler.step()` to just
    after the optimizer step. It is **unsafe**: every update from then on uses a different
    learning rate (the one the schedule defines), so the trained weights change. A scheduler
    stepped at the top of an epoch loop whose optimizer steps in an inner loop is reported without
    a fix: where the call belongs (end of the epoch) is the author's call.

    Not flagged: `ReduceLROnPlateau` (stepped with a metric), a scheduler stepped after the
    optimizer, schedulers and optimizers of unknown type, and loops that never step an optimizer.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [How to adjust the learning rate: "scheduler.step() ... after the optimizer's update"](https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate)
    - [PyTorch 1.1.0 release notes: the order changed](https://github.com/pytorch/pytorch/releases/tag/v1.1.0)
    """

    code = "TL620"
    name = "scheduler-step-before-optimizer-step"
    summary = "`scheduler.step()` before `optimizer.step()` skips the first learning rate"
    severity = "warning"
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = (".step(",)  # the scheduler may come from a caller in another file
    scope_tokens = (".step",)

    valid = (
        SETUP + "for x in data:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n    sched.step()\n",
        SETUP + "for epoch in range(3):\n    for x in data:\n        model(x).sum().backward()\n        opt.step()\n"
        "        opt.zero_grad()\n    sched.step()\n",
        "import torch\nmodel = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)\nfor x in data:\n    plateau.step(val_loss)\n"
        "    model(x).sum().backward()\n    opt.step()\n",
        "for x in data:\n    scheduler.step()\n    optimizer.step()\n",
        SETUP + "for x in data:\n    sched.step()\n",
        # the epoch's training function runs before the scheduler steps
        SETUP + "def train(model, opt):\n    for x in data:\n        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n" + "for epoch in range(3):\n    train(model, opt)\n    sched.step()\n",
        # a function that only evaluates does not step an optimizer
        SETUP + "def evaluate(model):\n    return model(x)\nfor epoch in range(3):\n    sched.step()\n"
        "    evaluate(model)\n",
        SETUP + "for x in data:\n    model(x).sum().backward()\n    opt.step()\n    sched.step()\n    if done:\n"
        "        opt.step()\n",
    )
    invalid = (
        # the pre-1.1 order: the scheduler first, then the epoch's training function (which steps)
        Invalid(
            SETUP + "def train(model, opt):\n    for x in data:\n        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n" + "for epoch in range(3):\n    sched.step()\n    train(model, opt)\n",
            SETUP + "def train(model, opt):\n    for x in data:\n        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n" + "for epoch in range(3):\n    train(model, opt)\n    sched.step()\n",
        ),
        Invalid(
            SETUP + "for x in data:\n    opt.zero_grad()\n    model(x).sum().backward()\n    sched.step()\n    opt.step()\n",
            SETUP + "for x in data:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n    sched.step()\n",
        ),
        Invalid(
            SETUP + "scaler = torch.amp.GradScaler()\nfor x in data:\n    sched.step()  # decay\n"
            "    scaler.scale(model(x).sum()).backward()\n    scaler.step(opt)\n    scaler.update()\n",
            SETUP + "scaler = torch.amp.GradScaler()\nfor x in data:\n"
            "    scaler.scale(model(x).sum()).backward()\n    scaler.step(opt)\n    sched.step()  # decay\n    scaler.update()\n",
        ),
        Invalid(
            SETUP + "for epoch in range(3):\n    sched.step()\n    for x in data:\n        model(x).sum().backward()\n"
            "        opt.step()\n        opt.zero_grad()\n",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if method_of(node) != "step" or node.args or not is_scheduler(self.ctx, node.func.value):
            return
        loop = self.ctx.innermost_loop()
        if loop is None:
            return
        calls = list(calls_in_order(loop.body))
        position = next((index for index, call in enumerate(calls) if call is node), None)
        if position is None:
            return  # in the loop's header or else-clause, not its body
        steps = [index for index, call in enumerate(calls)
                 if stepped_optimizer(self.ctx, call) is not None or (index > position and trains(self.ctx, call))]
        if not steps or steps[0] < position:
            return
        self.report(
            node,
            "`scheduler.step()` runs before `optimizer.step()`, skipping the first learning rate; swap them",
            self._fix(node, calls[steps[0]]),
        )

    def _fix(self, scheduler_call: cst.Call, optimizer_call: cst.Call):
        found = enclosing_statement_block(self.ctx)
        if found is None:
            return None
        block, statement = found
        if not _is_lone_call(statement, scheduler_call):
            return None
        body = list(block.body)
        target = next((s for s in body if _is_lone_call(s, optimizer_call)), None)
        if target is None:
            return None
        body.remove(statement)
        body.insert(body.index(target) + 1, statement)
        return self.replace(block, block.with_changes(body=body), "Step the scheduler after the optimizer", "unsafe")


def _is_lone_call(statement: cst.CSTNode, call: cst.Call) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and statement.body[0].value is call
    )
