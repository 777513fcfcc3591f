"""The elided parse: function bodies no candidate rule can look at are parsed only when read, and
every reader sees what a whole parse gives."""

from __future__ import annotations

import libcst as cst
import pytest

import torchlint.parsing
from torchlint.engine import lint_text
from torchlint.parsing import ElisionFailed, parse_elided, parse_trusted
from torchlint.positions import Positions
from torchlint.rule import call_tokens
from torchlint.selection import selectable_rules
from torchlint.walk import ElidedBlock, descendants

FILLER = "".join(f"    value_{i} = compute_{i}(value_{i - 1}, scale={i})\n" for i in range(1, 8))

SOURCE = (
    "import torch\n"
    "\n"
    "def plain(a, b):  # a header comment\n"
    "    # a comment before the body\n"
    "\n" + FILLER + "    return value_7\n"
    "\n"
    "class Model(torch.nn.Module):\n"
    "    @staticmethod\n"
    "    def helper(x):\n"
    "        @decorated\n"
    "        def inner(y):\n" + FILLER.replace("    ", "            ") + "            return y\n"
    "        return inner\n"
    "\n"
    "    async def fetch(self,\n"
    "                    key):\n" + FILLER.replace("    ", "        ") + "        return key\n"
    "\n"
    "    def __init__(self):\n"
    "        super().__init__()\n" + FILLER.replace("    ", "        ") + "        self.weight = torch.nn.Parameter(torch.ones(2))\n"
    "\n"
    "    def forward(self, x):\n"
    "        w = self.weight.data\n" + FILLER.replace("    ", "        ") + "        return x\n"
    "\n"
    "def one_liner(x): return compute(x) + compute(x) + compute(x) + compute(x) + compute(x) + compute(x)\n"
)


def _same_tree(module: cst.Module, source: str) -> bool:
    """Rebuilding the tree turns each ElidedBlock (parsed by now) into a plain IndentedBlock."""
    return module.visit(cst.CSTTransformer()).deep_equals(parse_trusted(source))


def _elided(module: cst.Module) -> list[ElidedBlock]:
    return [node for node in descendants(module) if isinstance(node, ElidedBlock)]


def _elided_unparsed(module: cst.Module) -> list[str]:
    """The functions whose bodies are still unparsed, found without parsing any."""
    names, pending = [], [module]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.FunctionDef) and type(node.body) is ElidedBlock:
            names.append(node.name.value)
            continue
        pending.extend(child for child in _statement_children(node))
    return sorted(names)


def _statement_children(node):
    body = getattr(node, "body", ())
    if isinstance(body, cst.BaseSuite):
        body = getattr(body, "body", ())
    return [child for child in body if isinstance(child, cst.CSTNode)] if isinstance(body, (list, tuple)) else []


def test_bodies_without_tokens_are_left_unparsed_and_render_as_the_original_text():
    module = parse_elided(SOURCE, frozenset({".data"}))
    assert _elided_unparsed(module) == ["__init__", "fetch", "helper", "plain"]
    assert module.code == SOURCE


def test_reading_every_body_gives_the_tree_of_a_whole_parse():
    module = parse_elided(SOURCE, frozenset({".data"}))
    blocks = _elided(module)  # walking into them parses them
    assert len(blocks) == 4 and all(block.is_parsed for block in blocks)
    assert module.code == SOURCE
    assert _same_tree(module, SOURCE)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_line_endings_tabs_and_a_missing_final_newline(newline):
    source = ("def f(x):\n" + FILLER.replace("    ", "\t") + "\treturn x").replace("\n", newline)
    module = parse_elided(source, frozenset({".data"}))
    assert len(_elided_unparsed(module)) == 1 and module.code == source
    _elided(module)
    assert module.code == source and _same_tree(module, source)


def test_trailing_comments_after_a_body_keep_their_text():
    source = "def f(x):\n" + FILLER + "    if x:\n        pass\n        # deeper\n    # level\n# top\ny = 1\n"
    module = parse_elided(source, frozenset({".data"}))
    assert _elided_unparsed(module) == ["f"]
    _elided(module)
    assert module.code == source


@pytest.mark.parametrize(
    "body",
    [
        "    w = p.data\n",  # a token
        "    class Local:\n        pass\n",  # classes are read up front
        "    return DP(x)\n",  # a name a token is imported under
    ],
)
def test_bodies_that_may_matter_are_parsed(body):
    source = "from torch.nn import DataParallel as DP\ndef f(x):\n" + FILLER + body
    assert parse_elided(source, frozenset({".data", "DataParallel"})) is None


def test_words_in_strings_and_comments_do_not_keep_a_body():
    source = 'def f(x):\n    """Import the class of x."""\n    # from here on, import nothing\n' + FILLER
    assert _elided_unparsed(parse_elided(source, frozenset({".data"}))) == ["f"]


def test_short_bodies_and_unparsable_text_are_parsed_whole():
    assert parse_elided("def f(x):\n    return x\n", frozenset({".data"})) is None
    assert parse_elided("def f(x):\n" + FILLER + "    return (\n", frozenset({".data"})) is None


def test_positions_follow_bodies_parsed_after_they_were_taken():
    module = parse_elided(SOURCE, frozenset({".data"}))
    positions = Positions(module, SOURCE)
    (plain,) = [s for s in module.body if isinstance(s, cst.FunctionDef)][:1]
    returned = plain.body.body[-1].body[0].value  # parses the body
    start, end = positions.offsets(returned)
    assert SOURCE[start:end] == "value_7"


def test_findings_in_kept_code_after_elided_bodies_are_where_a_whole_parse_puts_them(monkeypatch):
    rules = selectable_rules()
    elided = lint_text(SOURCE, "m.py", rules).diagnostics
    monkeypatch.setattr(torchlint.parsing, "ELIDE", False)
    assert [d.to_json() for d in elided] == [d.to_json() for d in lint_text(SOURCE, "m.py", rules).diagnostics]
    # `self.weight` is known a parameter from `__init__`, whose body is parsed when asked
    assert [(d.code, d.line) for d in elided] == [("TL001", 53)]


def test_a_body_that_cannot_be_parsed_back_makes_the_file_parse_whole(monkeypatch):
    source = (
        "import torch\nclass Net(torch.nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n" + FILLER.replace("    ", "        ")
        + "        self.w = torch.nn.Parameter(torch.zeros(3))\n"
        "    def forward(self, x):\n        return x * self.w.data\n"
    )
    rules = selectable_rules()
    expected = [d.to_json() for d in lint_text(source, "m.py", rules).diagnostics]
    assert expected  # `self.w` is known a parameter only from the elided `__init__`

    def refuse(self, placeholder):
        raise ElisionFailed("refused")

    monkeypatch.setattr(torchlint.parsing._ElidedBody, "parse", refuse)
    result = lint_text(source, "m.py", rules)
    assert [d.to_json() for d in result.diagnostics] == expected and not result.internal_errors


def _function_in(header: str, indent: str = "    ") -> str:
    body = FILLER.replace("    ", indent + "    ")
    return f"{indent}def f_{abs(hash(header)) % 10_000}(x):\n{body}{indent}    return x\n"


NESTING = (
    "if a:\n" + _function_in("if") + "elif b:\n" + _function_in("elif") + "else:\n" + _function_in("else")
    + "try:\n" + _function_in("try") + "except ValueError:\n" + _function_in("except")
    + "else:\n" + _function_in("try-else") + "finally:\n" + _function_in("finally")
    + "with open(p) as handle:\n" + _function_in("with") + "for i in items:\n" + _function_in("for")
    + "else:\n" + _function_in("for-else") + "while running:\n" + _function_in("while")
    + "match command:\n    case [x]:\n" + _function_in("case", "        ")
)


def test_functions_in_every_kind_of_block_are_found_and_parsed_back():
    module = parse_elided(NESTING, frozenset({".data"}))
    assert len(_elided(module)) == 12
    assert module.code == NESTING and _same_tree(module, NESTING)


def test_a_body_joined_to_its_header_by_a_backslash_is_parsed_whole():
    # one logical line: `def f(x): return x` written over two physical lines
    source = "import torch\ndef f(x): \\\n    return compute(x) + " + " + ".join(["x"] * 80) + "\nw = p.data\n"
    assert parse_elided(source, frozenset({".data"})) is None


def test_a_file_that_spells_the_placeholder_is_parsed_whole():
    source = "def f(x):\n" + FILLER + "    return __torchlint_elided_0\n"
    assert parse_elided(source, frozenset({".data"})) is None


def test_a_global_rebinding_is_read_without_parsing_bodies_that_never_say_global(monkeypatch):
    """The module scope reads `global` declarations in function bodies: only the bodies whose text
    says `global` are parsed for it (here the word also sits in a comment, as in most big files)."""
    source = (
        "import torch.nn as nn\n# the global model, rebound by reset()\nnet = None\n"
        "def reset():\n    global net\n" + FILLER + "    net = nn.Linear(2, 2)\n"
        "def unrelated(x):\n" + FILLER + "    return value_7\n"
        "def use():\n    return net.weight.data\n"
    )
    parsed = []
    parse = torchlint.parsing._ElidedBody.parse
    monkeypatch.setattr(torchlint.parsing._ElidedBody, "parse", lambda self, *a: parsed.append(self.text) or parse(self, *a))
    codes = [d.code for d in lint_text(source, "m.py", [r for r in selectable_rules() if r.code == "TL001"]).diagnostics]
    assert codes == ["TL001"]
    assert len(parsed) == 1 and "global net" in parsed[0]


def test_a_body_holding_an_import_stays_unparsed_and_the_import_still_counts():
    """The import table comes from CPython's tree: a function's import is known without parsing
    the function (the table is file-wide, as it always was)."""
    source = ("import torch\ndef setup():\n    import torch.nn as tnn\n    if x: from os import path\n" + FILLER
              + "model = tnn.DataParallel(torch.nn.Linear(2, 2))\n")
    assert _elided_unparsed(parse_elided(source, frozenset({"DataParallel"}))) == ["setup"]
    rules = [r for r in selectable_rules() if r.code == "TL002"]
    elided = [d.to_json() for d in lint_text(source, "m.py", rules).diagnostics]
    torchlint.parsing.ELIDE = False
    try:
        whole = [d.to_json() for d in lint_text(source, "m.py", rules).diagnostics]
    finally:
        torchlint.parsing.ELIDE = True
    assert [d["code"] for d in elided] == ["TL002"] and elided == whole


@pytest.mark.parametrize(
    ("source", "code"),
    [
        ("from torch import load as tload\ndef restore(p):\n" + FILLER + "    return tload(p, weights_only=False)\n", "TL201"),
        ("import torch\ndef restore(p):\n" + FILLER + "    return torch.load (p, weights_only=False)\n", "TL201"),
        ("import torch\ndef restore(p):\n" + FILLER + "    return torch.load  (p, weights_only=False)\n", "TL201"),
        ("import torch\ndef restore(p):\n" + FILLER + "    return torch.load\t(p, weights_only=False)\n", "TL201"),
        ("import torch\ndef restore(p):\n" + FILLER + "    return (torch.load\n            (p, weights_only=False))\n", "TL201"),
        ("import torch as th\ndef f(x):\n" + FILLER + "    return th.log(1 + x)\n", "TL501"),
        ("from torch import load\ndef restore(p):\n" + FILLER + "    return load(p, weights_only=False)\n", "TL201"),
        ("from torch import exp\ndef f(x):\n" + FILLER + "    return exp(x) - 1\n", "TL502"),
    ],
)
def test_a_rule_of_calls_sees_its_call_however_it_is_spelled(source, code):
    """A call keeps its body however it is spaced (scope tokens are words); a name imported under
    an alias keeps it too."""
    rules = [r for r in selectable_rules() if r.code == code]
    assert [d.code for d in lint_text(source, "m.py", rules).diagnostics] == [code]


def test_a_body_without_the_called_name_stays_unparsed():
    source = "import torch\ndef f(path):\n" + FILLER + "    return torch.load(path)\n" \
             "def g(url):\n" + FILLER + "    return fetch(url)\n"
    assert _elided_unparsed(parse_elided(source, frozenset(call_tokens("load")))) == ["g"]


def test_what_the_engine_holds_for_its_file_belongs_to_one_thread():
    # `verify` and the language server lint on several threads: another thread finishing its
    # file must not take away (or swap) the tree this thread's file was checked with.
    import ast
    import threading

    text = "import torch\nw = p.data\n"
    tree = ast.parse(text)
    torchlint.parsing.remember_python_tree(text, tree)
    try:
        other = threading.Thread(target=torchlint.parsing.forget_python_tree)
        other.start()
        other.join()
        assert torchlint.parsing.python_tree(text) is tree
        seen = []
        other = threading.Thread(target=lambda: seen.append(torchlint.parsing.python_tree(text)))
        other.start()
        other.join()
        assert seen[0] is not tree and ast.dump(seen[0]) == ast.dump(tree)
    finally:
        torchlint.parsing.forget_python_tree()


def test_a_body_mentions_a_word_only_whole():
    source = "def f(x):\n" + FILLER + "    global_step = x.fc1\n    return global_step\n"
    module = parse_elided(source, frozenset({".data"}))
    (function,) = module.body
    body = function.body
    assert type(body) is ElidedBlock and not body.is_parsed
    assert body.mentions("fc1") and body.mentions("global_step")
    assert not body.mentions("global") and not body.mentions("fc") and not body.mentions("step")
    assert body.holds("global") and body.holds("fc")
    assert not body.is_parsed


HOOKED = (
    "import torch\n"
    "\n"
    "def unrelated(x):\n" + FILLER + "    return x\n"
    "\n"
    "def hook(module, inputs, output):\n"
    "    return module.forward(*inputs)\n"
    "\n"
    "def install(model):\n" + FILLER + "    model.register_forward_hook(hook)\n"
    "\n"
    "net = torch.nn.Linear(2, 2)\n"
    "net.forward(torch.ones(2))\n"
)


def test_the_hook_scan_parses_only_bodies_that_say_register(monkeypatch):
    from torchlint.rules.direct_forward_call import _registered_hooks

    module = parse_elided(HOOKED, frozenset({".forward"}))
    assert _elided_unparsed(module) == ["install", "unrelated"]
    names, _ = _registered_hooks(module)
    assert "hook" in names
    parsed = {statement.name.value: statement.body.is_parsed for statement in module.body
              if isinstance(statement, cst.FunctionDef) and type(statement.body) is ElidedBlock}
    assert parsed == {"install": True, "unrelated": False}
    findings = [d for d in lint_text(HOOKED, "hooked.py", selectable_rules()).diagnostics if d.code == "TL005"]
    direct_call = HOOKED.splitlines().index("net.forward(torch.ones(2))") + 1
    assert [(d.code, d.line) for d in findings] == [("TL005", direct_call)]  # not in the registered hook


def test_a_callback_registered_in_a_body_left_unparsed_keeps_what_it_is_given():
    """`x.register_hook(report)` inside a long function: the body is read for the registration
    (its text holds `hook(`), and the hook's `grad` is a tensor."""
    source = ("import torch\n\n\ndef report(grad):\n    print(grad.data.norm())\n\n\n"
              "def train(x):\n" + FILLER + "    x.register_hook(report)\n    return x\n\n\n"
              "train(torch.ones(2, requires_grad=True))\n")
    findings = [d for d in lint_text(source, "hooks.py", selectable_rules()).diagnostics if d.code == "TL001"]
    assert [d.line for d in findings] == [5]
