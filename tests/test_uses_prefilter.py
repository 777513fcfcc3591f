"""The prefilter's second step (`torchlint.uses`): what a file's code calls and uses, from the
project index's walk of CPython's tree, rules out rules before libcst parses anything."""

from __future__ import annotations

import json

import pytest

import torchlint.engine
import torchlint.parsing
import torchlint.uses
from torchlint.project.summary import summarize_and_outline
from torchlint.rules.registry import all_rules, rule_by_code
from torchlint.uses import FileUses


def _uses(source: str) -> FileUses | None:
    return FileUses.of(summarize_and_outline(source)[1])


EXAMPLES = [(rule, example.source) for rule in all_rules() for example in rule.invalid]


@pytest.mark.parametrize(("rule", "source"), EXAMPLES, ids=[f"{r.code}-{i}" for i, (r, _) in enumerate(EXAMPLES)])
def test_no_rule_is_ruled_out_of_its_own_examples(rule, source):
    uses = _uses(source)
    assert uses is None or rule.could_fire_in(uses)


def test_uses_are_what_the_code_calls_and_reads_not_what_strings_say():
    uses = _uses(
        'import torch as th\nfrom torch.nn import DataParallel as DP\n"""th.save(model, p)"""\n'
        "@th.no_grad\ndef f(x: th.utils.data.Dataset) -> th.Tensor:\n    # th.load(p)\n"
        "    m = DP(net)\n    p.grad = None\n    return th.load(p, weights_only=True).cpu()\n"
    )
    assert uses.calls == {"torch.no_grad", "torch.nn.DataParallel", "torch.load"}
    assert {"grad", "cpu", "data", "utils", "Tensor"} <= uses.attributes
    assert "save" not in uses.attributes


def test_a_star_import_or_an_unwalked_tree_gives_no_uses():
    assert _uses("from torch import *\nload(p)\n") is None
    assert FileUses.of(torchlint.parsing.Outline.of(__import__("ast").parse("x = 1\n"))) is None


@pytest.mark.parametrize(
    ("code", "source", "passes"),
    [
        ("TL201", "import torch\n'''torch.load(p)'''\nimport json\njson.load(f)\n", False),
        ("TL201", "from torch import load as L\nL(p)\n", True),
        ("TL201", "import torch.serialization as S\nS.load(p)\n", True),
        ("TL004", "import numpy as np\nnp.save(p, a)\n# torch.save(model, p)\n", False),
        ("TL004", "import torch\nsave = torch.save\nsave(model, p)\n", False),  # the rule reads calls by name
        ("TL001", "import torch\nx = torch.utils.data.DataLoader\n", True),  # `data` is an attribute
        ("TL001", "import torch\nx = model.weight.grad\ns = 'p.data'\n", False),
        ("TL005", "import torch\nf = m.forward\n", True),
        ("TL302", "import torch\n'''torch.norm(x)'''\ny = x.norm()\n", False),
        ("TL302", "import torch\ny = torch.norm(x)\n", True),
        ("TL302", "from functorch import vmap\n", True),
        ("TL302", "from torch._functorch.aot_autograd import aot_function\n", False),
        ("TL305", "import torchvision\nm = torchvision.models.resnet50(pretrained=True)\n", True),
        ("TL305", "from torchvision import transforms\nt = transforms.ToTensor()  # models\n", False),
    ],
)
def test_rules_ruled_out_by_what_the_code_uses(code, source, passes):
    assert rule_by_code(code).could_fire_in(_uses(source)) is passes


def _codes(cli, tmp_path, source: str, *options: str) -> list[str]:
    (tmp_path / "train.py").write_text(source)
    result = cli("check", "--no-cache", "--select", "ALL", *options, "--output-format", "json", "train.py")
    return [finding["code"] for finding in json.loads(result.output)]


def test_a_file_whose_code_calls_none_of_the_rules_names_is_never_given_to_libcst(cli, tmp_path, monkeypatch):
    source = 'import torch\n\ndef restore(p):\n    """Like `torch.load(p)`, `torch.save(m, p)`, `torch.norm(x)`."""\n    return p\n'
    assert rule_by_code("TL201").could_fire(source) and rule_by_code("TL302").could_fire(source)  # by the text
    parsed = []
    for name in ("parse_trusted", "parse_elided"):
        parse = getattr(torchlint.engine, name)
        monkeypatch.setattr(torchlint.engine, name, lambda *args, parse=parse: parsed.append(args) or parse(*args))
    assert _codes(cli, tmp_path, source) == []
    assert parsed == []
    assert _codes(cli, tmp_path, source + "y = torch.norm(x)\n") == ["TL302"]
    assert parsed != []


@pytest.mark.parametrize("on", [True, False])
def test_a_file_that_calls_the_name_is_linted_as_before(cli, tmp_path, monkeypatch, on):
    monkeypatch.setattr(torchlint.uses, "PREFILTER", on)
    source = 'import torch as th\n"""th.save(m, p)"""\ny = th.norm(x)\nfor p in model.parameters():\n    p.data.zero_()\n'
    assert _codes(cli, tmp_path, source) == ["TL302", "TL001"]


# From a hostile review: ruling a rule out leaves more bodies unparsed, so the rules that remain
# must find their own bodies however the code is spaced (their scope tokens are words, or
# attribute tokens matched however the dot is spaced).
RESTORE = (
    "import torch\n\n\ndef restore(path):\n"
    "    # we used to copy the weights through p.data by hand, which is no longer needed\n"
    "    state = torch.load  (path, weights_only=False){noqa}\n    return state\n"
)
LOOP = (
    "import torch.nn as nn\n\nmodel = nn.Linear(2, 2)\n\n\ndef run(batches):\n"
    '    """Collect the outputs, as before the checkpoint was read back with torch.load(path)."""\n'
    "    outs = []\n    it = iter(batches)\n    model.eval()\n    while(True):\n        outs.append(model(next(it)))\n"
    "    return outs\n"
)


@pytest.mark.parametrize(
    ("source", "options", "expected"),
    [
        (RESTORE.format(noqa=""), (), ["TL201"]),
        (RESTORE.format(noqa="  # noqa: TL201"), ("--preview",), []),  # the noqa is used, not unused
        (LOOP, ("--preview",), ["TL626"]),
    ],
)
def test_the_rules_left_find_their_bodies_however_the_code_is_spaced(cli, tmp_path, source, options, expected):
    assert _codes(cli, tmp_path, source, *options) == expected


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_scope_tokens_are_words_or_attributes(rule):
    """A body is kept when it holds a token: a word, or an attribute (`.data`, however the dot is
    spaced). Punctuation after a name (`.load(`) or a space after a keyword (`while `) can be
    spelled other ways (`.load  (`, `while(`), and a body spelled so would be left unparsed."""
    import re

    assert all(re.fullmatch(r"\.?\w+|%", token) for token in rule.scope_tokens or ())
