"""TL728 adam-weight-decay: `Adam(weight_decay=...)` is L2 regularisation, not decoupled decay."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import argument
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register

T = "import torch\n"


@register
class AdamWeightDecay(Rule):
    """
    ## What it does
    Flags `torch.optim.Adam(..., weight_decay=w)` with `w` not the literal `0`.

    ## Why is this bad?
    In `Adam` the weight decay is added to the gradient (L2 regularisation), so it is rescaled by
    Adam's per-parameter step size: heavily updated weights are barely decayed. Loshchilov &
    Hutter showed this is not the decoupled weight decay most recipes mean, and that `AdamW`
    generalises better. Code ported from a paper or a recipe that says "Adam with weight decay
    0.01" usually meant AdamW.

    ## Example
    ```python
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-2)
    ```

    ## Use instead
    ```python
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)
    ```

    ## Fix safety
    There is no fix: AdamW changes the training dynamics and its good weight-decay values
    differ (often 10-100x larger). This rule is off by default: L2 regularisation with Adam is
    sometimes what was meant.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), 26 findings, 0 judged correct; precision 0%, below the 95% a rule needs to
    be on by default. See docs/new-rules-precision.md.

    ## References
    - [torch.optim.AdamW](https://pytorch.org/docs/stable/generated/torch.optim.AdamW.html)
    - [Loshchilov & Hutter, Decoupled Weight Decay Regularization (ICLR 2019)](https://arxiv.org/abs/1711.05101)
    """

    code = "TL728"
    name = "adam-weight-decay"
    summary = "`Adam(weight_decay=...)` is L2 regularisation; AdamW decouples it"
    severity = "info"
    default_enabled = False
    trigger_tokens = ("Adam",)
    scope_tokens = ("Adam",)

    valid = (
        T + "opt = torch.optim.AdamW(params, weight_decay=0.01)\n",
        T + "opt = torch.optim.Adam(params, lr=1e-3)\n",
        T + "opt = torch.optim.Adam(params, weight_decay=0)\n",
        T + "opt = torch.optim.SGD(params, lr=0.1, weight_decay=1e-4)\n",
    )
    invalid = (
        Invalid(T + "opt = torch.optim.Adam(params, lr=1e-3, weight_decay=1e-2)\n"),
        Invalid("from torch.optim import Adam\nopt = Adam(model.parameters(), 1e-3, (0.9, 0.999), 1e-8, 5e-4)\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) not in ("torch.optim.Adam", "torch.optim.adam.Adam"):
            return
        decay = argument(node, 4, "weight_decay")
        if decay is None or (isinstance(decay.value, (cst.Integer, cst.Float)) and decay.value.evaluated_value == 0):
            return
        self.report(decay, "Adam adds weight decay to the gradient (L2); for decoupled weight decay use AdamW")
