"""TL526 log-of-probability: `torch.log(p)` of a softmax or sigmoid output with no epsilon."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import SIGMOID, SOFTMAX, activation_of, produced_by
from torchlint.rules.registry import register

T = "import torch\nimport torch.nn.functional as F\n"


@register
class LogOfProbability(Rule):
    """
    ## What it does
    Flags `torch.log(p)` (or `p.log()`) where `p` is a sigmoid output, given directly, or a name
    bound once to a softmax or sigmoid, with no clamp or epsilon in between.

    ## Why is this bad?
    Probabilities underflow to exactly 0 (float32 sigmoid of -104, softmax of a logit 104 below
    the maximum; far sooner in float16), and `log(0)` is `-inf`, whose gradient is `nan`. One such
    element poisons the loss and then the weights. `F.logsigmoid`, `log_softmax`, or at least
    `p.clamp_min(eps)` avoid it.

    ## Example
    ```python
    p = torch.sigmoid(logits)
    loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()
    ```

    ## Use instead
    ```python
    loss = F.binary_cross_entropy_with_logits(logits, y)
    # or: torch.log(p.clamp_min(1e-7))
    ```

    ## Fix safety
    There is no fix: the stable replacement depends on the expression around it. This rule is
    off by default: a probability known not to underflow (a tempered softmax over few classes)
    is fine.

    Not flagged: `torch.log(p + eps)`, `torch.log(p.clamp(min=eps))`, `torch.log(torch.softmax(x, d))`
    (TL520 reports that form, with a fix), and values of unknown origin.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), 1 finding, 1 judged correct; fewer than the 10 judged findings a rule
    needs to be on by default. See docs/new-rules-precision.md.

    ## References
    - [F.logsigmoid](https://pytorch.org/docs/stable/generated/torch.nn.functional.logsigmoid.html)
    - [F.log_softmax: "numerically more stable"](https://pytorch.org/docs/stable/generated/torch.nn.functional.log_softmax.html)
    """

    code = "TL526"
    name = "log-of-probability"
    summary = "`log` of a probability with no epsilon underflows to -inf"
    severity = "info"
    default_enabled = False
    trigger_tokens = ("log",)
    scope_tokens = ("log",)

    valid = (
        T + "p = torch.sigmoid(z)\ny = torch.log(p + 1e-7)\n",
        T + "p = torch.softmax(z, -1)\ny = torch.log(p.clamp(min=1e-8))\n",
        T + "y = torch.log(torch.softmax(z, -1))\n",
        T + "y = torch.log(x)\n",
    )
    invalid = (
        Invalid(T + "y = torch.log(torch.sigmoid(z))\n"),
        Invalid(T + "p = F.softmax(z, dim=1)\nent = -(p * torch.log(p)).sum(1)\n"),
        Invalid(T + "p = torch.sigmoid(z)\nlp = p.log()\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        argument = self._logged(node)
        if argument is None:
            return
        direct = activation_of(self.ctx, argument, SIGMOID, "sigmoid", "torch.nn.Sigmoid")
        if direct is None and isinstance(argument, cst.Name):
            bound = produced_by(self.ctx, argument)
            direct = activation_of(self.ctx, bound, SIGMOID | SOFTMAX, "", "torch.nn.Sigmoid") if bound is not argument else None
        if direct is not None:
            self.report(node, "The log of a probability is -inf once it underflows to 0; add an epsilon or clamp it")

    def _logged(self, call: cst.Call) -> cst.BaseExpression | None:
        if self.ctx.qualify(call.func) == "torch.log" and len(call.args) == 1:
            return call.args[0].value
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "log" and not call.args:
            inner = call.func.value
            return inner if isinstance(inner, cst.Name) else None
        return None
