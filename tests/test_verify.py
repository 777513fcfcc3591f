"""`torchlint verify`: contracts, comparisons, the shipped fixtures, and that it can fail."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from torchlint.cli import main
from torchlint.rules.registry import all_rules
from torchlint.verify.compare import largest_difference
from torchlint.verify.contract import ContractError, load_contract
from torchlint.verify.runner import discover

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (1.0, 1.0, 0.0),
        (1.0, 1.25, 0.25),
        ([[1, 2], [3, 4]], [[1, 2], [3, 4.5]], 0.5),
        ([1, 2], [1, 2, 3], math.inf),
        ({"a": 1}, {"a": 1, "b": 2}, math.inf),
        (True, True, 0.0),
        (True, False, math.inf),
        (True, 1, math.inf),
        ("DataParallel", "DataParallel", 0.0),
        ("DataParallel", "Sequential", math.inf),
        (None, None, 0.0),
        (None, [1.0], math.inf),
        (float("nan"), float("nan"), 0.0),
    ],
)
def test_largest_difference(a, b, expected):
    assert largest_difference(a, b) == expected


def _contract(tmp_path, text: str):
    path = tmp_path / "contract.toml"
    path.write_text(text)
    return load_contract(path)


def test_contract_defaults_and_device_filters(tmp_path):
    contract = _contract(
        tmp_path,
        'devices = ["cpu"]\n[[equal]]\nobservables = ["x"]\ntolerance = 1e-6\n'
        '[[expect]]\nrun = "after"\nvalues = { ok = true }\n',
    )
    assert list(contract.runs) == ["before", "after"]
    assert contract.equal[0].runs == ("before", "after") and contract.equal[0].tolerance == 1e-6
    assert contract.runs_on("cuda") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[equal]]\nruns = ["before", "later"]\nobservables = ["x"]\n', "not two defined runs"),
        ('[[expect]]\nrun = "later"\nvalues = { x = 1 }\n', "which is not defined"),
        ('[runs.a]\nprogram = "fixed"\n[[expect]]\nrun = "a"\nvalues = { x = 1 }\n', "not before/after"),
        ('devices = ["tpu"]\n[[equal]]\nobservables = ["x"]\n', "unknown device"),
        ('description = "nothing to check"\n', "at least one"),
    ],
)
def test_contract_errors(tmp_path, text, message):
    with pytest.raises(ContractError, match=message):
        _contract(tmp_path, text)


def test_every_rule_with_a_fix_has_a_fixture():
    covered = {fixture.code for fixture in discover(FIXTURES)}
    fixable = {rule.code for rule in all_rules() if rule.fix_safety and rule.code < "TL900"}
    assert fixable <= covered


def _verify(*args: str):
    result = CliRunner().invoke(main, ["verify", *args], catch_exceptions=False)
    return result, (json.loads(result.stdout) if "--output-format" in args else None)


def test_shipped_fixtures_pass_on_cpu():
    result, report = _verify("--device", "cpu", "--output-format", "json", "--jobs", "2")
    # A fixture whose contract `requires` a module that is not installed (torchvision, which cannot
    # be installed beside torch 2.13 here) is skipped with its reason; none may fail.
    failures = [r for r in report["results"] if r["verdict"] == "fail" or (r["verdict"] == "skip" and not r["skipped"])]
    assert failures == [] and result.exit_code == 0, json.dumps(failures, indent=1)
    assert report["passed"] is True and report["torch"] and report["devices"] == ["cpu"]
    assert {(r["rule"], r["case"]) for r in report["results"]} == {
        (fixture.code, fixture.case) for fixture in discover(FIXTURES)
    }


WRONG_FIX_PROGRAM = (
    "from torchlint.verify.harness import record\n\n"
    "def demo_unsafe():\n    return 1.0\n\n"
    "def demo_safe():\n    return 1.5\n\n"
    "record(value=demo_unsafe(), same=2.0)\n"
)


def _fixture(root: Path, case: str, program: str, contract: str) -> None:
    folder = root / "TL990" / case
    folder.mkdir(parents=True)
    (folder / "program.py").write_text(program)
    (folder / "contract.toml").write_text(contract)


def test_a_wrong_fix_fails_with_the_difference(tmp_path, demo_rules):
    # TL990 (a test rule) renames demo_unsafe() to demo_safe(), which returns another value.
    _fixture(tmp_path, "wrong", WRONG_FIX_PROGRAM, '[[equal]]\nobservables = ["value", "same"]\n')
    result, report = _verify("--fixtures", str(tmp_path), "--device", "cpu", "--output-format", "json")
    assert result.exit_code == 1 and report["passed"] is False
    (case,) = report["results"]
    assert case["verdict"] == "fail" and case["largest_difference"] == 0.5
    assert case["problems"] == ["`value` differs between before and after by 0.5 (tolerance 0)"]


def test_a_fixture_needing_a_missing_module_is_skipped_with_its_reason_but_its_fix_is_checked(tmp_path, demo_rules):
    contract = 'requires = ["no_such_module_tl"]\n[[equal]]\nobservables = ["value"]\n'
    _fixture(tmp_path, "needs", "import no_such_module_tl\n" + WRONG_FIX_PROGRAM, contract)
    result, report = _verify("--fixtures", str(tmp_path), "--device", "cpu", "--output-format", "json")
    case = report["results"][0]
    assert result.exit_code == 0 and case["verdict"] == "skip" and "no_such_module_tl not installed" in case["skipped"]
    _fixture(tmp_path, "silent_needs", "from torchlint.verify.harness import record\nrecord(value=1)\n", contract)
    result, report = _verify("--fixtures", str(tmp_path), "--device", "cpu", "--output-format", "json")
    assert result.exit_code == 1  # the rule must still fire and fix, skipped or not
    assert [r["verdict"] for r in report["results"]] == ["skip", "fail"]


def test_a_cpu_run_sees_no_gpu(tmp_path, demo_rules, monkeypatch):
    # On a machine with a GPU, a cpu run must still be a CPU run: nn.DataParallel, for one, moves
    # work to a visible GPU by itself.
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    program = WRONG_FIX_PROGRAM.replace(
        "record(value=demo_unsafe(), same=2.0)", "import os\nrecord(seen=os.environ['CUDA_VISIBLE_DEVICES'], value=demo_unsafe())"
    )
    _fixture(tmp_path, "hidden", program, '[[expect]]\nrun = "before"\nvalues = { seen = "" }\n')
    result, report = _verify("--fixtures", str(tmp_path), "--device", "cpu", "--output-format", "json")
    assert report["results"][0]["verdict"] == "pass" and result.exit_code == 0, report


def test_a_fixture_the_rule_no_longer_fires_on_fails(tmp_path, demo_rules):
    _fixture(
        tmp_path, "silent", "from torchlint.verify.harness import record\nrecord(value=1)\n",
        '[[equal]]\nobservables = ["value"]\n',
    )
    result, report = _verify("--fixtures", str(tmp_path), "--device", "cpu", "--output-format", "json")
    assert result.exit_code == 1
    problems = report["results"][0]["problems"]
    assert "TL990 does not fire on the fixture program" in problems
    assert "the TL990 fix did not change the fixture program" in problems


def test_a_crash_inside_the_fixer_is_named_among_the_problems(tmp_path, demo_rules, monkeypatch):
    from tests.conftest import UnsafeDemo

    def crash(self, node):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(UnsafeDemo, "make_fix", crash)
    _fixture(tmp_path, "crash", WRONG_FIX_PROGRAM, '[[equal]]\nobservables = ["value"]\n')
    result, report = _verify("--fixtures", str(tmp_path), "--device", "cpu", "--output-format", "json")
    problems = report["results"][0]["problems"]
    assert result.exit_code == 1
    assert "the TL990 fix did not change the fixture program" in problems
    assert any(p.startswith("internal error in TL990: ") and "boom" in p for p in problems), problems


def test_expectations_and_crashes_are_failures(tmp_path, demo_rules):
    _fixture(
        tmp_path, "expect", WRONG_FIX_PROGRAM + "if demo_unsafe() == 1.5:\n    raise SystemExit(3)\n",
        '[[expect]]\nrun = "before"\nvalues = { value = 2.0 }\n',
    )
    result = CliRunner().invoke(main, ["verify", "--fixtures", str(tmp_path), "--device", "cpu"])
    assert result.exit_code == 1
    assert "run before: `value` is 1.0, expected 2.0" in result.stdout
    assert "run after exited 3" in result.stdout
    assert "0 passed, 1 failed" in result.stdout


ABORTING_PROGRAM = (
    "import os\nfrom pathlib import Path\n"
    "from torchlint.verify.harness import init_distributed, record\n\n"
    "rank, world = init_distributed()\n"
    "marker = Path(os.environ['TL_TEST_ABORT_MARKER'])\n"
    "if world > 1 and rank == 0 and (os.environ.get('TL_TEST_ALWAYS_ABORT') or not marker.exists()):\n"
    "    marker.write_text('aborted')\n    os.abort()\n\n"
    "def demo_unsafe():\n    return 1.0\n\n"
    "def demo_safe():\n    return 1.0\n\n"
    "record(value=demo_unsafe())\n"
)
TWO_PROCESS_CONTRACT = (
    '[runs.before]\nprogram = "before"\n[runs.after]\nprogram = "after"\n'
    '[runs.after_2_processes]\nprogram = "after"\nprocesses = 2\n'
    '[[equal]]\nruns = ["before", "after_2_processes"]\nobservables = ["value"]\n'
)


def test_a_multi_process_run_a_signal_killed_is_made_once_more(tmp_path, demo_rules, monkeypatch):
    """A rank aborted once (as gloo does now and then on a loaded machine): the run is made again
    and passes, the first try's log kept; a rank that aborts every time fails the case."""
    monkeypatch.setenv("TL_TEST_ABORT_MARKER", str(tmp_path / "aborted-once"))
    _fixture(tmp_path / "fixtures", "aborts", ABORTING_PROGRAM, TWO_PROCESS_CONTRACT)
    kept = tmp_path / "kept"
    result, report = _verify("--fixtures", str(tmp_path / "fixtures"), "--device", "cpu", "--output-format", "json",
                             "--keep", str(kept))
    assert (tmp_path / "aborted-once").exists()
    assert report["results"][0]["verdict"] == "pass" and result.exit_code == 0, report
    [first_try] = kept.rglob("first-try.log")
    assert "SIGABRT" in first_try.read_text()
    monkeypatch.setenv("TL_TEST_ALWAYS_ABORT", "1")
    result, report = _verify("--fixtures", str(tmp_path / "fixtures"), "--device", "cpu", "--output-format", "json")
    [case] = report["results"]
    assert result.exit_code == 1 and case["verdict"] == "fail"
    assert any("run after_2_processes exited" in problem and "SIGABRT" in problem for problem in case["problems"])


def test_cuda_unavailable_is_exit_2(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    for device in ("cuda", "all"):
        result = CliRunner().invoke(main, ["verify", "--device", device])
        assert result.exit_code == 2
        assert "sees no CUDA device" in result.stderr


def test_without_torch_verify_says_how_to_install(tmp_path):
    code = (
        "import sys\nsys.modules['torch'] = None\n"
        "from torchlint.cli import main\nmain(['verify', '--device', 'cpu'])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2
    assert "torchlint verify needs torch: pip install 'torchlint[verify]'" in result.stderr


def test_unknown_select_is_exit_2():
    result = CliRunner().invoke(main, ["verify", "--select", "TL404"])
    assert result.exit_code == 2 and "unknown rule code" in result.stderr
