"""Fixes proven on realistic programs.

Each folder in tests/programs/ is a small training or evaluation program (synthetic data, CPU, a
few seconds) holding the rules' patterns in the shapes real repositories use, with a manifest,
`program.toml`. For each program the suite copies it twice, runs torchlint's real fixer
(`check --fix --unsafe-fixes --no-cache .`) on one copy, runs both copies, and asserts:

- the findings of TL001-TL008 are exactly the manifest's `[[finding]]` entries (with the fix
  kind named there), and none of its `[[silent]]` look-alikes fire;
- the fixes were applied, only the findings without a fix remain, and a second `--fix` changes
  nothing;
- both copies exit 0 and print the same observables (every `name: value` line), within the
  manifest's tolerance, except those named in `[[expect]]`: there the documented difference of
  a fix is the point, and the values before and after are asserted.

The programs run in parallel subprocesses, started once for the programs the session selected.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import tomllib
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from torchlint.verify.compare import largest_difference

PROGRAMS_ROOT = Path(__file__).parent / "programs"
MANIFEST = "program.toml"
CORE_RULES = frozenset(f"TL00{n}" for n in range(1, 9))
FIX_KINDS = ("safe", "unsafe", "none")
RUN_TIMEOUT_SECONDS = 120
ZYGOTE = PROGRAMS_ROOT / "zygote.py"
OBSERVABLE = re.compile(r"^([A-Za-z_][\w.\-\[\]]*): (.*)$")


@dataclass(frozen=True)
class ExpectedFinding:
    code: str
    path: str
    at: str
    fix: str = "none"
    optional: bool = False
    why: str = ""


@dataclass(frozen=True)
class Expect:
    run: str
    values: dict


@dataclass(frozen=True)
class Manifest:
    name: str
    folder: Path
    description: str
    run: tuple[str, ...]
    tolerance: float
    findings: tuple[ExpectedFinding, ...]
    silent: tuple[ExpectedFinding, ...]
    expects: tuple[Expect, ...]

    @property
    def expected_names(self) -> set[str]:
        return {name for expect in self.expects for name in expect.values}


class ManifestError(ValueError):
    pass


def _only_keys(table: dict, allowed: set[str], where: str) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise ManifestError(f"{where}: unknown keys {sorted(unknown)}")


def _finding(table: dict, where: str, folder: Path) -> ExpectedFinding:
    _only_keys(table, {"code", "path", "at", "fix", "optional", "why"}, where)
    finding = ExpectedFinding(**table)
    if finding.code not in CORE_RULES:
        raise ManifestError(f"{where}: {finding.code} is not one of TL001-TL008")
    if finding.fix not in FIX_KINDS:
        raise ManifestError(f"{where}: fix must be one of {FIX_KINDS}")
    source = folder / finding.path
    if not source.is_file() or finding.at not in source.read_text(encoding="utf-8"):
        raise ManifestError(f"{where}: {finding.at!r} does not occur in {finding.path}")
    return finding


def load_manifest(folder: Path) -> Manifest:
    table = tomllib.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    where = f"{folder.name}/{MANIFEST}"
    _only_keys(table, {"description", "run", "tolerance", "finding", "silent", "expect"}, where)
    expects = []
    for index, expect in enumerate(table.get("expect", [])):
        _only_keys(expect, {"run", "values"}, f"{where} [[expect]] {index}")
        if expect.get("run") not in ("before", "after"):
            raise ManifestError(f"{where} [[expect]] {index}: run must be 'before' or 'after'")
        expects.append(Expect(expect["run"], dict(expect["values"])))
    manifest = Manifest(
        name=folder.name,
        folder=folder,
        description=table["description"],
        run=tuple(table["run"]),
        tolerance=float(table.get("tolerance", 0.0)),
        findings=tuple(
            _finding(entry, f"{where} [[finding]] {i}", folder) for i, entry in enumerate(table.get("finding", []))
        ),
        silent=tuple(
            _finding(entry, f"{where} [[silent]] {i}", folder) for i, entry in enumerate(table.get("silent", []))
        ),
        expects=tuple(expects),
    )
    missing = [script for script in manifest.run if not (folder / script).is_file()]
    if not manifest.run or missing:
        raise ManifestError(f"{where}: run names no script, or missing ones: {missing}")
    return manifest


def program_folders() -> list[Path]:
    return sorted(folder for folder in PROGRAMS_ROOT.iterdir() if (folder / MANIFEST).is_file())


# -- running ------------------------------------------------------------------------------------


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str

    def tail(self, lines: int = 25) -> str:
        return "\n".join((self.stdout + self.stderr).splitlines()[-lines:])


def _environment() -> dict[str, str]:
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("TORCHLINT_CACHE_DIR", None)
    return env


def torchlint(folder: Path, *flags: str) -> Completed:
    command = [sys.executable, "-m", "torchlint", "check", "--no-cache", *flags, "."]
    done = subprocess.run(
        command, cwd=folder, env=_environment(), capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS
    )
    return Completed(done.returncode, done.stdout, done.stderr)


def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


@dataclass
class _PendingRun:
    done: threading.Event = field(default_factory=threading.Event)
    returncode: int | None = None


class ProgramRunner:
    """Runs a program's scripts in a fresh process forked from tests/programs/zygote.py, which has
    imported torch once (a fresh `python script.py` spends most of a small program's time there)."""

    def __init__(self, log: Path):
        self._log_path = log
        self._log = log.open("wb")
        self._process = subprocess.Popen(
            [sys.executable, str(ZYGOTE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=_environment(),
        )
        self._lock = threading.Lock()
        self._pending: dict[int, _PendingRun] = {}
        threading.Thread(target=self._read_replies, daemon=True).start()

    def _read_replies(self) -> None:
        for line in self._process.stdout:
            reply = json.loads(line)
            pending = self._pending[reply["id"]]
            pending.returncode = reply["returncode"]
            pending.done.set()
        for pending in self._pending.values():  # the runner is gone: nobody waits forever
            pending.done.set()

    def run(self, folder: Path, scripts: tuple[str, ...], outputs: Path) -> Completed:
        stdout, stderr = outputs.with_suffix(".stdout"), outputs.with_suffix(".stderr")
        with self._lock:
            request_id = len(self._pending)
            pending = self._pending[request_id] = _PendingRun()
            request = {
                "id": request_id,
                "cwd": str(folder),
                "scripts": list(scripts),
                "stdout": str(stdout),
                "stderr": str(stderr),
                "timeout": RUN_TIMEOUT_SECONDS,
            }
            self._process.stdin.write((json.dumps(request) + "\n").encode())
            self._process.stdin.flush()
        pending.done.wait(RUN_TIMEOUT_SECONDS + 10)
        if pending.returncode is None:
            return Completed(-1, "", f"the program runner gave no answer; see {self._log_path}")
        return Completed(pending.returncode, _read_text(stdout), _read_text(stderr))

    def close(self) -> None:
        self._process.stdin.close()
        self._process.wait(timeout=30)
        self._log.close()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@dataclass
class Outcome:
    """Everything one program's run produced; the tests only read it."""

    original: dict[str, bytes]
    findings: list[dict]
    findings_run: Completed
    fix: Completed
    fixed: dict[str, bytes]
    second_fix: Completed
    after_second_fix: dict[str, bytes]
    remaining: list[dict]
    before: Completed
    after: Completed


def _json_findings(completed: Completed) -> list[dict]:
    try:
        return json.loads(completed.stdout)
    except json.JSONDecodeError:
        return []


def run_program(manifest: Manifest, workdir: Path, runner: ProgramRunner) -> Outcome:
    original_copy = workdir / "before"
    fixed_copy = workdir / "after"
    shutil.copytree(manifest.folder, original_copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(manifest.folder, fixed_copy, ignore=shutil.ignore_patterns("__pycache__"))
    original = snapshot(fixed_copy)
    findings_run = torchlint(fixed_copy, "--unsafe-fixes", "--output-format", "json")
    fix = torchlint(fixed_copy, "--fix", "--unsafe-fixes")
    fixed = snapshot(fixed_copy)
    second_fix = torchlint(fixed_copy, "--fix", "--unsafe-fixes", "--output-format", "json")
    after_second_fix = snapshot(fixed_copy)
    return Outcome(
        original=original,
        findings=_json_findings(findings_run),
        findings_run=findings_run,
        fix=fix,
        fixed=fixed,
        second_fix=second_fix,
        after_second_fix=after_second_fix,
        remaining=_json_findings(second_fix),
        before=runner.run(original_copy, manifest.run, workdir / "before"),
        after=runner.run(fixed_copy, manifest.run, workdir / "after"),
    )


# -- comparing ----------------------------------------------------------------------------------


def parse_value(text: str):
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text.strip()
    return _lists(value)


def _lists(value):
    if isinstance(value, (tuple, list)):
        return [_lists(item) for item in value]
    if isinstance(value, dict):
        return {key: _lists(item) for key, item in value.items()}
    return value


def observables(stdout: str) -> dict[str, list]:
    """Every `name: value` line of the output; a name printed several times keeps every value."""
    found: dict[str, list] = {}
    for line in stdout.splitlines():
        match = OBSERVABLE.match(line)
        if match:
            found.setdefault(match[1], []).append(parse_value(match[2]))
    return found


def differences(before: dict[str, list], after: dict[str, list], tolerance: float, skip: set[str]) -> list[str]:
    problems = []
    for name in sorted((before.keys() | after.keys()) - skip):
        if name not in before or name not in after:
            problems.append(f"{name}: printed only {'before' if name in before else 'after'} the fix")
            continue
        distance = largest_difference(before[name], after[name])
        if distance > tolerance:
            problems.append(f"{name}: {before[name]!r} before, {after[name]!r} after (difference {distance})")
    return problems


def unmet_expectations(expects: tuple[Expect, ...], printed: dict[str, dict[str, list]]) -> list[str]:
    problems = []
    for expect in expects:
        for name, wanted in expect.values.items():
            values = printed[expect.run].get(name)
            if values is None:
                problems.append(f"{expect.run}: {name} was not printed")
            elif any(largest_difference(value, _lists(wanted)) != 0 for value in values):
                problems.append(f"{expect.run}: {name} is {values!r}, expected {wanted!r}")
    return problems


def finding_line(finding: dict, files: dict[str, bytes]) -> str:
    lines = files[finding["path"].removeprefix("./")].decode("utf-8").splitlines()
    return lines[finding["line"] - 1] if 0 < finding["line"] <= len(lines) else ""


def fix_kind(finding: dict) -> str:
    return finding["fix"]["applicability"] if finding.get("fix") else "none"


def matches(expected: ExpectedFinding, finding: dict, files: dict[str, bytes]) -> bool:
    return (
        finding["code"] == expected.code
        and finding["path"].removeprefix("./") == expected.path
        and expected.at in finding_line(finding, files)
    )


def describe_finding(finding: dict, files: dict[str, bytes]) -> str:
    line = finding_line(finding, files).strip()
    return f"{finding['path']}:{finding['line']}: {finding['code']} (fix: {fix_kind(finding)}) at `{line}`"


def manifest_mismatches(manifest: Manifest, findings: list[dict], files: dict[str, bytes]) -> list[str]:
    """The TL001-TL008 findings against the manifest: unexpected ones, missing ones, wrong fix kinds."""
    core = [finding for finding in findings if finding["code"] in CORE_RULES]
    problems = []
    for finding in core:
        for silent in manifest.silent:
            if matches(silent, finding, files):
                problems.append(f"must not fire ({silent.why}): {describe_finding(finding, files)}")
        expected = [entry for entry in manifest.findings if matches(entry, finding, files)]
        if not expected and not any(matches(silent, finding, files) for silent in manifest.silent):
            problems.append(f"not in the manifest: {describe_finding(finding, files)}")
        elif expected and fix_kind(finding) != expected[0].fix:
            problems.append(f"expected fix {expected[0].fix} ({expected[0].why}): {describe_finding(finding, files)}")
    for entry in manifest.findings:
        if not entry.optional and not any(matches(entry, finding, files) for finding in core):
            problems.append(f"expected {entry.code} at `{entry.at}` in {entry.path} ({entry.why}), not reported")
    return problems


# -- the tests ----------------------------------------------------------------------------------

MANIFESTS = {folder.name: load_manifest(folder) for folder in program_folders()}


def _selected_programs(session) -> list[str]:
    names = []
    for item in session.items:
        callspec = getattr(item, "callspec", None)
        if item.module.__name__ == __name__ and callspec and "program" in callspec.params:
            names.append(callspec.params["program"])
    return sorted(set(names))


@pytest.fixture(scope="module")
def outcomes(request, tmp_path_factory) -> dict[str, Future]:
    names = _selected_programs(request.session)
    runner = ProgramRunner(tmp_path_factory.mktemp("runner") / "zygote.log")
    executor = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2))
    futures = {
        name: executor.submit(run_program, MANIFESTS[name], tmp_path_factory.mktemp(name), runner) for name in names
    }
    yield futures
    executor.shutdown(cancel_futures=True)
    runner.close()


def test_there_are_enough_programs_covering_every_rule():
    assert len(MANIFESTS) >= 12
    covered = {entry.code for manifest in MANIFESTS.values() for entry in (*manifest.findings, *manifest.silent)}
    assert covered == CORE_RULES


# The comparisons must be able to fail.

EXAMPLE_FILES = {"train.py": b"total += loss\nout = m.forward(x)\nlog.warning('x', exc_info=True)\n"}


def _example_manifest(**changes) -> Manifest:
    fields = dict(
        name="example",
        folder=PROGRAMS_ROOT,
        description="",
        run=("train.py",),
        tolerance=0.0,
        findings=(ExpectedFinding("TL003", "train.py", "total += loss", "safe"),),
        silent=(ExpectedFinding("TL005", "train.py", "m.forward(x)"),),
        expects=(),
    )
    return Manifest(**{**fields, **changes})


def _reported(code: str, line: int, fix: str | None) -> dict:
    return {"code": code, "path": "train.py", "line": line, "fix": fix and {"applicability": fix}}


def test_observables_are_the_name_value_lines():
    printed = observables("log: INFO start\nloss: 0.5\nloss: [1, 2.5]\nTraceback (most recent call last):\nok: True\n")
    assert printed == {"log": ["INFO start"], "loss": [0.5, [1, 2.5]], "ok": [True]}


def test_differences_report_changed_missing_and_tolerated_values():
    before = {"loss": [0.5, 0.25], "grad": [[1.0, 2.0]], "order": ["a"]}
    assert differences(before, before, 0.0, set()) == []
    assert differences(before, {**before, "loss": [0.5, 0.2500001]}, 1e-6, set()) == []
    assert len(differences(before, {**before, "loss": [0.5, 0.2500001]}, 0.0, set())) == 1
    assert len(differences(before, {**before, "grad": [[1.0]]}, 1.0, set())) == 1
    assert len(differences(before, {"loss": before["loss"], "grad": before["grad"]}, 0.0, set())) == 1
    assert differences(before, {**before, "order": ["b"]}, 0.0, {"order"}) == []


def test_expectations_are_checked_per_run():
    expects = (Expect("before", {"same": True}), Expect("after", {"same": False}))
    assert unmet_expectations(expects, {"before": {"same": [True]}, "after": {"same": [False]}}) == []
    assert len(unmet_expectations(expects, {"before": {"same": [True]}, "after": {"same": [True]}})) == 1
    assert len(unmet_expectations(expects, {"before": {"same": [True]}, "after": {}})) == 1


def test_manifest_mismatches_report_unexpected_missing_and_wrong_fixes():
    manifest = _example_manifest()
    expected = _reported("TL003", 1, "safe")

    def problems(*reported):
        return manifest_mismatches(manifest, list(reported), EXAMPLE_FILES)

    assert problems(expected) == []
    assert problems(expected, _reported("TL101", 2, "safe")) == []  # other rules are not the manifest's
    assert [problem.split(" (")[0] for problem in problems(_reported("TL003", 1, None))] == ["expected fix safe"]
    assert [problem.split(" ")[0:2] for problem in problems()] == [["expected", "TL003"]]
    assert [problem.split(" (")[0] for problem in problems(expected, _reported("TL005", 2, "safe"))] == [
        "must not fire"
    ]
    assert [problem.split(":")[0] for problem in problems(expected, _reported("TL004", 3, None))] == [
        "not in the manifest"
    ]
    optional = ExpectedFinding("TL003", "train.py", "total += loss", "safe", optional=True)
    assert manifest_mismatches(_example_manifest(findings=(optional,)), [], EXAMPLE_FILES) == []


def test_a_manifest_naming_text_absent_from_its_file_is_refused(tmp_path):
    (tmp_path / "train.py").write_text("print('loss:', 1)\n")
    (tmp_path / MANIFEST).write_text(
        'description = "d"\nrun = ["train.py"]\n[[finding]]\ncode = "TL003"\npath = "train.py"\nat = "total += loss"\n'
    )
    with pytest.raises(ManifestError, match="does not occur"):
        load_manifest(tmp_path)


def _no_problems(problems: list[str]) -> None:
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("program", sorted(MANIFESTS))
def test_findings_are_the_manifests(program, outcomes):
    manifest, outcome = MANIFESTS[program], outcomes[program].result()
    status = outcome.findings_run.returncode
    assert status in (0, 1), outcome.findings_run.tail()
    _no_problems(manifest_mismatches(manifest, outcome.findings, outcome.original))


@pytest.mark.parametrize("program", sorted(MANIFESTS))
def test_fixes_apply_and_a_second_fix_changes_nothing(program, outcomes):
    outcome = outcomes[program].result()
    status = outcome.fix.returncode
    assert status in (0, 1) and "error" not in outcome.fix.stderr, outcome.fix.tail()
    fixable = [describe_finding(f, outcome.original) for f in outcome.findings if f.get("fix")]
    changed = sorted(path for path in outcome.fixed if outcome.fixed[path] != outcome.original.get(path))
    assert bool(changed) == bool(fixable), f"files changed: {changed}; findings with a fix: {fixable}"
    remaining = sorted((f["path"], f["code"]) for f in outcome.remaining if f["code"] in CORE_RULES)
    unfixable = sorted((f["path"], f["code"]) for f in outcome.findings if f["code"] in CORE_RULES and not f.get("fix"))
    assert remaining == unfixable, "after --fix, only the findings without a fix remain"
    status = outcome.second_fix.returncode
    assert status in (0, 1), outcome.second_fix.tail()
    second_changed = sorted(path for path in outcome.fixed if outcome.after_second_fix.get(path) != outcome.fixed[path])
    assert second_changed == [], "a second --fix changed these files"


@pytest.mark.parametrize("program", sorted(MANIFESTS))
def test_the_fixed_program_prints_the_same(program, outcomes):
    manifest, outcome = MANIFESTS[program], outcomes[program].result()
    status = outcome.before.returncode
    assert status == 0, f"the original program failed:\n{outcome.before.tail()}"
    status = outcome.after.returncode
    assert status == 0, f"the fixed program failed:\n{outcome.after.tail()}"
    printed = {"before": observables(outcome.before.stdout), "after": observables(outcome.after.stdout)}
    assert printed["before"], "the program prints no observables"
    _no_problems(differences(printed["before"], printed["after"], manifest.tolerance, manifest.expected_names))
    _no_problems(unmet_expectations(manifest.expects, printed))
