"""CI formats: JUnit XML (validated against the Jenkins junit-10.xsd), GitLab Code Quality, and
notebook findings in GitHub annotations and SARIF pointing at the right line of the .ipynb file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import xmlschema

from torchlint.notebooks import cell_file_lines

from .conftest import FORWARD_SOURCE

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def junit_schema():
    return xmlschema.XMLSchema(str(DATA / "junit-10.xsd"))


@pytest.fixture
def notebook(tmp_path) -> Path:
    path = tmp_path / "training.ipynb"
    shutil.copyfile(DATA / "training.ipynb", path)
    return path


def _ipynb_line(path: Path, needle: str) -> int:
    """The 1-based line of the notebook file that holds `needle`."""
    (number,) = [n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line]
    return number


def test_junit_validates_and_has_one_failed_case_per_finding(cli, tmp_path, junit_schema, notebook):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "y = model.forward(2)\n")
    result = cli("check", "--output-format", "junit")
    assert result.exit_code == 1
    junit_schema.validate(result.stdout)
    data = junit_schema.to_dict(result.stdout)
    assert (data["@tests"], data["@failures"]) == ("4", "4")
    suites = {suite["@name"]: suite for suite in data["testsuite"]}
    assert set(suites) == {"m.py", "training.ipynb"}
    cases = suites["m.py"]["testcase"]
    assert [case["@name"] for case in cases] == ["TL005 m.py:3:7", "TL005 m.py:4:5"]
    failure = cases[0]["failure"][0]
    assert failure["@type"] == "TL005" and failure["@message"].startswith("TL005 Calling `.forward()`")
    assert failure["$"].startswith("m.py:3:7: TL005 (direct-forward-call) Calling")
    assert suites["training.ipynb"]["testcase"][0]["@name"] == "TL005 training.ipynb:cell 5:1:7"


def test_junit_clean_run_is_one_passing_case(cli, tmp_path, junit_schema):
    (tmp_path / "m.py").write_text("x = 1\n")
    result = cli("check", "--output-format", "junit")
    assert result.exit_code == 0
    junit_schema.validate(result.stdout)
    data = junit_schema.to_dict(result.stdout)
    assert data["@failures"] == "0"
    assert [case["@name"] for case in data["testsuite"][0]["testcase"]] == ["No problems found"]


def test_junit_escapes_markup_in_messages(cli, tmp_path, junit_schema):
    (tmp_path / "a<&>.py").write_text(FORWARD_SOURCE)
    result = cli("check", "--output-format", "junit")
    junit_schema.validate(result.stdout)
    assert junit_schema.to_dict(result.stdout)["testsuite"][0]["@name"] == "a<&>.py"


def test_gitlab_code_quality(cli, tmp_path, notebook):
    (tmp_path / ".git").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(FORWARD_SOURCE)
    result = cli("check", "--output-format", "gitlab", "pkg", "training.ipynb")
    assert result.exit_code == 1
    issues = json.loads(result.stdout)
    assert [set(issue) for issue in issues] == [
        {"description", "check_name", "fingerprint", "severity", "location"}
    ] * 3
    first = issues[0]
    assert first["check_name"] == "TL005" and first["severity"] == "minor"
    assert first["description"].startswith("TL005 Calling `.forward()` directly")
    assert first["location"] == {"path": "pkg/m.py", "lines": {"begin": 3, "end": 3}}
    cell = issues[1]
    assert cell["location"]["path"] == "training.ipynb"
    assert cell["location"]["lines"]["begin"] == _ipynb_line(notebook, '"out = model.forward(x)\\n"')
    assert cell["description"].startswith("TL005 cell 5, line 1: Calling")
    assert len({issue["fingerprint"] for issue in issues}) == 3


def test_gitlab_fingerprints_are_stable_across_runs_and_lines_above(cli, tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "out = model.forward(x)\n")
    before = [i["fingerprint"] for i in json.loads(cli("check", "--output-format", "gitlab").stdout)]
    again = [i["fingerprint"] for i in json.loads(cli("check", "--output-format", "gitlab").stdout)]
    (tmp_path / "m.py").write_text("# added\n" + FORWARD_SOURCE + "out = model.forward(x)\n")
    after = [i["fingerprint"] for i in json.loads(cli("check", "--output-format", "gitlab").stdout)]
    assert before == again == after and len(set(before)) == 2


def test_gitlab_clean_run_is_an_empty_list(cli, tmp_path):
    (tmp_path / "m.py").write_text("x = 1\n")
    result = cli("check", "--output-format", "gitlab")
    assert (result.exit_code, json.loads(result.stdout)) == (0, [])


def test_github_notebook_annotation_points_at_the_ipynb_line(cli, notebook):
    out = cli("check", "--output-format", "github", "training.ipynb").stdout.splitlines()
    line = _ipynb_line(notebook, '"out = model.forward(x)\\n"')
    assert out[0] == (
        f"::error file=training.ipynb,line={line},col=7,endLine={line},endColumn=23,"
        "title=TL005 (direct-forward-call)::TL005 cell 5, line 1: Calling `.forward()` directly skips"
        " the module's hooks; call the module itself"
    )
    data_line = _ipynb_line(notebook, '"probs = out.softmax(-1).data\\n"')
    assert f"line={data_line},col=9," in out[1] and "cell 5, line 4:" in out[1]


def test_notebook_annotations_from_the_cache_point_at_the_same_lines(cli, notebook):
    first = cli("check", "--output-format", "github", "training.ipynb", "-v")
    second = cli("check", "--output-format", "github", "training.ipynb", "-v")
    assert "cache: 1 hits" in second.stderr
    assert first.stdout == second.stdout and "line=" in second.stdout


def test_sarif_notebook_region_is_in_ipynb_lines(cli, tmp_path, notebook):
    (tmp_path / ".git").mkdir()
    document = json.loads(cli("check", "--output-format", "sarif", "training.ipynb").stdout)
    first = document["runs"][0]["results"][0]
    region = first["locations"][0]["physicalLocation"]["region"]
    line = _ipynb_line(notebook, '"out = model.forward(x)\\n"')
    assert region == {"startLine": line, "startColumn": 7, "endLine": line, "endColumn": 23}
    assert first["message"]["text"].startswith("cell 5, line 1: Calling `.forward()`")


def test_one_string_cell_source_points_at_its_source_key(cli, tmp_path):
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# title"},
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nout = model.forward(x)\n"},
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    path = tmp_path / "one.ipynb"
    path.write_text(json.dumps(notebook, indent=1) + "\n")
    key_line = _ipynb_line(path, '"source": "import torch')
    out = cli("check", "--output-format", "github", "one.ipynb").stdout
    assert out.startswith(f"::error file=one.ipynb,line={key_line},col=7,endLine={key_line},endColumn=23,")
    assert "cell 2, line 3:" in out


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param('{"cells": [{"source": ["a\\n", "b"]}]}', {1: [1, 1]}, id="one-line-file"),
        pytest.param('{"cells": [\n{"source": [\n"a\\n",\n"b\\nc"\n]}]}', {1: [3, 4, 4]}, id="two-lines-in-one-string"),
        pytest.param('{"cells": [{"x": 1},\n{"source": "a\\nb"}]}', {2: [2, 2]}, id="string-source"),
        pytest.param('{"cells": [{"source": []}]}', {1: []}, id="empty"),
        pytest.param('{"cells": [', {}, id="truncated"),
    ],
)
def test_cell_file_lines(raw, expected):
    assert cell_file_lines(raw) == expected
