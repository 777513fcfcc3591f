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
