"""torchlint/data/deprecated.toml and the two rules it drives (TL301 removed, TL302 deprecated),
judged against the target torch."""

from __future__ import annotations

import pytest

from torchlint.context import LintSettings
from torchlint.deprecations import deprecations, parse_table
from torchlint.engine import fix_text, lint_text
from torchlint.rules._deprecated_api import message
from torchlint.rules.deprecated_torch_api import DeprecatedTorchApi
from torchlint.rules.removed_torch_api import RemovedTorchApi

RULES = [RemovedTorchApi, DeprecatedTorchApi]
# TorchFix's own table (its source, not only PyPI 0.7.0): every name must be ours too.
TORCHFIX_TABLE = (
    "torch.solve torch.qr torch.symeig torch.chain_matmul torch.cholesky torch.ger torch.lu_solve torch.norm "
    "torch.range torch.svd torch.triangular_solve torch.lu torch.nn.UpsamplingNearest2d "
    "torch.nn.UpsamplingBilinear2d torch.testing.assert_allclose torch.nn.utils.weight_norm "
    "torch.utils._pytree._register_pytree_node torch.backends.cuda.sdp_kernel torch.cuda.amp.autocast "
    "torch.cuda.amp.custom_fwd torch.cuda.amp.custom_bwd torch.cpu.amp.autocast functorch.vmap functorch.grad "
    "functorch.vjp functorch.jvp functorch.jacrev functorch.jacfwd functorch.hessian functorch.functionalize"
).split()


def codes(source: str, target: tuple[int, ...]) -> list[tuple[str, int]]:
    result = lint_text(source, "m.py", RULES, LintSettings(target_torch=target))
    assert not result.internal_errors
    return [(d.code, d.line) for d in result.diagnostics]


def test_table_has_torchfix_symbols_and_every_entry_is_complete():
    table = deprecations()
    assert set(TORCHFIX_TABLE) <= set(table)
    assert {name for name, entry in table.items() if entry.torchfix} == set(TORCHFIX_TABLE)
    assert len(table) > len(TORCHFIX_TABLE) + 10  # torch 2.13's own deprecations on top
    for entry in table.values():
        assert entry.source and entry.deprecated
        assert entry.removed is None or entry.removed > entry.deprecated
        if entry.fix != "none":
            assert entry.safety in ("safe", "unsafe") and entry.fix_target


@pytest.mark.parametrize("entry", list(deprecations().values()), ids=lambda entry: entry.name)
def test_every_message_is_short(entry):
    for removed in ([False, True] if entry.removed else [False]):
        for imported in (False, True):
            text = message(entry, removed, imported)
            assert len(text) <= 100 and entry.name in text


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('[[symbol]]\nname = "torch.x"\ndeprecated = "1.0"\nsource = "s"\nfix = "rename"\n', "safety"),
        ('[[symbol]]\nname = "torch.x"\ndeprecated = "1.0"\nsource = "s"\nfix = "rewrite"\nsafety = "safe"\nrewriter = "nope"\n', "rewriter"),
        ('[[symbol]]\nname = "torch.x"\ndeprecated = "1.0"\nsource = "s"\nfix = "maybe"\n', "fix must be"),
    ],
)
def test_malformed_table_entries_are_rejected(text, error):
    with pytest.raises(ValueError, match=error):
        parse_table(text)


def test_removed_symbols_depend_on_the_target():
    source = "import torch\nx = torch.solve(b, A)\n"
    assert codes(source, (2, 13)) == [("TL301", 2)]
    assert codes(source, (1, 12)) == [("TL302", 2)]  # deprecated, not yet removed
    assert codes(source, (1, 8)) == []  # not deprecated yet: nothing to say


def test_deprecated_symbol_is_silent_before_its_deprecation():
    source = "import torch\nwith torch.cuda.amp.autocast():\n    pass\n"
    assert codes(source, (2, 3)) == []
    assert codes(source, (2, 4)) == [("TL302", 2)]


def test_imports_are_reported_per_name_and_fixed_only_when_every_name_moves():
    assert codes("from torch import solve, qr\n", (2, 5)) == [("TL301", 1), ("TL302", 1)]
    mixed = "from functorch import vmap, make_fx\n"
    result = lint_text(mixed, "m.py", RULES)
    assert [d.code for d in result.diagnostics] == ["TL302"] and result.diagnostics[0].fix is None


@pytest.mark.parametrize(
    "source",
    [
        "import torch\nr = torch.range(x, 5)\n",  # not a literal: the end cannot be computed
        "import torch\ny = torch.chain_matmul(a)\n",  # multi_dot needs two matrices
        "import torch\ny = torch.chain_matmul(*ms)\n",
        "import torch\nL = torch.cholesky(*args)\n",
        "import torch\nwith torch.cuda.amp.autocast(True, torch.float16):\n    pass\n",
    ],
)
def test_calls_a_rewriter_cannot_prove_are_reported_without_a_fix(source):
    result = lint_text(source, "m.py", RULES)
    assert [d.code for d in result.diagnostics] == ["TL302"]
    assert result.diagnostics[0].fix is None


def test_a_from_imported_name_is_fixed_at_its_import_only():
    source = "from functorch import grad\nimport torch\ng = grad(f)\n"
    fixed = fix_text(source, "m.py", RULES)
    assert fixed.text == "from torch.func import grad\nimport torch\ng = grad(f)\n"


def test_a_fix_spells_names_only_through_imports_that_have_run():
    source = "from torch.utils.data import _utils\nq = _utils.collate.default_collate(b)\nimport torch\n"
    from torchlint.rules.nonpublic_collate import NonpublicCollate

    result = lint_text(source, "m.py", [NonpublicCollate])
    assert [d.code for d in result.diagnostics] == ["TL304"] and result.diagnostics[0].fix is None
    late = "def f(A):\n    return torch.qr(A)\nimport torch\n"  # a function body runs after the import
    assert fix_text(late, "m.py", RULES).text == "def f(A):\n    return torch.linalg.qr(A)\nimport torch\n"


def test_the_rules_declared_fix_safety_covers_the_table():
    safeties = {entry.safety for entry in deprecations().values() if entry.fix != "none"}
    assert safeties <= set(DeprecatedTorchApi.fix_safety)
    assert RemovedTorchApi.fix_safety == ()  # removed symbols: no fix (every replacement differs)
    assert all(entry.fix == "none" for entry in deprecations().values() if entry.removed)


@pytest.mark.parametrize(("source", "expected"), [
    # the old classes fix their dtype; torch.amp.autocast's `dtype=None` takes the enclosing region's
    ("import torch\nwith torch.cuda.amp.autocast():\n    pass\n",
     "import torch\nwith torch.amp.autocast(\"cuda\", dtype=torch.float16):\n    pass\n"),
    ("import torch as th\nwith th.cpu.amp.autocast(enabled=False):\n    pass\n",
     "import torch as th\nwith th.amp.autocast(\"cpu\", enabled=False, dtype=th.bfloat16):\n    pass\n"),
    ("import torch\nwith torch.cuda.amp.autocast(dtype=torch.bfloat16):\n    pass\n",
     "import torch\nwith torch.amp.autocast(\"cuda\", dtype=torch.bfloat16):\n    pass\n"),
])
def test_autocast_keeps_the_dtype_its_old_class_fixes(source, expected):
    assert fix_text(source, "m.py", RULES).text == expected


def test_a_call_of_a_name_imported_in_two_branches_is_left_alone():
    """`if new_torch: from torch.amp import GradScaler` / `else: from torch.cuda.amp import
    GradScaler`: `GradScaler(device, ...)` is written for whichever import ran (torchrl's
    trainers); rewriting it to `torch.amp.GradScaler("cuda", device, ...)` shifted its arguments."""
    shim = ("import torch\nif NEW:\n    from torch.amp import GradScaler\nelse:\n    from torch.cuda.amp import GradScaler\n"
            "s = GradScaler(device_type, enabled=True)\n")
    assert [d.line for d in lint_text(shim, "m.py", RULES).diagnostics if d.line == 6] == []
    single = "from torch.cuda.amp import GradScaler\ns = GradScaler(enabled=True)\n"
    assert [d.line for d in lint_text(single, "m.py", RULES).diagnostics] == [1, 2]


def test_two_imports_of_one_module_are_no_shim():
    """`import torch` and `import torch.utils.data` both bind `torch` to torch: its deprecated calls
    are judged as in any file."""
    source = "import torch\nimport torch.utils.data\ns = torch.cuda.amp.GradScaler(enabled=False)\n"
    assert [(d.code, d.line) for d in lint_text(source, "m.py", RULES).diagnostics] == [("TL302", 3)]
