"""Recall and precision on research training repositories (the shape of most users' code).

    TORCHLINT_RESEARCH_DIR=/path/to/research python bench/research.py

bench/recall.py measures installable packages; this measures what a researcher's repository looks
like: a train.py, a models/ folder, a utils.py, no packaging. The sources are files of public GitHub
repositories (classification, self-supervised learning, GANs, diffusion, NLP, detection,
segmentation, RL, graph networks, DDP trainers), fetched file by file from a stored index of
public code at the commits bench/research_sources.json lists (several are forks' versions of the
file), and laid out as `<group>/<owner>__<name>/<path>` under TORCHLINT_RESEARCH_DIR. They are not
redistributed here; the labels are: bench/research_labels.json holds one object per judged place
(repo, path, line, code, verdict, reason; for a missed true instance the cause of the miss).

Each repository is linted as its own project with TL001-TL008; findings are matched to labels by
(repo, path, line, code) and scored as bench/recall.py scores its corpus.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from recall import RULES, Key, false_positives, missed_by_cause, rule_rows, score  # noqa: E402

LABELS = Path(__file__).parent / "research_labels.json"
SOURCES = Path(__file__).parent / "research_sources.json"


def load_labels() -> dict[Key, dict]:
    labels: dict[Key, dict] = {}
    for label in json.loads(LABELS.read_text()):
        key = Key(label["repo"], label["path"], label["line"], label["code"])
        if key in labels:
            raise SystemExit(f"two labels for {key}")  # two instances on one line count once
        labels[key] = label
    return labels


def repositories(root: Path, labels: dict[Key, dict]) -> dict[str, Path]:
    """repo -> its folder, for every labelled repository present under `root`."""
    found = {}
    for label in labels.values():
        folder = root / label["group"] / label["repo"].replace("/", "__")
        if folder.is_dir():
            found[label["repo"]] = folder
    return found


def lint(folder: Path) -> list[dict]:
    if not any((folder / marker).exists() for marker in ("pyproject.toml", "setup.py", "setup.cfg", ".git")):
        (folder / "pyproject.toml").write_text("")  # the folder is the project, not what is above it
    result = subprocess.run(
        [sys.executable, "-m", "torchlint", "check", "--select", ",".join(RULES), "--output-format", "json",
         "--no-cache", "--exit-zero", "."],
        cwd=folder, capture_output=True, text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"torchlint failed on {folder}: {result.stderr[-2000:]}")
    return json.loads(result.stdout or "[]")


def group_rows(findings: set[Key], labels: dict[Key, dict]) -> list[str]:
    """Recall per labelled group (a held-out round's reader each), TL001-TL008 together."""
    rows = ["| group | repositories | judged true | found | recall |", "| --- | ---: | ---: | ---: | ---: |"]
    groups: dict[str, list[Key]] = {}
    for key, label in labels.items():
        if label["verdict"]:
            groups.setdefault(label["group"], []).append(key)
    for group, keys in sorted(groups.items()):
        found = sum(key in findings for key in keys)
        repos = len({key.package for key in keys})
        rows.append(f"| {group} | {repos} | {len(keys)} | {found} | {found / len(keys):.0%} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("TORCHLINT_RESEARCH_DIR", "research")))
    args = parser.parse_args()
    labels = load_labels()
    repos = repositories(args.root, labels)
    if not repos:
        raise SystemExit(f"no labelled repository under {args.root}: see this script's docstring")
    findings: set[Key] = set()
    for repo, folder in sorted(repos.items()):
        for finding in lint(folder):
            if finding["code"] not in RULES:
                continue  # TL000: a file it could not parse (as Python 3.6 or today)
            findings.add(Key(repo, Path(finding["path"]).as_posix(), finding["line"], finding["code"]))
    labels = {key: label for key, label in labels.items() if key.package in repos}
    table = score(findings, labels)
    print(f"{len(repos)} repositories, {len(labels)} judged places\n")
    print("\n".join(rule_rows(table)))
    print("\n" + "\n".join(group_rows(findings, labels)))
    unjudged = sorted((k for k in findings if k not in labels), key=str)
    print(f"\nFindings not judged yet ({len(unjudged)}):")
    print("\n".join(f"  {key}" for key in unjudged) or "  none")
    print("\nTrue instances missed, by cause:")
    for cause, keys in missed_by_cause(findings, labels).items():
        print(f"  {cause}: {len(keys)} (e.g. {keys[0]})")
    print("\nFindings judged false:")
    print("\n".join(f"  {key}" for key in false_positives(findings, labels)) or "  none")


if __name__ == "__main__":
    main()
