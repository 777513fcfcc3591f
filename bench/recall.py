"""Recall benchmark: per-rule precision and recall against hand-judged instances in training code.

    python bench/recall.py [--write docs/recall.md --label before|after]

Downloads pinned releases of packages that ship training loops (`pip download --no-deps`, the
sdist where it carries examples or tests with training scripts, the wheel otherwise), unpacks each
into its own folder and lints it as its own project with TL001-TL008. The findings are matched to
bench/recall_labels.json by (package, path, line, code): each label is one place in the corpus
that a person read and judged a real instance of the rule's anti-pattern (true) or a look-alike
(false). Per rule it prints the judged true instances, how many torchlint found (recall), its
findings and how many of them are judged true or false (precision). It then lists the findings no
label covers yet (to be judged) and the true instances missed, grouped by the cause recorded in
their label.

With --write, the run's tables go into that markdown file as the section for --label; the summary
table at the top of the section list shows every run kept in the file side by side.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import WORK, log  # noqa: E402

# name: (version, what to download). "sdist" where it ships examples/tests with training scripts.
PACKAGES = {
    "ultralytics": ("8.4.190", "sdist"),
    "speechbrain": ("1.1.2", "wheel"),
    "fastai": ("2.8.12", "wheel"),
    "pytorch-ignite": ("0.5.5", "sdist"),
    "open-clip-torch": ("3.3.0", "sdist"),
    "mmengine": ("0.10.7", "wheel"),
    "stable-baselines3": ("2.9.2", "sdist"),
    "pytorch-metric-learning": ("2.9.0", "wheel"),
    "lightly": ("1.6.0", "wheel"),
    "avalanche-lib": ("0.6.0", "sdist"),
    "trl": ("1.16.0", "wheel"),
    "composer": ("0.32.1", "wheel"),
    "skorch": ("1.4.0", "wheel"),
    "poutyne": ("1.19.0", "wheel"),
    "pytorch-tabnet": ("4.1.0", "wheel"),
    "tianshou": ("2.0.1", "wheel"),
    "torchtune": ("0.6.1", "wheel"),
    "deeprobust": ("0.2.11", "wheel"),
    "pytorch-pretrained-bert": ("0.6.2", "wheel"),
    "pytorch-transformers": ("1.2.0", "wheel"),
    "pyod": ("3.6.7", "wheel"),
    "deepctr-torch": ("0.3.0", "wheel"),
    "recbole": ("1.2.1", "wheel"),
    "torchattacks": ("3.5.1", "wheel"),
    "easyfsl": ("1.5.0", "wheel"),
}
# What to grep for when looking for instances of each rule that torchlint may miss.
CANDIDATES = {
    "TL001": r"\.data\b",
    "TL002": r"DataParallel\(|data_parallel\(",
    "TL003": r"\+=|\.append\(|^\s*(\w+)\s*=\s*\1\s*\+",
    "TL004": r"\b(torch|th)\.save\(",
    "TL005": r"\.forward\s*\(",
    "TL006": r"DistributedSampler\(",
    "TL007": r"num_workers",
    "TL008": r"OutOfMemoryError|out of memory",
}
RULES = ("TL001", "TL002", "TL003", "TL004", "TL005", "TL006", "TL007", "TL008")
LABELS = Path(__file__).parent / "recall_labels.json"
HERE = WORK / "recall"
INTERNAL_ERROR = re.compile(r"internal error in (TL\d+)")


@dataclass(frozen=True)
class Key:
    package: str
    path: str
    line: int
    code: str

    def __str__(self) -> str:
        return f"{self.package}/{self.path}:{self.line} {self.code}"


# ---------------------------------------------------------------- corpus


def _downloaded(name: str, version: str, kind: str) -> Path:
    """The wheel or sdist of name==version, downloaded once into HERE/downloads."""
    folder = HERE / "downloads"
    folder.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[-_.]+", "_", name).lower()
    suffix = ".whl" if kind == "wheel" else ".tar.gz"

    prefix = f"{stem}_{version.replace('.', '_')}"

    def present():
        return [p for p in folder.iterdir()
                if re.sub(r"[-_.]+", "_", p.name).lower().startswith(prefix) and p.name.endswith(suffix)]

    if not present():
        binary = ["--only-binary", ":all:"] if kind == "wheel" else ["--no-binary", ":all:"]
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
             *binary, f"{name}=={version}", "-d", str(folder)],
            check=True,
        )
    return present()[0]


def unpacked(name: str) -> Path:
    """The package's files, unpacked into HERE/src/<name>-<version> (its top folder)."""
    version, kind = PACKAGES[name]
    root = HERE / "src" / f"{name}-{version}"
    marker = root / ".unpacked"
    if marker.exists():
        return root
    archive = _downloaded(name, version, kind)
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    if kind == "wheel":
        with zipfile.ZipFile(archive) as wheel:
            wheel.extractall(root, [m for m in wheel.namelist() if ".dist-info/" not in m])
    else:
        with tarfile.open(archive) as sdist:
            sdist.extractall(root.parent / ".tmp", filter="data")
        (top,) = (root.parent / ".tmp").iterdir()
        top.rename(root)
        (root.parent / ".tmp").rmdir()
    marker.write_text(f"{name}=={version} {kind}\n")
    return root


# ---------------------------------------------------------------- running torchlint


def lint(name: str, root: Path) -> tuple[list[dict], list[str], float]:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "torchlint", "check", "--select", ",".join(RULES), "--output-format", "json",
         "--no-cache", "--exit-zero", "--jobs", "1", "."],
        cwd=root, capture_output=True, text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"torchlint failed on {name}: {result.stderr[-2000:]}")
    return json.loads(result.stdout or "[]"), INTERNAL_ERROR.findall(result.stderr), time.perf_counter() - started


# ---------------------------------------------------------------- labels and scores


def load_labels() -> dict[Key, dict]:
    labels: dict[Key, dict] = {}
    for label in json.loads(LABELS.read_text()):
        key = Key(label["package"], label["path"], label["line"], label["code"])
        if key in labels:
            raise SystemExit(f"two labels for {key}")
        if label["package"] in PACKAGES and label["version"] != PACKAGES[label["package"]][0]:
            pinned = PACKAGES[label["package"]][0]
            raise SystemExit(f"{key}: labelled on version {label['version']}, the corpus pins {pinned}")
        labels[key] = label
    return labels


def score(findings: set[Key], labels: dict[Key, dict]) -> dict[str, dict]:
    """Per rule: true instances, found, findings, findings judged true/false/not yet."""
    table = {}
    for code in RULES:
        true = {k for k, v in labels.items() if k.code == code and v["verdict"]}
        false = {k for k, v in labels.items() if k.code == code and not v["verdict"]}
        mine = {k for k in findings if k.code == code}
        table[code] = {
            "true_instances": len(true), "found": len(true & mine), "findings": len(mine),
            "findings_true": len(mine & true), "findings_false": len(mine & false),
            "findings_unjudged": len(mine - true - false),
        }
    return table


def ratio(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def rule_rows(table: dict[str, dict]) -> list[str]:
    out = ["| rule | judged true | found | recall | findings | judged true | judged false | not judged | precision |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    total = Counter()
    for code, row in table.items():
        total.update(row)
        out.append(_row(code, row))
    out.append(_row("all", total))
    return out


def _row(name: str, row) -> str:
    judged = row["findings_true"] + row["findings_false"]
    return (f"| {name} | {row['true_instances']} | {row['found']} | {ratio(row['found'], row['true_instances'])} | "
            f"{row['findings']} | {row['findings_true']} | {row['findings_false']} | {row['findings_unjudged']} | "
            f"{ratio(row['findings_true'], judged)} |")


def missed_by_cause(findings: set[Key], labels: dict[Key, dict]) -> dict[str, list[Key]]:
    groups: dict[str, list[Key]] = defaultdict(list)
    for key, label in sorted(labels.items(), key=lambda item: str(item[0])):
        if label["verdict"] and key not in findings:
            groups[f"{key.code}: {label.get('cause') or 'cause not recorded'}"].append(key)
    return dict(sorted(groups.items(), key=lambda item: (item[0][:5], -len(item[1]))))


def false_positives(findings: set[Key], labels: dict[Key, dict]) -> list[Key]:
    return sorted((k for k in findings if k in labels and not labels[k]["verdict"]), key=str)


def candidates(code: str, names: list[str], labels: dict[Key, dict]) -> list[str]:
    """Lines matching the rule's pattern that no label covers yet (comments skipped), to judge."""
    pattern = re.compile(CANDIDATES[code])
    out = []
    for name in names:
        root = unpacked(name)
        for path in sorted(root.rglob("*.py")):
            relative = str(path.relative_to(root))
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if pattern.search(line.split("#", 1)[0]) and Key(name, relative, number, code) not in labels:
                    out.append(f"{name}/{relative}:{number}: {line.strip()}")
    return out


# ---------------------------------------------------------------- the markdown file

RUN_DATA = re.compile(r"<!-- recall-run (\w[\w.-]*) (\{.*?\}) -->")


def section(label: str, table: dict, packages: list[tuple], misses: dict, fps: list[Key], labels: dict) -> str:
    data = json.dumps(table, separators=(",", ":"))
    missed = {key for keys in misses.values() for key in keys}
    out = [f"<!-- recall-run {label} {data} -->", f"### Run: {label}", "",
           "| package | version | from | files | findings | crashes | wall (s) | true instances found / judged |",
           "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, files, found, crashes, seconds in packages:
        version, kind = PACKAGES[name]
        true = [k for k, v in labels.items() if k.package == name and v["verdict"]]
        out.append(f"| {name} | {version} | {kind} | {files} | {found} | {crashes} | {seconds:.1f} | "
                   f"{len(true) - len(missed.intersection(true))} / {len(true)} |")
    out += ["", *rule_rows(table), "", "True instances missed, by cause:", ""]
    for cause, keys in misses.items():
        examples = "; ".join(f"`{k.package}/{k.path}:{k.line}`" for k in _spread(keys, 3))
        out.append(f"- {cause}: {len(keys)} (e.g. {examples})")
    if not misses:
        out.append("- none")
    out += ["", "Findings judged false:", ""]
    out += [f"- `{k}`: {labels[k]['reason']}" for k in fps] or ["- none"]
    return "\n".join(out) + "\n"


def _spread(keys: list[Key], count: int) -> list[Key]:
    """Up to `count` examples, from different packages where there are several."""
    chosen: list[Key] = []
    for key in keys:
        if len(chosen) < count and all(key.package != other.package for other in chosen):
            chosen.append(key)
    return chosen + [k for k in keys if k not in chosen][: count - len(chosen)]


def summary(runs: dict[str, dict]) -> str:
    """One column set per run: found / judged true instances, recall, findings, precision."""
    names = list(runs)
    columns = "found / true ({0}) | recall ({0}) | findings ({0}) | precision ({0})"
    head = "| rule | " + " | ".join(columns.format(n) for n in names) + " |"
    out = [head, "| --- | " + " | ".join("---: | ---: | ---: | ---:" for _ in names) + " |"]
    for code in RULES:
        cells = []
        for name in names:
            row = runs[name][code]
            judged = row["findings_true"] + row["findings_false"]
            cells.append(f"{row['found']} / {row['true_instances']} | {ratio(row['found'], row['true_instances'])} | "
                         f"{row['findings']} | {ratio(row['findings_true'], judged)}")
        out.append(f"| {code} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


SUMMARY_START, SUMMARY_END = "<!-- recall-summary:start -->", "<!-- recall-summary:end -->"
RUNS_START, RUNS_END = "<!-- recall-runs:start -->", "<!-- recall-runs:end -->"


def write_doc(path: Path, label: str, new_section: str) -> None:
    """Replace (or add) this label's run section and rebuild the summary from all kept runs."""
    empty = f"# Recall\n\n{SUMMARY_START}\n{SUMMARY_END}\n\n{RUNS_START}\n{RUNS_END}\n"
    text = path.read_text() if path.exists() else empty
    start, end = text.index(RUNS_START) + len(RUNS_START), text.index(RUNS_END)
    kept = re.split(r"(?=<!-- recall-run )", text[start:end].strip())
    sections = {RUN_DATA.match(s).group(1): s.strip() + "\n" for s in kept if RUN_DATA.match(s)}
    sections[label] = new_section
    # `before` first, then the order the runs were made in: a new label goes last
    order = sorted(sections, key=lambda name: name != "before")
    text = text[:start] + "\n" + "\n".join(sections[name] for name in order) + text[end:]
    runs = {name: json.loads(RUN_DATA.match(sections[name]).group(2)) for name in order}
    start, end = text.index(SUMMARY_START) + len(SUMMARY_START), text.index(SUMMARY_END)
    text = text[:start] + "\n" + summary(runs) + text[end:]
    path.write_text(text)


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", type=Path, help="markdown file to put this run's tables in")
    parser.add_argument("--label", default="before", help="name of this run's column set (before, after, ...)")
    parser.add_argument("--package", action="append", help="run only these packages")
    parser.add_argument("--findings", type=Path, help="also write every finding as JSON here")
    parser.add_argument("--jobs", type=int, default=3, help="packages linted at once (default 3)")
    parser.add_argument("--candidates", metavar="CODE", choices=sorted(CANDIDATES),
                        help="only list the lines matching CODE's pattern that no label covers yet")
    options = parser.parse_args()
    labels = load_labels()
    if options.candidates:
        print("\n".join(candidates(options.candidates, options.package or list(PACKAGES), labels)))
        return
    findings: set[Key] = set()
    packages, everything = [], []
    names = options.package or list(PACKAGES)
    roots = {name: unpacked(name) for name in names}  # downloads one at a time
    with ThreadPoolExecutor(options.jobs) as pool:  # each torchlint run is its own process
        results = dict(zip(names, pool.map(lambda name: lint(name, roots[name]), names)))
    for name in names:
        root = roots[name]
        found, crashes, seconds = results[name]
        files = sum(1 for _ in root.rglob("*.py"))
        log(f"{name}: {files} files, {len(found)} findings, {len(crashes)} crashes, {seconds:.1f} s")
        packages.append((name, files, len(found), len(crashes), seconds))
        for finding in found:
            findings.add(Key(name, finding["path"], finding["line"], finding["code"]))
            everything.append({"package": name, **finding})
    if options.package:
        labels = {k: v for k, v in labels.items() if k.package in options.package}
    table = score(findings, labels)
    misses, fps = missed_by_cause(findings, labels), false_positives(findings, labels)
    print("\n".join(rule_rows(table)))
    unjudged = sorted((k for k in findings if k not in labels), key=str)
    print(f"\nFindings not judged yet ({len(unjudged)}):")
    print("\n".join(f"  {k}" for k in unjudged) or "  none")
    print("\nTrue instances missed, by cause:")
    for cause, keys in misses.items():
        print(f"  {cause}: {len(keys)}")
        print("\n".join(f"    {k}" for k in keys))
    print(f"\nFindings judged false ({len(fps)}):")
    print("\n".join(f"  {k}: {labels[k]['reason']}" for k in fps) or "  none")
    if options.findings:
        options.findings.write_text(json.dumps(everything, indent=1))
    if options.write:
        write_doc(options.write, options.label, section(options.label, table, packages, misses, fps, labels))
        log(f"wrote the {options.label!r} run into {options.write}")


if __name__ == "__main__":
    main()
