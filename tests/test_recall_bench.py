"""bench/recall.py: the labels file is well-formed and the scores and the markdown it writes are right."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent.parent / "bench"


@pytest.fixture(scope="module")
def recall():
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("recall_bench", BENCH / "recall.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_labels_are_well_formed(recall):
    labels = json.loads(recall.LABELS.read_text())
    assert len(labels) >= 150
    keys = set()
    for label in labels:
        assert set(label) <= {"package", "version", "path", "line", "code", "verdict", "reason", "cause"}
        assert label["package"] in recall.PACKAGES
        assert label["version"] == recall.PACKAGES[label["package"]][0]
        assert label["code"] in recall.RULES
        assert isinstance(label["verdict"], bool) and isinstance(label["line"], int) and label["reason"]
        assert "cause" not in label or label["verdict"]
        key = (label["package"], label["path"], label["line"], label["code"])
        assert key not in keys
        keys.add(key)
    assert recall.load_labels().keys() == {recall.Key(*key) for key in keys}


def _label(recall, line, code, verdict):
    return recall.Key("pkg", "a.py", line, code), {"verdict": verdict, "reason": "r", "cause": "function parameter"}


def test_score_counts_recall_and_precision(recall):
    judged = [(1, True), (2, True), (3, True), (4, False)]
    labels = dict(_label(recall, line, "TL001", verdict) for line, verdict in judged)
    findings = {recall.Key("pkg", "a.py", line, "TL001") for line in (1, 4, 9)}
    row = recall.score(findings, labels)["TL001"]
    assert row == {"true_instances": 3, "found": 1, "findings": 3, "findings_true": 1, "findings_false": 1,
                   "findings_unjudged": 1}
    assert recall.ratio(row["found"], row["true_instances"]) == "33%"
    assert recall.missed_by_cause(findings, labels) == {
        "TL001: function parameter": [recall.Key("pkg", "a.py", 2, "TL001"), recall.Key("pkg", "a.py", 3, "TL001")]
    }
    assert recall.false_positives(findings, labels) == [recall.Key("pkg", "a.py", 4, "TL001")]


def test_write_doc_keeps_each_run_side_by_side(recall, tmp_path):
    labels = dict([_label(recall, 1, "TL005", True), _label(recall, 2, "TL005", True)])
    doc = tmp_path / "recall.md"
    doc.write_text("# Recall\n\nMethod.\n\n" + recall.SUMMARY_START + "\n" + recall.SUMMARY_END + "\n\n"
                   + recall.RUNS_START + "\n" + recall.RUNS_END + "\n\nAfter the runs.\n")

    def run(label, found_lines):
        findings = {recall.Key("pkg", "a.py", line, "TL005") for line in found_lines}
        table = recall.score(findings, labels)
        section = recall.section(label, table, [], recall.missed_by_cause(findings, labels), [], labels)
        recall.write_doc(doc, label, section)

    run("after", [1, 2])
    run("before", [1])
    run("before", [])  # a re-run replaces its own section
    run("a-later-run", [2])  # a new label goes after the runs made before it, whatever its name
    text = doc.read_text()
    assert text.index("### Run: after") < text.index("### Run: a-later-run")
    assert text.startswith("# Recall\n\nMethod.\n") and text.endswith("\nAfter the runs.\n")
    assert text.count("### Run: before") == 1 and text.count("### Run: after") == 1
    assert text.index("### Run: before") < text.index("### Run: after")
    assert "| TL005 | 0 / 2 | 0% | 0 | - | 2 / 2 | 100% | 2 | 100% | 1 / 2 | 50% | 1 | 100% |" in text
    assert "- TL005: function parameter: 2" in text


@pytest.fixture(scope="module")
def research(recall):
    spec = importlib.util.spec_from_file_location("research_bench", BENCH / "research.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_research_labels_are_well_formed(research):
    labels = json.loads(research.LABELS.read_text())
    sources = json.loads(research.SOURCES.read_text())
    fields = {"group", "repo", "path", "line", "code", "verdict", "found_when_labelled", "reason", "cause"}
    for label in labels:
        assert set(label) <= fields and label["reason"]
        assert label["repo"] in json.dumps(sources[label["group"]])  # its files' commits are recorded
        assert label["code"] in research.RULES
        assert isinstance(label["verdict"], bool) and isinstance(label["line"], int)
        assert "cause" not in label or label["verdict"]
    assert sum(label["verdict"] for label in labels) >= 150
    assert len(research.load_labels()) == len(labels)  # one label per place


def test_research_lints_each_repository_as_its_own_project(research, tmp_path):
    folder = tmp_path / "group" / "someone__repo"
    (folder / "models").mkdir(parents=True)
    (folder / "models" / "net.py").write_text("import torch.nn as nn\nclass Net(nn.Module):\n    pass\n")
    (folder / "train.py").write_text("from models.net import Net\nnet = Net()\nnet.forward(1)\n")
    label = {"group": "group", "repo": "someone/repo", "path": "train.py", "line": 3, "code": "TL005"}
    key = research.Key("someone/repo", "train.py", 3, "TL005")
    assert research.repositories(tmp_path, {key: label}) == {"someone/repo": folder}
    findings = research.lint(folder)
    assert [(f["path"], f["line"], f["code"]) for f in findings] == [("train.py", 3, "TL005")]
    assert (folder / "pyproject.toml").exists()  # the folder is the project root, not what is above


def test_research_recall_per_group(research):
    def key(repo, line):
        return research.Key(repo, "train.py", line, "TL001")

    labels = {
        key("a/one", 1): {"group": "g1", "verdict": True},
        key("a/one", 2): {"group": "g1", "verdict": True},
        key("b/two", 3): {"group": "g2", "verdict": True},
        key("b/two", 4): {"group": "g2", "verdict": False},
    }
    rows = research.group_rows({key("a/one", 1), key("b/two", 4)}, labels)
    assert rows[2:] == ["| g1 | 1 | 2 | 1 | 50% |", "| g2 | 1 | 1 | 0 | 0% |"]
