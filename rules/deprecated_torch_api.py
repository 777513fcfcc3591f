"""TL302 deprecated-torch-api: a torch API deprecated in the target torch (TorchFix TOR101, TOR103)."""

from __future__ import annotations

from torchlint.rule import Invalid
from torchlint.rules._deprecated_api import DeprecatedApiRule, scope_tokens, trigger_tokens
from torchlint.rules.registry import register

T = "import torch\n"


@register
class DeprecatedTorchApi(DeprecatedApiRule):
    """
    ## What it does
    Flags uses of torch APIs that the target torch deprecates: calls (`torch.qr(A)`,
    `torch.cuda.amp.autocast()`), bare decorators (`@torch.cuda.amp.custom_fwd`) and imports
    (`from functorch import vmap`). Every symbol is listed in `torchlint/data/deprecated.toml` with
    the release that deprecated it, its replacement, how it is fixed and where torch states it;
    the table holds TorchFix's list and the deprecations torch 2.13 itself warns about.
    Not flagged: the old API in a compatibility branch, an `else` (of a statement or a conditional
    expression) or `except` handler whose other branch uses the replacement
    (`new() if recent else torch.cuda.amp.GradScaler()` with `new` calling `torch.amp.GradScaler`),
    and an import in an `except ImportError:` handler (the fallback for older torch; a name the
    `try` imports is judged by that import). Rewriting them would break what older torch runs.

    ## Why is this bad?
    A deprecated API warns on every run, is not maintained, and is removed in a later release;
    several (`torch.range`, `torch.svd`, `torch.norm`) also behave differently from their
    replacements in ways that surprise.

    ## Example
    ```python
    q, r = torch.qr(A, some=False)
    with torch.cuda.amp.autocast(dtype=torch.bfloat16):
        ...
    ```

    ## Use instead
    ```python
    q, r = torch.linalg.qr(A, mode="complete")
    with torch.amp.autocast("cuda", dtype=torch.bfloat16):
        ...
    ```

    ## Fix safety
    The table says per symbol. A **rename** (`torch.ger` → `torch.outer`, `functorch.vmap` →
    `torch.func.vmap`) is offered only where the replacement computes the same thing, and is
    safe. A **rewrite** builds the new call: `torch.qr(A, some)` → `torch.linalg.qr(A, mode=...)`,
    `torch.cholesky(A, upper)` → `torch.linalg.cholesky(A, upper=upper)` (the same triangle), `torch.chain_matmul(a, b, ...)` → `torch.linalg.multi_dot([a, b,
    ...])`, `torch.range(a, b, s)` with integer literals → `torch.arange(a, e, s)` with `e` past the last
    value range gives (`torch.range(0, 5, 2)` → `torch.arange(0, 6.0, 2)`: range's end is
    inclusive, and the float end keeps range's float dtype), `torch.cuda.amp.autocast(...)` →
    `torch.amp.autocast("cuda", ...)` (keyword arguments only: the positional order differs),
    `torch.cuda.amp.custom_fwd` → `torch.amp.custom_fwd(device_type="cuda")`. Each is safe: the
    result is the same. A call whose arguments the rewriter cannot prove equivalent (a
    non-literal `some=`, float bounds to `range`, `*args`) is reported without a fix, and so is a
    symbol whose replacement differs (`torch.svd` returns `V`, `torch.linalg.svd` `Vh`).
    `from functorch import vmap, grad` becomes `from torch.func import vmap, grad` (safe).
    A symbol is reported only when the target torch is at least the release that deprecated it,
    so code pinned to an older torch is not told to use an API it lacks.

    ## References
    - [Deprecated linear algebra functions](https://pytorch.org/docs/stable/linalg.html)
    - [Migrating from functorch to torch.func](https://pytorch.org/docs/stable/func.migrating.html)
    - torchlint/data/deprecated.toml
    """

    code = "TL302"
    name = "deprecated-torch-api"
    summary = "a torch API the target torch deprecates; the table names its replacement"
    severity = "warning"
    removed = False
    fix_safety = ("safe",)
    trigger_tokens = trigger_tokens()
    scope_tokens = scope_tokens()

    valid = (
        # a fallback for older torch: the try imports the current name, which the call uses
        "try:\n    from torch import vmap\nexcept ImportError:\n    from functorch import vmap\nf = vmap(g)\n",
        "try:\n    from torch.func import grad\nexcept (ImportError, ModuleNotFoundError):\n"
        "    from functorch import grad\ndf = grad(f)\n",
        # the old API kept for older torch beside the new one (accelerate, Lightning, timm)
        T + "if torch.__version__ >= '2.4':\n    from torch.amp import GradScaler\nelse:\n"
        "    from torch.cuda.amp import GradScaler\n",
        T + "s = torch.amp.GradScaler('cuda') if new else torch.cuda.amp.GradScaler()\n",
        T + "try:\n    s = torch.amp.GradScaler(device='cuda')\nexcept (AttributeError, TypeError):\n"
        "    s = torch.cuda.amp.GradScaler()\n",
        T + "q, r = torch.linalg.qr(A)\n",
        T + "y = torch.outer(a, b)\n",
        T + "x = torch.arange(0, 10)\n",
        T + "for i in range(10):\n    pass\n",
        "import numpy as np\nq, r = np.linalg.qr(A)\n",
        T + "n = torch.linalg.vector_norm(x)\n",
        T + "with torch.amp.autocast('cuda'):\n    pass\n",
        "from torch.func import vmap\nf = vmap(g)\n",
        T + "n = x.norm()\n",
        "import jax\ng = jax.grad(f)\n",
        T + "L = torch.linalg.cholesky(A)\n",
        T + "y = torch.nn.functional.interpolate(x, scale_factor=2)\n",
    )
    invalid = (
        Invalid(T + "y = torch.ger(a, b)\n", T + "y = torch.outer(a, b)\n"),
        Invalid(T + "q, r = torch.qr(A)\n", T + "q, r = torch.linalg.qr(A)\n"),
        Invalid(T + "q, r = torch.qr(A, some=False)\n", T + 'q, r = torch.linalg.qr(A, mode="complete")\n'),
        Invalid(T + "q, r = torch.qr(A, some=flag)\n"),
        Invalid(T + "U = torch.cholesky(A, True)\n", T + "U = torch.linalg.cholesky(A, upper=True)\n"),
        Invalid(T + "y = torch.chain_matmul(a, b, c)\n", T + "y = torch.linalg.multi_dot([a, b, c])\n"),
        Invalid(T + "r = torch.range(0, 5)\n", T + "r = torch.arange(0, 6.0)\n"),
        Invalid(T + "r = torch.range(1, 10, 3, dtype=torch.int64)\n", T + "r = torch.arange(1, 13, 3, dtype=torch.int64)\n"),
        Invalid(T + "r = torch.range(0, 5, 2)\n", T + "r = torch.arange(0, 6.0, 2)\n"),
        Invalid(T + "r = torch.range(5, 0, -2)\n", T + "r = torch.arange(5, -1.0, -2)\n"),
        Invalid(T + "r = torch.range(0.0, 1.0, 0.1)\n"),
        Invalid(
            T + "with torch.cuda.amp.autocast(dtype=torch.bfloat16):\n    pass\n",
            T + 'with torch.amp.autocast("cuda", dtype=torch.bfloat16):\n    pass\n',
        ),
        Invalid(T + "with torch.cpu.amp.autocast(True):\n    pass\n"),
        Invalid(T + "scaler = torch.cuda.amp.GradScaler()\n", T + 'scaler = torch.amp.GradScaler("cuda")\n'),
        Invalid(
            T + "class F(torch.autograd.Function):\n    @staticmethod\n    @torch.cuda.amp.custom_fwd\n    def forward(ctx, x):\n        return x\n",
            T + 'class F(torch.autograd.Function):\n    @staticmethod\n    @torch.amp.custom_fwd(device_type="cuda")\n    def forward(ctx, x):\n        return x\n',
        ),
        Invalid(
            T + "@torch.cuda.amp.custom_bwd(cast_inputs=torch.float32)\ndef backward(ctx, g):\n    return g\n",
            T + '@torch.amp.custom_bwd(cast_inputs=torch.float32, device_type="cuda")\ndef backward(ctx, g):\n    return g\n',
        ),
        Invalid("from functorch import vmap, grad\nf = vmap(grad(g))\n", "from torch.func import vmap, grad\nf = vmap(grad(g))\n"),
        # an `else` whose other branch does not use the replacement is no compatibility branch
        Invalid(T + "if flag:\n    pass\nelse:\n    s = torch.cuda.amp.GradScaler()\n",
                T + "if flag:\n    pass\nelse:\n    s = torch.amp.GradScaler(\"cuda\")\n"),
        # the old name imported first, the handler only covers its absence
        Invalid("try:\n    from functorch import vmap\nexcept ImportError:\n    vmap = None\n",
                "try:\n    from torch.func import vmap\nexcept ImportError:\n    vmap = None\n"),
        Invalid("import functorch\nimport torch\nf = functorch.jacrev(g)\n", "import functorch\nimport torch\nf = torch.func.jacrev(g)\n"),
        Invalid(T + "U, S, V = torch.svd(A)\n"),
        Invalid("from torch.nn.utils import weight_norm\nm = weight_norm(m)\n"),
        Invalid(T + "with torch.backends.cuda.sdp_kernel(enable_flash=False):\n    pass\n"),
        Invalid("import torch.nn.functional as F\ny = F.upsample(x, scale_factor=2)\n", "import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2)\n"),
    )
