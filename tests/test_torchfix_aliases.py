"""TorchFix's codes accepted wherever a code is (torchlint/torchfix_codes.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from torchlint.rules.registry import rule_by_code
from torchlint.selection import SelectionError, expand
from torchlint.suppression import parse_suppressions
from torchlint.torchfix_codes import TORCHFIX_ALIASES, TORCHFIX_WITHOUT_COUNTERPART

REPO = Path(__file__).resolve().parent.parent
SOURCE = (
    "import torch\n"
    "a = torch.load(p, weights_only=False)\n"
    "b = torch.load(p, weights_only=False)  # noqa: TOR102\n"
    "c = torch.log(1 + x)  # noqa: TOR102\n"
)


def _codes(result) -> list[tuple[str, int]]:
    return [(f["code"], f["line"]) for f in json.loads(result.stdout)]


def test_every_torchfix_code_but_two_has_a_registered_counterpart_and_a_doc_row():
    doc = (REPO / "docs" / "torchfix-migration.md").read_text()
    for tor, code in TORCHFIX_ALIASES.items():
        assert rule_by_code(code) is not None and f"| {tor} |" in doc and code in doc
    for tor in TORCHFIX_WITHOUT_COUNTERPART:
        assert f"| {tor} |" in doc


@pytest.mark.parametrize(
    ("selector", "codes"),
    [
        ("TOR102", {"TL201"}),
        ("tor001", {"TL301"}),
        ("TOR10", {"TL302", "TL201", "TL304", "TL501", "TL502", "TL503"}),
        ("TOR4", {"TL401", "TL402"}),
        ("TOR203", set()),  # no counterpart on purpose: a no-op, so migrated configs still load
        ("TL20", {"TL201"}),
    ],
)
def test_selectors(selector, codes):
    assert expand([selector]) == codes


def test_an_unknown_torchfix_code_is_an_error():
    with pytest.raises(SelectionError, match="TOR999"):
        expand(["TOR999"])


def test_noqa_with_a_torchfix_code_hides_only_its_counterpart(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n')
    (tmp_path / "m.py").write_text(SOURCE)
    assert _codes(cli("check", "--output-format", "json", "--no-cache", "m.py")) == [("TL201", 2), ("TL501", 4)]
    suppressions = parse_suppressions("x = 1  # noqa: TOR106, TL005\n# torchlint: noqa: TOR001\n")
    assert suppressions.by_line[1] >= {"TOR106", "TL501", "TL005"} and "TL301" in suppressions.whole_file


def test_select_ignore_and_per_file_ignores_accept_torchfix_codes(cli, tmp_path):
    (tmp_path / "m.py").write_text(SOURCE)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n[tool.torchlint]\nselect = ["TOR106"]\n')
    assert _codes(cli("check", "--output-format", "json", "--no-cache", "m.py")) == [("TL501", 4)]
    assert _codes(cli("check", "--output-format", "json", "--no-cache", "--select", "TOR102,TOR106", "--ignore", "TOR106",
                      "m.py")) == [("TL201", 2)]
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\n[tool.torchlint]\nselect = ["TOR"]\n[tool.torchlint.per-file-ignores]\n"m.py" = ["TOR1"]\n'
    )
    assert _codes(cli("check", "--output-format", "json", "--no-cache", "m.py")) == []
