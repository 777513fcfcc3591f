"""The tools torchlint plugs into, run for real: pre-commit and flake8."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import FORWARD_FIXED, FORWARD_SOURCE

REPO = Path(__file__).resolve().parent.parent


def _git(*args: str, cwd: Path) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def _pre_commit(cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    command = [sys.executable, "-m", "pre_commit", "run"]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def _configure(project: Path, args: str) -> None:
    rev = _git("rev-parse", "HEAD", cwd=REPO).strip()
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {REPO}\n  rev: {rev}\n  hooks:\n  - id: torchlint\n    args: {args}\n"
    )
    _git("add", ".pre-commit-config.yaml", cwd=project)


def test_pre_commit_hook_fails_fixes_and_respects_noqa(tmp_path):
    project, home = tmp_path / "project", tmp_path / "pre-commit-home"
    project.mkdir()
    _git("init", "-q", cwd=project)
    _configure(project, "[]")
    (project / "train.py").write_text(FORWARD_SOURCE)
    (project / "quiet.py").write_text(FORWARD_SOURCE.replace("model.forward(x)", "model.forward(x)  # noqa: TL005"))
    (project / "build").mkdir()
    (project / "build" / "generated.py").write_text(FORWARD_SOURCE)  # excluded even when staged
    _git("add", "train.py", "quiet.py", "build/generated.py", cwd=project)

    failing = _pre_commit(project, home)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "train.py:3:7: TL005" in failing.stdout
    assert "quiet.py" not in failing.stdout and "generated.py" not in failing.stdout

    _configure(project, "[--fix]")
    fixing = _pre_commit(project, home)
    assert fixing.returncode == 1 and "files were modified by this hook" in fixing.stdout
    assert (project / "train.py").read_text() == FORWARD_FIXED
    _git("add", "train.py", cwd=project)
    passing = _pre_commit(project, home)
    assert passing.returncode == 0, passing.stdout + passing.stderr


def test_flake8_reports_torchlint_findings(tmp_path):
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "y = model.forward(1)  # noqa: TL005\n")
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TL", "m.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        "m.py:3:7: TL005 Calling `.forward()` directly skips the module's hooks; call the module itself"
    ]


def _flake8(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_flake8_reads_tool_torchlint(tmp_path):
    """select/ignore, per-file-ignores and target-torch from [tool.torchlint] apply under flake8 too."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.torchlint]\nignore = ["TL001"]\ntarget-torch = "1.8"\n'
        '[tool.torchlint.per-file-ignores]\n"legacy/*" = ["TL005"]\n'
    )
    global_rng = (  # before torch 1.9, workers share numpy's global RNG: TL007 only for target-torch < 1.9
        "import numpy as np\nfrom torch.utils.data import DataLoader, Dataset\n"
        "class Global(Dataset):\n    def __getitem__(self, i):\n        return np.random.rand() + i\n"
        "loader = DataLoader(Global(), num_workers=4)\n"
    )
    (tmp_path / "m.py").write_text(FORWARD_SOURCE + "w = model.weight.data\n" + global_rng)
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.py").write_text(FORWARD_SOURCE)
    cli_result = subprocess.run([sys.executable, "-m", "torchlint", "check", "--output-format", "concise",
                                 "--no-cache", "m.py", "legacy"], cwd=tmp_path, capture_output=True, text=True)
    flake8 = _flake8("--select", "TL", "m.py", "legacy", cwd=tmp_path)
    expected = [line for line in cli_result.stdout.splitlines() if line.startswith(("m.py", "legacy"))]
    assert flake8.stdout.splitlines() == expected  # flake8's columns are 1-based too
    assert [line.split()[1] for line in expected] == ["TL005", "TL007"]
    assert "Before torch 1.9" in expected[1]


def test_flake8_own_select_and_noqa_narrow_further(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nignore = ["TL001"]\n')
    source = FORWARD_SOURCE + "w = model.weight.data\ny = model.forward(1)  # noqa\n"
    (tmp_path / "m.py").write_text(source)
    assert _flake8("--select", "TL001", "m.py", cwd=tmp_path).stdout == ""  # torchlint's ignore wins
    only = _flake8("--select", "TL005", "m.py", cwd=tmp_path).stdout.splitlines()
    assert [line.split()[1] for line in only] == ["TL005"] and only[0].startswith("m.py:3:7:")
    everything = _flake8("--select", "TL", "--disable-noqa", "m.py", cwd=tmp_path).stdout.splitlines()
    assert len(everything) == 1  # torchlint's own noqa still hides line 5


def test_flake8_reports_a_broken_config(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchlint]\nselect = ["TL9999"]\n')
    (tmp_path / "m.py").write_text(FORWARD_SOURCE)
    result = _flake8("--select", "TL", "m.py", cwd=tmp_path)
    assert result.returncode == 1 and "TL000 torchlint configuration error" in result.stdout


def _readme_pre_commit_snippet() -> str:
    readme = (REPO / "README.md").read_text()
    start = readme.index("```yaml\n# .pre-commit-config.yaml\n") + len("```yaml\n")
    return readme[start : readme.index("```", start)]


def test_readme_pre_commit_snippet_works_as_written(tmp_path):
    """The README's snippet, with only `repo:` pointing at a local clone. Releases are tagged
    `v<version>` (README, pre-commit), so the clone gets the tag a release of this version has."""
    import re

    from torchlint import __version__

    snippet = _readme_pre_commit_snippet()
    (rev,) = re.findall(r"^\s*rev:\s*(\S+)\s*$", snippet, re.M)
    assert rev == f"v{__version__}", "the README's rev must name this version's release tag"
    clone = tmp_path / "torchlint-clone"
    _git("clone", "-q", str(REPO), str(clone), cwd=tmp_path)
    _git("tag", rev, cwd=clone)
    (url,) = re.findall(r"^\s*-\s*repo:\s*(\S+)\s*$", snippet, re.M)
    config = snippet.replace(url, str(clone))  # the only change to the README's snippet

    project, home = tmp_path / "project", tmp_path / "pre-commit-home"
    project.mkdir()
    _git("init", "-q", cwd=project)
    (project / ".pre-commit-config.yaml").write_text(config)
    (project / "train.py").write_text(FORWARD_SOURCE)
    _git("add", ".pre-commit-config.yaml", "train.py", cwd=project)
    fixing = _pre_commit(project, home)
    assert fixing.returncode == 1 and "files were modified by this hook" in fixing.stdout, fixing.stdout
    assert (project / "train.py").read_text() == FORWARD_FIXED
    _git("add", "train.py", cwd=project)
    passing = _pre_commit(project, home)
    assert passing.returncode == 0, passing.stdout + passing.stderr
