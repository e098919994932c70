"""Round twelve: the memo of what a script's text names (ADR 0083).

A long-lived evaluator rebuilds the protected set each second; the names read off each hook
script, library and definition are remembered keyed on the text itself, so a script changed
in place (same size, same mtime: issue 13 point 4) is read afresh on the next call, and what
exists on disk is asked each time.
"""

from __future__ import annotations

import json
from pathlib import Path

from harden_support import same_stat_edit

from orchestrator_boundary import protect_follow
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.protect_hooks import code_scripts


def _project(tmp_path: Path) -> tuple[Path, Path]:
    root, home = tmp_path / "proj", tmp_path / "home"
    (root / ".claude" / "hooks").mkdir(parents=True)
    (root / "scripts").mkdir()
    home.mkdir(exist_ok=True)
    command = {"type": "command", "command": "bash .claude/hooks/post.sh"}
    settings = {"hooks": {"PostToolUse": [{"hooks": [command]}]}}
    (root / ".claude" / "settings.json").write_text(json.dumps(settings))
    (root / ".claude" / "hooks" / "post.sh").write_text("source scripts/aaa.sh\n")
    for name in ("aaa.sh", "bbb.sh"):
        (root / "scripts" / name).write_text("true\n")
    return root, home


def _found(root: Path, home: Path) -> set[str]:
    return {p for p, _, _ in code_scripts(str(root), str(home), None, RealFileSystem())}


def test_a_script_changed_in_place_is_read_afresh(tmp_path: Path) -> None:
    root, home = _project(tmp_path)
    protect_follow.forget()
    assert str(root / "scripts" / "aaa.sh") in _found(root, home)
    assert str(root / "scripts" / "aaa.sh") in _found(root, home)  # from the memo
    same_stat_edit(root / ".claude" / "hooks" / "post.sh", "source scripts/bbb.sh\n")
    found = _found(root, home)
    assert str(root / "scripts" / "bbb.sh") in found
    assert str(root / "scripts" / "aaa.sh") not in found


def test_a_named_file_made_later_is_seen_with_the_memo_warm(tmp_path: Path) -> None:
    root, home = _project(tmp_path)
    (root / ".claude" / "hooks" / "post.sh").write_text("source scripts/later.sh\n")
    protect_follow.forget()
    assert str(root / "scripts" / "later.sh") not in _found(root, home)
    (root / "scripts" / "later.sh").write_text("true\n")
    assert str(root / "scripts" / "later.sh") in _found(root, home)


def test_the_memo_is_bounded(tmp_path: Path) -> None:
    protect_follow.forget()
    text = "source a.sh\n" + "#" * 1024 * 1024
    for i in range(8):
        protect_follow._names(text + str(i))
    assert sum(len(k[0]) for k in protect_follow._MEMO) <= protect_follow.MEMO_TEXT
    protect_follow.forget()
