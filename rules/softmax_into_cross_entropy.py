"""TL522 softmax-into-cross-entropy: probabilities given to a loss that expects logits or
log-probabilities."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import (
    CROSS_ENTROPY,
    NLL,
    SOFTMAX,
    activation_input,
    activation_of,
    forward_returns,
    loss_called,
    produced_by,
)
from torchlint.rules.registry import register

T = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


@register
class SoftmaxIntoCrossEntropy(Rule):
    """
    ## What it does
    Flags a softmax output given to a classification loss:
    - to `nn.CrossEntropyLoss` / `F.cross_entropy`, which apply `log_softmax` themselves;
    - to `nn.NLLLoss` / `F.nll_loss`, which expect log-probabilities (`log_softmax`), not
      probabilities.

    The softmax is `torch.softmax`, `F.softmax`, `x.softmax(dim)` on a tensor or an
    `nn.Softmax` module call, given directly or through a variable bound once to it, or the
    output of a model whose class (in the same file) returns `F.softmax(...)`/`torch.softmax(...)`
    from `forward` (reported without a fix: other callers may want the probabilities).

    ## Why is this bad?
    CrossEntropyLoss computes `log_softmax(input)`; on probabilities that is a softmax applied
    twice. The loss is squashed into a narrow range, the gradients nearly vanish as predictions
    get confident, and training stalls at a worse accuracy, with no error. NLLLoss on
    probabilities computes `-p[target]` instead of `-log p[target]`: a different objective whose
    gradient does not push confident mistakes.

    ## Example
    ```python
    loss = F.cross_entropy(F.softmax(logits, dim=1), target)
    loss = F.nll_loss(F.softmax(logits, dim=1), target)
    ```

    ## Use instead
    ```python
    loss = F.cross_entropy(logits, target)
    loss = F.nll_loss(F.log_softmax(logits, dim=1), target)
    ```

    ## Fix safety
    Where the softmax is written inside the loss call, the fix drops it (cross-entropy) or turns
    it into `log_softmax` (NLL) and is **unsafe**: the loss value and every gradient change,
    which is the point, but so do the trained weights and any threshold tuned on the old loss.
    A softmax bound to a variable gets no fix (the probabilities may have other uses).

    Not flagged: `log_softmax` into NLLLoss (correct), logits into cross-entropy, a softmax over
    the target (`soft labels`) given as the second argument, and losses or activations of unknown
    type.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [nn.CrossEntropyLoss: "The input is expected to contain the unnormalized logits"](https://pytorch.org/docs/stable/generated/torch.nn.CrossEntropyLoss.html)
    - [nn.NLLLoss: "The input given through a forward call is expected to contain log-probabilities"](https://pytorch.org/docs/stable/generated/torch.nn.NLLLoss.html)
    """

    code = "TL522"
    name = "softmax-into-cross-entropy"
    summary = "Softmax probabilities given to CrossEntropyLoss or NLLLoss"
    severity = "error"
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("softmax", "Softmax")
    scope_tokens = None  # a criterion of any name may take a model whose forward returns softmax

    valid = (
        T + "loss = F.cross_entropy(logits, target)\n",
        T + "loss = F.nll_loss(F.log_softmax(logits, dim=1), target)\n",
        T + "crit = nn.NLLLoss()\nloss = crit(torch.log_softmax(logits, 1), target)\n",
        T + "soft = F.softmax(teacher_logits, dim=1)\nloss = F.cross_entropy(student_logits, soft)\n",
        T + "probs = F.softmax(logits, dim=1)\nif cond:\n    probs = logits\nloss = F.cross_entropy(probs, target)\n",
        T + "loss = my_cross_entropy(F.softmax(logits, 1), target)\n",
        T + "loss = F.kl_div(F.log_softmax(s, 1), F.softmax(t, 1))\n",
        # a model whose forward returns logits on one path
        T + "class Net(nn.Module):\n    def forward(self, x):\n        if self.training:\n            return x\n"
        "        return F.softmax(x, dim=1)\nloss = F.cross_entropy(Net()(x), y)\n",
    )
    invalid = (
        Invalid(
            T + "loss = F.cross_entropy(F.softmax(logits, dim=1), target)\n",
            T + "loss = F.cross_entropy(logits, target)\n",
        ),
        Invalid(
            T + "criterion = nn.CrossEntropyLoss()\nout = torch.randn(4, 3)\nloss = criterion(out.softmax(-1), y)\n",
            T + "criterion = nn.CrossEntropyLoss()\nout = torch.randn(4, 3)\nloss = criterion(out, y)\n",
        ),
        Invalid(
            T + "loss = F.nll_loss(torch.softmax(logits, 1), target)\n",
            T + "loss = F.nll_loss(torch.log_softmax(logits, 1), target)\n",
        ),
        Invalid(T + "probs = F.softmax(model_out, dim=-1)\nloss = nn.CrossEntropyLoss()(probs, labels)\n"),
        Invalid(
            T + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 3)\n"
            "    def forward(self, x):\n        return F.softmax(self.fc(x), dim=1)\n"
            "model = Net()\ncriterion = nn.CrossEntropyLoss()\nloss = criterion(model(x), y)\n"
        ),
        Invalid(
            T + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(4, 3)\n        self.softmax = nn.Softmax(dim=1)\n"
            "        self.loss = nn.CrossEntropyLoss()\n    def forward(self, x, y):\n"
            "        return self.loss(self.softmax(self.fc(x)), y)\n",
            T + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(4, 3)\n        self.softmax = nn.Softmax(dim=1)\n"
            "        self.loss = nn.CrossEntropyLoss()\n    def forward(self, x, y):\n"
            "        return self.loss(self.fc(x), y)\n",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        for functions_and_modules, log_expected in ((CROSS_ENTROPY, False), (NLL, True)):
            arg = loss_called(self.ctx, node, *functions_and_modules)
            if arg is None:
                continue
            source = produced_by(self.ctx, arg.value)
            softmax = activation_of(self.ctx, source, SOFTMAX, "softmax", "torch.nn.Softmax")
            if softmax is None:
                if forward_returns(self.ctx, source, SOFTMAX):
                    self.report(arg.value, "The model's forward returns softmax probabilities; "
                                + ("NLLLoss expects log_softmax" if log_expected else "CrossEntropyLoss expects logits"))
                return
            direct = softmax is arg.value
            if log_expected:
                self.report(arg.value, "NLLLoss expects log-probabilities, not softmax output; use `log_softmax`",
                            self._log_fix(softmax) if direct else None)
            else:
                self.report(arg.value, "CrossEntropyLoss applies log_softmax itself; pass the logits, not softmax output",
                            self._drop_fix(softmax) if direct else None)
            return

    def _drop_fix(self, softmax: cst.Call):
        inner = activation_input(self.ctx, softmax, "softmax")
        return None if inner is None else self.replace(softmax, inner, "Pass the logits", "unsafe")

    def _log_fix(self, softmax: cst.Call):
        if not (isinstance(softmax.func, cst.Attribute) and softmax.func.attr.value == "softmax"):
            return None
        renamed = softmax.with_changes(func=softmax.func.with_changes(attr=cst.Name("log_softmax")))
        return self.replace(softmax, renamed, "Use `log_softmax`", "unsafe")
