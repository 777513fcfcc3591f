"""Rule behaviour that depends on settings the inline examples cannot set."""

from __future__ import annotations

from torchlint.context import LintSettings
from torchlint.engine import lint_text
from torchlint.rules.registry import rule_by_code

GLOBAL_NUMPY_DATASET = (
    "import numpy as np\nfrom torch.utils.data import DataLoader, Dataset\n"
    "class Jitter(Dataset):\n    def __getitem__(self, i):\n        return i + np.random.rand()\n"
    "loader = DataLoader(Jitter(), num_workers=4)\n"
)


def test_tl007_flags_global_numpy_only_before_torch_1_9():
    rule = rule_by_code("TL007")
    assert lint_text(GLOBAL_NUMPY_DATASET, "d.py", [rule], LintSettings((2, 6))).diagnostics == []
    (finding,) = lint_text(GLOBAL_NUMPY_DATASET, "d.py", [rule], LintSettings((1, 8))).diagnostics
    assert finding.code == "TL007" and finding.fix is None
    assert "Before torch 1.9" in finding.message



EPOCH_RETURNING_ITS_TOTAL = (
    "import torch.nn as nn\nmodel = nn.Linear(4, 1)\ncriterion = nn.MSELoss()\n"
    "def epoch(batches):\n    total = 0\n    for x, y in batches:\n        loss = criterion(model(x), y)\n"
    "        step_with(loss)\n        total += loss\n    return total\n"
)


def test_tl003_backward_functions_name_project_wrappers():
    rule = rule_by_code("TL003")
    # `step_with` is unknown, so the returned total may be backpropagated by the caller: silent
    assert lint_text(EPOCH_RETURNING_ITS_TOTAL, "t.py", [rule]).diagnostics == []
    # named as a backward function, it frees each loss's graph in the loop: the total is a log
    settings = LintSettings(backward_functions=("step_with",))
    (finding,) = lint_text(EPOCH_RETURNING_ITS_TOTAL, "t.py", [rule], settings).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "safe"
    # a built-in wrapper needs no setting
    built_in = EPOCH_RETURNING_ITS_TOTAL.replace("step_with(loss)", "accelerator.backward(loss)")
    assert len(lint_text(built_in, "t.py", [rule]).diagnostics) == 1
