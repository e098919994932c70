"""A new team's journey, attacked (ADR 0058): what install and doctor tell a person."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator_boundary.cmd_install import plan

WIN_PY = r"C:\Users\Zoë Ng\AppData\Local\Programs\Python\Python312\python.exe"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    return root


@pytest.mark.parametrize(
    ("platform", "git_bash", "noted"),
    [
        ("win32", False, True),
        ("win32", True, False),
        ("linux", False, False),
    ],
    ids=["windows without Git Bash", "windows with Git Bash", "linux"],
)
def test_install_says_when_the_committed_launcher_cannot_start_here(
    tmp_path: Path, platform: str, git_bash: bool, noted: bool
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": str(empty)}
    if git_bash:
        bash = tmp_path / "Git" / "bin" / "bash.exe"
        bash.parent.mkdir(parents=True)
        bash.write_text("")
        env["CLAUDE_CODE_GIT_BASH_PATH"] = str(bash)
    res = plan(
        "install", str(_project(tmp_path)), "project", environ=env, python=WIN_PY, platform=platform
    )
    said = [n for n in res.notes if "PowerShell" in n]
    assert bool(said) is noted
    if noted:
        assert "in warn calls go through unrecorded" in said[0]
        assert "Install Git for Windows" in said[0]
