"""TL520 log-of-softmax: `torch.log(torch.softmax(x, d))` instead of `log_softmax`."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import method_of
from torchlint.rules.registry import register

_SOFTMAX = frozenset({"torch.softmax", "torch.nn.functional.softmax", "torch.special.softmax"})
_LOG = frozenset({"torch.log"})
T = "import torch\nimport torch.nn.functional as F\n"


@register
class LogOfSoftmax(Rule):
    """
    ## What it does
    Flags the log of a softmax computed in two steps: `torch.log(torch.softmax(x, d))`,
    `torch.log(F.softmax(x, dim=d))`, `F.softmax(x, d).log()` and `x.softmax(d).log()` on a tensor.

    ## Why is this bad?
    Softmax underflows to 0 for logits far below the maximum, and the log of 0 is `-inf`; the
    gradient through it is `nan`. `log_softmax` computes `x - logsumexp(x)` in one numerically
    stable step, so it stays finite and is closer to a float64 reference everywhere. The
    `torch.nn.LogSoftmax` docs and the `F.nll_loss` docs both say to use it.

    ## Example
    ```python
    log_probs = torch.log(torch.softmax(logits, dim=-1))
    ```

    ## Use instead
    ```python
    log_probs = torch.log_softmax(logits, dim=-1)
    ```

    ## Fix safety
    The fix is **safe**: `softmax` becomes `log_softmax` with the same arguments (`dim`, `dtype`)
    and the outer log is dropped. The values are the same up to rounding, and closer to the exact
    result; where the two-step form gave `-inf`/`nan`, the fixed one gives the finite value.
    The fix is offered only where the softmax is spelled as an attribute (`torch.softmax`,
    `F.softmax`, `x.softmax`), so the `log_softmax` beside it exists in the same namespace.

    Not flagged: a softmax stored in a variable and logged later (the probabilities may be
    used on their own), `torch.log(p + eps)`, `torch.log(torch.sigmoid(x))` and NumPy's log.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [torch.nn.functional.log_softmax](https://pytorch.org/docs/stable/generated/torch.nn.functional.log_softmax.html)
    - [torch.nn.LogSoftmax](https://pytorch.org/docs/stable/generated/torch.nn.LogSoftmax.html)
    """

    code = "TL520"
    name = "log-of-softmax"
    summary = "`log(softmax(x))` underflows to -inf; use `log_softmax`"
    severity = "warning"
    default_enabled = False
    fix_safety = ("safe",)
    trigger_tokens = ("softmax",)
    scope_tokens = ("softmax",)

    valid = (
        T + "log_probs = torch.log_softmax(logits, dim=-1)\n",
        T + "probs = torch.softmax(logits, -1)\nentropy = -(probs * torch.log(probs + 1e-8)).sum(-1)\n",
        T + "y = torch.log(torch.sigmoid(x))\n",
        T + "y = torch.log(torch.softmax(x, -1) + 1e-6)\n",
        "import numpy as np\nimport torch\ny = np.log(torch.softmax(x, -1).numpy())\n",
        T + "p = F.softmax(x, dim=1)\nlp = F.log_softmax(x, dim=1)\n",
        "y = scipy_softmax(x).log()\n",
    )
    invalid = (
        Invalid(T + "lp = torch.log(torch.softmax(logits, dim=-1))\n", T + "lp = torch.log_softmax(logits, dim=-1)\n"),
        Invalid(T + "lp = torch.log(F.softmax(logits, 1))\n", T + "lp = F.log_softmax(logits, 1)\n"),
        Invalid(T + "lp = F.softmax(logits, dim=1).log()\n", T + "lp = F.log_softmax(logits, dim=1)\n"),
        Invalid(
            T + "logits = torch.randn(4, 3)\nlp = logits.softmax(-1).log()\n",
            T + "logits = torch.randn(4, 3)\nlp = logits.log_softmax(-1)\n",
        ),
        Invalid("from torch.nn.functional import softmax\nimport torch\nlp = torch.log(softmax(x, 1))\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        inner = self._logged(node)
        if inner is None or not self._is_softmax(inner):
            return
        fix = None
        if isinstance(inner.func, cst.Attribute):
            log_softmax = inner.with_changes(func=inner.func.with_changes(attr=cst.Name("log_softmax")))
            fix = self.replace(node, log_softmax, "Use `log_softmax`")
        self.report(node, "The log of a softmax underflows to -inf and nan gradients; use `log_softmax`", fix)

    def _logged(self, call: cst.Call) -> cst.Call | None:
        """The call whose log `call` takes: `torch.log(inner)` or `inner.log()`."""
        if method_of(call) == "log" and not call.args and isinstance(call.func.value, cst.Call):
            return call.func.value
        if len(call.args) == 1 and isinstance(call.args[0].value, cst.Call) and self.ctx.qualify(call.func) in _LOG:
            return call.args[0].value
        return None

    def _is_softmax(self, call: cst.Call) -> bool:
        if self.ctx.qualify(call.func) in _SOFTMAX:
            return True
        return method_of(call) == "softmax" and self.ctx.is_tensor(call.func.value)
