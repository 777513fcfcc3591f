"""A fast subset of bench/preview_programs.py: realistic programs with marked bugs and look-alikes,
scored with `--select ALL --preview` over the rules in preview."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
import preview_programs  # noqa: E402

# Each bug in one shape the rules must see through: a script's test pass after training, a Trainer
# method, parameters typed from call sites, AMP, batch elements of a DataLoader, a scheduler before
# the epoch's training function, a project whose model and engine live in other modules; and
# programs written correctly, which must stay silent.
SUBSET = ("p01_cifar_script.py", "p03_trainer_class.py", "p04_amp_clip.py", "p21_to_device.py",
          "p27_trainer_fit.py", "p43_mnist_example.py", "proj_seg", "p05_amp_correct.py",
          "p34_regression_silent.py", "p54_batches_to_device.py", "p53_trainer_modes.py")


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("programs")
    (folder / "pyproject.toml").write_text("[tool.torchlint]\n")  # the project's root: nothing above is read
    for name in SUBSET:
        source = BENCH / "preview_programs" / name
        if source.is_dir():
            shutil.copytree(source, folder / name)
        else:
            shutil.copy(source, folder / name)
    result, codes = preview_programs.score(folder)
    return result, codes, folder


def test_every_marked_bug_of_the_subset_is_found_and_nothing_else(scored):
    result, _, folder = scored
    missed = {(Path(path).relative_to(folder.resolve()).as_posix(), line, code)
              for path, line, code in result.expected - result.found}
    # a subclass's model comes from its base class's __init__, which the oracle does not follow yet
    # and a helper called from another module sets no mode, so its callers decide (unknown there)
    assert missed == {("p53_trainer_modes.py", 46, "TL625"), ("proj_seg/engine.py", 26, "TL625")}
    assert result.found <= result.expected  # no false positive on the look-alikes
    assert len(result.expected) == 14


def test_per_rule_rows_and_the_table(scored):
    result, codes, folder = scored
    rows = {code: (tp, fp, fn) for code, tp, fp, fn in result.per_rule(codes)}
    assert rows["TL625"] == (3, 0, 2) and rows["TL626"] == (2, 0, 0) and rows["TL722"] == (3, 0, 0)
    assert rows["TL620"] == (1, 0, 0) and rows["TL523"] == (1, 0, 0) and rows["TL621"] == (1, 0, 0)
    table = preview_programs.table(result, codes, folder)
    assert "| **all new rules** | 14 | 12 | 0 | 12/14 (86%) | 12/12 (100%) |" in table
    assert preview_programs.overall(result) == (12 / 14, 1.0)


def test_expectation_markers_are_parsed(tmp_path):
    (tmp_path / "a.py").write_text("x = 1  # expect: TL620, TL621\ny = 2  # expected nothing\n")
    found = preview_programs.expectations(tmp_path)
    assert {(line, code) for _, line, code in found} == {(1, "TL620"), (1, "TL621")}
