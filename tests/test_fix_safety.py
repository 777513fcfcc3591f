"""Programs whose fix once broke them: each is linted, fixed with `--fix --unsafe-fixes` by the
real fixer, and run before and after with the test environment's torch; the output must agree.

Each program also states what the rule must do with it: stay silent (the rule's premise is not
proven), report without a fix (the premise holds, the fix is not proven), or fix.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from torchlint.engine import fix_text, lint_text
from torchlint.rules.registry import rule_by_code

PROGRAMS = Path(__file__).parent / "data" / "fix_safety"

SILENT, NO_FIX, FIXED = "silent", "reported without a fix", "fixed"
EXPECTED = {
    "tl001_packed.py": SILENT,
    "tl001_loaded_model.py": FIXED,
    "tl001_module_by_use.py": FIXED,
    "tl008_recursive_guard.py": FIXED,
    "tl001_targets.py": FIXED,
    "tl001_localimport.py": NO_FIX,
    "tl001_requires_grad_alias.py": FIXED,
    "tl001_transpose_alias.py": FIXED,
    "tl001_detach_alias.py": FIXED,
    "tl001_set_alias.py": FIXED,
    "tl002_saved_state_dict.py": NO_FIX,
    "tl002_named_parameters.py": NO_FIX,
    "tl002_returned_via_tuple.py": NO_FIX,
    "tl003_list_stack_backward.py": SILENT,
    "tl003_closure_backward.py": SILENT,
    "tl003_class_attribute.py": SILENT,
    "tl003_yield_backward.py": SILENT,
    "tl003_lambda_backward.py": SILENT,
    "tl003_closure_step.py": SILENT,
    "tl003_printed_only.py": FIXED,
    "tl002_localimport.py": NO_FIX,
    "tl002_othername.py": NO_FIX,
    "tl002_chained_move.py": FIXED,
    "tl002_unwrap_helper.py": NO_FIX,
    "tl003_each_backward.py": SILENT,
    "tl003_returned_epoch.py": SILENT,
    "tl004_chain_and_map.py": FIXED,
    "tl004_mode_changed.py": NO_FIX,
    "tl003_subscript_flow.py": SILENT,
    "tl003_helper_backward.py": SILENT,
    "tl003_attr_flow.py": SILENT,
    "tl003_list_then_stack.py": SILENT,
    "tl003_global_backward.py": SILENT,
    "tl003_logged_total.py": FIXED,
    "tl004_evalmode.py": FIXED,
    "tl004_other_load.py": NO_FIX,
    "tl004_nested.py": NO_FIX,
    "tl004_partial_load.py": NO_FIX,
    "tl004_load_alias.py": FIXED,
    "tl005_call_override.py": NO_FIX,
    "tl005_decorated_singleton.py": SILENT,
    "tl001_micrograd_mixed.py": SILENT,
    "tl005_call_assigned_later.py": NO_FIX,
    "tl005_rebind.py": SILENT,
    "tl005_hook_by_name.py": SILENT,
    "tl005_hook_lambda.py": SILENT,
    "tl005_hook_method.py": SILENT,
    "tl005_call_alias_attr.py": NO_FIX,
    "tl005_forward_in_call_of_base.py": NO_FIX,
    "tl005_header_rebind.py": SILENT,
    "tl006_phases.py": SILENT,
    "tl006_repeats.py": SILENT,
    "tl006_nested_repeats.py": SILENT,
    "tl006_outer_epoch.py": FIXED,
    "tl006_helper_sets_epoch.py": SILENT,
    "tl006_sampler_rebuilt_each_epoch.py": SILENT,
    "tl006_sampler_rebuilt_same_seed.py": NO_FIX,
    "tl006_while_epochs.py": NO_FIX,
    "tl006_epoch_from_tuple.py": NO_FIX,
    "tl006_batch_sampler.py": SILENT,
    "tl008_excinfo.py": NO_FIX,
    "tl008_helper_reads_exception.py": NO_FIX,
    "tl008_plain_retry.py": FIXED,
    "tl008_nested_try_in_handler.py": FIXED,
    "tl008_in_loop_retry.py": FIXED,
    "tl008_flag_name_taken.py": FIXED,
    "tl008_handler_reraises_new_error.py": NO_FIX,
}


def _outcome(code: str, source: str, path: str) -> tuple[str, str]:
    rule = rule_by_code(code)
    found = [d for d in lint_text(source, path, [rule]).diagnostics if d.code == code]
    fixed = fix_text(source, path, [rule], unsafe_fixes=True)
    assert fixed.failure is None
    if not found:
        return SILENT, fixed.text
    return (FIXED if fixed.text != source else NO_FIX), fixed.text


# Runs each program given on the command line in one interpreter (torch is imported once), in
# its own folder and namespace, and prints a JSON list of [status, stdout] pairs.
_RUNNER = """
import contextlib, io, json, logging, os, runpy, sys
results = []
for path in sys.argv[1:]:
    for handler in list(logging.root.handlers):  # a program's logging.basicConfig must take effect
        logging.root.removeHandler(handler)
    out = io.StringIO()
    os.chdir(os.path.dirname(path))
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(path, run_name="__main__")
        status = "ok"
    except BaseException as error:
        status = type(error).__name__ + ": " + str(error)
    results.append([status, out.getvalue()])
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every program before and after its fix, run once for the whole module."""
    root = tmp_path_factory.mktemp("fix_safety")
    outcomes, paths = {}, []
    for name in sorted(EXPECTED):
        code = name.split("_", 1)[0].upper()
        source = (PROGRAMS / name).read_text(encoding="utf-8")
        outcome, fixed = _outcome(code, source, name)
        outcomes[name] = outcome
        for stage, text in (("before", source), ("after", fixed)):
            path = root / stage / name.removesuffix(".py") / name
            path.parent.mkdir(parents=True)
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
    result = subprocess.run([sys.executable, "-c", _RUNNER, *paths], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    ran = json.loads(result.stdout.strip().splitlines()[-1])
    # tracebacks name the program's folder, which differs between the two runs
    ran = [[status, out.replace(str(Path(path).parent), "<dir>")] for (status, out), path in zip(ran, paths)]
    return {name: (outcomes[name], ran[2 * i], ran[2 * i + 1]) for i, name in enumerate(sorted(EXPECTED))}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fix_keeps_the_program_working(name, runs):
    outcome, before, after = runs[name]
    assert outcome == EXPECTED[name]
    assert before[0] == "ok", f"the original program must run: {before[0]}"
    assert after == before


def test_every_program_has_an_expectation():
    assert sorted(p.name for p in PROGRAMS.glob("*.py")) == sorted(EXPECTED)


SAVES_NET = (
    "import torch\nimport torch.nn as nn\nmodel = nn.Linear(2, 2)\ntorch.save(model, 'checkpoints/net.pt')\n"
)


def test_tl004_no_fix_when_another_file_of_the_project_names_the_checkpoint(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "train").mkdir()
    (tmp_path / "train" / "save.py").write_text(SAVES_NET)
    monkeypatch.chdir(tmp_path)
    rule = rule_by_code("TL004")
    fixed = fix_text(SAVES_NET, "train/save.py", [rule], unsafe_fixes=True)
    assert "model.state_dict()" in fixed.text
    (tmp_path / "serve.py").write_text("import torch\nnet = torch.load('net.pt', weights_only=False)\n")
    assert fix_text(SAVES_NET, "train/save.py", [rule], unsafe_fixes=True).text == SAVES_NET
    (finding,) = lint_text(SAVES_NET, "train/save.py", [rule]).diagnostics
    assert finding.fix is None



@pytest.mark.parametrize(
    "reader, text",
    [
        pytest.param("run.sh", "python train/save.py\npython evaluate.py --ckpt checkpoints/net.pt\n", id="launch-script"),
        pytest.param("configs/eval.yaml", "checkpoint: checkpoints/net.pt\n", id="config"),
        pytest.param("README.md", "Evaluate with `python evaluate.py net.pt`.\n", id="readme"),
    ],
)
def test_tl004_no_fix_when_a_script_config_or_doc_names_the_checkpoint(tmp_path, monkeypatch, reader, text):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "train").mkdir()
    (tmp_path / "train" / "save.py").write_text(SAVES_NET)
    (tmp_path / "evaluate.py").write_text("import sys\nimport torch\nnet = torch.load(sys.argv[-1], weights_only=False)\n")
    monkeypatch.chdir(tmp_path)
    rule = rule_by_code("TL004")
    assert "model.state_dict()" in fix_text(SAVES_NET, "train/save.py", [rule], unsafe_fixes=True).text
    (tmp_path / reader).parent.mkdir(exist_ok=True)
    (tmp_path / reader).write_text(text)
    assert fix_text(SAVES_NET, "train/save.py", [rule], unsafe_fixes=True).text == SAVES_NET


def test_tl007_dataset_class_of_another_module_is_silent_not_an_internal_error(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "data.py").write_text(
        "import random\nfrom torch.utils.data import Dataset\n\n\nclass Jitter(Dataset):\n"
        "    def __init__(self):\n        self.rng = random.Random(0)\n\n"
        "    def __getitem__(self, i):\n        return self.rng.random()\n"
    )
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\nfrom data import Jitter\nloader = DataLoader(Jitter(), num_workers=2)\n"
    )
    result = cli("check", "--no-cache", "--select", "TL007", ".")
    assert (result.exit_code, result.output.strip()) == (0, "All checks passed!")


def test_tl001_a_receiver_guessed_by_its_parameter_name_gets_an_unsafe_fix():
    """`self.conv.weight` of a submodule built elsewhere is taken for a layer's parameter by its
    name alone: reported, but `.detach()` is applied only with unsafe fixes."""
    rule = rule_by_code("TL001")
    source = ("import torch\nfrom .factory import make_conv\n\n\nclass Block(torch.nn.Module):\n"
              "    def __init__(self):\n        super().__init__()\n        self.conv = make_conv()\n\n"
              "    def weights(self):\n        return self.conv.weight.data.clone()\n")
    [finding] = lint_text(source, "block.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    assert fix_text(source, "block.py", [rule]).text == source
    assert "self.conv.weight.detach().clone()" in fix_text(source, "block.py", [rule], unsafe_fixes=True).text
    known = source.replace("make_conv()", "torch.nn.Conv2d(3, 8, 3)")
    [finding] = lint_text(known, "block.py", [rule]).diagnostics
    assert finding.fix.applicability == "safe"


def test_tl005_a_module_of_unknown_class_gets_an_unsafe_fix():
    """An element of `net.modules()` may be any class of the project, one overriding `__call__`
    among them (calling it would not run `forward` as written): reported, the call written only
    with unsafe fixes. A module a library builds keeps its safe fix."""
    rule = rule_by_code("TL005")
    source = ("import torch.nn as nn\n\n\nclass Twice(nn.Module):\n    def __call__(self, x):\n"
              "        return 2 * self.forward(x)\n\n\ndef run(net, x):\n    for m in net.modules():\n"
              "        if isinstance(m, nn.Module):\n            x = m.forward(x)\n    return x\n")
    [finding] = lint_text(source, "run.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    assert fix_text(source, "run.py", [rule]).text == source
    assert "x = m(x)" in fix_text(source, "run.py", [rule], unsafe_fixes=True).text
    narrowed = source.replace("class Twice(nn.Module)", "class Twice(nn.Linear)").replace("nn.Module)", "nn.Linear)")
    [finding] = lint_text(narrowed, "run.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"  # a subclass passes the type test
    built = "import torch.nn as nn\nm = nn.Linear(2, 2)\ny = m.forward(x)\n"
    [finding] = lint_text(built, "m.py", [rule]).diagnostics
    assert finding.fix.applicability == "safe"


def test_tl005_a_module_chosen_from_several_classes():
    """`Net = A if big else B; Net().forward(x)` and `{"a": A, "b": B}[name]()`: every choice is a
    module class, so the instance is a module; which class is not known, so the fix is unsafe.
    A choice that may be something else, or a table that may be changed later (named otherwise
    than to look a class up), says nothing."""
    rule = rule_by_code("TL005")
    classes = ("import torch.nn as nn\n\n\nclass A(nn.Module):\n    pass\n\n\nclass B(A):\n    pass\n\n\n"
               "class Plain:\n    def forward(self, x):\n        return x\n\n\n")
    flagged = [
        "def run(big, x):\n    Net = A if big else B\n    net = Net()\n    return net.forward(x)\n",
        "def run(name, x):\n    return {'a': A, 'b': B}[name]().forward(x)\n",
        "def run(name, x):\n    table = {'a': A, 'b': B}\n    cls = table[name]\n    return cls().forward(x)\n",
        "def run(big, x):\n    Net = A if big else (B if x else nn.Linear)\n    return Net(2, 2).forward(x)\n",
        # a module-level table that only its display fills (no other module of the project names it)
        "TABLE = {'a': A, 'b': B}\n\n\ndef run(name, x):\n    cls = TABLE[name]\n    return cls().forward(x)\n",
        "TABLE = dict(a=A, b=B)\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n",
        # a star import before the table: the table's binding comes after it
        "from plugins import *\nTABLE = {'a': A, 'b': B}\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n",
    ]
    for body in flagged:
        [finding] = lint_text(classes + body, "run.py", [rule]).diagnostics
        assert finding.fix is not None and finding.fix.applicability == "unsafe", body
    # one entry: that very class (or a KeyError), so the fix is proven
    single = "TABLE = {'a': A}\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n"
    [finding] = lint_text(classes + single, "run.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "safe"
    silent = [
        "def run(big, x):\n    Net = A if big else Plain\n    return Net().forward(x)\n",
        "def run(big, x, make):\n    Net = A if big else make\n    return Net().forward(x)\n",
        "def run(name, x):\n    return {'a': A, 'p': Plain}[name]().forward(x)\n",
        "TABLE = {'a': A, 'b': B}\nTABLE['p'] = Plain\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n",
        "def run(name, x, extra):\n    return {'a': A, **extra}[name]().forward(x)\n",
        # a module-level table the file names otherwise: handed on, aliased or printed, it may be filled there
        "TABLE = {'a': A, 'b': B}\nfill(TABLE)\n\n\ndef run(name, x):\n    cls = TABLE[name]\n    return cls().forward(x)\n",
        "TABLE = {'a': A, 'b': B}\nT = TABLE\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n",
        "TABLE = {'a': A, 'b': B}\nglobals()['TABLE']['p'] = Plain\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n",
        "TABLE = {'a': A, 'b': B}\nif x:\n    TABLE = {'p': Plain}\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n",
        "TABLE = dict(a=A, **extra)\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n",
        # a star import after the table may bind the name anew
        "TABLE = {'a': A, 'b': B}\nfrom plugins import *\n\n\ndef run(name, x):\n    return TABLE[name]().forward(x)\n",
        "TABLE = {'a': A, 'b': B}\n\n\ndef run(name, x, dict=dict):\n    return dict(a=A, p=Plain)[name]().forward(x)\n",
        # a local table handed on or aliased may be filled there
        "def run(name, x):\n    table = {'a': A, 'b': B}\n    fill(table)\n    return table[name]().forward(x)\n",
        "def run(name, x):\n    table = {'a': A, 'b': B}\n    alias = table\n    alias['p'] = Plain\n    return table[name]().forward(x)\n",
        "def run(name, x):\n    table = {'a': A, 'b': B}\n    dict.update(table, p=Plain)\n    return table[name]().forward(x)\n",
        "TABLE = {'a': A, 'b': B}\n\n\ndef register(name, cls):\n    TABLE[name] = cls\n\n\n"
        "def run(name, x):\n    return TABLE[name]().forward(x)\n",
        "def run(big, x):\n    Net = A\n    for Net in (A, Plain):\n        pass\n    return Net().forward(x)\n",
    ]
    for body in silent:
        assert lint_text(classes + body, "run.py", [rule]).diagnostics == [], body


def test_tl001_a_receiver_taken_for_a_tensor_by_its_use_gets_an_unsafe_fix():
    """`trg.size(0)` says `trg` is a tensor only as far as no class of its own answers to `size`:
    reported, `.detach()` only with unsafe fixes; the guess holds through what is computed from it,
    also with a sure tensor (were `trg` another object, its `__add__` would decide what the sum is)."""
    rule = rule_by_code("TL001")
    source = ("import torch\n\n\nclass Seq(torch.nn.Module):\n    def forward(self, src, trg):\n"
              "        n = trg.size(0)\n        first = trg.cuda()\n        return first.data[0], n\n")
    [finding] = lint_text(source, "seq.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    assert fix_text(source, "seq.py", [rule]).text == source
    assert "first.detach()[0]" in fix_text(source, "seq.py", [rule], unsafe_fixes=True).text
    summed = source.replace("first = trg.cuda()", "first = trg.cuda() + torch.zeros(1)")
    [finding] = lint_text(summed, "seq.py", [rule]).diagnostics
    assert finding.fix.applicability == "unsafe"
    made = source.replace("first = trg.cuda()", "first = torch.zeros(1) + 1")
    [finding] = lint_text(made, "seq.py", [rule]).diagnostics
    assert finding.fix.applicability == "safe"
    assert lint_text(source.replace("n = trg.size(0)", "n = trg.size"), "seq.py", [rule]).diagnostics == []


def test_tl001_a_method_parameter_typed_by_its_callers_gets_an_unsafe_fix():
    """Every call the index sees passes a tensor, but a method can also be reached by a name
    computed at run time on another object: reported, `.detach()` only with unsafe fixes. The same
    parameter of a module-level function keeps its safe fix."""
    rule = rule_by_code("TL001")
    method = ("import torch\n\n\nclass Pool:\n    def query(self, images):\n        return images.data\n\n\n"
              "def step(pool, a):\n    return pool.query(torch.cat([a, a]))\n")
    [finding] = lint_text(method, "pool.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    assert fix_text(method, "pool.py", [rule]).text == method
    function = ("import torch\n\n\ndef query(images):\n    return images.data\n\n\n"
                "def step(a):\n    return query(torch.cat([a, a]))\n")
    [finding] = lint_text(function, "pool.py", [rule]).diagnostics
    assert finding.fix.applicability == "safe"


@pytest.mark.parametrize(
    ("statement", "converts"),
    [
        ("l.weight.data = l.weight.data.half()", True),
        ("l.weight.data = l.weight.data.to(torch.float16)", True),
        ("l.weight.data = l.weight.data * 2", False),
        ("l.weight.data = other.weight.data.float()", False),  # a copy from another tensor: `copy_` is right
        ("l.weight.data = l.weight.float()", True),
        ("l.weight.data = l.weight.data.add_(1)", False),  # one finding, not two
    ],
)
def test_tl001_an_assignment_to_data_is_one_finding_without_a_fix(statement, converts):
    """`p.data = p.data.half()` is one finding for the statement (its `.data` read is part of it),
    with no fix: an assignment can change the dtype or device, which `copy_` cannot; the message
    says to convert the module then."""
    rule = rule_by_code("TL001")
    source = f"import torch\n\n\ndef cast(l: torch.nn.Linear, other: torch.nn.Linear):\n    {statement}\n"
    [finding] = lint_text(source, "cast.py", [rule]).diagnostics
    assert finding.fix is None and finding.column == 5
    assert ("module.half()" in finding.message) is converts
    assert fix_text(source, "cast.py", [rule], unsafe_fixes=True).text == source


def test_tl001_a_read_on_another_line_of_an_assignment_to_data_keeps_its_own_finding():
    rule = rule_by_code("TL001")
    source = ("import torch\n\n\ndef renorm(l: torch.nn.Linear):\n    l.weight.data = torch.renorm(\n"
              "        l.weight.data, p=2, dim=0, maxnorm=1.0\n    )\n")
    assignment, read = lint_text(source, "renorm.py", [rule]).diagnostics
    assert (assignment.line, assignment.fix, read.line, read.fix.applicability) == (5, None, 6, "safe")


def test_tl003_a_value_taken_for_a_tensor_by_a_guess_gets_an_unsafe_fix():
    """The added value is a method's parameter typed by the calls the project shows: were it a
    number, `.detach()` would not exist on it. The same accumulation of a loss built in the loop
    keeps its safe fix."""
    rule = rule_by_code("TL003")
    head = "import torch\nimport torch.nn as nn\n\ncriterion = nn.MSELoss()\nmodel = nn.Linear(2, 2)\n\n\n"
    guessed = head + (
        "class Runner:\n    def run(self, loss, steps):\n        total_loss = 0\n"
        "        for _ in range(steps):\n            total_loss += loss\n        print(total_loss)\n\n\n"
        "Runner().run(criterion(model(torch.ones(2)), torch.zeros(2)), 3)\n"
    )
    [finding] = lint_text(guessed, "run.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    assert fix_text(guessed, "run.py", [rule]).text == guessed
    assert "total_loss += loss.detach()" in fix_text(guessed, "run.py", [rule], unsafe_fixes=True).text
    built = head + (
        "def run(steps):\n    total_loss = 0\n    for _ in range(steps):\n"
        "        loss = criterion(model(torch.ones(2)), torch.zeros(2))\n        total_loss += loss\n    print(total_loss)\n"
    )
    [finding] = lint_text(built, "run.py", [rule]).diagnostics
    assert finding.fix.applicability == "safe"


def test_tl003_a_loss_that_may_still_be_the_number_it_started_at_gets_an_unsafe_fix():
    rule = rule_by_code("TL003")
    source = ("import torch\nimport torch.nn as nn\n\nmodel = nn.Linear(2, 1)\ncriterion = nn.MSELoss()\n"
              "total_loss = 0\nfor x, y in data:\n    loss = 0.0\n    if x.shape[1] == 2:\n"
              "        loss = criterion(model(x), y)\n    total_loss += loss\nprint(float(total_loss))\n")
    [finding] = lint_text(source, "train.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"


@pytest.mark.parametrize(
    ("dim", "applicability"),
    [("1", "safe"), ("-1", "safe"), ("(1, 2)", "safe"), ("dim", "unsafe"), ("self.dim", "unsafe"), ("()", "unsafe")],
)
def test_tl503_logsumexp_is_safe_only_with_dimensions_written_out(dim, applicability):
    """`torch.sum` takes `dim=None` and `dim=()`, `torch.logsumexp` refuses them: a `dim` held in a
    name may be either at run time."""
    rule = rule_by_code("TL503")
    source = f"import torch\ndef lse(e, dim=None):\n    return torch.log(torch.sum(torch.exp(-e), dim={dim}))\n"
    [finding] = lint_text(source, "lse.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == applicability
    assert f"torch.logsumexp(-e, dim={dim})" in fix_text(source, "lse.py", [rule], unsafe_fixes=True).text


def test_tl001_an_attribute_that_may_be_a_number_gets_an_unsafe_fix():
    """`self.loss_kl = 0` where the loss is off: `.detach()` on the number would raise as `.data` does,
    but which binding reaches the read is a guess."""
    source = ("import torch.nn as nn\n\n\nclass M:\n    def __init__(self, w):\n        self.w, self.crit = w, nn.L1Loss()\n\n"
              "    def step(self, a, b):\n        if self.w > 0:\n            self.loss = self.crit(a, b) * self.w\n"
              "        else:\n            self.loss = 0.0\n\n    def errors(self):\n        return self.loss.data\n")
    [finding] = lint_text(source, "m.py", [rule_by_code("TL001")]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"


REPORTS = "def report(net):\n    return [p.data.numel() for p in net.parameters()]\n"


@pytest.mark.parametrize(
    ("models", "applicability"),
    [
        ("import torch.nn as nn\nmodel = nn.Sequential(nn.LazyLinear(8), nn.ReLU())\n", "unsafe"),
        ("from torch import nn\nmodel = nn.LazyConv2d(4, 3)\n", "unsafe"),
        ("import torch\nfrom torch.nn.parameter import UninitializedParameter\n\n\nclass Lazy(torch.nn.Module):\n"
         "    def __init__(self):\n        super().__init__()\n        self.weight = UninitializedParameter()\n", "unsafe"),
        ("import torch.nn as nn\nLAYERS = {'lazy': nn.LazyLinear, 'dense': nn.Linear}\nmodel = LAYERS['lazy'](2)\n", "unsafe"),
        ("import torch.nn as nn\n\n\nclass AutoDense(nn.LazyLinear):\n    pass\n\n\nmodel = AutoDense(2)\n", "unsafe"),
        ("import torch.nn as nn\nmodel = nn.Sequential(nn.Linear(5, 8), nn.ReLU())\n", "safe"),
        ("import torch.nn as nn\n\n\nclass LazyLinearish:  # another name\n    pass\n\n\nlazy = nn.Linear(5, 8)\n", "safe"),
        ("def lazy_linear(n):\n    return n\nmodel = lazy_linear(8)\n", "safe"),
    ],
)
def test_tl001_detach_is_unsafe_in_a_project_that_builds_lazy_modules(cli, tmp_path, models, applicability):
    """An uninitialised parameter of a lazy module (before its first call) takes `.data` but
    refuses `.detach()`; another file of the project building one is enough."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "models.py").write_text(models)
    (tmp_path / "train.py").write_text("import torch\n\n\n" + REPORTS + "print(report(torch.nn.Linear(2, 2)))\n")
    for named in (".", "train.py"):  # the whole project, or the one file (as pre-commit names it)
        result = cli("check", "--select", "TL001", "--output-format", "json", "--no-cache", "--exit-zero", named)
        [finding] = json.loads(result.output)
        assert finding["fix"]["applicability"] == applicability


@pytest.mark.parametrize(
    ("argument", "applicability"),
    [("1 + img", "unsafe"), ("img + 1", "unsafe"), ("1.0 + img", "safe"), ("img + 1.", "safe"), ("1e0 + img", "safe")],
)
def test_tl501_log1p_is_safe_only_when_one_is_a_float(argument, applicability):
    """`img + 1` on a uint8 image wraps 255 round to 0 (whose log is -inf), where `log1p(img)`
    does not; `img + 1.0` is computed in float."""
    rule = rule_by_code("TL501")
    source = f"import torch\nimg = torch.tensor([0, 255], dtype=torch.uint8)\nprint(torch.log({argument}))\n"
    [finding] = lint_text(source, "image.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == applicability
    assert "torch.log1p(img)" in fix_text(source, "image.py", [rule], unsafe_fixes=True).text
    assert ("torch.log1p" in fix_text(source, "image.py", [rule]).text) == (applicability == "safe")


@pytest.mark.parametrize(
    ("use", "applicability"),
    [
        ("saved = w.clone()\nw.add_(0.01)\nw.copy_(saved)\n", "unsafe"),
        ("w += 0.01\n", "unsafe"),
        ("w[0] = 0.0\n", "unsafe"),
        ("torch.nn.init.normal_(w)\n", "unsafe"),
        ("torch.add(w, 1, out=w)\n", "unsafe"),
        ("print(w.sum())\nv = w.clone()\nv.add_(1)\n", "safe"),
        ("w = w.clone()\n", "safe"),
        ("other = torch.zeros(2)\nother.add_(-0.1, w[0])\n", "safe"),  # what `w` is added to changes
    ],
)
def test_tl001_a_read_bound_to_a_name_changed_in_place_gets_an_unsafe_fix(use, applicability):
    """`.detach()` shares the version counter `.data` does not: a perturbation made and undone
    through the alias makes a later backward raise (a sharpness probe)."""
    rule = rule_by_code("TL001")
    source = f"import torch\nimport torch.nn as nn\nlayer = nn.Linear(2, 2)\nw = layer.weight.data\n{use}"
    [finding] = lint_text(source, "probe.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == applicability


@pytest.mark.parametrize("source", [
    # a path to a checkpoint or a tensor: the file may hold a PackedSequence, whose `.data` is its own
    "import torch\n\n\ndef features(src):\n    if not torch.is_tensor(src):\n        src = torch.load(src)\n"
    "    return src.data\n",
    "import torch\n\n\ndef features(src, cond):\n    if cond:\n        src = torch.load(src)\n    else:\n"
    "        src = torch.ones(2)\n    return src.data\n",
], ids=["coerced", "either-branch"])
def test_tl001_a_tensor_beside_what_torch_load_gave_gets_an_unsafe_fix(source):
    """What `torch.load` returned merges as neutral beside a tensor: reported, but the fix rests
    on a guess (a twentieth-round hostile review: a loaded PackedSequence broke under `.detach()`)."""
    rule = rule_by_code("TL001")
    [finding] = lint_text(source, "prog.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    assert fix_text(source, "prog.py", [rule]).text == source


@pytest.mark.parametrize("guard", [
    "    if not isinstance(m, Net):\n        raise TypeError(m)\n",
    "    if not isinstance(m, nn.Linear):\n        return None\n",
], ids=["project-class", "torch-class"])
def test_tl005_a_module_known_by_a_negated_type_test_gets_an_unsafe_fix(guard):
    """Any subclass passes the test, and one may override `__call__` (a hostile review: a safe
    fix made a program call a subclass's `__call__`)."""
    rule = rule_by_code("TL005")
    source = ("import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Linear):\n    pass\n\n\n"
              "class Logged(Net):\n    def __call__(self, x):\n        return torch.zeros(1)\n\n\n"
              "def run(m, x):\n" + guard + "    return m.forward(x)\n")
    [finding] = lint_text(source, "prog.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"


@pytest.mark.parametrize("loaded", ["torch.load(path)", "torch.load(path).cuda()", "torch.load(path).eval().cpu()"])
def test_tl001_the_output_of_a_module_beside_what_torch_load_gave_gets_an_unsafe_fix(loaded):
    """The loaded object may be a model of another class, whose output's `.data` is its own (a
    PackedSequence): the class built in the other branch does not prove what `.data` reads."""
    rule = rule_by_code("TL001")
    source = ("import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
              f"        return torch.relu(x)\n\n\ndef run(path, x):\n    model = {loaded} if path else Net()\n"
              "    return model(x).data\n")
    [finding] = lint_text(source, "prog.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"


def test_tl001_a_tuple_output_of_a_module_beside_what_torch_load_gave_is_not_read():
    """The loaded model may return a PackedSequence where the class of the other branch returns
    a tensor (a hostile review: the safe fix crashed on the PackedSequence)."""
    rule = rule_by_code("TL001")
    source = ("import torch\nimport torch.nn as nn\n\n\nclass Tagger(nn.Module):\n    def forward(self, x):\n"
              "        return torch.relu(x), x\n\n\ndef run(path, x):\n    model = torch.load(path) if path else Tagger()\n"
              "    return model(x)[0].data\n")
    assert all(d.fix is None or d.fix.applicability == "unsafe" for d in lint_text(source, "prog.py", [rule]).diagnostics)
    assert fix_text(source, "prog.py", [rule]).text == source


def test_tl005_a_module_beside_what_torch_load_gave_gets_an_unsafe_fix():
    rule = rule_by_code("TL005")
    source = ("import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
              "        return x\n\n\ndef run(path, x):\n    model = torch.load(path) if path else Net()\n"
              "    return model.forward(x)\n")
    [finding] = lint_text(source, "prog.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"


def test_tl001_a_type_test_against_a_class_of_its_own_beats_the_annotation():
    """monai's `left.data if isinstance(left, Affine) else left` with `left: torch.Tensor`: in that
    branch `left` is an `Affine` (a plain class with a `.data` of its own); `.detach()` would crash."""
    rule = rule_by_code("TL001")
    head = "import torch\n\n\nclass Affine:\n    def __init__(self, data):\n        self.data = data\n\n\n"
    silent = [
        "def combine(left: torch.Tensor):\n    return torch.as_tensor(left.data if isinstance(left, Affine) else left)\n",
        "def combine(left: torch.Tensor):\n    if isinstance(left, Affine):\n        return left.data\n    return left\n",
        "def combine(left: torch.Tensor):\n    if type(left) is Affine:\n        return left.data\n    return left\n",
    ]
    for body in silent:
        assert lint_text(head + body, "combine.py", [rule]).diagnostics == [], body
    flagged = "def combine(left: torch.Tensor):\n    return left.data if isinstance(left, torch.Tensor) else left\n"
    [finding] = lint_text(head + flagged, "combine.py", [rule]).diagnostics
    assert finding.fix is not None


def test_no_fix_inside_a_self_documenting_f_string_field():
    """`f"{out.data=}"` prints its own text: `out.detach()=` would change what it prints."""
    from torchlint.rules.registry import all_rules
    source = ("import torch\nimport torch.nn as nn\nlin = nn.Linear(2, 1)\nx = torch.ones(1, 2)\nout = lin(x)\n"
              "print(f\"{lin.forward(x)=}\")\nprint(f\"{out.data=}\")\nprint(f\"{torch.exp(out) - 1=}\")\n"
              "print(f\"{out.data}\")\n")
    found = {(d.code, d.line): d.fix for d in lint_text(source, "m.py", all_rules()).diagnostics}
    assert {("TL005", 6), ("TL001", 7), ("TL502", 8), ("TL001", 9)} <= found.keys()
    assert found[("TL005", 6)] is None and found[("TL001", 7)] is None and found[("TL502", 8)] is None
    assert found[("TL001", 9)] is not None  # (a plain field prints only the value)
