from __future__ import annotations

import pytest

from torchlint.engine import fix_text, lint_text
from torchlint.rules.registry import rule_by_code

TL005 = rule_by_code("TL005")
HEADER = "import torch.nn as nn\nm = nn.Linear(2, 2)\n"


@pytest.mark.parametrize(
    ("line", "suppressed"),
    [
        pytest.param("m.forward(x)  # noqa", True, id="blanket"),
        pytest.param("m.forward(x)  # NOQA", True, id="upper"),
        pytest.param("m.forward(x)  #noqa:TL005", True, id="no-spaces"),
        pytest.param("m.forward(x)  # noqa: TL005", True, id="code"),
        pytest.param("m.forward(x)  # noqa: E501, TL005", True, id="several"),
        pytest.param("m.forward(x)  # noqa: E501,TL005", True, id="several-tight"),
        pytest.param("m.forward(x)  # noqa: TL001", False, id="other-code"),
        pytest.param("m.forward(x)  # noqa: TL00", False, id="partial-code"),
        pytest.param("m.forward('# noqa')", False, id="in-string"),
        pytest.param("m.forward(x)  # comment noqa-ish", False, id="not-noqa"),
    ],
)
def test_line_noqa(line, suppressed):
    source = HEADER + line + "\n"
    diagnostics = lint_text(source, "m.py", [TL005]).diagnostics
    assert (diagnostics == []) is suppressed
    # suppressed findings are never fixed either
    assert (fix_text(source, "m.py", [TL005]).text == source) is suppressed


def test_noqa_applies_to_the_line_where_the_finding_starts():
    source = HEADER + "m.forward(  # noqa: TL005\n    x,\n)\nm.forward(\n    x,  # noqa: TL005\n)\n"
    diagnostics = lint_text(source, "m.py", [TL005]).diagnostics
    assert [d.line for d in diagnostics] == [6]


@pytest.mark.parametrize(
    ("comment", "suppressed"),
    [
        ("# torchlint: noqa", True),
        ("# torchlint: noqa: TL005", True),
        ("# torchlint: noqa: TL001, TL005", True),
        ("# torchlint: noqa: TL001", False),
        ("# ruff: noqa", False),
    ],
)
def test_file_level_noqa(comment, suppressed):
    source = HEADER + "m.forward(x)\n" + comment + "\nm.forward(y)\n"
    assert (lint_text(source, "m.py", [TL005]).diagnostics == []) is suppressed


def test_syntax_errors_cannot_be_suppressed():
    (diagnostic,) = lint_text("# torchlint: noqa\ndef f(:  # noqa\n", "m.py", [TL005]).diagnostics
    assert diagnostic.code == "TL000"
