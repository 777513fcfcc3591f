"""Every speed-up keeps every finding and every fix, on real code.

    python bench/equivalence.py [--write docs/equivalence.md] [--jobs N]

Over the corpora of bench/realworld.py (the installed torch package's sources and pinned releases
of seven PyTorch-using packages), lints each file with every speed-up on, then with each one
off, and compares the findings; for files with fixes it compares the fixed text too. The test
suite does the same on a fixed handful of files; this is the whole-corpus check to run after
changing a rule's `scope_tokens`, `trigger_calls`, `trigger_attributes` or the engine.

The prefilter's second step (`torchlint.uses`) works only where the project index walked the
files, so it is compared on whole-corpus command-line runs, one with it and one without.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import log, python_files  # noqa: E402
from realworld import corpora  # noqa: E402

import torchlint.context  # noqa: E402
import torchlint.parsing  # noqa: E402
from torchlint.engine import fix_text, lint_text  # noqa: E402
from torchlint.selection import selectable_rules  # noqa: E402

SPEED_UPS = {
    "elided parsing": (torchlint.parsing, "ELIDE"),
    "trusted parsing": (torchlint.parsing, "TRUST_PARSER"),
    "local fix edits": (torchlint.context, "LOCAL_EDITS"),
}
RULES = selectable_rules()
USES = "the uses prefilter (project run)"


def outcome(text: str, path: str) -> tuple[list[dict], str | None]:
    result = lint_text(text, path, RULES)
    findings = [d.to_json() for d in result.diagnostics] + [vars(e) for e in result.internal_errors]
    fixed = fix_text(text, path, RULES, unsafe_fixes=True).text if any(d.fix for d in result.diagnostics) else None
    return findings, fixed


def compare(path: Path) -> tuple[str, int, list[str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return str(path), 0, []
    reference = outcome(text, str(path))
    differing = []
    for name, (module, flag) in SPEED_UPS.items():
        setattr(module, flag, False)
        try:
            if outcome(text, str(path)) != reference:
                differing.append(name)
        finally:
            setattr(module, flag, True)
    return str(path), len(reference[0]), differing


def _project_findings(root: Path, prefilter: bool) -> dict[str, list[dict]]:
    program = (f"import torchlint.uses; torchlint.uses.PREFILTER = {prefilter}; "
               "from torchlint.cli import main; main()")
    command = [sys.executable, "-c", program, "check", "--select", "ALL", "--no-cache", "--exit-zero",
               "--output-format", "json", "."]
    output = subprocess.run(command, cwd=root, capture_output=True, text=True, check=True).stdout
    by_file = defaultdict(list)
    for finding in json.loads(output):
        by_file[finding["path"]].append(finding)
    return by_file


def differing_without_uses_prefilter(root: Path) -> list[str]:
    """The files whose findings differ when the whole corpus is linted as a project by the
    command line with the prefilter's second step and without it."""
    on, off = _project_findings(root, True), _project_findings(root, False)
    return sorted(path for path in on.keys() | off.keys() if on.get(path) != off.get(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", type=Path, help="also write the table as markdown to this file")
    parser.add_argument("--jobs", type=int, default=None)
    options = parser.parse_args()
    rows = []
    with ProcessPoolExecutor(options.jobs) as pool:
        for name, root in corpora().items():
            files = python_files(root)
            log(f"{name}: {len(files)} files")
            results = list(pool.map(compare, files, chunksize=8))
            differing = {speed_up: [path for path, _, names in results if speed_up in names] for speed_up in SPEED_UPS}
            for speed_up, paths in differing.items():
                for path in paths:
                    log(f"  differs without {speed_up}: {path}")
            differing[USES] = differing_without_uses_prefilter(root)
            for path in differing[USES]:
                log(f"  differs without {USES}: {path}")
            rows.append((name, len(files), sum(count for _, count, _ in results), differing))
    columns = [*SPEED_UPS, USES]
    header = "| corpus | files | findings | " + " | ".join(f"files differing without {s}" for s in columns) + " |"
    lines = [header, "| --- | ---: | ---: | " + " | ".join("---:" for _ in columns) + " |"]
    for name, files, findings, differing in rows:
        lines.append(f"| {name} | {files} | {findings} | " + " | ".join(str(len(differing[s])) for s in columns) + " |")
    text = "\n".join(lines)
    print(text)
    if options.write:
        options.write.write_text(
            "# Speed-ups keep every finding\n\nProduced by `python bench/equivalence.py --write docs/equivalence.md`: "
            "findings (and fixed text, where a file has fixes) with every speed-up on, compared with each one "
            "off, file by file.\n\n" + text + "\n"
        )
        log(f"wrote {options.write}")


if __name__ == "__main__":
    main()
