from __future__ import annotations

import json

import pytest

from .conftest import FORWARD_SOURCE


def _paths(result) -> list[str]:
    return sorted({finding["path"] for finding in json.loads(result.stdout)})


def _tree(root, names):
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(FORWARD_SOURCE)


@pytest.mark.parametrize(
    "excluded",
    [".git", ".venv", "venv", "build", "dist", "__pycache__", "site-packages", "node_modules", "lib/site-packages"],
)
def test_default_excludes(cli, tmp_path, excluded):
    _tree(tmp_path, ["src/keep.py", f"{excluded}/skip.py"])
    assert _paths(cli("check", "--output-format", "json")) == ["src/keep.py"]


def test_gitignore_nested_and_negated(cli, tmp_path):
    _tree(tmp_path, ["a.py", "gen/out.py", "pkg/tmp_x.py", "pkg/tmp_keep.py", "pkg/ok.py", "notes.txt"])
    (tmp_path / ".gitignore").write_text("gen/\ntmp_*.py\n")
    (tmp_path / "pkg" / ".gitignore").write_text("!tmp_keep.py\n")
    assert _paths(cli("check", "--output-format", "json")) == ["a.py", "pkg/ok.py", "pkg/tmp_keep.py"]


def test_gitignore_above_the_given_folder_applies(cli, tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("*_gen.py\n")
    _tree(tmp_path, ["src/a.py", "src/b_gen.py"])
    assert _paths(cli("check", "--output-format", "json", "src")) == ["src/a.py"]


def test_exclude_and_extend_exclude_from_config(cli, tmp_path):
    _tree(tmp_path, ["a.py", "third/x.py", "build/y.py", "docs/conf.py"])
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nextend-exclude = ["third/", "docs/conf.py"]\n')
    assert _paths(cli("check", "--output-format", "json")) == ["a.py"]
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nexclude = ["third/"]\n')
    assert _paths(cli("check", "--output-format", "json")) == ["a.py", "build/y.py", "docs/conf.py"]


def test_explicit_files_are_linted_unless_force_exclude(cli, tmp_path):
    _tree(tmp_path, ["build/y.py", "a.py"])
    assert _paths(cli("check", "--output-format", "json", "build/y.py")) == ["build/y.py"]
    result = cli("check", "--output-format", "json", "--force-exclude", "build/y.py", "a.py")
    assert _paths(result) == ["a.py"]


def test_paths_stay_as_given(cli, tmp_path):
    _tree(tmp_path, ["pkg/mod.py"])
    assert _paths(cli("check", "--output-format", "json", "pkg/")) == ["pkg/mod.py"]
    assert _paths(cli("check", "--output-format", "json", "./pkg")) == ["pkg/mod.py"]
    absolute = _paths(cli("check", "--output-format", "json", str(tmp_path / "pkg")))
    assert absolute == [str(tmp_path / "pkg" / "mod.py")]


def test_each_file_once_and_sorted(cli, tmp_path):
    _tree(tmp_path, ["b.py", "a.py"])
    findings = json.loads(cli("check", "--output-format", "json", ".", "a.py", "b.py").stdout)
    assert [f["path"] for f in findings] == ["a.py", "b.py"]


def test_non_python_files_are_skipped(cli, tmp_path):
    _tree(tmp_path, ["a.py", "b.pyi", "c.txt", "d.pyc"])
    assert _paths(cli("check", "--output-format", "json")) == ["a.py", "b.pyi"]


def test_a_folder_named_explicitly_is_linted_inside_an_excluded_one(cli, tmp_path):
    _tree(tmp_path, [".venv/lib/site-packages/torch/nn/a.py", ".venv/lib/site-packages/torch/build/b.py", "c.py"])
    assert _paths(cli("check", "--output-format", "json")) == ["c.py"]
    named = _paths(cli("check", "--output-format", "json", ".venv/lib/site-packages/torch"))
    assert named == [".venv/lib/site-packages/torch/nn/a.py"]  # build/ below it is still excluded


def test_a_folder_outside_the_project_is_linted(cli, tmp_path):
    outside = tmp_path.parent / f"{tmp_path.name}-outside" / "site-packages" / "pkg"
    outside.mkdir(parents=True)
    (outside / "m.py").write_text(FORWARD_SOURCE)
    (tmp_path / "proj").mkdir()
    result = cli("check", "--output-format", "json", str(outside))
    assert _paths(result) == [str(outside / "m.py")]
