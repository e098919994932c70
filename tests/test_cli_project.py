"""Which project a command a person runs acts on, and which trail it reads (``cli_project``).

A rollback run from a subfolder must roll back the project; a user-scope install's commands
must read the trail its hooks write. Every test runs the real command (``cli.main``) and, where
a trail is involved, the entry ``install`` registered, as Claude Code runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from orchestrator_boundary import cli, hook_main, registration
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary.cli_project import find_root

HOME = lambda: Path(os.environ["HOME"])  # noqa: E731  (the conftest's throwaway home)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def guarded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project installed in enforce, with a nested source folder."""
    root = (tmp_path / "repo").resolve()
    (root / "src" / "pkg").mkdir(parents=True)
    assert run(capsys, "install", "--project", str(root), "--phase", "enforce", "--force")[0] == 0
    return root


def phase_line(root: Path) -> str:
    text = (root / ".claude" / "boundary.toml").read_text(encoding="utf-8")
    return next(line for line in text.splitlines() if line.startswith("phase"))


def test_a_rollback_run_from_a_subfolder_rolls_back_the_project(
    guarded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(guarded / "src" / "pkg")
    code, out, err = run(capsys, "phase", "warn")
    assert code == 0, out
    assert phase_line(guarded) == 'phase = "warn"'
    assert not (guarded / "src" / "pkg" / ".claude").exists()
    assert not (guarded / "src" / ".claude").exists()
    assert f"project: {guarded}" in err  # said where it acted
    settings = json.loads((guarded / ".claude" / "settings.json").read_text(encoding="utf-8"))
    assert all("onFailure" not in h for h in se.registered(settings)["PreToolUse"])
    code, out, _ = run(capsys, "phase")
    assert out.strip() == "effective phase: warn (from config)"


def test_the_nearest_configured_folder_wins_and_an_unconfigured_tree_stays_here(
    guarded: Path, tmp_path: Path
) -> None:
    inner = guarded / "src" / "pkg"
    assert find_root(None, {}, str(inner)) == str(guarded)
    nested = guarded / "src"
    (nested / ".claude").mkdir()
    (nested / ".claude" / "boundary.toml").write_text('phase = "off"\n')
    assert find_root(None, {}, str(inner)) == str(nested)
    elsewhere = tmp_path / "plain" / "deep"
    elsewhere.mkdir(parents=True)
    assert find_root(None, {}, str(elsewhere)) == str(elsewhere)
    # --project is taken as given; $CLAUDE_PROJECT_DIR is the start folder, read as the hook
    # reads it: the nearest configured folder at or above it (ADR 0054)
    assert find_root(str(inner), {}, str(elsewhere)) == str(inner)
    assert find_root(None, {"CLAUDE_PROJECT_DIR": str(inner)}, "/") == str(nested)
    assert find_root(None, {"CLAUDE_PROJECT_DIR": str(elsewhere)}, "/") == str(elsewhere)


def test_the_home_folders_claude_folder_is_never_taken_for_a_project(tmp_path: Path) -> None:
    home = tmp_path / "h"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    work = home / "code" / "app"
    work.mkdir(parents=True)
    assert find_root(None, {"HOME": str(home)}, str(work)) == str(work)
    assert find_root(None, {}, str(work)) == str(home)  # without a home it is a project


def run_user_entry(root: Path, tool: str, path: str) -> subprocess.CompletedProcess[bytes]:
    """The PreToolUse entry ``install --scope user`` wrote in the user's settings, run as
    Claude Code runs it (``sh -c``), from the project."""
    settings = json.loads((HOME() / ".claude" / "settings.json").read_text(encoding="utf-8"))
    [entry] = se.registered(settings)["PreToolUse"]
    payload = {
        "session_id": "s-1",
        "transcript_path": "",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"file_path": str(root / path), "content": "x\n"},
        "tool_use_id": f"toolu_{tool}",
    }
    return subprocess.run(
        ["/bin/sh", "-c", entry["command"]],
        input=json.dumps(payload).encode(),
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(root)},
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_a_user_scope_install_reads_the_trail_its_hooks_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = (tmp_path / "user-project").resolve()
    (root / "src").mkdir(parents=True)
    (root / ".claude").mkdir()
    (root / ".claude" / "boundary.toml").write_text('phase = "warn"\n')
    assert run(capsys, "install", "--scope", "user", "--project", str(root))[0] == 0
    done = run_user_entry(root, "Write", "src/app.py")
    assert done.returncode == 0, done.stderr
    trail = Path(hook_main.user_trail(str(root), dict(os.environ)))
    assert trail.is_file() and not (root / ".claude" / "boundary").exists()
    monkeypatch.chdir(root / "src")
    code, out, _ = run(capsys, "report", "--json")
    assert code in (0, 3), out  # a report, READY or not: it found the trail
    assert json.loads(out)["trail"] == str(trail)
    _, out, _ = run(capsys, "trace", str(root / "src" / "app.py"), "--json")
    assert json.loads(out)["trail"] == str(trail)
    code, out, _ = run(capsys, "phase", "enforce")  # refused: NOT READY, not "no trail"
    assert code == 1 and "NOT READY" in out and "no audit trail" not in out, out
    code, out, _ = run(capsys, "doctor", "--json")
    checks = {c["name"]: c for c in json.loads(out)["checks"]}
    assert str(trail) in checks["trail"]["message"], checks["trail"]


def test_phase_keeps_user_scope_entries_in_step_and_says_they_guard_every_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = (tmp_path / "p").resolve()
    root.mkdir()
    assert run(capsys, "install", "--scope", "user", "--project", str(root))[0] == 0
    user = HOME() / ".claude" / "settings.json"
    code, out, _ = run(capsys, "phase", "enforce", "--force", "--project", str(root))
    assert code == 0, out
    entries = se.registered(json.loads(user.read_text(encoding="utf-8")))
    assert [h.get("onFailure") for h in entries["PreToolUse"]] == ["block"]
    assert "one set for every project of yours" in out
    _, out, _ = run(capsys, "doctor", "--json", "--project", str(root))
    checks = {c["name"]: c for c in json.loads(out)["checks"]}
    assert checks["onfailure"]["status"] == "ok", checks["onfailure"]
    run(capsys, "phase", "warn", "--project", str(root))
    entries = se.registered(json.loads(user.read_text(encoding="utf-8")))
    assert [h.get("onFailure") for h in entries["PreToolUse"]] == [None]


def test_doctor_leaves_no_trail_folders_in_the_users_claude_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = (tmp_path / "p").resolve()
    root.mkdir()
    assert run(capsys, "install", "--scope", "user", "--project", str(root))[0] == 0
    projects = HOME() / ".claude" / "orchestrator-boundary" / "projects"
    before = sorted(projects.iterdir()) if projects.exists() else []
    _, out, _ = run(capsys, "doctor", "--json", "--project", str(root))
    checks = {c["name"]: c for c in json.loads(out)["checks"]}
    assert checks["commands"]["status"] == "ok", checks["commands"]  # the entries were probed
    after = sorted(projects.iterdir()) if projects.exists() else []
    assert after == before


def test_doctor_warns_when_the_hooks_are_registered_twice(
    guarded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "doctor", "--json", "--project", str(guarded))
    checks = {c["name"]: c for c in json.loads(out)["checks"]}
    assert checks["hooks"]["status"] == "ok", checks["hooks"]
    run(capsys, "install", "--scope", "local", "--project", str(guarded))
    _, out, _ = run(capsys, "doctor", "--json", "--project", str(guarded))
    checks = {c["name"]: c for c in json.loads(out)["checks"]}
    assert checks["hooks"]["status"] == "warn", checks["hooks"]
    assert "judged twice" in checks["hooks"]["message"]


def test_claude_config_dir_is_where_a_user_scope_install_registers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code reads ``$CLAUDE_CONFIG_DIR/settings.json`` when it is set: a registration
    in ``~/.claude`` would leave the user silently unguarded."""
    config_dir = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config_dir))
    root = (tmp_path / "p").resolve()
    root.mkdir()
    assert run(capsys, "install", "--scope", "user", "--project", str(root))[0] == 0
    assert se.registered(json.loads((config_dir / "settings.json").read_text()))["PreToolUse"]
    assert not (HOME() / ".claude" / "settings.json").exists()
    assert registration.pointer_path(os.environ).startswith(str(config_dir))


def test_a_rollback_run_in_a_folder_that_is_no_project_changes_nothing_and_says_so(
    guarded: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, _ = run(capsys, "phase", "warn")
    assert code == 1
    assert out.startswith(f"error: {elsewhere} is not a guarded project: ")
    assert "orchestrator-boundary phase warn --project DIR" in out
    assert not (elsewhere / ".claude").exists()
    assert phase_line(guarded) == 'phase = "enforce"'
    # named explicitly, a folder gets its config (the person asked for it)
    assert run(capsys, "phase", "warn", "--project", str(elsewhere))[0] == 0
    assert (elsewhere / ".claude" / "boundary.toml").is_file()
