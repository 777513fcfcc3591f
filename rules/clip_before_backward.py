"""TL622 clip-before-backward: gradients clipped before `backward()` computes this step's."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import calls_in_order, is_backward, is_torch_clip, stepped_optimizer
from torchlint.rules.registry import register

SETUP = (
    "import torch\nfrom torch.nn.utils import clip_grad_norm_\nmodel = torch.nn.Linear(2, 1)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
)


@register
class ClipBeforeBackward(Rule):
    """
    ## What it does
    Flags `torch.nn.utils.clip_grad_norm_`/`clip_grad_value_` in a loop iteration that calls
    `backward()` only after the clip and then steps an optimizer: the order
    clip → backward → step within one iteration.

    ## Why is this bad?
    Clipping acts on the gradients present when it runs. Before `backward()` those are the
    previous step's (already applied, or zeroed), so the clip does nothing useful and the step
    applies the new, unclipped gradients: exploding gradients go through untouched, and the run
    looks as if clipping were on.

    ## Example
    ```python
    for x, y in loader:
        optimizer.zero_grad()
        clip_grad_norm_(model.parameters(), 1.0)
        loss_fn(model(x), y).backward()
        optimizer.step()
    ```

    ## Use instead
    ```python
    for x, y in loader:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    ```

    ## Fix safety
    There is no fix: moving the clip changes every update, and with AMP it also needs
    `scaler.unscale_` (see TL623).

    Not flagged: a clip after `backward()` in the iteration, a clip with no optimizer step after
    it, and optimizers of unknown type.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [torch.nn.utils.clip_grad_norm_: "Gradients are modified in-place"](https://pytorch.org/docs/stable/generated/torch.nn.utils.clip_grad_norm_.html)
    - [AMP examples: gradient clipping after backward, before step](https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-clipping)
    """

    code = "TL622"
    name = "clip-before-backward"
    summary = "Gradients clipped before backward(): the step applies unclipped gradients"
    severity = "error"
    default_enabled = False
    trigger_tokens = ("clip_grad",)
    scope_tokens = ("clip_grad",)

    valid = (
        SETUP + "for x in data:\n    opt.zero_grad()\n    model(x).sum().backward()\n"
        "    clip_grad_norm_(model.parameters(), 1.0)\n    opt.step()\n",
        SETUP + "for i, x in enumerate(data):\n    if i > 0:\n        clip_grad_norm_(model.parameters(), 1.0)\n"
        "        opt.step()\n        opt.zero_grad()\n    model(x).sum().backward()\n",
        SETUP + "for x in data:\n    clip_grad_norm_(model.parameters(), 1.0)\n",
        "import torch\nfor x in data:\n    torch.nn.utils.clip_grad_norm_(params, 1.0)\n    loss.backward()\n"
        "    optimizer.step()\n",
    )
    invalid = (
        Invalid(SETUP + "for x in data:\n    opt.zero_grad()\n    clip_grad_norm_(model.parameters(), 1.0)\n"
                "    model(x).sum().backward()\n    opt.step()\n"),
        Invalid(SETUP + "for x in data:\n    torch.nn.utils.clip_grad_value_(model.parameters(), 0.5)\n"
                "    loss = model(x).sum()\n    loss.backward()\n    opt.step()\n    opt.zero_grad()\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if not is_torch_clip(self.ctx, node):
            return
        loop = self.ctx.innermost_loop()
        if loop is None:
            return
        calls = list(calls_in_order(loop.body))
        position = next((index for index, call in enumerate(calls) if call is node), None)
        if position is None:
            return  # in the loop's header or else-clause, not its body
        backward = [index for index, call in enumerate(calls) if is_backward(call)]
        if not backward or backward[0] < position:
            return
        if any(stepped_optimizer(self.ctx, call) is not None for call in calls[backward[0]:]):
            self.report(node, "Gradients clipped before `backward()` leave the step unclipped; clip after `backward()`")
