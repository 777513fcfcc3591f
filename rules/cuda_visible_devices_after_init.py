"""TL725 cuda-visible-devices-after-init: `CUDA_VISIBLE_DEVICES` set after CUDA has started."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import method_of
from torchlint.rules.registry import register
from torchlint.walk import SCOPE_NODES, descendants

# torch.cuda functions that do not start the CUDA driver (they only read state or set it lazily).
_LAZY = frozenset({"is_initialized", "is_bf16_supported", "set_per_process_memory_fraction"})
T = "import os\nimport torch\n"


@register
class CudaVisibleDevicesAfterInit(Rule):
    """
    ## What it does
    Flags `os.environ["CUDA_VISIBLE_DEVICES"] = ...` (or `os.environ.setdefault`/`putenv` of it)
    that runs after a call that initialises CUDA earlier in the same function or module:
    `torch.cuda.is_available()`, `torch.cuda.device_count()`, `torch.cuda.set_device(...)`,
    `x.cuda()`, `.to("cuda")`, and other `torch.cuda.*` calls.

    ## Why is this bad?
    The CUDA driver reads `CUDA_VISIBLE_DEVICES` once, when it initialises; `is_available()` and
    `device_count()` already do. Setting the variable afterwards has no effect: the process keeps
    seeing every GPU, so runs meant for GPU 3 land on GPU 0 next to someone else's job, or all
    processes of a launcher share one card.

    ## Example
    ```python
    device = "cuda" if torch.cuda.is_available() else "cpu"
    os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu
    ```

    ## Use instead
    ```python
    os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu
    device = "cuda" if torch.cuda.is_available() else "cpu"
    ```

    ## Fix safety
    There is no fix: moving the assignment earlier can cross imports and argument parsing.

    Not flagged: the assignment before any CUDA call, in another function than the CUDA calls
    (which runs first is not known), and `torch.cuda.is_initialized()`.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [CUDA semantics: CUDA_VISIBLE_DEVICES and lazy initialisation](https://pytorch.org/docs/stable/notes/cuda.html)
    - [pytorch/pytorch#9158: setting CUDA_VISIBLE_DEVICES after torch.cuda calls has no effect](https://github.com/pytorch/pytorch/issues/9158)
    """

    code = "TL725"
    name = "cuda-visible-devices-after-init"
    summary = "`CUDA_VISIBLE_DEVICES` set after CUDA was initialised has no effect"
    severity = "error"
    default_enabled = False
    trigger_tokens = ("CUDA_VISIBLE_DEVICES",)
    scope_tokens = ("CUDA_VISIBLE_DEVICES",)

    valid = (
        T + "os.environ['CUDA_VISIBLE_DEVICES'] = '1'\nprint(torch.cuda.device_count())\n",
        T + "def main():\n    print(torch.cuda.is_available())\ndef setup():\n    os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n",
        T + "if torch.cuda.is_initialized():\n    pass\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n",
        T + "gpus = os.environ['CUDA_VISIBLE_DEVICES']\nn = torch.cuda.device_count()\n",
        T + "n = torch.cuda.device_count()\nvisible = os.environ.get('CUDA_VISIBLE_DEVICES')\n",
    )
    invalid = (
        Invalid(T + "device = 'cuda' if torch.cuda.is_available() else 'cpu'\nos.environ['CUDA_VISIBLE_DEVICES'] = args.gpu\n"),
        Invalid(T + "def main(args):\n    model = Net().cuda()\n    os.environ['CUDA_VISIBLE_DEVICES'] = '0,1'\n"),
        Invalid(T + "torch.cuda.set_device(0)\nos.environ.setdefault('CUDA_VISIBLE_DEVICES', '2')\n"),
    )

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if not any(self._sets_visible_devices(small) for small in node.body):
            return
        scope = self.ctx.enclosing(cst.FunctionDef)
        root = scope.body if scope is not None else self.ctx.module
        for child in descendants(root, prune=lambda current: isinstance(current, SCOPE_NODES)):
            if child is node:
                return
            if isinstance(child, cst.Call) and self._initialises_cuda(child):
                self.report(node, "CUDA is initialised above, so `CUDA_VISIBLE_DEVICES` has no effect here; set it first")
                return

    def _sets_visible_devices(self, small: cst.CSTNode) -> bool:
        if isinstance(small, cst.Assign):
            return any(self._is_environ_key(t.target) for t in small.targets)
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            if self.ctx.qualify(call.func) in ("os.environ.setdefault", "os.putenv", "os.environ.update"):
                return any(_names_variable(arg.value) for arg in call.args)
        return False

    def _is_environ_key(self, target: cst.CSTNode) -> bool:
        return (
            isinstance(target, cst.Subscript)
            and self.ctx.qualify(target.value) == "os.environ"
            and len(target.slice) == 1
            and _names_variable(getattr(target.slice[0].slice, "value", None))
        )

    def _initialises_cuda(self, call: cst.Call) -> bool:
        qualified = self.ctx.qualify(call.func) or ""
        if qualified.startswith("torch.cuda.") and qualified.rsplit(".", 1)[-1] not in _LAZY:
            return not qualified.startswith("torch.cuda.amp.") and qualified[11:12].islower()
        if method_of(call) == "cuda":
            return True
        if method_of(call) == "to" and call.args:
            value = call.args[0].value
            return isinstance(value, cst.SimpleString) and str(value.evaluated_value).startswith("cuda")
        return False


def _names_variable(value: cst.CSTNode | None) -> bool:
    return isinstance(value, cst.SimpleString) and value.evaluated_value == "CUDA_VISIBLE_DEVICES"
