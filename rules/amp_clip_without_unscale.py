"""TL623 amp-clip-without-unscale: gradients clipped while still multiplied by the AMP scale."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import (
    calls_in_order,
    enclosing_statement_block,
    is_scaler,
    is_torch_clip,
    method_of,
    stepped_optimizer,
)
from torchlint.rules.registry import register
from torchlint.walk import SCOPE_NODES, descendants

SETUP = (
    "import torch\nmodel = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "scaler = torch.amp.GradScaler()\n"
)
CLIP = "    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"


@register
class AmpClipWithoutUnscale(Rule):
    """
    ## What it does
    Flags `torch.nn.utils.clip_grad_norm_`/`clip_grad_value_` that runs after
    `scaler.scale(loss).backward()` and before `scaler.step(optimizer)` with no
    `scaler.unscale_(optimizer)` in between, where `scaler` is a `torch.amp`/`torch.cuda.amp`
    `GradScaler`; and, without a fix, the first read of a `.grad` there (a gradient norm for
    logging, a custom clip), which sees the scaled values.

    ## Why is this bad?
    After `scaler.scale(loss).backward()` the gradients are multiplied by the loss scale
    (65536 at the start). Clipping them then compares the scaled norm with `max_norm`, so almost
    every step is clipped down to a tiny fraction of the intended size, and the threshold means
    nothing. The AMP examples say to call `scaler.unscale_(optimizer)` first; `scaler.step` then
    knows they are unscaled and does not divide again.

    ## Example
    ```python
    scaler.scale(loss).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    ```

    ## Use instead
    ```python
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    ```

    ## Fix safety
    The fix inserts `scaler.unscale_(optimizer)` (the scaler and optimizer of the
    `scaler.step(...)` that follows) just before the clip and is **safe**: the gradients are
    clipped to the same norm as in a float32 run without a scaler, which is what the clip means,
    and `scaler.step` skips its own unscaling (inf/NaN checks included) for that optimizer. It is
    offered only when the clip is a statement of its own, no `unscale_` runs later in the same
    step (a second `unscale_` before `update()` raises), and it is the step's first clip (the
    others are reported without a fix: the first one's `unscale_` covers them).

    Not flagged: clipping after `scaler.unscale_(...)`, Accelerate's or Lightning's own
    `clip_grad_norm_` methods (they unscale), loops without a `GradScaler` of known type.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [AMP examples: Gradient clipping](https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-clipping)
    - [torch.amp.GradScaler.unscale_](https://pytorch.org/docs/stable/amp.html#torch.amp.GradScaler.unscale_)
    """

    code = "TL623"
    name = "amp-clip-without-unscale"
    summary = "Gradients clipped under AMP without `scaler.unscale_` first"
    severity = "error"
    default_enabled = False
    fix_safety = ("safe",)
    trigger_tokens = ("clip_grad", ".grad")
    trigger_patterns = ()
    scope_tokens = ("clip_grad", ".grad")

    valid = (
        SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n    scaler.unscale_(opt)\n"
        + CLIP + "    scaler.step(opt)\n    scaler.update()\n",
        SETUP + "for x in data:\n    model(x).sum().backward()\n" + CLIP + "    opt.step()\n",
        "import torch\nfor x in data:\n    scaler.scale(loss).backward()\n" + CLIP + "    scaler.step(opt)\n",
        SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n"
        "    accelerator.clip_grad_norm_(model.parameters(), 1.0)\n    scaler.step(opt)\n",
        SETUP + "def train_step(x):\n    scaler.scale(model(x).sum()).backward()\n    scaler.unscale_(opt)\n"
        "    grads_ok = True\n" + CLIP + "    scaler.step(opt)\n",
        # gradients read after unscale_, or only tested for presence
        SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n    scaler.unscale_(opt)\n"
        "    norm = sum(p.grad.norm() for p in model.parameters())\n    scaler.step(opt)\n",
        SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n"
        "    missing = [p for p in model.parameters() if p.grad is None]\n    scaler.step(opt)\n",
        SETUP + "for x in data:\n    opt.zero_grad()\n    for p in model.parameters():\n        p.grad = None\n"
        "    scaler.scale(model(x).sum()).backward()\n    scaler.step(opt)\n",
    )
    invalid = (
        Invalid(
            SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n" + CLIP
            + "    scaler.step(opt)\n    scaler.update()\n",
            SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n    scaler.unscale_(opt)\n" + CLIP
            + "    scaler.step(opt)\n    scaler.update()\n",
        ),
        Invalid(
            SETUP + "def train_step(x):\n    loss = model(x).sum()\n    scaler.scale(loss).backward()\n"
            "    # clip\n    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
            "    scaler.step(opt)\n    scaler.update()\n    return norm\n",
            SETUP + "def train_step(x):\n    loss = model(x).sum()\n    scaler.scale(loss).backward()\n"
            "    # clip\n    scaler.unscale_(opt)\n    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
            "    scaler.step(opt)\n    scaler.update()\n    return norm\n",
        ),
        # a gradient norm read from the scaled gradients
        Invalid(
            SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n"
            "    norm = sum(p.grad.norm() for p in model.parameters())\n    scaler.step(opt)\n    scaler.update()\n"
        ),
        # two clips in one step: one `unscale_`, before the first
        Invalid(
            SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n"
            "    torch.nn.utils.clip_grad_value_(model.parameters(), 5.0)\n"
            "    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n    scaler.step(opt)\n    scaler.update()\n",
            SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n    scaler.unscale_(opt)\n"
            "    torch.nn.utils.clip_grad_value_(model.parameters(), 5.0)\n"
            "    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n    scaler.step(opt)\n    scaler.update()\n",
        ),
        # an unscale_ after the clip: a second one would raise, so no fix
        Invalid(
            SETUP + "for x in data:\n    scaler.scale(model(x).sum()).backward()\n" + CLIP
            + "    scaler.unscale_(opt)\n    scaler.step(opt)\n"
        ),
    )

    def __init__(self, ctx):
        super().__init__(ctx)
        self._reported_regions: set[int] = set()

    def visit_Call(self, node: cst.Call) -> None:
        if not is_torch_clip(self.ctx, node):
            return
        region = self.ctx.enclosing(cst.For, cst.While, cst.FunctionDef)
        if region is None:
            return
        calls = list(calls_in_order(region.body))
        position = next((index for index, call in enumerate(calls) if call is node), None)
        if position is None:
            return  # in the loop's header or else-clause, not its body
        scaled = [i for i, call in enumerate(calls[:position]) if self._is_scaled_backward(call)]
        if not scaled or any(method_of(call) == "unscale_" for call in calls[scaled[-1]:position]):
            return
        step = next((call for call in calls[position:] if self._scaler_step(call)), None)
        if step is None:
            return
        unscaled_later = any(method_of(call) == "unscale_" for call in calls[position:])
        # (a clip before this one in the same step gets the one `unscale_`: a second raises)
        clipped_before = any(is_torch_clip(self.ctx, call) for call in calls[scaled[-1]:position])
        self.report(
            node,
            "Gradients are clipped while still scaled by the GradScaler; call `scaler.unscale_(optimizer)` first",
            None if unscaled_later or clipped_before else self._fix(step),
        )

    def visit_Attribute(self, node: cst.Attribute) -> None:
        """A gradient read (`p.grad.norm()`, `p.grad.abs().max()`) between the scaled backward
        and the step, with no `unscale_` first: it sees values multiplied by the scale."""
        if node.attr.value != "grad" or self._presence_test_or_store(node):
            return
        region = self.ctx.enclosing(cst.For, cst.While, cst.FunctionDef)
        if region is None or id(region) in self._reported_regions:
            return
        order = [n for n in descendants(region.body, prune=lambda n: isinstance(n, SCOPE_NODES))]
        position = next((i for i, n in enumerate(order) if n is node), None)
        if position is None:
            return
        before = [n for n in order[:position] if isinstance(n, cst.Call)]
        scaled = [i for i, call in enumerate(before) if self._is_scaled_backward(call)]
        if not scaled or any(method_of(call) == "unscale_" for call in before[scaled[-1]:]):
            return
        if not any(isinstance(n, cst.Call) and self._scaler_step(n) for n in order[position:]):
            return
        self._reported_regions.add(id(region))
        self.report(node, "Gradients read here are still scaled by the GradScaler; call `scaler.unscale_(optimizer)` first")

    def _presence_test_or_store(self, node: cst.Attribute) -> bool:
        """`p.grad is None`, `p.grad = None`, `del p.grad`: no value is read."""
        parent = self.ctx.stack[-2] if len(self.ctx.stack) > 1 else None
        if isinstance(parent, cst.Comparison):
            return True
        if isinstance(parent, (cst.AssignTarget, cst.Del)):
            return True
        return isinstance(parent, cst.Attribute) and parent.attr.value == "grad"

    def _is_scaled_backward(self, call: cst.Call) -> bool:
        if method_of(call) != "backward":
            return False
        inner = call.func.value
        return isinstance(inner, cst.Call) and method_of(inner) == "scale" and is_scaler(self.ctx, inner.func.value)

    def _scaler_step(self, call: cst.Call) -> bool:
        return stepped_optimizer(self.ctx, call) is not None and bool(call.args)

    def _fix(self, step: cst.Call):
        found = enclosing_statement_block(self.ctx)
        if found is None or not isinstance(found[1], cst.SimpleStatementLine):
            return None
        block, statement = found
        unscale = cst.Call(
            func=cst.Attribute(value=step.func.value, attr=cst.Name("unscale_")), args=[cst.Arg(step.args[0].value)]
        )
        line = cst.SimpleStatementLine(body=[cst.Expr(unscale)], leading_lines=statement.leading_lines)
        body = list(block.body)
        index = body.index(statement)
        body[index : index + 1] = [line, statement.with_changes(leading_lines=())]
        return self.replace(block, block.with_changes(body=body), "Insert `scaler.unscale_(optimizer)` before the clip")
