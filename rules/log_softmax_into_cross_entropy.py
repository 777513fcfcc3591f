"""TL524 log-softmax-into-cross-entropy: `log_softmax` before CrossEntropyLoss is redundant."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import CROSS_ENTROPY, LOG_SOFTMAX, activation_of, loss_called
from torchlint.rules.registry import register

T = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


@register
class LogSoftmaxIntoCrossEntropy(Rule):
    """
    ## What it does
    Flags `log_softmax` output given directly to `nn.CrossEntropyLoss` / `F.cross_entropy`.

    ## Why is this bad?
    It is not wrong: `log_softmax` is idempotent, so the loss and gradients are the same. But
    CrossEntropyLoss already applies it, so the call costs a pass over the logits, and it usually
    means the author meant `NLLLoss`, or that the model's forward also returns log-probabilities
    elsewhere. It is information, off by default.

    ## Example
    ```python
    loss = F.cross_entropy(F.log_softmax(logits, dim=1), target)
    ```

    ## Use instead
    ```python
    loss = F.cross_entropy(logits, target)
    # or
    loss = F.nll_loss(F.log_softmax(logits, dim=1), target)
    ```

    ## Fix safety
    No fix: the values are the same either way, and which of the two forms the author wants is
    theirs to say.

    Not flagged: `log_softmax` into NLLLoss (the intended pairing), softmax into cross-entropy
    (TL522 reports that one; it changes values).

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [nn.CrossEntropyLoss: "equivalent to applying LogSoftmax on an input, followed by NLLLoss"](https://pytorch.org/docs/stable/generated/torch.nn.CrossEntropyLoss.html)
    """

    code = "TL524"
    name = "log-softmax-into-cross-entropy"
    summary = "`log_softmax` before CrossEntropyLoss is redundant"
    severity = "info"
    default_enabled = False
    trigger_tokens = ("log_softmax", "LogSoftmax")
    scope_tokens = ("log_softmax", "LogSoftmax")

    valid = (
        T + "loss = F.nll_loss(F.log_softmax(logits, dim=1), target)\n",
        T + "loss = F.cross_entropy(logits, target)\n",
        T + "loss = F.cross_entropy(F.softmax(logits, dim=1), target)\n",
    )
    invalid = (
        Invalid(T + "loss = F.cross_entropy(F.log_softmax(logits, dim=1), target)\n"),
        Invalid(T + "crit = nn.CrossEntropyLoss()\nloss = crit(torch.log_softmax(out, -1), y)\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        arg = loss_called(self.ctx, node, *CROSS_ENTROPY)
        if arg is None:
            return
        if activation_of(self.ctx, arg.value, LOG_SOFTMAX, "log_softmax", "torch.nn.LogSoftmax") is not None:
            self.report(arg.value, "CrossEntropyLoss applies log_softmax itself; this one is redundant")
