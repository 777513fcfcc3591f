"""`torchlint verify`: choose devices, run every fixture, print the table or the JSON report."""

from __future__ import annotations

import datetime
import os
import platform
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from importlib import resources
from pathlib import Path

from torchlint import __version__
from torchlint.verify.runner import CaseResult, discover, timed_fix, verify_fixture

INSTALL_HINT = "torchlint verify needs torch: pip install 'torchlint[verify]' (or pip install torch)"


class VerifyUsageError(Exception):
    """Exit 2: torch is missing, or a device that is not there was asked for."""


def require_torch():
    try:
        import torch
    except ImportError:
        raise VerifyUsageError(INSTALL_HINT) from None
    return torch


def resolve_devices(requested: str) -> list[str]:
    torch = require_torch()
    has_cuda = torch.cuda.is_available()
    if requested == "auto":
        return ["cpu", "cuda"] if has_cuda else ["cpu"]
    wanted = ["cpu", "cuda"] if requested == "all" else [requested]
    if "cuda" in wanted and not has_cuda:
        raise VerifyUsageError(
            f"--device {requested} asks for CUDA, but torch {torch.__version__} sees no CUDA device; "
            "use --device cpu (or auto)"
        )
    return wanted


def default_fixture_root() -> Path:
    return Path(str(resources.files("torchlint.fixtures")))


def default_jobs() -> int:
    return max(1, (os.cpu_count() or 2) // 2)


def run_all(root: Path, codes: set[str] | None, devices: list[str], jobs: int, keep: Path | None, progress) -> list[CaseResult]:
    from torchlint.runner import use_projects

    fixtures = discover(root, codes)
    use_projects(None)  # each fixture program is a project of its own, whatever ran before in this process
    workroot = Path(tempfile.mkdtemp(prefix="torchlint-verify-"))
    try:
        # The fixes take milliseconds and are made here, one after another, as `check --fix` makes
        # them; only the fixture programs, which take seconds, run side by side.
        folders = [workroot / fixture.code / fixture.case for fixture in fixtures]
        fixes = [timed_fix(fixture, folder) for fixture, folder in zip(fixtures, folders)]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {
                pool.submit(verify_fixture, fixture, devices, folder, *fix): fixture
                for fixture, folder, fix in zip(fixtures, folders, fixes)
            }
            results = []
            for future in as_completed(futures):
                results.extend(future.result())
                progress(futures[future])
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copytree(workroot, keep, dirs_exist_ok=True)
        return sorted(results, key=lambda r: (r.code, r.case, r.device))
    finally:
        shutil.rmtree(workroot, ignore_errors=True)


def environment() -> dict:
    torch = require_torch()
    devices = {"cpu": platform.processor() or platform.machine()}
    if torch.cuda.is_available():
        devices["cuda"] = torch.cuda.get_device_name(0)
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "torchlint": __version__,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "device_names": devices,
    }


def report(results: list[CaseResult], devices: list[str]) -> dict:
    return {
        **environment(),
        "devices": devices,
        "passed": all(result.passed for result in results) and bool(results),
        "results": [result.to_json() for result in results],
    }


def print_table(results: list[CaseResult], stream=None) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(header_style="bold")
    for column in ("rule", "case", "device", "verdict", "largest difference", "seconds"):
        table.add_column(column, justify="right" if column in ("largest difference", "seconds") else "left")
    for result in results:
        verdict = {"pass": "[green]pass[/green]", "skip": "[yellow]skip[/yellow]", "fail": "[red]FAIL[/red]"}[result.verdict]
        difference = "-" if result.largest_difference is None else f"{result.largest_difference:.3g}"
        table.add_row(result.code, result.case, result.device, verdict, difference, f"{result.seconds:.1f}")
    console = Console(file=stream or sys.stdout, highlight=False)
    if not console.is_terminal:
        console.width = 200
    console.print(table)
    for result in results:
        for problem in result.problems:
            console.print(f"[red]{result.code}/{result.case} ({result.device}):[/red] {problem}", markup=True)
        if result.skipped:
            console.print(f"[yellow]{result.code}/{result.case} ({result.device}):[/yellow] {result.skipped}", markup=True)
    passed = sum(result.verdict == "pass" for result in results)
    skipped = sum(result.verdict == "skip" for result in results)
    failed = len(results) - passed - skipped
    console.print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
