"""Round twelve: an MCP tool's folder argument and the write scope (ADR 0083).

Before, a coder held to ``src/**`` that called ``mcp__fs__search_replace {"path": "src"}`` or
``write_files {"directory": "src", ...}`` was refused: the folder ``src`` itself is not
``src/**``, though every file the tool may change there is. That is the false alarm
``ruff format src/auth`` had in Bash (ADR 0081); the same reading now holds for an MCP
folder argument. A tool whose name says it deletes or moves is still judged on the folder,
and so is a folder the scope does not hold whole (an exclusion below it, a link out of it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harden_support import Project, make_project

WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    p.configure('[agents.coder]\nwrite_scope = ["src/**"]\n')
    return p


ROWS = [
    ("search-replace", "mcp__fs__search_replace", {"path": "src", "search": "a", "replace": "b"}, "none", None),
    ("directory-and-name", "mcp__fs__write_files", {"directory": "src", "filename": "src/n.py"}, "none", None),
    ("absolute-folder", "mcp__fs__format_folder", {"path": "{root}/src"}, "none", None),
    ("delete-the-folder", "mcp__fs__delete", {"path": "src"}, "warn", "SCOPE_VIOLATION"),
    ("move-the-folder", "mcp__fs__move_file", {"source": "src", "destination": "src2"}, "warn", "SCOPE_VIOLATION"),
    ("remove-dir", "mcp__fs__removeDirectory", {"path": "src"}, "warn", "SCOPE_VIOLATION"),
    ("trash-dir", "mcp__fs__trash_path", {"path": "src"}, "warn", "SCOPE_VIOLATION"),
    ("a-folder-outside", "mcp__fs__search_replace", {"path": "docs", "search": "a"}, "warn", "SCOPE_VIOLATION"),
    ("the-root", "mcp__fs__search_replace", {"path": ".", "search": "a"}, "warn", "SCOPE_VIOLATION"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tool", "given", "decision", "code"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_a_folder_argument_the_scope_holds_whole(
    project: Project, tool: str, given: dict[str, str], decision: str, code: str | None
) -> None:
    given = {k: v.replace("{root}", str(project.root)) for k, v in given.items()}
    assert project.judge(tool, given, agent="coder", env=WARN)[:2] == (decision, code)


def test_an_exclusion_below_the_folder_keeps_it_refused(project: Project) -> None:
    project.configure('[agents.coder]\nwrite_scope = ["src/**", "!src/secrets/**"]\n')
    given = {"path": "src", "search": "a", "replace": "b"}
    got = project.judge("mcp__fs__search_replace", given, agent="coder", env=WARN)
    assert got[:2] == ("warn", "SCOPE_VIOLATION")


def test_a_link_out_of_the_folder_keeps_it_refused(project: Project) -> None:
    os.symlink(project.root / "docs", project.root / "src" / "out")
    given = {"path": "src", "search": "a", "replace": "b"}
    got = project.judge("mcp__fs__search_replace", given, agent="coder", env=WARN)
    assert got[:2] == ("warn", "SCOPE_VIOLATION")
