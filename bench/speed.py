"""Speed benchmark: torchlint against TorchFix and ruff on the same files, in one run.

    python bench/speed.py [--write docs/performance.md]

Builds the corpus (the installed torch package's .py files, and transformers' sources installed
with --no-deps into a throwaway venv), installs TorchFix and ruff into venvs of their own, then
times each tool as a whole process: torchlint cold (every rule, --no-cache) and warm (the second
run, with the cache), TorchFix (on a fixed subset: the whole corpus takes it about 20 minutes;
torchlint is timed on the same subset), and `ruff check --select ALL --no-cache`. It prints a
table of wall time, CPU time, peak RSS and files/s with ratios against torchlint, the growth of
torchlint's wall time with 25/50/100% of the files, and one small file end to end.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import WORK, log, make_venv, package_corpus, python_files, python_of, torch_corpus  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TRANSFORMERS = "transformers==5.23.0"
TORCHFIX = "torchfix==0.7.0"
RUFF = "ruff==0.17.5"
TORCHFIX_SUBSET = 150  # files: TorchFix needs about half a second per file


@dataclass
class Timing:
    label: str
    files: int
    wall: float
    cpu: float
    peak_rss_mb: float
    stderr: str = ""

    @property
    def files_per_second(self) -> float:
        return self.files / self.wall if self.wall else float("inf")


def timed(label: str, command: list[str], files: int, cwd: Path) -> Timing:
    """Run a whole process under GNU time (wall, CPU of it and its children, peak RSS)."""
    report = WORK / "time.txt"
    started = time.perf_counter()
    finished = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S %M", "-o", str(report), *command],
        cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    wall = time.perf_counter() - started
    user, system, rss_kb = report.read_text().split()[-3:]
    return Timing(label, files, wall, float(user) + float(system), int(rss_kb) / 1024, finished.stderr)


def index_share(run: Timing) -> str:
    """The project index's part of a `-v` run, from the line torchlint prints."""
    found = re.search(r"project index: (\d+) modules in ([0-9.]+) s", run.stderr)
    if found is None:
        return "project index: not reported"
    seconds = float(found.group(2))
    return (f"Project index ({found.group(1)} modules summarised, cold): {seconds:.2f} s of "
            f"{run.wall:.2f} s wall ({seconds / run.wall:.0%}).")


def file_list(paths: list[Path], name: str) -> Path:
    listing = WORK / f"{name}.txt"
    listing.write_text("\n".join(str(p) for p in paths) + "\n")
    return listing


def subset_folder(paths: list[Path], root: Path, name: str) -> Path:
    """Copy `paths` (below `root`) into a folder of their own, so every tool gets a folder."""
    folder = WORK / "subsets" / name
    if folder.exists():
        shutil.rmtree(folder)
    for path in paths:
        target = folder / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return folder


def torchlint(*args: str) -> list[str]:
    return [sys.executable, "-m", "torchlint", "check", "--select", "ALL", "--exit-zero", *args]


def table(rows: list[Timing], reference: Timing) -> str:
    lines = [
        "| run | files | wall (s) | CPU (s) | peak RSS (MB) | files/s | wall vs torchlint |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        ratio = row.wall / reference.wall
        lines.append(
            f"| {row.label} | {row.files} | {row.wall:.2f} | {row.cpu:.2f} | {row.peak_rss_mb:.0f} | "
            f"{row.files_per_second:.0f} | {ratio:.2f}x |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", type=Path, help="also write the results as markdown to this file")
    parser.add_argument("--skip-torchfix", action="store_true", help="leave TorchFix out (it needs PyPI)")
    options = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)

    # A regular `pip install` byte-compiles the package; an editable checkout under
    # PYTHONDONTWRITEBYTECODE would otherwise recompile torchlint at every start.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "torchlint"), str(REPO / "rules")],
                   check=True, stdout=subprocess.DEVNULL)
    log("building the corpus")
    torch_root = torch_corpus()
    torch_files = python_files(torch_root)
    transformers_root = package_corpus(TRANSFORMERS, ["transformers"])
    transformers_files = python_files(transformers_root)
    log("installing ruff and TorchFix")
    ruff = python_of(make_venv("ruff", [RUFF])).parent / "ruff"
    torchfix = None if options.skip_torchfix else python_of(make_venv("torchfix", [TORCHFIX])).parent / "torchfix"
    cache = WORK / "cache"
    jobs = str(os.cpu_count() or 1)

    sections = []
    for name, root, files in (("torch", torch_root, torch_files), ("transformers", transformers_root, transformers_files)):
        log(f"timing {name}: {len(files)} files")
        shutil.rmtree(cache, ignore_errors=True)
        cold = timed(f"torchlint cold (`--no-cache`)", torchlint("--no-cache", "-v", "-j", jobs, "."), len(files), root)
        timed("prime", torchlint("--cache-dir", str(cache), "-j", jobs, "."), len(files), root)
        warm = timed("torchlint warm (cache, nothing changed)", torchlint("--cache-dir", str(cache), "-j", jobs, "."), len(files), root)
        one = next((p for p in files if p.name == "linear.py" and p.parent.name == "modules"), files[0])
        one_file = timed(f"one file of the tree, warm cache ({one.relative_to(root)})",
                         torchlint("--cache-dir", str(cache), str(one.relative_to(root))), 1, root)
        ruff_run = timed("ruff `check --select ALL --no-cache`", [str(ruff), "check", "--select", "ALL", "--no-cache", "--exit-zero", "--quiet", "."], len(files), root)
        rows = [cold, warm, one_file, ruff_run]
        if torchfix is not None and name == "torch":
            step = max(1, len(files) // TORCHFIX_SUBSET)
            subset = files[::step][:TORCHFIX_SUBSET]
            folder = subset_folder(subset, root, "torchfix-subset")
            log(f"TorchFix on {len(subset)} files")
            rows.append(timed(f"torchlint cold, TorchFix subset", torchlint("--no-cache", "-j", jobs, "."), len(subset), folder))
            rows.append(timed(f"TorchFix, same subset", [str(torchfix), "--select", "ALL", "."], len(subset), folder))
        sections.append((name, len(files), sum(p.stat().st_size for p in files), rows, cold))

    log("scaling and start-up")
    scaling = []
    for share in (0.25, 0.5, 1.0):
        count = max(1, int(len(torch_files) * share))
        folder = subset_folder(torch_files[:: max(1, round(1 / share))][:count], torch_root, f"share-{int(share * 100)}")
        files = python_files(folder)
        scaling.append(timed(f"{int(share * 100)}% of torch", torchlint("--no-cache", "-j", jobs, "."), len(files), folder))
    small = timed("one small file (examples/train.py)", torchlint("--no-cache", "examples/train.py"), 1, REPO)

    text = render(sections, scaling, small, jobs)
    print(text)
    if options.write:
        options.write.write_text(text)
        log(f"wrote {options.write}")


def render(sections, scaling, small: Timing, jobs: str) -> str:
    import torch  # noqa: F401  (its version is part of the record)

    out = [
        "# Performance",
        "",
        f"Produced by `python bench/speed.py --write docs/performance.md` on {datetime.date.today()}, "
        f"{platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"torch {sys.modules['torch'].__version__}; torchlint runs with `--select ALL -j {jobs}`. "
        "Every number is one whole-process run in the same session; ratios are wall time over torchlint's "
        "cold wall time on the same files. torchlint is byte-compiled first, as `pip install` does.",
        "",
    ]
    for name, count, size, rows, cold in sections:
        out += [f"## {name} ({count} files, {size / 1e6:.1f} MB)", "", table(rows, cold), "", index_share(cold), ""]
        torchfix_rows = [row for row in rows if row.label.startswith("TorchFix")]
        if torchfix_rows:
            mine = next(row for row in rows if row.label.startswith("torchlint cold, TorchFix"))
            out += [f"On the TorchFix subset, torchlint is {torchfix_rows[0].wall / mine.wall:.0f}x faster (wall).", ""]
    out += ["## Growth with the corpus (torch)", "", table(scaling, scaling[-1]), "",
            "## One small file, end to end", "", table([small], small), "",
            "## Against the targets", "", targets(sections, small), "", HOW_IT_IS_FAST, ""]
    return "\n".join(out)


def targets(sections, small: Timing) -> str:
    """The targets of the speed issue, met or not, from this run's numbers."""
    _, _, _, rows, cold = sections[0]  # torch
    ruff = next(row for row in rows if row.label.startswith("ruff"))
    warm = next(row for row in rows if row.label.startswith("torchlint warm"))
    lines = ["| target (torch corpus) | this run | met |", "| --- | --- | --- |"]
    torchfix = next((row for row in rows if row.label.startswith("TorchFix")), None)
    if torchfix is not None:
        mine = next(row for row in rows if row.label.startswith("torchlint cold, TorchFix"))
        speedup = torchfix.wall / mine.wall
        lines.append(f"| cold, every rule, at least 40x faster than TorchFix (same files) | {speedup:.0f}x "
                     f"({torchfix.wall:.1f} s vs {mine.wall:.2f} s on {mine.files} files) | {_met(speedup >= 40)} |")
    ratio = cold.wall / ruff.wall
    one_file = next(row for row in rows if row.label.startswith("one file of the tree"))
    lines.append(f"| cold, every rule, project index included, at most 1.5x ruff `--select ALL` | {ratio:.2f}x "
                 f"({cold.wall:.1f} s vs {ruff.wall:.1f} s) | {_met(ratio <= 1.5)} |")
    lines.append(f"| warm (nothing changed), no slower than before the index (1.2 s) | {warm.wall:.2f} s | "
                 f"{_met(warm.wall <= 1.2)} |")
    lines.append(f"| one file of the tree, warm cache, at most 0.5 s | {one_file.wall:.2f} s | {_met(one_file.wall <= 0.5)} |")
    lines.append(f"| one small file end to end, under 0.5 s | {small.wall:.2f} s | {_met(small.wall < 0.5)} |")
    peak = max(row.peak_rss_mb for _, _, _, rows_, _ in sections for row in rows_ if row.label.startswith("torchlint"))
    lines.append(f"| peak RSS under 500 MB per process | {peak:.0f} MB | {_met(peak < 500)} |")
    return "\n".join(lines)


def _met(condition: bool) -> str:
    return "yes" if condition else "no"


HOW_IT_IS_FAST = """Where the time goes: the project index first summarises every module with CPython's `ast`
(in the workers; cached per module by path, size and mtime, then content) and keeps a small
outline of each (its functions, imports and class lines). A file whose text the index summarised
is never parsed by CPython again (a file the index has not seen, or whose text differs, is checked
by CPython's parser, so a broken file is still TL000); a file no enabled rule's tokens appear in
needs no more work; for the others, the outline gives the import table and the functions, and
libcst parses the file without the bodies that hold none of the candidate rules' scope tokens
(parsed later only if an analysis reads them); one walk runs every rule; the cyclic collector
pauses per file. Measured in one process on the torch corpus (process time, 2026-11-23): 49 s in
all, of which the index's summaries and outlines 30%, libcst parsing 40% (about 15.5 MB of the
46: module-level code, class bodies, function headers and the bodies that hold a candidate's
token), the rule walk with the oracle 15%, positions of findings 2%.
`bench/equivalence.py` shows the findings are the same without each speed-up."""


if __name__ == "__main__":
    main()
