"""The real file system's resolution gives exactly what the slow, obvious call gives, and
keeps what it observed in the value it returns, not in the object."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orchestrator_boundary.fs import RealFileSystem

NAMES = ["a", "b", "c", ".claude", "settings.json"]
# what a tree entry is: a folder, a file, or a symlink to one of a few targets (inside the
# root, relative, absolute elsewhere, to itself, dangling)
KINDS = st.sampled_from(["dir", "file", "link:..", "link:a", "link:/OUT", "link:self", "link:nope"])
TREES = st.dictionaries(
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map("/".join), KINDS, max_size=8
)
PARTS = st.lists(st.sampled_from([*NAMES, ".", "..", "", "new"]), min_size=1, max_size=6)


def _build(root: Path, out: Path, tree: dict[str, str]) -> None:
    for rel, kind in sorted(tree.items()):
        path = root / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if kind == "dir":
                path.mkdir(exist_ok=True)
            elif kind == "file":
                path.write_text("x")
            else:
                target = kind.removeprefix("link:")
                target = {"/OUT": str(out), "self": path.name}.get(target, target)
                path.symlink_to(target)
        except OSError:
            pass  # a file where a folder was wanted, a name taken: the tree is what it is


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=TREES, parts=PARTS)
def test_resolve_equals_realpath(tree: dict[str, str], parts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(os.path.realpath(tmp))
        root, out = base / "proj", base / "out"
        root.mkdir()
        out.mkdir()
        _build(root, out, tree)
        fs = RealFileSystem()
        path = str(root) + "/" + "/".join(parts)
        assert fs.resolve(path, str(root)).path == os.path.realpath(path)
        # what a resolution observed of the file it ends at is what stat() says
        real = os.path.realpath(path)
        try:
            st_ = os.stat(real)
            expected = (st_.st_dev, st_.st_ino, st_.st_nlink) if Path(real).is_file() else None
        except OSError:
            expected = None
        resolved = fs.resolve(real, str(root))
        if resolved.observed:
            assert resolved.identity == expected
        assert fs.identity(real) == expected


def test_resolve_elsewhere_and_on_the_root_itself(tmp_path: Path) -> None:
    fs = RealFileSystem()
    root = os.path.realpath(tmp_path)
    (tmp_path / "x").mkdir()
    assert fs.resolve(root, root).path == root
    assert fs.resolve("/etc/../etc/hostname", root).path == os.path.realpath("/etc/hostname")
    assert fs.resolve(root + "x/y", root).path == os.path.realpath(root + "x/y")


def test_a_resolution_is_a_value_of_what_it_saw(tmp_path: Path) -> None:
    """The walk's lstat is kept in the Resolved value; the file system holds nothing, so a
    later look stats again and sees a file replaced by a link."""
    fs = RealFileSystem()
    root = os.path.realpath(tmp_path)
    target, other = tmp_path / "f", tmp_path / "g"
    target.write_text("1")
    other.write_text("2")
    os.link(other, tmp_path / "g2")
    resolved = fs.resolve(str(target), root)
    assert resolved.path == str(target) and resolved.observed
    target.unlink()
    target.symlink_to(other)  # replaced between the walk and a second look
    assert resolved.identity is not None and resolved.identity[2] == 1  # what the walk saw
    again = fs.identity(str(target))  # a new look: the linked file now
    assert again == (os.stat(other).st_dev, os.stat(other).st_ino, 2)


def test_a_file_made_after_the_walk_is_seen_on_the_next_look(tmp_path: Path) -> None:
    """A walk that found nothing says so (None, as stat() would have said); any later look
    stats again and sees the file, hard links included, whatever was resolved in between."""
    fs = RealFileSystem()
    root = os.path.realpath(tmp_path)
    new = tmp_path / "new.txt"
    resolved = fs.resolve(str(new), root)
    assert (resolved.path, resolved.observed, resolved.identity) == (str(new), True, None)
    (tmp_path / "settings.json").write_text("{}")
    os.link(tmp_path / "settings.json", new)
    st_ = os.stat(new)
    assert fs.identity(str(new)) == (st_.st_dev, st_.st_ino, 2)
    fs.resolve(str(tmp_path / "gone" / "x"), root)  # a missing folder on the way
    assert fs.identity(str(new)) == (st_.st_dev, st_.st_ino, 2)
