from __future__ import annotations

import sys

import pytest

import torchlint.engine
from torchlint.engine import _parse as _parse_real
from torchlint.engine import apply_edits, fix_text, lint_text
from torchlint.diagnostics import make_edit
from torchlint.rules.registry import rule_by_code
from torchlint.selection import selectable_rules

from .conftest import FORWARD_FIXED, FORWARD_SOURCE

TL005 = rule_by_code("TL005")


def test_lint_reports_span_with_one_based_columns():
    (diagnostic,) = lint_text(FORWARD_SOURCE, "m.py", [TL005]).diagnostics
    assert (diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column) == (3, 7, 3, 23)
    (edit,) = diagnostic.fix.edits
    assert (edit.line, edit.column, edit.end_column, edit.content) == (3, 12, 20, "")


def test_nested_fixes_all_apply_and_fixing_is_idempotent():
    source = "import torch.nn as nn\na = nn.Linear(2, 2)\nb = nn.Linear(2, 2)\ny = a.forward(b.forward(x))\n"
    result = fix_text(source, "m.py", [TL005])
    assert result.text.endswith("y = a(b(x))\n")
    assert result.applied["TL005"] == 2
    assert result.remaining == []
    again = fix_text(result.text, "m.py", [TL005])
    assert again.text == result.text and not again.applied


def test_overlapping_edits_are_deferred_to_a_later_pass(demo_rules):
    # The two fixes replace the same node; the second is re-derived after the first applies.
    source = "import torch.nn as nn\nm = nn.Linear(2, 2)\nm.forward(demo_unsafe())\n"
    result = fix_text(source, "m.py", [TL005, rule_by_code("TL990")], unsafe_fixes=True)
    assert result.text.endswith("m(demo_safe())\n")


def test_fix_whose_output_does_not_parse_is_refused(demo_rules):
    source = "import torch.nn as nn\nm = nn.Linear(2, 2)\nm.forward(1)\nx = break_me()\n"
    result = fix_text(source, "m.py", [TL005, rule_by_code("TL991")])
    assert result.text == source  # nothing at all is applied, not even the good fix
    assert "does not parse" in result.failure and "TL991" in result.failure
    assert not result.changed
    assert {d.code for d in result.remaining} == {"TL005", "TL991"}


def test_unsafe_fixes_only_with_flag(demo_rules):
    rule = rule_by_code("TL990")
    assert fix_text("demo_unsafe()\n", "m.py", [rule]).text == "demo_unsafe()\n"
    assert fix_text("demo_unsafe()\n", "m.py", [rule], unsafe_fixes=True).text == "demo_safe()\n"


def test_crashing_rule_is_reported_and_other_rules_still_run(demo_rules):
    source = FORWARD_SOURCE + "crash_me()\n"
    result = lint_text(source, "m.py", [TL005, rule_by_code("TL992")])
    assert [d.code for d in result.diagnostics] == ["TL005"]
    (error,) = result.internal_errors
    assert error.code == "TL992" and "ZeroDivisionError: boom" in error.message


@pytest.mark.parametrize(
    ("source", "line", "column", "reason"),
    [
        pytest.param("def f(:\n    pass\n", 1, 7, "invalid syntax", id="libcst-candidate"),
        pytest.param("x = (\n", 1, 5, "never closed", id="unclosed"),
        pytest.param("model.forward(\n", 1, 14, "never closed", id="with-trigger-token"),
    ],
)
def test_syntax_errors_are_reported_with_cpython_position(source, line, column, reason):
    (diagnostic,) = lint_text(source, "bad.py", [TL005]).diagnostics
    assert diagnostic.code == "TL000" and diagnostic.name == "syntax-error"
    assert (diagnostic.line, diagnostic.column) == (line, column)
    assert reason in diagnostic.message


def test_prefilter_skips_files_without_trigger_tokens(monkeypatch):
    import torchlint.engine as engine

    calls = []
    original = engine._parse
    monkeypatch.setattr(engine, "_parse", lambda *a: calls.append(a) or original(*a))
    assert lint_text("x = 1\n", "m.py", [TL005]).diagnostics == []
    assert calls == []
    lint_text(FORWARD_SOURCE, "m.py", [TL005])
    assert len(calls) == 1


def test_the_running_python_decides_whether_a_file_parses():
    # A `type` statement (3.12+) parses with libcst everywhere; CPython decides, as it runs the file.
    source = "type Alias = int\n" + FORWARD_SOURCE
    result = lint_text(source, "m.py", [TL005])
    if sys.version_info < (3, 12):
        assert [d.code for d in result.diagnostics] == ["TL000"]
        assert fix_text(source, "m.py", [TL005]).text == source
    else:
        assert [d.code for d in result.diagnostics] == ["TL005"]
        assert fix_text(source, "m.py", [TL005]).text == "type Alias = int\n" + FORWARD_FIXED


def test_apply_edits_in_any_order():
    text = "abcdef"
    edits = [make_edit(text, 4, 5, "E"), make_edit(text, 0, 1, "A")]
    assert apply_edits(text, edits) == "AbcdEf"


def test_trusted_parsing_gives_the_same_tree_and_restores_validation():
    import libcst as cst

    from torchlint.parsing import parse_trusted as _parse_trusted

    source = "import torch\nclass A(torch.nn.Module):\n    def f(self, x: int = 1) -> int:\n        return [x for x in y]\n"
    assert _parse_trusted(source).deep_equals(cst.parse_module(source))
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not an identifier")


def test_cyclic_collector_is_paused_only_while_a_file_is_linted(monkeypatch):
    import gc

    seen = []
    monkeypatch.setattr(torchlint.engine, "_parse", lambda text, path: seen.append(gc.isenabled()) or _parse_real(text, path))
    lint_text("import torch\nw = p.data\n", "a.py", selectable_rules())
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        lint_text("import torch\nw = p.data\n", "a.py", selectable_rules())
        assert not gc.isenabled()  # a caller's choice is left alone
    finally:
        gc.enable()


def test_linting_and_fixing_leave_no_reference_cycles():
    """The collector pauses while a file is linted on the promise that the file's objects are freed
    by reference counting; a cycle would keep a whole tree alive until the next collection."""
    import gc
    from pathlib import Path

    import torch

    sources = [p.read_text() for p in sorted(Path(__file__).parent.parent.glob("examples/*.py"))]
    sources.append((Path(torch.__file__).parent / "nn" / "modules" / "module.py").read_text())
    rules = selectable_rules()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept in gc.garbage
    try:
        for source in sources:
            assert lint_text(source, "m.py", rules).diagnostics or source is sources[-1]
            fix_text(source, "m.py", rules, unsafe_fixes=True)
        gc.collect()
        # (ast.literal_eval, which libcst calls, leaves a few closures of its own)
        ours = [o for o in gc.garbage if type(o).__module__.split(".")[0] in ("libcst", "torchlint")]
        assert ours == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_tl002_names_the_functional_form_it_found():
    """`P.data_parallel(model, x, ids)` is reported as the function it is, not as a construction."""
    text = ("import torch.nn as nn\nimport torch.nn.parallel as P\nnet = nn.Linear(2, 2)\n"
            "out = P.data_parallel(net, None, range(2))\nwrapped = nn.DataParallel(net)\n")
    messages = [d.message for d in lint_text(text, "t.py", [rule_by_code("TL002")]).diagnostics]
    assert len(messages) == 2
    assert messages[0].startswith("`data_parallel()` runs DataParallel")
    assert messages[1].startswith("`nn.DataParallel` drives every GPU")
