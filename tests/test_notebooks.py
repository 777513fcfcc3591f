"""Notebooks: cell-by-cell findings, masked magics, a fix that changes only the fixed cell."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).parent / "data" / "training.ipynb"


@pytest.fixture
def notebook(tmp_path) -> Path:
    path = tmp_path / "training.ipynb"
    shutil.copyfile(NOTEBOOK, path)
    return path


def test_findings_carry_cells_and_positions_inside_them(cli, notebook):
    result = cli("check", "--output-format", "json", "training.ipynb")
    findings = json.loads(result.stdout)
    assert result.exit_code == 1
    assert [(f["code"], f["cell"], f["line"], f["column"], f["end_line"]) for f in findings] == [
        ("TL005", 5, 1, 7, 1),
        ("TL001", 5, 4, 9, 4),
    ]
    assert all(set(f) == {"code", "name", "message", "path", "line", "column", "end_line", "end_column",
                          "severity", "fix", "cell"} for f in findings)
    # the cell magic's body (cell 4) and the line with `# noqa: TL005` stay silent
    concise = cli("check", "--output-format", "concise", "training.ipynb").stdout
    assert concise.splitlines()[0].startswith("training.ipynb:cell 5:1:7: TL005")
    full = cli("check", "training.ipynb").stdout
    assert "training.ipynb:cell 5:1:7: TL005" in full and "1 | out = model.forward(x)" in full


def test_fix_changes_only_the_fixed_cell(cli, notebook):
    before_text = notebook.read_text()
    before = json.loads(before_text)
    result = cli("check", "--fix", "training.ipynb")
    assert result.exit_code == 0, result.stdout
    after_text = notebook.read_text()
    after = json.loads(after_text)
    expected = json.loads(before_text)
    source = expected["cells"][4]["source"]
    source[0] = "out = model(x)\n"
    source[3] = "probs = out.softmax(-1).detach()\n"
    assert after == expected
    assert before["cells"][:4] == after["cells"][:4] and before["metadata"] == after["metadata"]
    # nothing but the two changed source lines differs, byte for byte
    changed = [pair for pair in zip(before_text.splitlines(), after_text.splitlines()) if pair[0] != pair[1]]
    assert len(changed) == 2 and len(before_text.splitlines()) == len(after_text.splitlines())
    assert cli("check", "--fix", "training.ipynb").exit_code == 0
    assert notebook.read_text() == after_text


def test_magics_are_restored_after_a_fix(cli, tmp_path):
    cells = [
        {"cell_type": "code", "execution_count": None, "id": "a", "metadata": {}, "outputs": [],
         "source": ["import torch.nn as nn\n", "m = nn.Linear(2, 2)\n", "!nvidia-smi\n", "for _ in range(2):\n",
                    "    %time m.forward(x)\n", "    y = m.forward(x)\n", "files = !ls\n", "m?"]},
    ]
    path = tmp_path / "magic.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n")
    result = cli("check", "--fix", "magic.ipynb")
    assert result.exit_code == 0, result.stdout
    source = json.loads(path.read_text())["cells"][0]["source"]
    assert source == ["import torch.nn as nn\n", "m = nn.Linear(2, 2)\n", "!nvidia-smi\n", "for _ in range(2):\n",
                      "    %time m.forward(x)\n", "    y = m(x)\n", "files = !ls\n", "m?"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "invalid notebook"),
        (json.dumps({"cells": [{"cell_type": "code"}], "nbformat": 4, "nbformat_minor": 5, "metadata": {}}), "invalid notebook"),
        (json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}}), "invalid notebook"),
    ],
)
def test_invalid_notebook_is_reported_and_untouched(cli, tmp_path, content, reason):
    path = tmp_path / "broken.ipynb"
    path.write_text(content)
    (tmp_path / "good.py").write_text("import torch.nn as nn\nm = nn.Linear(1, 1)\nm.forward(1)\n")
    result = cli("check", "--fix", "--output-format", "json", ".")
    findings = json.loads(result.stdout)
    assert [(f["path"], f["code"]) for f in findings] == [("broken.ipynb", "TL000")]
    assert reason in findings[0]["message"] and result.exit_code == 1
    assert path.read_text() == content


def test_syntax_error_in_a_cell_points_into_the_cell(cli, tmp_path):
    cells = [
        {"cell_type": "code", "execution_count": None, "id": "a", "metadata": {}, "outputs": [], "source": "x = 1"},
        {"cell_type": "code", "execution_count": None, "id": "b", "metadata": {}, "outputs": [], "source": "y = (\n"},
    ]
    (tmp_path / "bad.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    (finding,) = json.loads(cli("check", "--output-format", "json", "bad.ipynb").stdout)
    assert (finding["code"], finding["cell"], finding["line"]) == ("TL000", 2, 1)


def test_formatting_that_cannot_be_reproduced_is_not_rewritten(cli, tmp_path, notebook):
    data = json.loads(notebook.read_text())
    odd = json.dumps(data, indent=3).replace('"cells": [', '"cells":  [') + "\n"
    notebook.write_text(odd)
    result = cli("check", "--fix", "training.ipynb")
    assert notebook.read_text() == odd
    assert "cannot be reproduced" in result.stderr
    assert result.exit_code == 1
