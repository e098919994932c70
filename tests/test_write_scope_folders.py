"""A subagent whose agent type's ``write_scope`` holds everything below a folder may run a
command that writes in that folder (``ruff format src/auth`` for ``src/auth/**``): a false
alarm before, SCOPE_VIOLATION for the folder itself (ADR 0081, as ADR 0080 for delegations).
Not when something in the folder links out, nor for a delete of the folder itself, an archive
extract or ``patch`` (their members may name ``../``), nor a folder the scope holds only part of."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harden_support import bash_violation

SUBAGENT = {"agent_id": "a1", "agent_type": "coder"}
SCOPED = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["src/auth/**"]\n'


def _project(root: Path) -> Path:
    (root / "src" / "auth").mkdir(parents=True)
    (root / "src" / "auth" / "login.py").write_text("x = 1\n")
    (root / "src" / "billing").mkdir()
    (root / "src" / "billing" / "pay.py").write_text("y = 2\n")
    return root


HELD = [
    "ruff format src/auth",
    "isort src/auth",
    "find src/auth -name '*.pyc' -delete",
    "cp -r tmp/. src/auth",
    "black -q src/auth/",
]


@pytest.mark.parametrize("command", HELD)
def test_a_write_in_a_held_folder_goes_through(tmp_path: Path, command: str) -> None:
    assert bash_violation(_project(tmp_path), SCOPED, command, **SUBAGENT) == "-"


NOT_HELD = [
    "ruff format src",  # the scope holds only part of src
    "rm -rf src/auth",  # the folder itself
    "tar -C src/auth -xf a.tar",  # members may name ../ or absolute paths
    "patch -d src/auth -p1 -i x.diff",
    "ruff format src/billing",
    "touch src/auth",  # the folder's own entry
    "chmod 700 src/auth",
]


@pytest.mark.parametrize("command", NOT_HELD)
def test_other_folder_writes_stay_outside(tmp_path: Path, command: str) -> None:
    assert bash_violation(_project(tmp_path), SCOPED, command, **SUBAGENT) == "SCOPE_VIOLATION"


@pytest.mark.parametrize("link", ["file", "folder", "hard"])
def test_a_folder_that_links_out_is_not_held(tmp_path: Path, link: str) -> None:
    """`ruff format src/auth` with `src/auth/x.py -> ../billing/pay.py` rewrites pay.py."""
    root = _project(tmp_path)
    inside = root / "src" / "auth" / "x"
    if link == "file":
        inside.symlink_to(root / "src" / "billing" / "pay.py")
    elif link == "folder":
        inside.symlink_to(root / "src" / "billing", target_is_directory=True)
    else:
        os.link(root / "src" / "billing" / "pay.py", inside)
    assert bash_violation(root, SCOPED, "ruff format src/auth", **SUBAGENT) == "SCOPE_VIOLATION"
