"""Verifying one fixture on one device: fix a copy with torchlint's own fixer, run the programs,
compare what the contract names."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from torchlint.verify.compare import describe, largest_difference
from torchlint.verify.contract import Contract, Run, load_contract

PROGRAM = "program.py"
CONTRACT = "contract.toml"
RUN_TIMEOUT_SECONDS = 300


@dataclass(frozen=True)
class Fixture:
    code: str
    case: str
    path: Path

    @property
    def contract(self) -> Contract:
        return load_contract(self.path / CONTRACT)


@dataclass
class CaseResult:
    code: str
    case: str
    device: str
    passed: bool
    largest_difference: float | None
    seconds: float
    problems: list[str] = field(default_factory=list)
    # Why the programs were not run (a module the contract `requires` is missing); the fix itself
    # was still made and checked. A skipped case does not fail the run.
    skipped: str | None = None

    @property
    def verdict(self) -> str:
        return "fail" if not self.passed else "skip" if self.skipped else "pass"

    def to_json(self) -> dict:
        difference = self.largest_difference
        return {
            "rule": self.code,
            "case": self.case,
            "device": self.device,
            "verdict": self.verdict,
            "skipped": self.skipped,
            "largest_difference": difference if difference is None or difference != float("inf") else "inf",
            "seconds": round(self.seconds, 2),
            "problems": self.problems,
        }


def discover(root: Path, codes: set[str] | None = None) -> list[Fixture]:
    fixtures = []
    for contract in sorted(root.glob(f"*/*/{CONTRACT}")):
        case_dir = contract.parent
        code = case_dir.parent.name
        if codes is None or code in codes:
            fixtures.append(Fixture(code, case_dir.name, case_dir))
    return fixtures


@dataclass
class FixedProgram:
    before: str
    after: str | None
    problems: list[str]


def timed_fix(fixture: Fixture, workdir: Path) -> tuple[FixedProgram, float]:
    started = time.monotonic()
    fixed = fix_with_torchlint(fixture, workdir)
    return fixed, time.monotonic() - started


def fix_with_torchlint(fixture: Fixture, workdir: Path) -> FixedProgram:
    """Run the real fixer (`check --fix --unsafe-fixes --preview --select CODE`) on a copy of the program."""
    from torchlint.config import CliOverrides, ConfigResolver
    from torchlint.engine import lint_text
    from torchlint.runner import Mode, process_file

    copy = workdir / "fixed" / PROGRAM
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(fixture.path / PROGRAM, copy)
    before = copy.read_text(encoding="utf-8")
    overrides = CliOverrides(select=[fixture.code], unsafe_fixes=True, preview=True,
                             target_torch=fixture.contract.target_torch)
    settings = ConfigResolver(overrides, cwd=workdir).for_file(copy)
    problems = []
    if not any(d.code == fixture.code for d in lint_text(before, PROGRAM, settings.rules_for(copy), settings.lint_settings()).diagnostics):
        problems.append(f"{fixture.code} does not fire on the fixture program")
    outcome = process_file(PROGRAM, copy, settings, Mode(fix=True, unsafe_fixes=True))
    problems.extend(outcome.failures + outcome.errors)
    # A crash inside the fixer leaves the program unchanged: say why, not only that it did not change.
    problems.extend(f"internal error{f' in {error.code}' if error.code else ''}: {error.message}"
                    for error in outcome.internal_errors)
    if outcome.fixed_source is None:
        problems.append(f"the {fixture.code} fix did not change the fixture program")
        return FixedProgram(before, None, problems)
    remaining = [d for d in outcome.diagnostics if d.code == fixture.code]
    if remaining:
        problems.append(f"{fixture.code} still fires after the fix (line {remaining[0].line})")
    return FixedProgram(before, copy.read_text(encoding="utf-8"), problems)


def _command(run: Run) -> list[str]:
    if run.processes > 1:
        return [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nnodes=1",
                f"--nproc-per-node={run.processes}", PROGRAM]
    return [sys.executable, PROGRAM]


def run_program(source: str, fixture: Fixture, run: Run, device: str, workdir: Path) -> tuple[dict | None, str]:
    """Run one program in a fresh subprocess and folder; its recorded observables, or an error.

    A run of several processes that a signal killed is made once more: on a loaded machine the
    gloo transport now and then aborts a rank (SIGABRT) in a program that passes on every other
    try. A second failure is the verdict; the first one's report is kept in `first-try.log`."""
    values, error = _run_once(source, fixture, run, device, workdir)
    if values is None and run.processes > 1 and _SIGNALLED.search(error):
        first_log = workdir / f"{run.name}-{device}" / "output.log"
        first = first_log.read_text(encoding="utf-8") if first_log.exists() else error
        values, error = _run_once(source, fixture, run, device, workdir)
        (workdir / f"{run.name}-{device}" / "first-try.log").write_text(first, encoding="utf-8")
    return values, error


def _device_visibility(device: str) -> dict[str, str]:
    # A cpu run must see the machine a GPU-less user has: with a GPU visible, code such as
    # nn.DataParallel moves work to it by itself, and the run would prove nothing about the CPU.
    return {"CUDA_VISIBLE_DEVICES": ""} if device == "cpu" else {}


# How torchrun reports a rank a signal ended.
_SIGNALLED = re.compile(r"Signal \d+ \(SIG\w+\) received by PID")


def _run_once(source: str, fixture: Fixture, run: Run, device: str, workdir: Path) -> tuple[dict | None, str]:
    folder = workdir / f"{run.name}-{device}"
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(fixture.path, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / PROGRAM).write_text(source, encoding="utf-8")
    out = folder / "observables.json"
    env = {
        **os.environ,
        **_device_visibility(device),
        **run.env,
        "TORCHLINT_VERIFY_DEVICE": device,
        "TORCHLINT_VERIFY_OUT": str(out),
        "PYTHONHASHSEED": "0",
        "OMP_NUM_THREADS": "1",
    }
    try:
        completed = subprocess.run(
            _command(run), cwd=folder, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:
        return None, f"run {run.name} timed out after {RUN_TIMEOUT_SECONDS} s"
    (folder / "output.log").write_text(completed.stdout + completed.stderr, encoding="utf-8")
    if completed.returncode != 0:
        tail = (completed.stderr or completed.stdout).strip().splitlines()[-3:]
        return None, f"run {run.name} exited {completed.returncode}: {' | '.join(tail)}"
    if not out.exists():
        return None, f"run {run.name} recorded no observables"
    return json.loads(out.read_text(encoding="utf-8")), ""


def compare(contract: Contract, device: str, observed: dict[str, dict]) -> tuple[list[str], float | None]:
    problems: list[str] = []
    largest: float | None = None
    for equal in contract.equal:
        if device not in equal.devices:
            continue
        first, second = (observed.get(name) for name in equal.runs)
        if first is None or second is None:
            continue  # the run's own failure is already reported
        for name in equal.observables:
            if name not in first or name not in second:
                problems.append(f"`{name}` was not recorded by run {equal.runs[0] if name not in first else equal.runs[1]}")
                continue
            difference = largest_difference(first[name], second[name])
            largest = difference if largest is None else max(largest, difference)
            if difference > equal.tolerance:
                problems.append(
                    f"`{name}` differs between {equal.runs[0]} and {equal.runs[1]} by {difference:g} "
                    f"(tolerance {equal.tolerance:g})"
                )
    for expect in contract.expect:
        values = observed.get(expect.run)
        if device not in expect.devices or values is None:
            continue
        for name, wanted in expect.values.items():
            if name not in values:
                problems.append(f"`{name}` was not recorded by run {expect.run}")
            elif largest_difference(values[name], wanted) != 0:
                problems.append(f"run {expect.run}: `{name}` is {describe(values[name])}, expected {describe(wanted)}")
    return problems, largest


def _missing_requirement(contract: Contract) -> str | None:
    import importlib.util

    missing = [name for name in contract.requires if importlib.util.find_spec(name) is None]
    return f"skipped: {', '.join(missing)} not installed (the fix was made and checked)" if missing else None


def verify_fixture(fixture: Fixture, devices: list[str], workdir: Path, fixed: FixedProgram,
                   fix_seconds: float) -> list[CaseResult]:
    """Every applicable device for one fixture, running the programs before and after `fixed` (the
    fix made beforehand, once for all devices, in `fix_seconds`)."""
    contract = fixture.contract
    results = []
    for device in devices:
        if device not in contract.devices:
            continue
        started = time.monotonic()
        problems = list(fixed.problems)
        observed: dict[str, dict] = {}
        skipped = _missing_requirement(contract)
        if skipped and not problems:
            results.append(CaseResult(fixture.code, fixture.case, device, True, None,
                                      time.monotonic() - started + fix_seconds, [], skipped))
            continue
        if fixed.after is not None:
            for run in contract.runs_on(device):
                source = fixed.before if run.program == "before" else fixed.after
                values, error = run_program(source, fixture, run, device, workdir)
                if error:
                    problems.append(error)
                else:
                    observed[run.name] = values
        compared, largest = compare(contract, device, observed) if fixed.after is not None else ([], None)
        problems.extend(compared)
        seconds = time.monotonic() - started + fix_seconds
        results.append(CaseResult(fixture.code, fixture.case, device, not problems, largest, seconds, problems))
    return results
