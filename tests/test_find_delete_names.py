"""Issue 14.6: ``find START -name PATTERN -delete`` is TAMPER only where a protected file can
really be hit. What a protected folder holds is looked at (``protect_named.hit_named``), not
assumed to match any pattern; a tree too big to look at keeps the conservative answer.

Through the hook shell against a real project in tmp_path (as tests/test_cleanup.py), and
against reality: the same command is then run with the real ``find`` in the project, and the
protected files it deleted are compared with the judgement.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from harden_support import Project, make_project
from test_cleanup import CALLERS, _judge

from orchestrator_boundary import protect_named
from orchestrator_boundary.paths import Located
from orchestrator_boundary.protect import Protected, index

ORDINARY = {"main": "BASH_WRITE", "general-purpose": None, "coder": "SCOPE_VIOLATION"}

# (id, files to create below the root, command, protected files it deletes)
CASES = [
    ("log-cleanup", ["build/x.log", "src/y.log"], "find . -name '*.log' -delete", []),
    ("log-cleanup-type-f", ["build/x.log"], "find . -type f -name '*.log' -delete", []),
    ("tmp-cleanup-iname", ["build/x.TMP"], "find . -iname '*.tmp' -delete", []),
    ("log-in-audit-folder", [".claude/boundary/hook.log", "build/x.log"],
     "find . -name '*.log' -delete", [".claude/boundary/hook.log"]),
    ("log-in-agents", [".claude/agents/notes.log"], "find . -name '*.log' -delete",
     [".claude/agents/notes.log"]),
    ("rotated-audit-file", [".claude/boundary/audit.jsonl.1"], "find . -name '*.1' -delete",
     [".claude/boundary/audit.jsonl.1"]),
    ("env-file-in-root", [".env.log"], "find . -name '*.log' -delete", [".env.log"]),
    ("nested-claude-folder", ["sub/.claude/agents/x.log"], "find sub -name '*.log' -delete",
     ["sub/.claude/agents/x.log"]),
    ("start-in-audit-folder", [], "find .claude/boundary -name '*.log' -delete", []),
    ("md-reaches-agent-definitions", [], "find . -name '*.md' -delete",
     [".claude/agents/coder.md"]),
    ("json-reaches-settings", [], "find . -name '*.json' -delete", [".claude/settings.json"]),
    ("everything", [], "find . -name '*' -delete", [".claude/settings.json"]),
]  # fmt: skip


def _protected_now(root: Path) -> set[str]:
    """The files below the root a session would read as guards: anything in a ``.claude``
    folder, and ``.env*`` files."""
    return {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and (".claude" in p.relative_to(root).parts or p.name.startswith(".env"))
    }


def _make(project: Project, files: list[str]) -> None:
    for rel in files:
        path = project.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x\n")


@pytest.mark.skipif(shutil.which("find") is None, reason="needs find")
@pytest.mark.parametrize(
    ("files", "command", "deleted"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_tamper_exactly_when_find_deletes_a_protected_file(
    tmp_path: Path, files: list[str], command: str, deleted: list[str]
) -> None:
    project = make_project(tmp_path)
    _make(project, files)
    for caller in CALLERS:
        for phase in ("warn", "enforce"):
            got = _judge(project, command, caller, phase)
            if deleted:
                assert got == ("deny", "TAMPER"), (caller, phase)
                continue
            code = ORDINARY[caller]
            decision = "none" if code is None else ("warn" if phase == "warn" else "deny")
            assert got == (decision, code), (caller, phase)
    # reality: what the command really deletes, the audit trail written by the judging aside
    before = _protected_now(project.root)
    subprocess.run(shlex.split(command), cwd=project.root, check=False, capture_output=True)
    gone = before - _protected_now(project.root)
    assert not (project.root / "build" / "x.log").exists()  # it did run
    assert gone >= set(deleted)
    assert bool(gone) == bool(deleted), gone


def test_a_tree_too_big_to_look_at_keeps_the_conservative_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path)
    _make(project, ["build/x.log"])
    assert _judge(project, "find . -name '*.log' -delete", "general-purpose", "enforce") == (
        "none",
        None,
    )
    monkeypatch.setattr(protect_named, "SCAN_LIMIT", 2)
    got = _judge(project, "find . -name '*.log' -delete", "general-purpose", "enforce")
    assert got == ("deny", "TAMPER")


def test_bytecode_cleanup_needs_no_look() -> None:
    """A filter that lets bytecode caches through only is never TAMPER, without a look."""
    boundary = Protected("/p/.claude/boundary", True, ".claude/boundary/")
    protected = index((boundary,), False)

    class NoLook:
        windows = False

        def files_below(self, folder: str, limit: int) -> list[str]:
            raise AssertionError("looked")

    start = Located("/p", ("/p",), (), "")
    names = (("*.pyc", False),)
    assert protect_named.hit_named(start, protected, names, NoLook()) is None  # type: ignore[arg-type]


def test_without_a_file_system_the_answer_stays_conservative() -> None:
    """The old signature (no ``fs``) keeps the old answer: a protected folder may hold
    anything."""
    boundary = Protected("/p/.claude/boundary", True, ".claude/boundary/")
    protected = index((boundary,), False)
    start = Located("/p", ("/p",), (), "")
    assert protect_named.hit_named(start, protected, (("*.log", False),)) == boundary
