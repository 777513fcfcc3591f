"""TL201 load-without-weights-only: `torch.load` that may unpickle code, judged against the target
torch (TorchFix TOR102)."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import argument
from torchlint.codemod import with_keyword
from torchlint.rule import Invalid, Rule, call_patterns, call_tokens
from torchlint.rules.registry import register

_LOADS = frozenset({"torch.load", "torch.serialization.load"})
WEIGHTS_ONLY_DEFAULT_SINCE = (2, 6)  # torch.load's weights_only defaults to True from 2.6
WEIGHTS_ONLY_SINCE = (1, 13)  # the argument exists from 1.13
T = "import torch\n"


@register
class LoadWithoutWeightsOnly(Rule):
    """
    ## What it does
    Flags `torch.load(...)` that may run code from the file it reads: when the target torch is
    older than 2.6, a call without `weights_only=`; on any version, `weights_only=False`.

    ## Why is this bad?
    Before torch 2.6, `torch.load` unpickles with the full `pickle` module by default, and a
    pickle can run arbitrary code: loading a downloaded checkpoint runs whatever its author put
    in it. `weights_only=True` restricts it to tensors, primitive types and allow-listed classes.
    From 2.6 that is the default, so only an explicit `weights_only=False` is worth a warning there.

    ## Example
    ```python
    state = torch.load("model.pt")           # target torch < 2.6
    ```

    ## Use instead
    ```python
    state = torch.load("model.pt", weights_only=True)
    ```

    ## Fix safety
    The fix (for the missing argument, target torch 1.13–2.5) adds `weights_only=True` and is
    **unsafe**: a checkpoint holding anything beyond tensors and primitive containers (a whole
    pickled model, an optimizer with custom classes, numpy arrays in older torch) no longer loads,
    which the linter cannot know. A call passing `pickle_module=` gets no fix (torch refuses the
    two together), nor does one passing `**kwargs`. `weights_only=False` is reported without a fix:
    only the author knows whether the file is trusted.
    The target torch is `--target-torch`, `target-torch`, or the lowest torch the project's
    requirements allow.

    ## References
    - [torch.load](https://pytorch.org/docs/stable/generated/torch.load.html)
    - [Weights-only unpickler](https://pytorch.org/docs/stable/notes/serialization.html#weights-only)
    """

    code = "TL201"
    name = "load-without-weights-only"
    summary = "`torch.load` that may unpickle code: no `weights_only` before torch 2.6, or `False`"
    severity = "warning"
    preview = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("load",)
    trigger_patterns = call_patterns("load")
    scope_tokens = call_tokens("load")
    trigger_calls = _LOADS

    valid = (
        T + "state = torch.load('model.pt')\n",  # the default target (2.13) loads weights only
        T + "state = torch.load('model.pt', weights_only=True)\n",
        T + "state = torch.load('model.pt', **kwargs)\n",
        "import pickle\nstate = pickle.load(f)\n",
        "import json\ncfg = json.load(f)\n",
        "import numpy as np\na = np.load('a.npy')\n",
        "from safetensors.torch import load_file\nstate = load_file('m.safetensors')\n",
        T + "m.load_state_dict(torch.load('m.pt', weights_only=True))\n",
    )
    invalid = (
        Invalid(
            T + "state = torch.load('model.pt', map_location='cpu')\n",
            T + "state = torch.load('model.pt', map_location='cpu', weights_only=True)\n",
            target_torch=(2, 5),
        ),
        Invalid(T + "state = torch.load(f, pickle_module=dill)\n", target_torch=(2, 5)),
        Invalid(T + "state = torch.load('model.pt', weights_only=False)\n"),
        Invalid("from torch import load\nstate = load(path, map_location='cpu', weights_only=False)\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) not in _LOADS or any(arg.star == "**" for arg in node.args):
            return
        weights_only = argument(node, None, "weights_only")
        if weights_only is not None:
            if isinstance(weights_only.value, cst.Name) and weights_only.value.value == "False":
                self.report(node, "`torch.load(weights_only=False)` can run code from the file; load only trusted files")
            return
        target = self.ctx.settings.target_torch
        if target >= WEIGHTS_ONLY_DEFAULT_SINCE:
            return
        fix = None
        if target >= WEIGHTS_ONLY_SINCE and argument(node, 2, "pickle_module") is None and not any(a.star for a in node.args):
            fix = self.replace(node, with_keyword(node, "weights_only", cst.Name("True")), "Pass `weights_only=True`", "unsafe")
        self.report(node, "`torch.load` before torch 2.6 can run code from the file; pass `weights_only=True`", fix)
