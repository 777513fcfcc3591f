"""The TorchFix-parity rules where behaviour depends on settings the inline examples cannot show:
the target torch, default-off rules."""

from __future__ import annotations

import pytest

from torchlint.context import LintSettings
from torchlint.engine import lint_text
from torchlint.rules.registry import rule_by_code


def findings(code: str, source: str, target=(2, 13)):
    result = lint_text(source, "m.py", [rule_by_code(code)], LintSettings(target_torch=target))
    assert not result.internal_errors
    return result.diagnostics


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        ("import torch\ns = torch.load(p)\n", (2, 5), "unsafe"),
        ("import torch\ns = torch.load(p)\n", (2, 6), None),  # weights_only=True is the default
        ("import torch\ns = torch.load(p, weights_only=True)\n", (2, 5), None),
        ("import torch\ns = torch.load(p, pickle_module=dill)\n", (2, 5), "no fix"),
        ("import torch\ns = torch.load(p, map_location, dill)\n", (2, 5), "no fix"),  # pickle_module by position
        ("import torch\ns = torch.load(p)\n", (1, 12), "no fix"),  # no weights_only before 1.13
        ("import torch\ns = torch.load(p, weights_only=False)\n", (2, 13), "no fix"),
        ("import torch\ns = torch.load(p, weights_only=False)\n", (2, 5), "no fix"),
        ("import pickle\ns = pickle.load(p)\n", (2, 5), None),
        ("import torch\ns = torch.hub.load(repo, m)\n", (2, 5), None),
    ],
)
def test_torch_load_is_judged_against_the_target(source, target, expected):
    found = findings("TL201", source, target)
    if expected is None:
        assert found == []
        return
    assert len(found) == 1
    assert (found[0].fix.applicability if found[0].fix else "no fix") == expected
