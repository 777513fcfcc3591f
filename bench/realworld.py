"""Real-world precision run: every rule over real PyTorch code, crashes, fixes that compile.

    python bench/realworld.py [--select CODES] [--preview] [--no-fix] [--sample N]
                              [--triage docs/triage-sample.md]

Installs pinned releases of PyTorch-using packages with --no-deps into throwaway venvs (their
sources only), adds the installed torch package's own .py files, and runs
`torchlint check --output-format json --select ALL` over each (`--select CODES` limits the run to
those rules, `--preview` passes `--preview` so rules in preview run too). It prints, per package
and per rule: files, findings, crashes (internal errors: any exception inside a rule) and wall
time. Then, unless --no-fix, it runs `--fix --unsafe-fixes` (same selection) on a copy of every
package and checks that each changed file still compiles (when it compiled before) and that a
second `--fix` changes nothing. With --triage it writes every finding of each rule (or a seeded
random sample of --sample findings, default 30) with its source, for reading.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import random
import re
import shutil
import subprocess
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import WORK, log, package_corpus, python_files, torch_corpus  # noqa: E402

PACKAGES = {
    "transformers==5.23.0": ["transformers"],
    "timm==1.0.31": ["timm"],
    "torchvision==0.29.1": ["torchvision"],
    "lightning==2.6.1": ["lightning"],
    "accelerate==1.15.0": ["accelerate"],
    "diffusers==0.42.1": ["diffusers"],
    "torchaudio==2.11.0": ["torchaudio"],
}
SAMPLE = 30
INTERNAL_ERROR = re.compile(r"internal error in (TL\d+)")
SELECTION = ["--select", "ALL"]


def run_torchlint(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess, float]:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "torchlint", "check", *SELECTION, "--no-cache", *args],
        cwd=cwd, capture_output=True, text=True,
    )
    return result, time.perf_counter() - started


def compiles(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in python_files(folder)}


def fix_check(name: str, root: Path) -> dict:
    """Fix a copy; the changed files must still compile and a second fix must change nothing."""
    copy = WORK / "fixed" / name
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(root, copy)
    before = {str(p.relative_to(copy)): p.read_text(encoding="utf-8", errors="replace") for p in python_files(copy)}
    first, _ = run_torchlint("--fix", "--unsafe-fixes", "--exit-zero", "--output-format", "concise", ".", cwd=copy)
    after_first = digest(copy)
    changed = [path for path, text in before.items() if hashlib.sha256(text.encode()).hexdigest() != after_first[path]]
    broken = [path for path in changed if compiles(before[path]) and not compiles((copy / path).read_text())]
    run_torchlint("--fix", "--unsafe-fixes", "--exit-zero", "--output-format", "concise", ".", cwd=copy)
    second_changes = [path for path, value in digest(copy).items() if after_first.get(path) != value]
    return {
        "changed": len(changed), "do_not_compile": broken, "changed_by_second_fix": second_changes,
        "refused": first.stderr.count("does not parse"), "crashes": INTERNAL_ERROR.findall(first.stderr),
    }


def corpora() -> dict[str, Path]:
    found = {"torch": torch_corpus()}
    for requirement, top_level in PACKAGES.items():
        name = requirement.split("==")[0]
        try:
            found[name] = package_corpus(requirement, top_level)
        except subprocess.CalledProcessError:
            log(f"{requirement} is not available here; skipped")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--triage", type=Path, help="write the findings to read (all, or --sample per rule)")
    parser.add_argument("--sample", type=int, default=SAMPLE, help="findings shown per rule in --triage")
    parser.add_argument("--select", default="ALL", help="the rules to run (comma-separated codes; default ALL)")
    parser.add_argument("--preview", action="store_true", help="pass --preview: rules in preview run too")
    parser.add_argument("--no-fix", action="store_true", help="skip the --fix phase")
    options = parser.parse_args()
    SELECTION[:] = ["--select", options.select, *(["--preview"] if options.preview else [])]
    WORK.mkdir(parents=True, exist_ok=True)
    rows, per_rule, everything, fixes = [], Counter(), [], {}
    for name, root in corpora().items():
        files = python_files(root)
        result, seconds = run_torchlint("--output-format", "json", "--exit-zero", ".", cwd=root)
        findings = json.loads(result.stdout or "[]")
        crashes = INTERNAL_ERROR.findall(result.stderr)
        for finding in findings:
            finding["package"], finding["root"] = name, str(root)
        everything.extend(findings)
        codes = Counter(f["code"] for f in findings)
        per_rule.update(codes)
        rows.append((name, len(files), len(findings), len(crashes), seconds, codes))
        log(f"{name}: {len(files)} files, {len(findings)} findings, {len(crashes)} crashes, {seconds:.1f} s")
        if not options.no_fix:
            fixes[name] = fix_check(name, root)
    print(render(rows, per_rule, fixes))
    (WORK / "findings.json").write_text(json.dumps(everything, indent=1))
    if options.triage:
        options.triage.write_text(triage(everything, options.sample))
        log(f"wrote {options.triage}")


def render(rows, per_rule: Counter, fixes: dict) -> str:
    codes = sorted(per_rule)
    out = ["| package | files | findings | crashes | wall (s) | " + " | ".join(codes) + " |",
           "| --- | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in codes) + " |"]
    for name, files, findings, crashes, seconds, by_code in rows:
        out.append(f"| {name} | {files} | {findings} | {crashes} | {seconds:.1f} | "
                   + " | ".join(str(by_code.get(code, 0)) for code in codes) + " |")
    out += ["", "| package | files changed by --fix --unsafe-fixes | changed files that no longer compile | "
            "changed by a second --fix | fixes refused | crashes while fixing |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, result in fixes.items():
        out.append(f"| {name} | {result['changed']} | {len(result['do_not_compile'])} | "
                   f"{len(result['changed_by_second_fix'])} | {result['refused']} | {len(result['crashes'])} |")
    return "\n".join(out)


def triage(findings: list[dict], sample: int = SAMPLE) -> str:
    rng = random.Random(0)
    out = ["# Findings to triage", ""]
    for code in sorted({f["code"] for f in findings}):
        of_rule = [f for f in findings if f["code"] == code]
        chosen = of_rule if len(of_rule) <= sample else rng.sample(of_rule, sample)
        out += [f"## {code}: {len(of_rule)} findings, {len(chosen)} shown", ""]
        for number, finding in enumerate(sorted(chosen, key=lambda f: (f["package"], f["path"], f["line"])), 1):
            lines = (Path(finding["root"]) / finding["path"]).read_text(errors="replace").splitlines()
            start = max(0, finding["line"] - 4)
            context = "\n".join(lines[start : finding["line"] + 2])
            out += [f"### {code}-{number}: {finding['package']}/{finding['path']}:{finding['line']}",
                    "```python", context, "```", ""]
    return "\n".join(out)


if __name__ == "__main__":
    main()
