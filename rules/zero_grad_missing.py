"""TL621 zero-grad-missing: a training loop that never resets gradients, or resets them between
`backward()` and `step()`."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import (
    calls_in_order,
    enclosing_statement_block,
    is_backward,
    resets_gradients,
    stepped_optimizer,
)
from torchlint.rules.registry import register
from torchlint.walk import descendants

SETUP = "import torch\nmodel = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"


@register
class ZeroGradMissing(Rule):
    """
    ## What it does
    Flags an optimizer step (`opt.step()` or `scaler.step(opt)`, on a `torch.optim` optimizer) in
    a loop that calls `backward()` when
    - nothing in the loop resets the gradients (`opt.zero_grad()`, `model.zero_grad()`,
      `p.grad = None`, `p.grad.zero_()`, or a call named like `zero_grad`), or
    - `zero_grad()` is a statement of the same block between the `backward()` and the step, so the
      step applies zeroed gradients (the finding is on that `zero_grad()`).

    ## Why is this bad?
    `backward()` adds into `.grad`; it does not overwrite. Without a reset, each step applies the
    sum of every gradient since the start of training, and training diverges or crawls. Zeroing
    between `backward()` and `step()` throws the gradients away before they are used: the model
    does not learn (only weight decay and momentum move it).

    ## Example
    ```python
    for x, y in loader:
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
    ```

    ## Use instead
    ```python
    for x, y in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
    ```

    ## Fix safety
    There is no fix: where the reset belongs depends on whether gradients are meant to
    accumulate over several micro-batches.

    Not flagged: gradient accumulation with the reset under the same condition as the step
    (`if (i + 1) % k == 0: opt.step(); opt.zero_grad()`), a reset inside an `if` between
    `backward()` and the step (skipping a bad batch), a reset in an outer loop around an
    accumulation loop, LBFGS-style closures, an optimizer built in the loop over tensors the same
    iteration creates (`x = z.detach().clone(); x.requires_grad = True; opt = SGD([x])`: fresh
    leaves have no gradient to carry over), and optimizers of unknown type.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), 3 findings, 2 judged correct (the false positive led to a change; after
    it, 2 of 2 on the same files); fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [PyTorch tutorial, Optimizing model parameters: "Call optimizer.zero_grad() to reset the gradients ... by default gradients add up"](https://pytorch.org/tutorials/beginner/basics/optimization_tutorial.html#optimization-loop)
    - [torch.optim.Optimizer.zero_grad](https://pytorch.org/docs/stable/generated/torch.optim.Optimizer.zero_grad.html)
    """

    code = "TL621"
    name = "zero-grad-missing"
    summary = "Gradients never reset in a training loop, or reset between backward() and step()"
    severity = "error"
    default_enabled = False
    trigger_tokens = ("backward",)
    scope_tokens = (".step",)

    valid = (
        SETUP + "for x in data:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n",
        SETUP + "for x in data:\n    model(x).sum().backward()\n    opt.step()\n    opt.zero_grad(set_to_none=True)\n",
        SETUP + "for i, x in enumerate(data):\n    (model(x).sum() / 4).backward()\n    if (i + 1) % 4 == 0:\n"
        "        opt.step()\n        opt.zero_grad()\n",
        SETUP + "for step in range(10):\n    opt.zero_grad()\n    for x in micro_batches:\n"
        "        model(x).sum().backward()\n    opt.step()\n",
        SETUP + "for x in data:\n    model(x).sum().backward()\n    if not grads_finite(model):\n"
        "        opt.zero_grad()\n        continue\n    opt.step()\n    opt.zero_grad()\n",
        SETUP + "for x in data:\n    model(x).sum().backward()\n    opt.step()\n    for p in model.parameters():\n"
        "        p.grad = None\n",
        SETUP + "for x in data:\n    model.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n",
        "for x in data:\n    loss = step(x)\n    loss.backward()\n    optimizer.step()\n",
        SETUP + "lbfgs = torch.optim.LBFGS(model.parameters())\nfor x in data:\n    def closure():\n"
        "        lbfgs.zero_grad()\n        loss = model(x).sum()\n        loss.backward()\n        return loss\n"
        "    lbfgs.step(closure)\n",
        # a fresh leaf and optimizer every iteration (diffusers' pix2pix-zero latent guidance)
        "import torch\nfor t in steps:\n    x = z.detach().clone()\n    x.requires_grad = True\n"
        "    opt = torch.optim.SGD([x], lr=0.1)\n    loss = f(x)\n    loss.backward()\n    opt.step()\n",
    )
    invalid = (
        Invalid(SETUP + "for x in data:\n    loss = model(x).sum()\n    loss.backward()\n    opt.step()\n"),
        Invalid(SETUP + "for x in data:\n    loss = model(x).sum()\n    loss.backward()\n    opt.zero_grad()\n    opt.step()\n"),
        Invalid(
            SETUP + "scaler = torch.amp.GradScaler()\nwhile True:\n    scaler.scale(model(x).sum()).backward()\n"
            "    scaler.step(opt)\n    scaler.update()\n"
        ),
        # built in the loop, but over the model's parameters: their gradients add up
        Invalid(
            SETUP + "for x in data:\n    model(x).sum().backward()\n"
            "    step_opt = torch.optim.SGD([p for p in model.parameters()], lr=0.1)\n    step_opt.step()\n"
        ),
        Invalid(
            SETUP + "w = torch.zeros(2, requires_grad=True)\nfor x in data:\n    (w * x).sum().backward()\n"
            "    step_opt = torch.optim.SGD([w], lr=0.1)\n    step_opt.step()\n"
        ),
        Invalid(
            "import torch\nclass Trainer:\n    def __init__(self, model):\n        self.model = model\n"
            "        self.opt = torch.optim.Adam(model.parameters())\n    def fit(self, data):\n"
            "        for x in data:\n            self.model(x).sum().backward()\n            self.opt.step()\n"
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if stepped_optimizer(self.ctx, node) is None:
            return
        loop = self._training_loop()
        if loop is None:
            return
        if not resets_gradients(loop.body):
            if _fresh_each_iteration(loop, stepped_optimizer(self.ctx, node)):
                return
            self.report(node, "Nothing in this loop resets the gradients, so each step applies their sum; call `zero_grad()`")
        elif (reset := self._reset_before_step()) is not None:
            self.report(reset, "`zero_grad()` between `backward()` and `step()` discards the gradients; move it before `backward()`")

    def _training_loop(self) -> cst.CSTNode | None:
        """The innermost loop around the step whose body calls `backward()` (directly, or in a
        nested loop), or None."""
        for node in reversed(self.ctx.ancestors()):
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                return None
            if isinstance(node, (cst.For, cst.While)) and any(is_backward(c) for c in calls_in_order(node.body)):
                return node
        return None

    def _reset_before_step(self) -> cst.CSTNode | None:
        """The statement between `backward()` and the step that resets the gradients, or None."""
        found = enclosing_statement_block(self.ctx)
        if found is None:
            return None
        block, statement = found
        before = list(block.body)[: list(block.body).index(statement)]
        backward_at = max(
            (i for i, s in enumerate(before) if any(is_backward(c) for c in calls_in_order(s))), default=None
        )
        if backward_at is None:
            return None
        return next(
            (s for s in before[backward_at + 1:] if isinstance(s, cst.SimpleStatementLine) and resets_gradients(s)), None
        )


def _fresh_each_iteration(loop: cst.For | cst.While, optimizer: cst.BaseExpression) -> bool:
    """`optimizer` is built in `loop` over a list of names the loop itself assigns: new leaf
    tensors each iteration, whose gradients start empty."""
    if not isinstance(optimizer, cst.Name):
        return False
    assigned = {
        target.target.value for target in descendants(loop.body)
        if isinstance(target, cst.AssignTarget) and isinstance(target.target, cst.Name)
    }
    for statement in descendants(loop.body):
        if not (
            isinstance(statement, cst.Assign)
            and any(isinstance(t.target, cst.Name) and t.target.value == optimizer.value for t in statement.targets)
            and isinstance(statement.value, cst.Call)
            and statement.value.args
        ):
            continue
        params = statement.value.args[0].value
        if (
            isinstance(params, (cst.List, cst.Tuple))
            and params.elements
            and all(isinstance(e.value, cst.Name) and e.value.value in assigned for e in params.elements)
        ):
            return True
    return False
