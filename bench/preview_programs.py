"""Held-out-style benchmark of the rules in preview: recall and precision on realistic programs.

    python bench/preview_programs.py [folder] [--show] [--write docs/new-rules-precision.md]

The folder (bench/preview_programs/ by default) holds small training and evaluation programs
written from documented pitfalls and from how real training code is written: plain scripts,
functions that take the model, loader and optimizer as parameters, Trainer classes, models defined
in another module of a small project, AMP, gradient accumulation, DDP. Each line that has a bug
carries a trailing comment `# expect: TL6xx` (several codes separated by commas); every other
line is a look-alike on which the new rules must stay silent.

The script runs `torchlint check <folder> --select ALL --preview --output-format json` once and
scores only the rules in preview (the new ones): a finding of code C on a line marked with C is a
true positive, a finding on a line not marked with it a false positive, a marked (line, code) with
no finding a miss. It prints recall and precision per rule and overall; --show lists each miss
and false positive; --write replaces the section between the markers in the given markdown file.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent
DEFAULT_FOLDER = HERE / "preview_programs"
EXPECT = re.compile(r"#\s*expect:\s*(TL\d{3}(?:\s*,\s*TL\d{3})*)")
BEGIN, END = "<!-- preview-programs:begin -->", "<!-- preview-programs:end -->"


@dataclass
class Score:
    expected: set[tuple[str, int, str]] = field(default_factory=set)  # (path, line, code)
    found: set[tuple[str, int, str]] = field(default_factory=set)

    def per_rule(self, codes) -> list[tuple[str, int, int, int]]:
        """(code, true positives, false positives, misses) for each code."""
        rows = []
        for code in codes:
            expected = {item for item in self.expected if item[2] == code}
            found = {item for item in self.found if item[2] == code}
            rows.append((code, len(expected & found), len(found - expected), len(expected - found)))
        return rows


def expectations(folder: Path) -> set[tuple[str, int, str]]:
    expected = set()
    for path in sorted(folder.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            match = EXPECT.search(line)
            if match:
                for code in match.group(1).split(","):
                    expected.add((str(path.resolve()), number, code.strip()))
    return expected


def preview_codes() -> list[str]:
    from torchlint.rules.registry import all_rules

    return sorted(rule.code for rule in all_rules() if rule.preview)


def findings(folder: Path) -> set[tuple[str, int, str]]:
    command = [sys.executable, "-m", "torchlint", "check", str(folder), "--select", "ALL", "--preview",
               "--output-format", "json", "--no-cache", "--exit-zero"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"torchlint failed ({result.returncode}):\n{result.stderr}")
    if "internal error" in result.stderr:
        print(result.stderr, file=sys.stderr)
    return {(str(Path(item["path"]).resolve()), item["line"], item["code"]) for item in json.loads(result.stdout)}


def score(folder: Path) -> tuple[Score, list[str]]:
    codes = preview_codes()
    found = {item for item in findings(folder) if item[2] in codes}
    return Score(expectations(folder), found), codes


def table(result: Score, codes: list[str], folder: Path) -> str:
    from torchlint.rules.registry import rule_by_code

    programs = len(list(folder.rglob("*.py")))
    lines = [f"{programs} files, {len(result.expected)} marked bugs.", "",
             "| rule | bugs | found | false positives | recall | precision |",
             "| --- | --- | --- | --- | --- | --- |"]
    total = Counter()
    for code, tp, fp, fn in result.per_rule(codes):
        total.update(tp=tp, fp=fp, fn=fn)
        if tp + fp + fn == 0:
            continue
        lines.append(f"| {code} {rule_by_code(code).name} | {tp + fn} | {tp} | {fp} | {_ratio(tp, tp + fn)} "
                     f"| {_ratio(tp, tp + fp)} |")
    tp, fp, fn = total["tp"], total["fp"], total["fn"]
    lines.append(f"| **all new rules** | {tp + fn} | {tp} | {fp} | {_ratio(tp, tp + fn)} | {_ratio(tp, tp + fp)} |")
    return "\n".join(lines)


def overall(result: Score) -> tuple[float, float]:
    tp = len(result.expected & result.found)
    return tp / max(1, len(result.expected)), tp / max(1, len(result.found))


def _ratio(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "–"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--show", action="store_true", help="list misses and false positives")
    parser.add_argument("--write", type=Path, help="markdown file whose marked section gets the table")
    args = parser.parse_args()
    result, codes = score(args.folder)
    text = table(result, codes, args.folder)
    print(text)
    if args.show:
        base = args.folder.resolve()
        for label, items in (("missed", result.expected - result.found), ("false positive", result.found - result.expected)):
            for path, line, code in sorted(items):
                print(f"{label}: {Path(path).relative_to(base)}:{line} {code}")
    if args.write:
        document = args.write.read_text()
        start, end = document.index(BEGIN) + len(BEGIN), document.index(END)
        args.write.write_text(document[:start] + "\n" + text + "\n" + document[end:])


if __name__ == "__main__":
    main()
