"""TL723 inplace-method-not-called: `x.zero_` / `p.requires_grad_` referenced, never called."""

from __future__ import annotations

import libcst as cst

from torchlint.oracle import MODULE, TENSOR
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register

# In-place methods whose call needs no argument, so adding `()` is the whole fix.
_NO_ARGUMENT = frozenset({
    "zero_", "requires_grad_", "share_memory_", "detach_", "uniform_", "normal_", "relu_", "sigmoid_",
    "tanh_", "exp_", "log_", "sqrt_", "abs_", "neg_", "squeeze_", "t_", "random_", "floor_", "ceil_",
    "round_", "sign_", "reciprocal_", "sin_", "cos_", "trunc_", "frac_", "bernoulli_", "cauchy_",
    "exponential_", "log_normal_", "retain_grad",
})
T = "import torch\n"


@register
class InplaceMethodNotCalled(Rule):
    """
    ## What it does
    Flags a statement that only names a method of a tensor or module without calling it:
    `p.grad.zero_`, `model.requires_grad_`, `x.uniform_`, `h.retain_grad`, where the receiver is
    known to be a tensor or a module.

    ## Why is this bad?
    Without the parentheses the statement evaluates a bound method and throws it away: the
    gradient is not zeroed, the weights are not frozen, the tensor is not initialised. Nothing
    fails, so the bug shows up only as a model that trains wrongly.

    ## Example
    ```python
    for p in model.parameters():
        p.requires_grad_
    ```

    ## Use instead
    ```python
    for p in model.parameters():
        p.requires_grad_()
    ```

    ## Fix safety
    For methods that need no argument (`zero_`, `requires_grad_`, `uniform_`, `retain_grad`, ...)
    the fix adds `()` and is **unsafe**: the statement that had no effect now takes effect, which
    changes what later code sees (gradients zeroed, parameters trainable). `fill_`, `add_` and
    others that need an argument get no fix. Note that `p.requires_grad_()` sets
    `requires_grad=True`; to freeze, write `p.requires_grad_(False)`.

    Not flagged: receivers of unknown type, attributes that are not methods (`x.grad`,
    `x.requires_grad`), and methods that are called or passed on (`model.apply(init_)`).

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [torch.Tensor.requires_grad_](https://pytorch.org/docs/stable/generated/torch.Tensor.requires_grad_.html)
    - [In-place operations (`_` suffix)](https://pytorch.org/docs/stable/tensors.html)
    """

    code = "TL723"
    name = "inplace-method-not-called"
    summary = "An in-place method named but not called has no effect"
    severity = "error"
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("_\n", "_\r", "_  #", "_ #", "retain_grad")
    scope_tokens = ("_",)

    valid = (
        T + "x = torch.zeros(2)\nx.zero_()\n",
        T + "x = torch.zeros(2)\nx.requires_grad\n",
        T + "x = torch.zeros(2)\nx.grad\n",
        T + "m = torch.nn.Linear(2, 2)\nfn = m.weight.uniform_\nfn()\n",
        "opt.zero_\n",
        T + "x = torch.zeros(2)\nx.__class__\n",
    )
    invalid = (
        Invalid(
            T + "m = torch.nn.Linear(2, 2)\nfor p in m.parameters():\n    p.requires_grad_\n",
            T + "m = torch.nn.Linear(2, 2)\nfor p in m.parameters():\n    p.requires_grad_()\n",
        ),
        Invalid(
            T + "m = torch.nn.Linear(2, 2)\nm.weight.grad.zero_  # reset\n",
            T + "m = torch.nn.Linear(2, 2)\nm.weight.grad.zero_()  # reset\n",
        ),
        Invalid(
            T + "model = torch.nn.Linear(2, 2)\nmodel.requires_grad_\n",
            T + "model = torch.nn.Linear(2, 2)\nmodel.requires_grad_()\n",
        ),
        Invalid(T + "x = torch.zeros(2)\nx.fill_\n"),
    )

    def visit_Expr(self, node: cst.Expr) -> None:
        value = node.value
        if not isinstance(value, cst.Attribute):
            return
        method = value.attr.value
        in_place = method.endswith("_") and not method.endswith("__")
        if not (in_place or method in _NO_ARGUMENT):
            return
        kind = self.ctx.kind(value.value)
        if kind is None or kind.base not in (TENSOR, MODULE):
            return
        fix = None
        if method in _NO_ARGUMENT:
            fix = self.replace(value, cst.Call(func=value), f"Call `{method}()`", "unsafe")
        self.report(value, f"`{method}` is named but not called, so it has no effect; add `()`", fix)
