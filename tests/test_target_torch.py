"""The target torch read from the project's own pins when `--target-torch`/`target-torch` is not
given (torchlint/target_torch.py), and said in verbose output."""

from __future__ import annotations

import json
import sys

import pytest

from torchlint.target_torch import lowest_allowed, project_target_torch

LOAD = "import torch\nstate = torch.load('m.pt')\n"


@pytest.mark.parametrize(
    ("specifier", "lowest"),
    [
        (">=2.1,<2.5", (2, 1)),
        ("==2.3.1", (2, 3, 1)),
        ("==2.4.*", (2, 4)),
        ("~=2.2", (2, 2)),
        (">=1.13,>=2.0", (2, 0)),
        ("<2.5", None),
        ("!=2.0", None),
        ("", None),
    ],
)
def test_lowest_version_a_specifier_allows(specifier, lowest):
    assert lowest_allowed(specifier) == lowest


@pytest.mark.parametrize(
    ("files", "version", "source"),
    [
        ({"pyproject.toml": '[project]\nname = "p"\ndependencies = ["numpy", "torch>=2.1,<2.5"]\n'}, (2, 1),
         "pyproject.toml [project] dependencies: torch>=2.1,<2.5"),
        ({"pyproject.toml": '[project]\nname = "p"\n[project.optional-dependencies]\ngpu = ["torch==2.4.1"]\n'}, (2, 4, 1),
         "pyproject.toml [project] optional-dependencies gpu: torch==2.4.1"),
        ({"requirements-dev.txt": "-r base.txt\npytest\ntorch >= 2.2  # pinned\n"}, (2, 2), "requirements-dev.txt: torch >= 2.2"),
        ({"setup.cfg": "[options]\ninstall_requires =\n    numpy\n    torch>=1.13\n"}, (1, 13), "setup.cfg install_requires: torch>=1.13"),
        ({"environment.yml": "name: e\ndependencies:\n  - python=3.11\n  - pytorch=2.3=py3.11_cuda12\n"}, (2, 3),
         "environment.yml: pytorch=2.3=py3.11_cuda12"),
        ({"environment.yml": "dependencies:\n  - pip\n  - pip:\n    - torch>=2.5\n"}, (2, 5), "environment.yml: torch>=2.5"),
        # the first file naming torch decides, in the documented order
        ({"pyproject.toml": '[project]\nname = "p"\ndependencies = ["torch>=2.0"]\n', "requirements.txt": "torch==2.6\n"},
         (2, 0), "pyproject.toml [project] dependencies: torch>=2.0"),
    ],
)
def test_pins_are_read_in_order(tmp_path, files, version, source):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    found = project_target_torch(tmp_path)
    assert (found.version, found.source) == (version, source)


@pytest.mark.parametrize(
    "files",
    [
        {"pyproject.toml": '[project]\nname = "p"\ndependencies = ["torch"]\n', "requirements.txt": "torch==2.1\n"},
        {"requirements.txt": "torch<3\n"},
        {"requirements.txt": "torchvision>=0.15\ntorchaudio==2.1\n"},  # other packages, not torch
        {"environment.yml": "dependencies:\n  - pytorch-lightning=2.1\n"},
        {},
    ],
)
def test_no_lower_bound_means_the_default(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert project_target_torch(tmp_path) is None


def test_environment_without_a_yaml_parser(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "yaml", None)
    (tmp_path / "environment.yml").write_text("dependencies:\n  - numpy\n  - pytorch>=2.2\n")
    assert project_target_torch(tmp_path).version == (2, 2)


def test_a_subfolder_finds_the_project_pins(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("torch>=2.4\n")
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    assert project_target_torch(tmp_path / "src" / "pkg").version == (2, 4)


def test_cli_uses_the_project_pin_and_says_so(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n')  # names no torch: read on
    (tmp_path / "requirements.txt").write_text("torch>=2.1,<2.5\n")
    (tmp_path / "m.py").write_text(LOAD)
    result = cli("check", "--output-format", "json", "--no-cache", "-v", "m.py")
    assert [f["code"] for f in json.loads(result.stdout)] == ["TL201"]  # before 2.6: no weights_only
    assert "target torch 2.1 for" in result.stderr and "requirements.txt: torch>=2.1,<2.5" in result.stderr
    flagged = cli("check", "--output-format", "json", "--no-cache", "--target-torch", "2.6", "m.py")
    assert json.loads(flagged.stdout) == []  # the flag wins over the pins
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n[tool.torchlint]\ntarget-torch = "2.6"\n')
    result = cli("check", "--output-format", "json", "--no-cache", "-v", "m.py")
    assert json.loads(result.stdout) == [] and "target-torch in" in result.stderr  # so does the config


def test_target_torch_as_a_toml_float_is_an_error(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.torchlint]\ntarget-torch = 2.10\n")
    (tmp_path / "m.py").write_text(LOAD)
    result = cli("check", "m.py")
    assert result.exit_code == 2 and "`target-torch`" in result.stderr and "must be a string" in result.stderr


def test_show_settings_names_the_pin_the_target_came_from(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\ndependencies = ["torch>=2.2"]\n')
    (tmp_path / "m.py").write_text("x = 1\n")
    result = cli("check", "--show-settings", "m.py")
    line = next(line for line in result.stdout.splitlines() if line.startswith("target-torch"))
    assert "2.2" in line and "pyproject.toml [project] dependencies: torch>=2.2" in line
