"""A glob writes through the links it matches (ADR 0076).

``tee src/*.json`` with ``src/s.json -> ../.claude/settings.json`` in place writes the
settings (checked in bash below), but the glob was judged by its text only: no protected
name is spelled in ``src/*.json``, so any subagent's call went through, and a scoped one's
since ADR 0074 and 0075 took a glob in a held folder as inside it. The matches there now are
listed and resolved: a link (symbolic or hard) into the protected set is TAMPER, and a glob
whose matches leave its folder is not taken as inside a scope.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import reality
from harden_support import bash_violation

CONFIG = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["src/**"]\n'
CODER = {"agent_id": "a1", "agent_type": "coder"}
OTHER = {"agent_id": "a2", "agent_type": "general-purpose"}


def _project(root: Path, link: str) -> None:
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text("{}\n")
    (root / "src").mkdir()
    (root / "docs").mkdir()
    (root / "docs" / "a.py").write_text("x\n")
    if link == "symbolic":
        (root / "src" / "s.json").symlink_to("../.claude/settings.json")
    elif link == "hard":
        os.link(root / ".claude" / "settings.json", root / "src" / "s.json")
    else:
        (root / "src" / "s.json").write_text("{}\n")


@pytest.mark.parametrize("who", [CODER, OTHER, {}], ids=["coder", "other", "main"])
@pytest.mark.parametrize("link", ["symbolic", "hard"])
@pytest.mark.parametrize("command", ["echo {} | tee src/*.json", "cp x src/*.json"])
def test_a_glob_that_matches_a_link_to_a_protected_file_is_tamper(
    tmp_path: Path, command: str, link: str, who: dict[str, str]
) -> None:
    _project(tmp_path, link)
    assert bash_violation(tmp_path, CONFIG, command, **who) == "TAMPER"


def test_a_glob_without_such_a_link_keeps_its_verdict(tmp_path: Path) -> None:
    _project(tmp_path, "none")
    assert bash_violation(tmp_path, CONFIG, "echo {} | tee src/*.json", **CODER) == "-"


def test_a_glob_that_leaves_its_folder_through_a_link_is_not_inside_the_scope(
    tmp_path: Path,
) -> None:
    _project(tmp_path, "none")
    (tmp_path / "src" / "l.py").symlink_to("../docs/a.py")
    assert bash_violation(tmp_path, CONFIG, "echo y | tee -a src/*.py", **CODER) == (
        "SCOPE_VIOLATION"
    )


def test_tee_writes_through_the_link_it_matches() -> None:
    seed = reality.Seed(
        files=((".claude/settings.json", "{}\n"),),
        setup="ln -s ../.claude/settings.json src/s.json",
    )
    outcome = reality.run("echo x | tee src/*.json", seed)
    assert ".claude/settings.json" in outcome.paths, outcome.describe()
