"""TL301 removed-torch-api: a torch function the target torch no longer has (TorchFix TOR001, TOR004)."""

from __future__ import annotations

from torchlint.rule import Invalid
from torchlint.rules._deprecated_api import DeprecatedApiRule, scope_tokens, trigger_tokens
from torchlint.rules.registry import register

T = "import torch\n"


@register
class RemovedTorchApi(DeprecatedApiRule):
    """
    ## What it does
    Flags calls of torch functions that the target torch version has removed (`torch.solve`,
    `torch.symeig`, `torch.lstsq`, `torch.eig`, `torch.matrix_rank`), and their imports
    (`from torch import solve`). The symbols, the release that deprecated and the one that removed
    each, its replacement and where torch says so are listed in `torchlint/data/deprecated.toml`.
    Not flagged: the old API in a compatibility branch (an `else` or `except` whose other branch
    uses the replacement) and an import in an `except ImportError:` handler, as for TL302.

    ## Why is this bad?
    These names still exist in torch only as stubs that raise `RuntimeError` when called: the
    program fails as soon as it reaches the call.

    ## Example
    ```python
    x, lu = torch.solve(b, A)
    ```

    ## Use instead
    ```python
    x = torch.linalg.solve(A, b)
    ```

    ## Fix safety
    There is no automatic fix: every removed function's replacement takes its arguments in another
    order or returns something else, so the message names the replacement and the table's `note`
    says what changes. A symbol is judged against the target torch (`--target-torch`,
    `target-torch`, or the lowest torch the project's requirements allow): before its `removed`
    release it is TL302's (deprecated), before its `deprecated` release it is not reported.

    ## References
    - [torch.linalg](https://pytorch.org/docs/stable/linalg.html)
    - torchlint/data/deprecated.toml
    """

    code = "TL301"
    name = "removed-torch-api"
    summary = "a torch function the target torch removed (it raises when called)"
    severity = "error"
    removed = True
    fix_safety = ()
    trigger_tokens = trigger_tokens()
    scope_tokens = scope_tokens()

    valid = (
        T + "x = torch.linalg.solve(A, b)\n",
        T + "w, v = torch.linalg.eigh(A)\n",
        "import numpy as np\nx = np.linalg.solve(A, b)\n",
        "import scipy.linalg\nx = scipy.linalg.solve(A, b)\n",
        "from scipy.linalg import eig\nw, v = eig(A)\n",
        "def solve(a, b):\n    return a\nx = solve(1, 2)\n",
        T + "x = torch.linalg.lstsq(A, B).solution\n",
        "from torch import linalg\nr = linalg.matrix_rank(A)\n",
    )
    invalid = (
        Invalid(T + "x, lu = torch.solve(b, A)\n"),
        Invalid(T + "e, v = torch.symeig(A, eigenvectors=True)\n"),
        Invalid("from torch import lstsq\n"),
        Invalid("import torch as th\nr = th.matrix_rank(A)\n"),
    )
