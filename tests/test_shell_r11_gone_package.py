"""Round eleven (ADR 0079): a machine-local entry whose package is gone gives a deliberate
answer. The guard exited 1 (ADR 0052), which Claude Code before 2.1.295 (no ``onFailure``)
takes as "let through": a project in enforce was unguarded and unrecorded."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator_boundary import registration

SH = shutil.which("sh") or "/bin/sh"


def _run(entry: dict[str, object], root: Path, env: dict[str, str], cwd: Path | None = None) -> int:
    argv = (
        [str(entry["command"]), *map(str, entry["args"])]  # type: ignore[call-overload]
        if "args" in entry
        else [SH, "-c", str(entry["command"])]
    )
    done = subprocess.run(
        argv,
        input=b"{}",
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "CLAUDE_PROJECT_DIR": str(root), **env},
        cwd=cwd or root,
        timeout=30,
        check=False,
    )
    assert b"is gone (the package was uninstalled or moved)" in done.stderr, done.stderr
    return done.returncode


def _entries(tmp_path: Path, phase: str, form: str) -> dict[str, dict[str, object]]:
    gone = tmp_path / "gone venv" / "orchestrator_boundary" / "launcher.py"
    if form == "posix":
        return registration.entries("user", phase, launcher_py=str(gone))
    # exec form (Windows), run here: the same ``-c`` program, with this interpreter
    return {
        event: registration.hook_entry(
            {
                "type": "command",
                "command": sys.executable,
                "args": registration.exec_args(str(gone), [event, "user"]),
            },
            phase,
            10,
            event,
        )
        for event in registration.EVENTS
    }


CASES = [
    ('phase = "enforce"\n', "warn", {}, 2),
    ('phase = "ask"\n', "warn", {}, 2),
    ('phase\t=\t"Enforce"  # by hand\n', "warn", {}, 2),
    ('phase = "warn"\n', "enforce", {}, 0),
    ('phase = "off"\n', "enforce", {}, 0),
    ('phase = "enforce"\n', "enforce", {"AMPLIFIER_BYPASS_BOUNDARY": "1"}, 0),
    ('phase = "enforce"\n', "enforce", {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}, 0),
    ('phase = "warn"\n', "warn", {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}, 2),
    (None, "enforce", {}, 0),
    (None, "warn", {}, 0),
    (None, "enforce", {"ORCHESTRATOR_BOUNDARY_PHASE": "ask"}, 2),
    ('[report]\nphase = "warn"\n', "enforce", {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}, 2),
    ('phase = "enforce"\n[report]\nphase = "warn"\n', "warn", {}, 2),
]
IDS = [
    "config enforce, installed in warn: blocked (was exit 1: through on CLIs < 2.1.295)",
    "config ask: blocked",
    "tabs, case, a comment",
    "config warn, installed in enforce: through",
    "config off: through",
    "the bypass: through",
    "the variable warn: through",
    "the variable enforce: blocked",
    "no config, a user entry: the default phase, warn (installed in enforce)",
    "no config, a user entry: the default phase, warn (installed in warn)",
    "no config, the variable ask: blocked",
    "a key in a table is not the phase (the variable decides)",
    "a key in a later table does not undo the phase",
]


@pytest.mark.parametrize("form", ["posix", "exec"])
@pytest.mark.parametrize(("config", "installed", "env", "code"), CASES, ids=IDS)
def test_a_gone_package_answers_as_the_phase_says(
    tmp_path: Path,
    form: str,
    config: str | None,
    installed: str,
    env: dict[str, str],
    code: int,
) -> None:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    if config is not None:
        (root / ".claude" / "boundary.toml").write_text(config)
    entries = _entries(tmp_path, installed, form)
    assert _run(entries["PreToolUse"], root, env) == code
    assert _run(entries["PostToolUse"], root, env) == code
    for event in ("PostToolUseFailure", "SubagentStop", "Stop", "SessionEnd"):
        assert _run(entries[event], root, env) == 0, event  # a stop is never held


@pytest.mark.parametrize("form", ["posix", "exec"])
def test_a_session_below_the_project_reads_the_config_above(tmp_path: Path, form: str) -> None:
    """User-scope entries run wherever a session starts: ``CLAUDE_PROJECT_DIR`` is then the
    subfolder, and the config is the nearest above (ADR 0054). A relative value ends too."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    (root / "src" / "deep").mkdir(parents=True)
    pre = _entries(tmp_path, "warn", form)["PreToolUse"]
    assert _run(pre, root / "src" / "deep", {}) == 2
    assert _run(pre, Path("src"), {}, cwd=root) == 2


def test_the_words_the_entry_runs_are_unchanged_behind_the_guard(tmp_path: Path) -> None:
    entries = _entries(tmp_path, "enforce", "posix")
    for event, entry in entries.items():
        assert registration.entry_argv(entry)[-2:] == [event, "user"]
        assert registration.entry_argv(entry)[1:3] == ["-I", "-S"]


def test_entries_written_before_are_still_ours(tmp_path: Path) -> None:
    """``install`` and ``uninstall`` find their own entries by the words they run, behind the
    guard: the exit-1 guard of older versions and the new one alike."""
    from orchestrator_boundary import settings_edit

    for event, entry in _entries(tmp_path, "enforce", "posix").items():
        head, _, rest = str(entry["command"]).partition(">&2; ")
        older = head + ">&2; exit 1; }; exec " + rest.split("}; exec ", 1)[1]  # ADR 0052's
        old = dict(entry, command=older)
        for version in (entry, old):
            assert settings_edit.is_ours(version), event
            assert registration.entry_argv(version)[-2:] == [event, "user"]


@pytest.mark.parametrize("form", ["posix", "exec"])
@pytest.mark.parametrize(("scope", "code"), [("user", 0), ("local", 2), ("managed", 2)])
def test_with_no_phase_to_read_the_scope_decides(
    tmp_path: Path, form: str, scope: str, code: int
) -> None:
    """A user entry serves every project of its user, most without a config (a working hook
    lets their calls through: the default phase is warn); local and managed entries serve
    projects meant to be guarded, and block as ``cannot_load`` does."""
    root = tmp_path / "proj"
    root.mkdir()
    gone = tmp_path / "gone" / "orchestrator_boundary" / "launcher.py"
    tail = ["PreToolUse", "user"] if scope == "user" else ["PreToolUse"]
    if form == "posix":
        entry = registration.entries(scope, "enforce", launcher_py=str(gone))["PreToolUse"]
    else:
        args = registration.exec_args(str(gone), tail)
        entry = {"type": "command", "command": sys.executable, "args": args}
    assert _run(entry, root, {}) == code
    assert _run(entry, root, {"AMPLIFIER_BYPASS_BOUNDARY": "1"}) == 0
