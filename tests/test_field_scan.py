"""The bounded tree snapshot (ADR 0029): what changed between two, and its bounds."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from orchestrator_boundary.field_scan import (
    DIR,
    Bounds,
    Snapshot,
    changes,
    decode,
    encode,
    scan,
)


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


BASE = {"a.txt": "a", "src/m.py": "m", "src/pkg/n.py": "n", "docs/x.md": "x"}


def _bump(p: Path) -> None:
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


@pytest.mark.parametrize(
    ("act", "expected"),
    [
        (lambda r: None, []),
        (lambda r: (r / "new.txt").write_text("n"), ["new.txt"]),
        (lambda r: (r / "src/m.py").write_text("longer"), ["src/m.py"]),
        (lambda r: _bump(r / "src/m.py"), ["src/m.py"]),
        (lambda r: (r / "src/m.py").chmod(0o600), ["src/m.py"]),
        (lambda r: (r / "a.txt").unlink(), ["a.txt"]),
        (lambda r: shutil.rmtree(r / "src"), ["src", "src/m.py", "src/pkg", "src/pkg/n.py"]),
        (lambda r: _tree(r, {"out/deep/f.txt": "f"}), ["out", "out/deep", "out/deep/f.txt"]),
        (lambda r: (r / "a.txt").rename(r / "b.txt"), ["a.txt", "b.txt"]),
        (lambda r: (r / "src/m.py").read_text(), []),
    ],
    ids=[
        "nothing",
        "created",
        "rewritten",
        "touched",
        "chmod",
        "removed",
        "folder-removed",
        "folders-created",
        "renamed",
        "read-only",
    ],
)
def test_what_changed_between_two_snapshots(
    tmp_path: Path, act: Callable[[Path], object], expected: list[str]
) -> None:
    _tree(tmp_path, BASE)
    (tmp_path / "src/m.py").chmod(0o644)
    before = scan(str(tmp_path))
    act(tmp_path)
    after = scan(str(tmp_path), within=before)
    assert changes(before, after) == (expected, False)


def test_skipped_folders_and_the_hooks_own_files_are_not_walked(tmp_path: Path) -> None:
    _tree(tmp_path, {**BASE, ".git/index": "i", "node_modules/x/y.js": "y", "trail.jsonl": "t"})
    snap = scan(str(tmp_path), skip=lambda p: p.endswith("trail.jsonl"))
    assert ".git" in snap.entries and ".git/index" not in snap.entries
    assert "node_modules/x" not in snap.entries and "trail.jsonl" not in snap.entries
    (tmp_path / ".git/index").write_text("changed by git status")
    (tmp_path / "trail.jsonl").write_text("the hook's own line")
    after = scan(str(tmp_path), skip=lambda p: p.endswith("trail.jsonl"), within=snap)
    assert changes(snap, after) == ([], False)


def test_a_symlinked_folder_is_not_followed(tmp_path: Path) -> None:
    _tree(tmp_path / "elsewhere", {"big.txt": "b"})
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "link").symlink_to(tmp_path / "elsewhere")
    snap = scan(str(tmp_path / "proj"))
    assert set(snap.entries) == {"link"} and snap.entries["link"] != DIR


def test_the_entry_bound_holds_on_a_tree_larger_than_it(tmp_path: Path) -> None:
    _tree(tmp_path, {f"d{d}/f{f}.txt": "x" for d in range(10) for f in range(30)})
    snap = scan(str(tmp_path), bounds=Bounds(entries=100))
    assert len(snap.entries) <= 100 and snap.partial == "entries"
    (tmp_path / "d0" / "f0.txt").write_text("changed")
    found, partial = changes(snap, scan(str(tmp_path), bounds=Bounds(entries=100), within=snap))
    assert partial  # some of the tree was not compared, and the result says so
    assert set(found) <= {"d0/f0.txt"}


def test_one_folder_larger_than_the_bound_is_not_listed_at_all(tmp_path: Path) -> None:
    _tree(tmp_path, {f"big/f{n}.txt": "x" for n in range(300)})
    snap = scan(str(tmp_path), bounds=Bounds(entries=50))
    assert snap.partial == "entries" and "big" not in snap.dirs
    assert len(snap.entries) <= 50


def test_the_depth_bound(tmp_path: Path) -> None:
    _tree(tmp_path, {"a/b/c/d/e/f.txt": "x"})
    snap = scan(str(tmp_path), bounds=Bounds(depth=2))
    assert snap.partial == "depth" and "a/b/c/d" not in snap.entries


def test_the_time_bound(tmp_path: Path) -> None:
    _tree(tmp_path, {f"d{n}/f.txt": "x" for n in range(20)})
    ticks = iter(range(1000))
    snap = scan(str(tmp_path), bounds=Bounds(seconds=3), clock=lambda: float(next(ticks)))
    assert snap.partial == "time" and 0 < len(snap.dirs) < 21


def test_the_second_snapshot_lists_only_what_the_first_did(tmp_path: Path) -> None:
    _tree(tmp_path / "t", {f"d{n}/f.txt": "x" for n in range(5)})
    before = Snapshot({"d0": DIR, "d1": DIR}, frozenset({""}), "time")
    after = scan(str(tmp_path / "t"), within=before)
    assert after.dirs == {"", "d2", "d3", "d4"}  # d0, d1 were there and not listed: skipped


def test_encode_round_trip(tmp_path: Path) -> None:
    _tree(tmp_path, {**BASE, "caf\u00e9.txt": "c"})
    snap = scan(str(tmp_path))
    assert decode(encode(snap)) == snap
    assert decode(b"not zlib") is None
