"""Listings of folders kept between runs (project/listing.py): trusted only while nothing that
decided them has changed, and never kept when a folder changed in the last seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from torchlint.project import listing
from torchlint.project.listing import cached_listing

from .conftest import FORWARD_SOURCE

AN_HOUR_AGO = time.time() - 3600


@pytest.fixture(autouse=True)
def keep_every_listing(monkeypatch):
    """Listings of these small trees are walked in milliseconds: kept all the same."""
    monkeypatch.setattr(listing, "KEPT_FROM_SECONDS", 0.0)


def _age(root) -> None:
    """Every folder and file under `root` (and root) last changed an hour ago: a kept listing
    of them is not racy."""
    for folder, _, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(folder, name), (AN_HOUR_AGO, AN_HOUR_AGO), follow_symlinks=False)
        os.utime(folder, (AN_HOUR_AGO, AN_HOUR_AGO))


def _tree(root, names) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(FORWARD_SOURCE)


def _aged_project(tmp_path, names=("a.py", "pkg/b.py")):
    """A project of `names` last changed an hour ago, a cache folder, and a counting walk."""
    project = tmp_path / "project"
    _tree(project, names)
    _age(project)
    return project, tmp_path / "cache", _Walker(project)


class _Walker:
    """A walk that lists the .py files under a folder and counts its calls."""

    def __init__(self, root):
        self.root, self.calls = root, 0

    def __call__(self):
        self.calls += 1
        files = sorted(str(p.relative_to(self.root)) for p in self.root.rglob("*.py"))
        folders = [self.root, *sorted(p for p in self.root.rglob("*") if p.is_dir())]
        return files, folders, []


def test_a_kept_listing_is_used_while_nothing_changed(tmp_path):
    project, cache, walk = _aged_project(tmp_path)
    first = cached_listing(project, cache, "key", walk)
    second = cached_listing(project, cache, "key", walk)
    assert first == second == ["a.py", "pkg/b.py"]
    assert walk.calls == 1


def test_a_file_added_in_a_folder_is_listed_next_time(tmp_path):
    project, cache, walk = _aged_project(tmp_path)
    cached_listing(project, cache, "key", walk)
    (project / "pkg" / "c.py").write_text("x = 1\n")
    assert cached_listing(project, cache, "key", walk) == ["a.py", "pkg/b.py", "pkg/c.py"]
    assert walk.calls == 2


def test_an_edited_gitignore_or_pyproject_is_seen_though_no_folder_changed(tmp_path):
    project, cache = tmp_path / "project", tmp_path / "cache"
    _tree(project, ["a.py", "pkg/b.py"])
    (project / "pkg" / ".gitignore").write_text("b.py\n")
    (project / "pyproject.toml").write_text("")
    _age(project)
    walk = _Walker(project)
    cached_listing(project, cache, "key", walk)
    for name in ("pkg/.gitignore", "pyproject.toml"):
        edited = project / name
        edited.write_text(edited.read_text() + "# edited\n")
        os.utime(edited, (AN_HOUR_AGO + 60, AN_HOUR_AGO + 60))
        os.utime(edited.parent, (AN_HOUR_AGO, AN_HOUR_AGO))  # the folder itself unchanged
        calls = walk.calls
        cached_listing(project, cache, "key", walk)
        assert walk.calls == calls + 1, name


def test_a_gitignore_created_above_the_root_is_seen(tmp_path):
    project, cache, walk = _aged_project(tmp_path, ("a.py",))
    cached_listing(project, cache, "key", walk)
    (tmp_path / ".gitignore").write_text("a.py\n")
    cached_listing(project, cache, "key", walk)
    assert walk.calls == 2


def test_a_listing_of_a_folder_changed_just_now_is_not_kept(tmp_path):
    project, cache = tmp_path / "project", tmp_path / "cache"
    _tree(project, ["a.py"])  # the folder's mtime is now: a file added within the same second
    walk = _Walker(project)  # might not change it on a filesystem with coarse timestamps
    cached_listing(project, cache, "key", walk)
    cached_listing(project, cache, "key", walk)
    assert walk.calls == 2


def test_another_key_or_no_cache_folder_walks_afresh(tmp_path):
    project, cache, walk = _aged_project(tmp_path, ("a.py",))
    cached_listing(project, cache, "key", walk)
    cached_listing(project, cache, "other key", walk)
    cached_listing(project, None, "key", walk)
    assert walk.calls == 3


def test_a_corrupt_kept_listing_is_walked_again(tmp_path):
    project, cache, walk = _aged_project(tmp_path, ("a.py",))
    cached_listing(project, cache, "key", walk)
    for kept in (cache / "v1").glob("files-*.pickle"):
        kept.write_bytes(b"not a pickle")
    assert cached_listing(project, cache, "key", walk) == ["a.py"]
    assert walk.calls == 2


def _paths(result) -> list[str]:
    return sorted({finding["path"] for finding in json.loads(result.stdout)})


def test_check_finds_a_file_added_after_a_kept_listing(cli, tmp_path):
    _tree(tmp_path, ["src/a.py", "src/pkg/b.py"])
    _age(tmp_path)
    assert _paths(cli("check", "--output-format", "json", "src")) == ["src/a.py", "src/pkg/b.py"]
    _age(tmp_path)  # the cache folder made by the first run, too
    assert _paths(cli("check", "--output-format", "json", "src")) == ["src/a.py", "src/pkg/b.py"]
    assert list((tmp_path / ".torchlint_cache" / "v1").glob("files-*.pickle"))
    _tree(tmp_path, ["src/pkg/c.py"])
    assert _paths(cli("check", "--output-format", "json", "src")) == ["src/a.py", "src/pkg/b.py", "src/pkg/c.py"]


def test_check_applies_an_edited_gitignore_after_a_kept_listing(cli, tmp_path):
    _tree(tmp_path, ["a.py", "pkg/b.py"])
    (tmp_path / ".gitignore").write_text("# nothing yet\n")
    _age(tmp_path)
    cli("check", "--output-format", "json")
    _age(tmp_path)
    cli("check", "--output-format", "json")
    (tmp_path / ".gitignore").write_text("pkg/\n")
    os.utime(tmp_path, (AN_HOUR_AGO, AN_HOUR_AGO))
    assert _paths(cli("check", "--output-format", "json")) == ["a.py"]


def test_a_quick_walk_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(listing, "KEPT_FROM_SECONDS", 60.0)
    project, cache, walk = _aged_project(tmp_path, ("a.py",))
    cached_listing(project, cache, "key", walk)
    cached_listing(project, cache, "key", walk)
    assert walk.calls == 2 and not cache.exists()


def test_the_project_listing_records_the_folders_it_read(tmp_path):
    """The index's listing of a project (run with no cache of its own) records every folder."""
    from torchlint.config import CliOverrides, ConfigResolver
    from torchlint.runner import _walk_project

    _tree(tmp_path, ["a.py", "pkg/b.py", "pkg/sub/c.py"])
    files, folders, _ = _walk_project(ConfigResolver(CliOverrides(), cwd=tmp_path), tmp_path)
    assert len(files) == 3
    assert set(folders) == {tmp_path, tmp_path / "pkg", tmp_path / "pkg" / "sub"}


def test_a_cached_run_imports_no_libcst(tmp_path):
    """A run whose files all come from the cache loads neither libcst nor the rules (the rules'
    selection data is read from data/rules.json)."""
    _tree(tmp_path, ["models.py", "train.py"])
    _age(tmp_path)
    command = [sys.executable, "-X", "importtime", "-m", "torchlint", "check", "--exit-zero", "train.py"]
    first = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    second = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert " libcst" in first.stderr
    assert " libcst" not in second.stderr
    assert first.stdout == second.stdout and "TL005" in second.stdout


def test_a_symlink_whose_target_appears_or_goes_is_seen(cli, tmp_path):
    _tree(tmp_path, ["proj/a.py", "proj/pkg/b.py"])
    (tmp_path / "proj" / "pyproject.toml").write_text("")
    (tmp_path / "outside").mkdir()
    (tmp_path / "proj" / "pkg" / "gen.py").symlink_to("../../outside/gen.py")  # dangling for now
    _age(tmp_path)
    assert _paths(cli("check", "--output-format", "json", "proj")) == ["proj/a.py", "proj/pkg/b.py"]
    _age(tmp_path)
    assert _paths(cli("check", "--output-format", "json", "proj")) == ["proj/a.py", "proj/pkg/b.py"]
    (tmp_path / "outside" / "gen.py").write_text(FORWARD_SOURCE)
    assert _paths(cli("check", "--output-format", "json", "proj")) == ["proj/a.py", "proj/pkg/b.py", "proj/pkg/gen.py"]
    (tmp_path / "outside" / "gen.py").unlink()
    assert _paths(cli("check", "--output-format", "json", "proj")) == ["proj/a.py", "proj/pkg/b.py"]


def test_the_settings_above_a_symlinked_folder_s_real_path_are_watched(cli, tmp_path):
    _tree(tmp_path, ["proj/a.py", "shared/vendored/legacy.py"])
    (tmp_path / "proj" / "pyproject.toml").write_text("")
    (tmp_path / "shared" / "pyproject.toml").write_text("[tool.torchlint]\nexclude = []\n")
    (tmp_path / "proj" / "vendored").symlink_to("../shared/vendored")
    _age(tmp_path)
    assert _paths(cli("check", "--output-format", "json", "proj")) == ["proj/a.py", "proj/vendored/legacy.py"]
    _age(tmp_path)
    cli("check", "--output-format", "json", "proj")
    (tmp_path / "shared" / "pyproject.toml").write_text('[tool.torchlint]\nexclude = ["legacy*.py"]\n')
    os.utime(tmp_path / "shared", (AN_HOUR_AGO, AN_HOUR_AGO))
    assert _paths(cli("check", "--output-format", "json", "proj")) == ["proj/a.py"]
