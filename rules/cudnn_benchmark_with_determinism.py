"""TL726 cudnn-benchmark-with-determinism: `cudnn.benchmark = True` in a file asking for determinism."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import is_true
from torchlint.rules.registry import register
from torchlint.walk import descendants

T = "import torch\n"


@register
class CudnnBenchmarkWithDeterminism(Rule):
    """
    ## What it does
    Flags `torch.backends.cudnn.benchmark = True` in a block (the same branch of the same
    function) that also asks for deterministic results: `torch.backends.cudnn.deterministic = True`
    or `torch.use_deterministic_algorithms(True)`. Settings in different branches
    (`if args.deterministic: ... else: benchmark = True`) are alternatives, not a contradiction.

    ## Why is this bad?
    With benchmarking on, cuDNN times several convolution algorithms on the first call of each
    shape and keeps the fastest; which one wins depends on timing noise and load, so two runs can
    use different algorithms and produce different results. The reproducibility notes say to set
    `benchmark = False` for determinism. The two settings contradict each other: the author asked
    for reproducibility and will not get it.

    ## Example
    ```python
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = True
    ```

    ## Use instead
    ```python
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    ```

    ## Fix safety
    There is no fix: which of speed and reproducibility the author wants is theirs to say (the
    two lines are often under different flags).

    Not flagged: `benchmark = True` alone, `benchmark = False` beside determinism, and values that
    are not literals (`benchmark = not args.deterministic`).

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [Reproducibility: CUDA convolution benchmarking](https://pytorch.org/docs/stable/notes/randomness.html#cuda-convolution-benchmarking)
    - [torch.use_deterministic_algorithms](https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html)
    """

    code = "TL726"
    name = "cudnn-benchmark-with-determinism"
    summary = "`cudnn.benchmark = True` defeats the determinism the file asks for"
    severity = "warning"
    default_enabled = False
    trigger_tokens = ("benchmark",)
    trigger_patterns = ()
    scope_tokens = ("benchmark",)

    valid = (
        T + "torch.backends.cudnn.benchmark = True\n",
        T + "torch.backends.cudnn.deterministic = True\ntorch.backends.cudnn.benchmark = False\n",
        T + "torch.backends.cudnn.deterministic = args.det\ntorch.backends.cudnn.benchmark = not args.det\n",
        T + "torch.use_deterministic_algorithms(False)\ntorch.backends.cudnn.benchmark = True\n",
        # alternatives in two branches (recbole, torchtune)
        T + "if reproducible:\n    torch.backends.cudnn.benchmark = False\n    torch.backends.cudnn.deterministic = True\n"
        "else:\n    torch.backends.cudnn.benchmark = True\n    torch.backends.cudnn.deterministic = False\n",
    )
    invalid = (
        Invalid(T + "torch.backends.cudnn.deterministic = True\ntorch.backends.cudnn.benchmark = True\n"),
        Invalid("import torch\nfrom torch.backends import cudnn\ncudnn.benchmark = True\ntorch.use_deterministic_algorithms(True)\n"),
    )

    def visit_Assign(self, node: cst.Assign) -> None:
        if not is_true(node.value):
            return
        if any(self.ctx.qualify(t.target) == "torch.backends.cudnn.benchmark" for t in node.targets) and self._deterministic(
            self._block()
        ):
            self.report(node, "`cudnn.benchmark = True` picks algorithms by timing, defeating the deterministic settings")

    def _block(self) -> cst.CSTNode:
        return self.ctx.enclosing(cst.IndentedBlock) or self.ctx.module

    def _deterministic(self, block: cst.CSTNode) -> bool:
        for statement in block.body:
            if isinstance(statement, cst.SimpleStatementLine) and self._asks_determinism(statement):
                return True
        return False

    def _asks_determinism(self, statement: cst.CSTNode) -> bool:
        for child in descendants(statement):
            if isinstance(child, cst.Assign) and is_true(child.value):
                if any(self.ctx.qualify(t.target) == "torch.backends.cudnn.deterministic" for t in child.targets):
                    return True
            elif isinstance(child, cst.Call) and self.ctx.qualify(child.func) == "torch.use_deterministic_algorithms":
                if child.args and is_true(child.args[0].value):
                    return True
        return False
