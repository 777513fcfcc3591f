"""The fast subset of bench/fuzz.py: every rule's INVALID examples planted into real training and
library code, hypothesmith programs, and a few cases through the command line, all on fixed seeds.

Each case must pass every check of `check_source`: no crash, no internal error, sane positions,
the same findings with the prefilter on and off, fixes that compile and are idempotent, and
`--add-noqa` output that compiles and silences what it should. The long run is
`python bench/fuzz.py --minutes 10`.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings

from torchlint.engine import fix_text, lint_text
from torchlint.rules.registry import all_rules

from .conftest import BrokenFix, Crashing


def _load_fuzz():
    path = Path(__file__).resolve().parent.parent / "bench" / "fuzz.py"
    spec = importlib.util.spec_from_file_location("torchlint_bench_fuzz", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz()
FIXED_SEEDS = settings(
    max_examples=12, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)
VISITOR_RULES = [rule for rule in all_rules() if rule.invalid]


def _mutant(seed: int, seeds: list[Path], snippets, plants: int = 1):
    rng = random.Random(seed)
    for _ in range(20):
        text = fuzz.read_seed(rng.choice(seeds))
        mutant = fuzz.mutate(text, snippets, rng, plants) if text is not None else None
        if mutant is not None:
            return mutant
    raise AssertionError(f"no mutant compiles for seed {seed}")


# ---- the fuzzer's own parts -----------------------------------------------------------------------
NESTED = """\
import torch


@torch.no_grad()
def evaluate(model, batches):
    total = 0
    for batch in batches:
        if batch is not None:
            total += model(batch).sum()
    return total


class Trainer:
    steps = 3

    def run(self): return 1
x = 1; y = 2
"""


def test_insertion_sites_cover_every_context_and_skip_joined_statements():
    sites = {(site.line + 1, len(site.indent), site.context) for site in fuzz.insertion_sites(NESTED)}
    # (1-based line to insert before, indentation, context): before the decorator, never between
    # it and its `def`; nothing inside `def run(self): return 1` nor after the `;`
    assert sites == {
        (1, 0, "module"), (4, 0, "module"), (13, 0, "module"), (17, 0, "module"), (18, 0, "module"),
        (6, 4, "function"), (7, 4, "function"), (10, 4, "function"), (11, 4, "function"),
        (8, 8, "loop"), (10, 8, "loop"),
        (9, 12, "block"), (10, 12, "block"),
        (14, 4, "class"), (16, 4, "class"), (17, 4, "class"),
    }


@pytest.mark.parametrize("context", ["module", "function", "loop", "class", "block"])
def test_every_example_plants_into_every_context_and_compiles(context):
    snippets = fuzz.invalid_snippets()
    site = next(site for site in fuzz.insertion_sites(NESTED) if site.context == context)
    planted = [fuzz.plant(NESTED, site, snippet.source) for snippet in snippets]
    compiled = [text for text in planted if fuzz.compiles(text)]
    # a class body cannot hold `return`; every other example compiles wherever it is planted
    assert len(compiled) >= len(planted) * 0.9
    assert all(snippet.source.split("\n")[0] in text for snippet, text in zip(snippets, planted))


def test_split_imports_moves_the_leading_imports_only():
    imports, rest = fuzz.split_imports("import torch\nfrom torch import nn\nm = nn.Linear(1, 1)\nimport os\n")
    assert imports == "import torch\nfrom torch import nn\n"
    assert rest == "m = nn.Linear(1, 1)\nimport os\n"


def test_the_checks_report_a_crashing_rule_and_a_refused_fix(demo_rules):
    crash = fuzz.check_source("crash_me()\n", rules=[Crashing])
    assert [failure.kind for failure in crash] == ["internal-error"] * 2  # linting, then fixing
    broken = fuzz.check_source("break_me()\n", rules=[BrokenFix])
    assert [failure.kind for failure in broken] == ["fix-refused"]


def test_reduce_keeps_only_what_the_failure_needs():
    text = "import os\n\ndef f():\n    a = 1\n    bad = 2\n    return a\n\nprint(f())\n"
    reduced = fuzz.reduce(text, lambda candidate: "bad" in candidate)
    assert reduced.split() == ["def", "f():", "bad", "=", "2"]


# ---- bugs the fuzzer found ----------------------------------------------------------------------
@pytest.mark.parametrize("tail", ["\n    \n", "\n ", "\n #c\n #c\n", "def f():\n    z = x.data\n\n  \n"])
def test_trailing_indented_blank_lines_are_linted_and_fixed(tail):
    """libcst loses some of a file's last lines when one is indented; linting used to crash."""
    text = "import torch\nx = torch.ones(2)\ny = x.data\n" + tail
    assert [d.code for d in lint_text(text, "t.py", all_rules()).diagnostics][:1] == ["TL001"]
    fixed = fix_text(text, "t.py", all_rules(), unsafe_fixes=True)
    assert fixed.failure is None and fixed.text.endswith(tail.replace("x.data", "x.detach()"))
    assert fuzz.check_source(text) == []


def test_a_file_level_noqa_among_the_trailing_lines_still_counts():
    text = "import torch\nx = torch.ones(2)\ny = x.data\n\n  # torchlint: noqa\n"
    assert lint_text(text, "t.py", all_rules()).diagnostics == []


def test_a_fix_in_lines_indented_after_form_feeds_is_applied():
    """CPython ignores a form feed that starts a line; libcst is given the text without them, and
    so is the check of a fix's output (which used to refuse this fix)."""
    # (`model` is the method's `self`: of a module class, so its `parameters()` are tensors)
    text = ("import torch\nclass A(torch.nn.Module):\n\x0c def sgd(model, lr):\n\x0c     for p in model.parameters():\n"
            "\x0c         p.data.add_(p.grad, alpha=-lr)\n\x0c pass\n")
    fixed = fix_text(text, "t.py", all_rules(), unsafe_fixes=True)
    assert fixed.failure is None and "with torch.no_grad():" in fixed.text and "p.add_(" in fixed.text
    assert fuzz.check_source(text) == []


def test_a_name_imported_from_a_module_a_scope_token_names_keeps_its_body():
    """`from torchvision.models import mobilenet_v2` then `mobilenet_v2(True)` in a function: the
    body holds none of TL305's tokens, but the name comes from `torchvision.models`."""
    schedule = "".join(f"    rate_{i} = warmup_rate(step, {i}) * decay_factor(step, total={i * 100})\n" for i in range(4))
    text = ("from torchvision.models import mobilenet_v2\n\ndef build(step):\n    m = mobilenet_v2(True)\n"
            + schedule + "    return m\n")
    assert [d.code for d in lint_text(text, "t.py", all_rules()).diagnostics] == ["TL305"]
    assert fuzz.check_source(text) == []


# ---- the fast subset of the long run ------------------------------------------------------------
@pytest.mark.parametrize("rule", VISITOR_RULES, ids=lambda rule: rule.code)
def test_each_rule_planted_into_training_code(rule):
    """Every registered rule's INVALID examples, planted into the training scripts."""
    snippets = [snippet for snippet in fuzz.invalid_snippets([rule])]
    mutant = _mutant(sum(map(ord, rule.code)), fuzz.training_scripts(), snippets, plants=2)
    assert fuzz.check_source(mutant.text) == [], mutant.description


@pytest.mark.parametrize("seed", range(4))
def test_examples_planted_into_torch_sources(seed):
    seeds = fuzz.library_files() or fuzz.training_scripts()
    mutant = _mutant(seed, seeds, fuzz.invalid_snippets(), plants=2)
    assert fuzz.check_source(mutant.text) == [], mutant.description


@FIXED_SEEDS
@given(hypothesmith.from_grammar())
def test_programs_from_the_grammar(program):
    text, failures = fuzz.check_generated(program, None)
    assert failures == [], text


@settings(FIXED_SEEDS, max_examples=8)
@given(hypothesmith.from_node(), fuzz.plantings())
def test_programs_from_libcst_nodes_with_a_planted_example(program, planting):
    text, failures = fuzz.check_generated(program, planting)
    assert failures == [], text


@pytest.mark.parametrize("seed", [0, 1])
def test_command_line_agrees_with_the_engine(seed):
    mutant = _mutant(seed, fuzz.training_scripts(), fuzz.invalid_snippets(), plants=2)
    assert fuzz.check_cli(mutant.text) == [], mutant.description
