from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_scope import FakeFS

from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.paths import locate

FS = RealFileSystem()


def test_dotdot_and_double_slashes_are_resolved(project: Path) -> None:
    loc = locate(f"{project}/src/..//docs/./a.md", str(project), FS)
    assert loc.relatives == ("docs/a.md",)


def test_dotdot_leaving_the_root_is_outside(project: Path) -> None:
    loc = locate(f"{project}/../x", str(project), FS)
    assert not loc.inside and loc.problem == "outside the project root"


def test_symlinked_directory_is_followed_through_the_existing_prefix(
    project: Path, tmp_path: Path
) -> None:
    (tmp_path / "out").mkdir()
    (project / "link").symlink_to(tmp_path / "out")
    loc = locate(f"{project}/link/new/file.py", str(project), FS)
    assert not loc.inside and loc.absolute == str(tmp_path / "out/new/file.py")


def test_dotdot_after_a_symlink_is_resolved_physically(project: Path, tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    (project / "link").symlink_to(deep)
    # lexically this is project/STATE.md; physically it is tmp_path/a/STATE.md
    loc = locate(f"{project}/link/../STATE.md", str(project), FS)
    assert not loc.inside and loc.absolute == str(tmp_path / "a/STATE.md")


@pytest.mark.parametrize(
    "raw", ["C:\\Users\\u\\proj\\a.py", "relative/a.py", "", "\\\\server\\share\\a"]
)
def test_paths_not_absolute_on_this_platform_are_never_inside(project: Path, raw: str) -> None:
    loc = locate(raw, str(project), FS)
    assert not loc.inside and loc.problem == "not an absolute path on this platform"


def test_nul_and_overlong_paths_are_never_inside(project: Path) -> None:
    assert not locate(f"{project}/a\x00b", str(project), FS).inside
    assert not locate(f"{project}/" + "a/" * 10_000, str(project), FS).inside


def test_backslashes_on_posix_must_pass_both_readings(project: Path) -> None:
    loc = locate(f"{project}/docs\\a.md", str(project), FS)
    assert loc.relatives == ("docs\\a.md", "docs/a.md")
    escape = locate(f"{project}/x\\..\\..\\etc", str(project), FS)
    assert escape.relatives == () or not escape.inside


def test_windows_platform_paths() -> None:
    fs = FakeFS(windows=True, insensitive=True)
    fs.realpath = lambda p: p  # type: ignore[method-assign]
    loc = locate("C:\\Proj\\Src\\a.py", "C:\\proj", fs)
    assert loc.relatives == ("Src/a.py",)
    assert not locate("\\\\server\\share\\a.py", "C:\\proj", fs).inside


def test_root_itself_is_not_a_file_inside(project: Path) -> None:
    assert not locate(str(project), str(project), FS).inside


def test_case_insensitivity_is_probed_not_assumed(project: Path) -> None:
    probe = project / "CaseProbe"
    probe.mkdir()
    expected = os.path.exists(str(probe).swapcase()) and os.path.samefile(
        probe, str(probe).swapcase()
    )
    assert FS.case_insensitive(str(probe)) is expected
