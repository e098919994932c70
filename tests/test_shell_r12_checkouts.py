"""Round twelve, the hook shell: a second checkout of a guarded repository (ADR 0084).

A project installed at local scope writes ``.claude/settings.local.json`` with this machine's
interpreter in every entry. ``install`` did not make git ignore it (Claude Code does, when it
writes the file itself): ``git add -A`` committed it, and every teammate's clone then ran
entries naming a path of someone else's machine, answered by the gone guard (enforce: every
call blocked; warn: through, unjudged, unrecorded). Ignored, a second checkout (``git worktree
add``) starts its sessions with none of the hooks: ``install`` now says so. A project-scope install guards every checkout
(its entries, launcher and config are committed; each checkout keeps its own trail). A
session moved into a worktree by ``EnterWorktree`` keeps its hooks (tests/e2e/
test_worktree_e2e.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from orchestrator_boundary import cli


def git(root: Path, *argv: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=a", "-c", "user.email=a@b", *argv],
        check=True,
        capture_output=True,
        timeout=60,
    )


def install(root: Path, scope: str, capsys: object) -> list[str]:
    assert cli.main(["install", "--project", str(root), "--scope", scope, "--json"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    return list(json.loads(out)["notes"])


def test_a_local_install_in_a_repository_says_other_checkouts_are_not_guarded(
    tmp_path: Path, capsys: object
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    notes = install(root, "local", capsys)
    assert [n for n in notes if "another checkout of this repository" in n], notes
    assert "/.claude/settings.local.json" in (root / ".gitignore").read_text().splitlines()
    git(root, "add", "-A")
    git(root, "commit", "-qm", "x")
    committed = subprocess.run(
        ["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert ".claude/settings.local.json" not in committed  # this machine's paths stay here
    git(root, "worktree", "add", "-q", str(tmp_path / "feat"))
    assert not (tmp_path / "feat" / ".claude" / "settings.local.json").exists()  # as said


def test_a_gitignore_that_already_covers_it_is_left_alone(tmp_path: Path, capsys: object) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / ".gitignore").write_text("**/settings.local.json\n")
    install(root, "local", capsys)
    text = (root / ".gitignore").read_text()
    assert "/.claude/settings.local.json" not in text and ".claude/boundary/" in text


def test_no_such_note_for_a_project_install_or_outside_git(tmp_path: Path, capsys: object) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    assert not [n for n in install(root, "project", capsys) if "another checkout" in n]
    plain = tmp_path / "plain"
    plain.mkdir()
    assert not [n for n in install(plain, "local", capsys) if "another checkout" in n]


def test_a_project_install_guards_a_worktree_with_its_own_trail(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    assert cli.main(["install", "--project", str(root)]) == 0
    git(root, "add", "-A")
    git(root, "commit", "-qm", "guard")
    feat = tmp_path / "feat"
    git(root, "worktree", "add", "-q", str(feat))
    for name in ("settings.json", "boundary.toml", "orchestrator-boundary/launch.sh"):
        assert (feat / ".claude" / name).is_file(), name
    assert ".claude/boundary/" in (feat / ".gitignore").read_text()  # each keeps its own trail


def test_a_local_settings_file_committed_before_is_named_with_how_to_untrack_it(
    tmp_path: Path, capsys: object
) -> None:
    """Teams whose earlier install let ``git add -A`` commit it: ignoring it now does not
    untrack it, and every clone still runs this machine's entries."""
    root = tmp_path / "repo"
    (root / ".claude").mkdir(parents=True)
    git(root, "init", "-q")
    (root / ".claude" / "settings.local.json").write_text("{}\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "committed by an older install")
    notes = install(root, "local", capsys)
    assert [n for n in notes if "git rm --cached .claude/settings.local.json" in n], notes
