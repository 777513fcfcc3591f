"""TorchFix itself, run in a venv of its own (it pins an old libcst: never in the test venv), on
tests/data/torchfix/parity.py: everything it reports, torchlint reports too, on the same line,
under the code docs/torchfix-migration.md maps it to, unless the migration doc names the
difference (DIFFERENCES below)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from torchlint.torchfix_codes import TORCHFIX_ALIASES

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "tests" / "data" / "torchfix" / "parity.py"
TORCHFIX_VERSION = "0.7.0"
TARGET = "2.5"  # TorchFix judges torch.load as torch < 2.6 did
FINDING = re.compile(r"^[^:\n]+:(?P<line>\d+):(?P<column>\d+): (?P<code>TOR\d{3}) ", re.M)
# (line, TorchFix code) pairs torchlint does not report, each with the row of
# docs/torchfix-migration.md that says why. None today.
DIFFERENCES: dict[tuple[int, str], str] = {}


@pytest.fixture(scope="session")
def torchfix(request) -> Path:
    """The torchfix executable of a venv kept under pytest's cache folder, keyed by version."""
    venv = Path(request.config.cache.mkdir(f"torchfix-{TORCHFIX_VERSION}-py{sys.version_info[0]}{sys.version_info[1]}"))
    executable = venv / "bin" / "torchfix"
    if (venv / "installed").is_file() and executable.is_file():
        return executable
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=120)
    install = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         f"torchfix=={TORCHFIX_VERSION}"],
        capture_output=True, text=True, timeout=600,
    )
    if install.returncode != 0:
        last = (install.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"pip cannot install torchfix=={TORCHFIX_VERSION} into its own venv: {last}")
    (venv / "installed").write_text(TORCHFIX_VERSION)
    return executable


def _torchfix_findings(torchfix: Path, folder: Path) -> set[tuple[int, str]]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run([str(torchfix), "--select", "ALL", "parity.py"], cwd=folder, capture_output=True,
                            text=True, timeout=300, env=env)
    return {(int(match["line"]), match["code"]) for match in FINDING.finditer(result.stdout)}


def _torchlint_findings(folder: Path) -> set[tuple[int, str]]:
    result = subprocess.run(
        [sys.executable, "-m", "torchlint", "check", "--select", "ALL", "--target-torch", TARGET, "--no-cache",
         "--output-format", "json", "parity.py"],
        cwd=folder, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode in (0, 1), result.stderr
    return {(finding["line"], finding["code"]) for finding in json.loads(result.stdout)}


def test_torchlint_reports_everything_torchfix_reports(torchfix, tmp_path):
    shutil.copyfile(EXAMPLES, tmp_path / "parity.py")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "parity"\n')
    theirs = _torchfix_findings(torchfix, tmp_path)
    assert len(theirs) >= 30, "TorchFix reported less than its examples hold: did it run?"
    assert {code for _, code in theirs} >= {"TOR001", "TOR002", "TOR003", "TOR004", "TOR101", "TOR102", "TOR103",
                                           "TOR104", "TOR105", "TOR106", "TOR107", "TOR201", "TOR202", "TOR401"}
    ours = _torchlint_findings(tmp_path)
    missing = sorted(
        (line, code) for line, code in theirs
        if (line, TORCHFIX_ALIASES.get(code)) not in ours and (line, code) not in DIFFERENCES
    )
    assert missing == [], f"TorchFix findings torchlint does not report (line, code): {missing}"
    doc = (REPO / "docs" / "torchfix-migration.md").read_text()
    assert all(f"| {code} |" in doc for _, code in DIFFERENCES)
