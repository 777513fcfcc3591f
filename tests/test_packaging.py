"""`pip install .` and `pip install -e .` both give torchlint.rules / torchlint.fixtures and no
top-level `rules` or `fixtures` package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_regular_install_maps_rules_and_fixtures_into_the_package(tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(REPO)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    top_level = {path.name for path in target.iterdir() if not path.name.endswith(".dist-info")}
    assert top_level == {"torchlint", "bin"}  # bin holds the console script
    assert (target / "bin" / "torchlint").is_file()
    assert (target / "torchlint" / "rules" / "direct_forward_call.py").is_file()
    assert (target / "torchlint" / "rules" / "registry.py").is_file()
    assert (target / "torchlint" / "fixtures" / "__init__.py").is_file()
    for fixture in (REPO / "fixtures").glob("*/*/contract.toml"):
        installed = target / "torchlint" / "fixtures" / fixture.parent.parent.name / fixture.parent.name
        assert (installed / "contract.toml").is_file() and (installed / "program.py").is_file()
    assert (target / "torchlint" / "verify" / "harness.py").is_file()
    assert (target / "torchlint" / "data" / "deprecated.toml").is_file()  # TL301/TL302's table
    probe = "import torchlint.rules.registry as r; print(sorted(x.code for x in r.all_rules()))"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env={"PYTHONPATH": str(target)}, capture_output=True, text=True
    )
    assert "TL005" in result.stdout and "TL302" in result.stdout, result.stderr


def test_installed_package_imports_from_any_folder(tmp_path):
    probe = (
        "import importlib.util, torchlint.rules.direct_forward_call as m, torchlint.fixtures;"
        "print(importlib.util.find_spec('rules') is None, importlib.util.find_spec('fixtures') is None)"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert result.stdout.split() == ["True", "True"], result.stderr
