"""TL523 sigmoid-bce-mismatch: sigmoid before BCEWithLogitsLoss, or logits into BCELoss."""

from __future__ import annotations

import libcst as cst

from torchlint.oracle import MODULE
from torchlint.rule import Invalid, Rule
from torchlint.rules._training import (
    BCE,
    BCE_WITH_LOGITS,
    SIGMOID,
    activation_input,
    activation_of,
    forward_returns,
    local_class,
    loss_called,
    method_of,
    produced_by,
)
from torchlint.rules.registry import register
from torchlint.walk import SCOPE_NODES, descendants

T = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
# Layers whose output is an unbounded score: given to BCELoss it is not a probability.
_RESHAPES = frozenset({"view", "reshape", "squeeze", "flatten", "unsqueeze"})
_LOGIT_LAYERS = frozenset({"torch.nn.Linear", "torch.nn.Bilinear", "torch.nn.Conv1d", "torch.nn.Conv2d", "torch.nn.Conv3d"})


@register
class SigmoidBceMismatch(Rule):
    """
    ## What it does
    Flags
    - a sigmoid output (`torch.sigmoid`, `F.sigmoid`, `x.sigmoid()`, an `nn.Sigmoid` call, or a
      model whose class in the file returns `torch.sigmoid(...)` from `forward`, then without a
      fix) given to `nn.BCEWithLogitsLoss` / `F.binary_cross_entropy_with_logits`, which apply
      the sigmoid themselves;
    - the raw output of an `nn.Linear`/`nn.Conv*` layer given to `nn.BCELoss` /
      `F.binary_cross_entropy`, which expect probabilities in [0, 1]: the layer called directly,
      an `nn.Sequential` that ends in one, or a model whose class in the file returns from
      `forward` only such a layer's output (`return self.fc(x)`), reshaped or not.

    ## Why is this bad?
    A sigmoid applied twice maps every score into (0.5, 0.73): the loss can never reach its
    minimum, gradients are small, and the model trains badly with no error. BCELoss on logits
    raises on CUDA for values outside [0, 1] ("all elements of input should be between 0 and 1"),
    but only for some batches, and on CPU it computes the log of negative numbers.

    ## Example
    ```python
    loss = F.binary_cross_entropy_with_logits(torch.sigmoid(logits), target)
    ```

    ## Use instead
    ```python
    loss = F.binary_cross_entropy_with_logits(logits, target)
    ```

    ## Fix safety
    A sigmoid written inside the BCEWithLogits call is dropped; the fix is **unsafe**: the loss
    and every gradient change (that is the point), and with them the trained weights and any
    threshold tuned on the old outputs. Logits into BCELoss get no fix: wrapping them in a
    sigmoid and switching to BCEWithLogitsLoss are both reasonable.

    Not flagged: logits into BCEWithLogitsLoss, `sigmoid` into BCELoss (correct), and values
    of unknown origin.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [nn.BCEWithLogitsLoss: "combines a Sigmoid layer and the BCELoss in one single class"](https://pytorch.org/docs/stable/generated/torch.nn.BCEWithLogitsLoss.html)
    - [nn.BCELoss: input should be probabilities](https://pytorch.org/docs/stable/generated/torch.nn.BCELoss.html)
    """

    code = "TL523"
    name = "sigmoid-bce-mismatch"
    summary = "Sigmoid before BCEWithLogitsLoss, or logits into BCELoss"
    severity = "error"
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("binary_cross_entropy", "BCE", "sigmoid")
    scope_tokens = None  # a criterion of any name may take a model whose forward returns sigmoid

    valid = (
        T + "loss = F.binary_cross_entropy_with_logits(logits, y)\n",
        T + "loss = F.binary_cross_entropy(torch.sigmoid(logits), y)\n",
        T + "fc = nn.Linear(4, 1)\nloss = nn.BCELoss()(torch.sigmoid(fc(x)), y)\n",
        T + "loss = nn.BCELoss()(model(x), y)\n",
        T + "loss = F.binary_cross_entropy_with_logits(x, torch.sigmoid(teacher))\n",
        # a Sequential or a forward that ends in a sigmoid gives probabilities (DCGAN's discriminator)
        T + "netD = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())\nloss = nn.BCELoss()(netD(x).view(-1), y)\n",
        T + "class D(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 1)\n"
        "    def forward(self, x):\n        return torch.sigmoid(self.fc(x))\nloss = nn.BCELoss()(D()(x), y)\n",
        # a forward with another return that is not a layer's output
        T + "class D(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 1)\n"
        "    def forward(self, x):\n        if self.training:\n            return self.fc(x)\n        return x.sigmoid()\n"
        "loss = nn.BCELoss()(D()(x), y)\n",
    )
    invalid = (
        Invalid(
            T + "loss = F.binary_cross_entropy_with_logits(torch.sigmoid(logits), y)\n",
            T + "loss = F.binary_cross_entropy_with_logits(logits, y)\n",
        ),
        Invalid(
            T + "crit = nn.BCEWithLogitsLoss()\nout = torch.randn(4)\nloss = crit(out.sigmoid(), y)\n",
            T + "crit = nn.BCEWithLogitsLoss()\nout = torch.randn(4)\nloss = crit(out, y)\n",
        ),
        Invalid(T + "head = nn.Linear(8, 1)\nscores = head(features)\nloss = F.binary_cross_entropy(scores, y)\n"),
        Invalid(T + "p = torch.sigmoid(z)\nloss = nn.BCEWithLogitsLoss()(p, y)\n"),
        Invalid(
            T + "class Net(nn.Module):\n    def forward(self, x):\n        return torch.sigmoid(x.sum(1))\n"
            "net = Net()\nloss = nn.BCEWithLogitsLoss()(net(x), y)\n"
        ),
        Invalid(T + "netD = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))\n"
                "loss = nn.BCELoss()(netD(x).view(-1), y)\n"),
        Invalid(T + "class D(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.main = nn.Sequential(nn.Linear(4, 1))\n    def forward(self, x):\n        return self.main(x)\n"
                "def step(net, x, y):\n    return nn.BCELoss()(net(x), y)\nstep(D(), x, y)\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        arg = loss_called(self.ctx, node, *BCE_WITH_LOGITS)
        if arg is not None:
            source = produced_by(self.ctx, arg.value)
            sigmoid = activation_of(self.ctx, source, SIGMOID, "sigmoid", "torch.nn.Sigmoid")
            if sigmoid is None and forward_returns(self.ctx, source, SIGMOID):
                self.report(arg.value, "The model's forward returns sigmoid probabilities; BCEWithLogitsLoss expects logits")
            elif sigmoid is not None:
                fix = self._drop_fix(sigmoid) if sigmoid is arg.value else None
                self.report(arg.value, "BCEWithLogitsLoss applies the sigmoid itself; pass the logits", fix)
            return
        arg = loss_called(self.ctx, node, *BCE)
        if arg is not None and self._is_logits(produced_by(self.ctx, arg.value)):
            self.report(arg.value, "BCELoss expects probabilities, not a layer's raw output; use BCEWithLogitsLoss")

    def _is_logits(self, expr: cst.CSTNode) -> bool:
        """A call of a logit layer (`nn.Linear`), of a Sequential that ends in one, or of a module
        whose class (in this file) returns from `forward` only such a call on one of its layers;
        reshapes (`.view(-1)`, `.squeeze(1)`) of these too."""
        while isinstance(expr, cst.Call) and method_of(expr) in _RESHAPES:
            expr = expr.func.value
        if not isinstance(expr, cst.Call):
            return False
        kind = self.ctx.kind(expr.func)
        if kind is None or kind.base != MODULE:
            return False
        if kind.origin in _LOGIT_LAYERS:
            return True
        built = produced_by(self.ctx, expr.func)
        if isinstance(built, cst.Call) and self._logit_layer(built):
            return True
        cls = local_class(self.ctx, kind)
        return cls is not None and self._forward_returns_logits(cls)

    def _logit_layer(self, built: cst.Call) -> bool:
        """`nn.Linear(...)`, or `nn.Sequential(..., nn.Linear(...))`."""
        qualified = self.ctx.qualify(built.func)
        if qualified in _LOGIT_LAYERS:
            return True
        if qualified != "torch.nn.Sequential" or not built.args or built.args[-1].star:
            return False
        last = built.args[-1].value
        return isinstance(last, cst.Call) and self.ctx.qualify(last.func) in _LOGIT_LAYERS

    def _forward_returns_logits(self, cls: cst.ClassDef) -> bool:
        layers = {}
        for node in descendants(cls.body, prune=lambda n: isinstance(n, cst.ClassDef)):
            if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.Call):
                target = node.targets[0].target
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
                    layers.setdefault(target.attr.value, []).append(node.value)
        forward = next((item for item in cls.body.body if isinstance(item, cst.FunctionDef) and item.name.value == "forward"), None)
        if forward is None:
            return False
        returned = [node.value for node in descendants(forward.body, prune=lambda n: isinstance(n, SCOPE_NODES))
                    if isinstance(node, cst.Return)]
        if not returned:
            return False
        for value in returned:
            while isinstance(value, cst.Call) and method_of(value) in _RESHAPES:
                value = value.func.value
            if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                    and isinstance(value.func.value, cst.Name) and value.func.value.value == "self"):
                return False
            assigned = layers.get(value.func.attr.value, [])
            if len(assigned) != 1 or not self._logit_layer(assigned[0]):
                return False
        return True

    def _drop_fix(self, sigmoid: cst.Call):
        inner = activation_input(self.ctx, sigmoid, "sigmoid")
        return None if inner is None else self.replace(sigmoid, inner, "Pass the logits", "unsafe")
