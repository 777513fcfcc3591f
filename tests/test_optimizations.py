"""Every speed-up keeps every finding: results with and without each one, on a fixed set of files
(real torch sources, the bundled examples and the verifier's fixture programs)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import torch

import torchlint.context
import torchlint.engine
import torchlint.parsing
from torchlint.engine import fix_text, lint_text
from torchlint.kinds import CONTAINER_MUTATING_METHODS
from torchlint.project.containers import _names_changing_items
from torchlint.selection import selectable_rules

REPO = Path(__file__).resolve().parent.parent
TORCH = Path(torch.__file__).parent
FILES = sorted(
    [*TORCH.glob("nn/utils/*.py"), *TORCH.glob("nn/modules/*.py"), *TORCH.glob("optim/*.py"), *TORCH.glob("utils/data/*.py"),
     *REPO.glob("examples/*.py"), *REPO.glob("fixtures/*/*/program.py")]
)
RULES = selectable_rules()


def _findings(prefilter: bool = True) -> dict[str, list[dict]]:
    results = {}
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        diagnostics = lint_text(text, path.name, RULES, prefilter=prefilter).diagnostics
        results[str(path)] = [d.to_json() for d in diagnostics]
    return results


@pytest.fixture(scope="module")
def reference() -> dict[str, list[dict]]:
    found = _findings()
    assert sum(map(len, found.values())) >= 20, "the fixed set must have findings to compare"
    return found


def test_prefilter_keeps_every_finding(reference):
    assert _findings(prefilter=False) == reference


def test_trusted_parsing_keeps_every_finding(reference, monkeypatch):
    monkeypatch.setattr(torchlint.parsing, "TRUST_PARSER", False)
    assert _findings() == reference


def test_elided_parsing_keeps_every_finding(reference, monkeypatch):
    elided = []
    parse = torchlint.engine.parse_elided
    monkeypatch.setattr(torchlint.engine, "parse_elided", lambda *args: elided.append(parse(*args)) or elided[-1])
    assert _findings() == reference
    assert sum(module is not None for module in elided) >= 10, "the fixed set must exercise elided parsing"
    monkeypatch.setattr(torchlint.parsing, "ELIDE", False)
    assert _findings() == reference


def test_local_fix_edits_match_whole_module_edits(reference, monkeypatch):
    monkeypatch.setattr(torchlint.context, "LOCAL_EDITS", False)
    assert _findings() == reference


@pytest.mark.parametrize(("module", "flag"), [(torchlint.context, "LOCAL_EDITS"), (torchlint.parsing, "ELIDE")])
def test_fixed_sources_are_the_same_with_each_speed_up(monkeypatch, module, flag):
    fixed = {}
    for on in (True, False):
        monkeypatch.setattr(module, flag, on)
        fixed[on] = [fix_text(p.read_text(), p.name, RULES, unsafe_fixes=True).text for p in FILES]
    assert fixed[True] == fixed[False]
    assert any(p.read_text() != text for p, text in zip(FILES, fixed[True])), "some file must be fixed"


def test_local_edits_inside_a_match_case_are_indented_as_whole_module_edits(monkeypatch):
    source = (
        "import torch\nfrom torch import nn\n\ndef build(kind):\n    match kind:\n        case 'mlp':\n"
        "            m = nn.Linear(2, 2)\n            def reset():\n                m.bias.data.zero_()\n"
        "        case _:\n            pass\n"
    )
    fixed = {}
    for on in (True, False):
        monkeypatch.setattr(torchlint.context, "LOCAL_EDITS", on)
        fixed[on] = fix_text(source, "build.py", RULES, unsafe_fixes=True).text
    assert fixed[True] == fixed[False]
    assert "                with torch.no_grad():\n                    m.bias.zero_()\n" in fixed[True]


def test_the_uses_prefilter_keeps_every_finding_of_a_project(cli, tmp_path, monkeypatch):
    """The prefilter's second step works only where the project index walked the files: the same
    files, linted as one project by the CLI, give the same findings with it on and off."""
    import json
    import shutil

    import torchlint.uses

    for path in FILES:
        relative = path.relative_to(TORCH.parent if path.is_relative_to(TORCH) else REPO)
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, tmp_path / relative)
    linted = []
    lint = torchlint.engine._lint_text
    monkeypatch.setattr(torchlint.engine, "_lint_text", lambda text, *rest: linted.append(text) or lint(text, *rest))
    runs = {}
    for on in (True, False):
        monkeypatch.setattr(torchlint.uses, "PREFILTER", on)
        linted.clear()
        result = cli("check", "--no-cache", "-j", "1", "--select", "ALL", "--exit-zero", "--output-format", "json", ".")
        runs[on] = (json.loads(result.output), len(linted))
    assert runs[True][0] == runs[False][0]
    assert len(runs[True][0]) >= 20, "the files must have findings to compare"
    assert runs[True][1] < runs[False][1], "the second step must rule some files out"


# The summaries' one scan for the names whose items a function changes finds what a pattern per
# name found, on every function of the fixed set of files.

def _python_files():
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        yield text, ast.parse(text)


def test_one_scan_finds_the_names_each_per_name_pattern_found():
    def per_name(text: str, name: str) -> bool:
        word = re.escape(name)
        methods = "|".join(sorted(CONTAINER_MUTATING_METHODS))
        return bool(re.search(rf"\b{word}\s*\.\s*(?:{methods})\b"
                              rf"|\b{word}\s*\[.*\]\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)"
                              rf"|\bdel\b[^\n]*\b{word}\s*\[", text))

    snippets = ["a[b[0]] = 1", "del x, y[0]", "feats . append(r)", "feats2.append(r)", "x.feats[i] += 1",
                "m[0] == 1", "del d['k'] ; e[1] = 2", "n[0] //= 2", "_p[1]=3", "é[0] = 1", "3x[0] = 1"]
    functions = [ast.get_source_segment(text, node) for text, tree in _python_files() for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    checked = 0
    for text in [*snippets, *functions]:
        found = _names_changing_items(text)
        # (a name a per-name pattern finds stands before a `.` or a `[`)
        names = found | set(re.findall(r"\b((?!\d)\w+)\s*[.\[]", text))
        assert {name for name in names if per_name(text, name)} == found & names, text[:60]
        checked += len(names)
    assert checked > 5000
