"""TL303 checkpoint-without-use-reentrant: `checkpoint(fn, x)` without `use_reentrant` (TorchFix TOR003)."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import argument
from torchlint.codemod import with_keyword
from torchlint.rule import Invalid, Rule, call_patterns, call_tokens
from torchlint.rules.registry import register

_CHECKPOINTS = frozenset({"torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential"})
T = "import torch\nfrom torch.utils.checkpoint import checkpoint\n"


@register
class CheckpointWithoutUseReentrant(Rule):
    """
    ## What it does
    Flags `torch.utils.checkpoint.checkpoint(...)` and `checkpoint_sequential(...)` called without
    `use_reentrant=`.

    ## Why is this bad?
    torch warns on every such call: the default (`True`, the reentrant implementation) is slated
    to change. The reentrant variant does not support `torch.autograd.grad`, inputs that do not
    require grad (the gradient of the checkpointed parameters silently becomes None), keyword
    arguments, or nested structures; `use_reentrant=False` supports all of them and is what the
    docs recommend. Which one a model needs has to be decided, not left to a changing default.

    ## Example
    ```python
    h = checkpoint(block, x)
    ```

    ## Use instead
    ```python
    h = checkpoint(block, x, use_reentrant=False)  # recommended; check the results
    ```

    ## Fix safety
    The fix is **safe**: it writes `use_reentrant=True`, today's default, explicitly, so the
    program computes exactly what it did and the warning is gone. The message says to consider
    `False`, which TorchFix inserts, but that is a behaviour change (other gradients in the cases
    above, different memory use and RNG handling), so torchlint does not make it for you.
    A call passing `**kwargs` is left alone (they may hold the argument).

    ## References
    - [torch.utils.checkpoint](https://pytorch.org/docs/stable/checkpoint.html)
    """

    code = "TL303"
    name = "checkpoint-without-use-reentrant"
    summary = "`checkpoint()` without `use_reentrant`: torch warns and the default will change"
    severity = "warning"
    preview = False
    fix_safety = ("safe",)
    trigger_tokens = ("checkpoint",)
    trigger_patterns = call_patterns("checkpoint")
    scope_tokens = call_tokens("checkpoint")
    trigger_calls = _CHECKPOINTS

    valid = (
        # the module binds the name again: a function of its own, not torch's
        T + "def no_checkpoint(fn, *args):\n    return fn(*args)\ncheckpoint = no_checkpoint\nh = checkpoint(block, x)\n",
        T + "def checkpoint(state, path, **extra):\n    return state\nh = checkpoint(block, x)\n",
        T + "if debug:\n    def checkpoint(fn, *args):\n        return fn(*args)\nh = checkpoint(block, x)\n",
        T + "h = checkpoint(block, x, use_reentrant=False)\n",
        T + "h = checkpoint(block, x, use_reentrant=True)\n",
        T + "h = checkpoint(block, x, **kw)\n",
        "import deepspeed\nh = deepspeed.checkpointing.checkpoint(block, x)\n",
        "from fairscale.nn import checkpoint_wrapper\nm = checkpoint_wrapper(m)\n",
        "def checkpoint(f, x):\n    return f(x)\nh = checkpoint(block, x)\n",
        "import torch\ntorch.save(state, 'checkpoint.pt')\n",
    )
    invalid = (
        Invalid(T + "h = checkpoint(block, x)\n", T + "h = checkpoint(block, x, use_reentrant=True)\n"),
        # bound again only to None where the import may fail: still torch's where it is called
        Invalid(
            "try:\n    from torch.utils.checkpoint import checkpoint\nexcept ImportError:\n    checkpoint = None\n"
            "h = checkpoint(block, x)\n",
            "try:\n    from torch.utils.checkpoint import checkpoint\nexcept ImportError:\n    checkpoint = None\n"
            "h = checkpoint(block, x, use_reentrant=True)\n",
        ),
        Invalid(
            "import torch.utils.checkpoint as cp\nh = cp.checkpoint_sequential(layers, 2, x)\n",
            "import torch.utils.checkpoint as cp\nh = cp.checkpoint_sequential(layers, 2, x, use_reentrant=True)\n",
        ),
        Invalid(
            "import torch\nh = torch.utils.checkpoint.checkpoint(\n    block,\n    x,\n)\n",
            "import torch\nh = torch.utils.checkpoint.checkpoint(\n    block,\n    x,\n    use_reentrant=True,\n)\n",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) not in _CHECKPOINTS or argument(node, None, "use_reentrant") is not None:
            return
        if any(arg.star == "**" for arg in node.args):
            return
        fix = self.replace(node, with_keyword(node, "use_reentrant", cst.Name("True")), "Write today's default, `use_reentrant=True`")
        self.report(node, "Pass `use_reentrant`: False is recommended, True keeps today's behaviour", fix)
