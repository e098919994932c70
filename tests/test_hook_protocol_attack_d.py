"""The hook shell attacked from outside, round eight (ADR 0063): a trail that cannot take a
line, a trail whose last line is torn, and the evaluator stopped or hung.

Each case runs the command ``install`` registers as a real process, in a throwaway project.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from harden_support import write_call

import orchestrator_boundary
from orchestrator_boundary import audit, audit_lock, hook_main, report_trail

LAUNCHER = Path(orchestrator_boundary.__file__).parent / "launcher.py"


def _hook(root: Path, tool_use_id: str, phase: str = "enforce") -> subprocess.CompletedProcess[str]:
    """The registered command, judged in its own process: a Write the main agent may not make."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(root.parent),
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        "ORCHESTRATOR_BOUNDARY_PHASE": phase,
    }
    raw = write_call(root, tool_use_id)
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse"]
    return subprocess.run(
        argv, input=raw, capture_output=True, text=True, env=env, cwd=root, timeout=60
    )


def _trail(root: Path) -> Path:
    return root / ".claude" / "boundary" / "audit.jsonl"


def _read(trail: Path) -> tuple[list[str], int, bool]:
    """The tool_use_ids of the trail's lines (the trail, its rotated files and the lines that
    wait beside it, as ``report`` reads them), its malformed lines, and whether it is intact."""
    files = audit.trail_files(str(trail))
    check = report_trail.chain_check(str(trail), files, 20)
    records = list(report_trail.iter_records(files, None, check))
    ids = [str(r["tool_use_id"]) for r in records if r]
    return ids, sum(1 for r in records if not r), check.result().intact


# ---- 1. a trail that cannot take the line ----

# (id, what is put in the trail's place): each took every line without a trace (a link to
# /dev/null) or lost it to stderr (a folder, a FIFO, /dev/full). The line now waits beside
# the trail, and the first call after the trail is repaired merges it.
BROKEN: list[tuple[str, Callable[[Path], None]]] = [
    ("link-to-dev-null", lambda p: p.symlink_to("/dev/null")),
    ("link-to-dev-full", lambda p: p.symlink_to("/dev/full")),
    ("folder", lambda p: p.mkdir()),
    ("fifo", lambda p: os.mkfifo(p)),
]


@pytest.mark.parametrize("put", [c[1] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_a_trail_that_cannot_take_a_line_loses_none(
    project: Path, put: Callable[[Path], None]
) -> None:
    trail = _trail(project)
    trail.parent.mkdir(parents=True)
    put(trail)
    for n in (1, 2):
        done = _hook(project, f"toolu_{n}")
        assert done.returncode == 0 and '"permissionDecision": "deny"' in done.stdout, done
        assert "audit trail not writable" in done.stderr, done.stderr
        assert "the line waits beside the trail" in done.stderr, done.stderr
    waiting = [json.loads(Path(n).read_bytes()) for n in audit.spooled(str(trail))]
    assert [w["tool_use_id"] for w in waiting] == ["toolu_1", "toolu_2"]
    if trail.is_dir() and not trail.is_symlink():
        trail.rmdir()
    else:
        trail.unlink()
    assert _hook(project, "toolu_3").stderr == ""
    assert audit.spooled(str(trail)) == []
    assert _read(trail) == (["toolu_1", "toolu_2", "toolu_3"], 0, True)


def test_lines_wait_beside_the_trail_up_to_a_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trail that stays broken fills its folder with waiting lines no further than
    ``SPOOL_MAX_FILES``; past it the line goes to the hook's stderr only, as before."""
    monkeypatch.setattr(audit_lock, "SPOOL_MAX_FILES", 2)
    trail = tmp_path / "audit.jsonl"
    trail.mkdir()
    for n in range(3):
        with pytest.raises(OSError, match="waits beside" if n < 2 else "Is a directory") as info:
            audit.write(str(trail), {"ts": "2026-11-24T10:00:00+00:00", "n": n})
        assert ("waits beside" in str(info.value)) is (n < 2)
    assert len(audit.spooled(str(trail))) == 2


_FULL_DISK = """
import resource, signal, sys
from orchestrator_boundary import audit
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (10, 10))
for n in range(3):
    try:
        audit.write(sys.argv[1], {"ts": "2026-11-24T10:00:00+00:00", "pad": "x" * 100})
    except OSError as exc:
        print(exc.errno)
"""


def test_a_line_that_cannot_even_wait_leaves_no_file_behind(tmp_path: Path) -> None:
    """A trail that cannot take the line, on a disk that cannot take the spool file either
    (a file size limit stands for a full disk): each call left an empty private file."""
    trail = tmp_path / "trail" / "audit.jsonl"
    trail.mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-B", "-c", _FULL_DISK, str(trail)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["21"] * 3, done  # EISDIR: the trail's own error
    assert sorted(p.name for p in trail.parent.iterdir()) == [".audit.jsonl-head", "audit.jsonl"]


# ---- 2. a torn last line ----


def test_a_line_after_a_torn_one_is_whole(project: Path) -> None:
    """Before: a trail whose last line had no newline (a crash, a power loss, an editor) got the
    next line glued on: both were one malformed line, and the call was lost to every reader."""
    _hook(project, "toolu_1")
    trail = _trail(project)
    trail.write_bytes(trail.read_bytes()[:-20])  # the end of the only line is gone
    _hook(project, "toolu_2")
    _hook(project, "toolu_3")
    ids, malformed, _ = _read(trail)
    assert (ids, malformed) == (["toolu_2", "toolu_3"], 1)


# ---- 3. surroundings the hook process starts in ----


def _env(root: Path, **extra: str) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(root.parent),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        **extra,
    }
    return {k: v for k, v in env.items() if v}


def test_a_non_blocking_stdin_that_is_slow_to_fill_is_read_whole(project: Path) -> None:
    """Before: ``os.read`` raised ``BlockingIOError`` on a non-blocking stdin whose writer had
    not written yet, and the hook exited 1 (the call went through)."""
    raw = write_call(project).encode()
    took, give = os.pipe()
    os.set_blocking(took, False)
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse"]
    env = _env(project, CLAUDE_PROJECT_DIR=str(project), ORCHESTRATOR_BOUNDARY_PHASE="enforce")
    with subprocess.Popen(
        argv, stdin=took, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=project
    ) as proc:
        os.close(took)
        time.sleep(0.5)  # the hook is reading by now
        with os.fdopen(give, "wb") as writer:
            writer.write(raw)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and b'"permissionDecision": "deny"' in out, (out, err)


def _in_a_gone_folder(project: Path, argv: list[str], env: dict[str, str]) -> tuple[int, str]:
    """Run ``argv`` from a working folder that was removed after the hook's parent entered it:
    its exit code, and its stdout and stderr."""
    gone = project / "gone"
    gone.mkdir()
    code = (
        "import os, subprocess, sys\n"
        f"os.chdir({str(gone)!r}); os.rmdir({str(gone)!r})\n"
        "done = subprocess.run(sys.argv[1:], input=sys.stdin.buffer.read(), capture_output=True)\n"
        "sys.stdout.write('%d %s' % (done.returncode, (done.stdout + done.stderr).decode()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        input=write_call(project).encode(),
        capture_output=True,
        env=env,
        timeout=60,
    )
    exit_code, _, said = done.stdout.decode().partition(" ")
    return int(exit_code), said


@pytest.mark.parametrize(
    ("phase", "expect"),
    [("enforce", '"permissionDecision": "deny"'), ("warn", '"additionalContext"')],
    ids=["enforce", "warn"],
)
def test_a_user_scope_hook_in_a_removed_folder_judges_the_call(
    project: Path, phase: str, expect: str
) -> None:
    """The user-scope entry (``launcher.py PreToolUse user``) names the trail from the working
    folder when ``CLAUDE_PROJECT_DIR`` is unset. Before: that folder removed, ``os.getcwd``
    raised and the hook exited 1 (the call went through unjudged)."""
    (project / ".claude" / "boundary.toml").write_text(f'phase = "{phase}"\n')
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse", "user"]
    exit_code, said = _in_a_gone_folder(project, argv, _env(project))
    assert exit_code == 0 and expect in said, said


# ---- 4. an interpreter too old for the package ----

# (id, event argument, ORCHESTRATOR_BOUNDARY_PHASE, exit code): as a package that cannot load
TOO_OLD = [
    ("pre-no-phase", "PreToolUse", "", 2),
    ("pre-enforce", "PreToolUse", "enforce", 2),
    ("pre-warn", "PreToolUse", "warn", 0),
    ("post-off", "PostToolUse", "off", 0),
    ("stop-never-held", "Stop", "", 0),
    ("misregistered", "Bogus", "warn", 2),
]


@pytest.mark.parametrize(
    ("event", "phase", "expect"), [c[1:] for c in TOO_OLD], ids=[c[0] for c in TOO_OLD]
)
def test_an_interpreter_too_old_answers_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    event: str,
    phase: str,
    expect: int,
) -> None:
    """The plugin runs ``python3`` from PATH (macOS' own is 3.9). Before: Python 3.7 exited 1
    (the call went through), 3.8 to 3.10 blocked every call, warn too, with an error about
    ``enum.StrEnum``. Checked by hand with real 3.7 to 3.10 interpreters (ADR 0063)."""
    monkeypatch.setattr(sys, "version_info", (3, 9, 6, "final", 0))
    monkeypatch.setenv("ORCHESTRATOR_BOUNDARY_PHASE", phase)
    assert hook_main.main(["hook.py", event]) == expect
    said = capsys.readouterr().err
    assert said.startswith("orchestrator-boundary needs Python 3.11 or newer, but this hook runs")
    assert said.count("\n") == 1


# ---- 5. stdin that never ends ----

# (id, what is written before stdin is left open, exit code, what stdout holds)
LEFT_OPEN = [
    ("whole-call", lambda raw: raw, 0, '"permissionDecision": "deny"'),
    ("half-a-call", lambda raw: raw[: len(raw) // 2], 2, ""),
]


@pytest.mark.parametrize(
    ("part", "expect", "answer"), [c[1:] for c in LEFT_OPEN], ids=[c[0] for c in LEFT_OPEN]
)
def test_stdin_left_open_gets_an_answer_before_claude_codes_timeout(
    project: Path, part: Callable[[bytes], bytes], expect: int, answer: str
) -> None:
    """Before: a writer that never closed stdin held the hook until Claude Code's timeout (10 s),
    which lets the call through without ``onFailure``. What came is judged after 4 s."""
    (project / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse"]
    env = _env(project, CLAUDE_PROJECT_DIR=str(project))
    started = time.monotonic()
    with subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=project,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(part(write_call(project).encode()))
        proc.stdin.flush()
        try:
            proc.wait(timeout=9)
        finally:
            proc.kill()
            proc.stdin.close()
        out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
    assert time.monotonic() - started < 9
    assert proc.returncode == expect and answer in out, (out, err)
    assert "stdin did not end" in err, err


# ---- 6. the project folder moved away during the session ----


@pytest.mark.parametrize(
    "target",
    [".claude/settings.json", ".claude/boundary.toml", "src/a.py"],
    ids=["settings", "config", "source"],
)
def test_a_project_moved_away_mid_session_is_not_judged_as_unconfigured(
    project: Path, target: str
) -> None:
    """A program the main agent may run (``python3 tools/mv.py``, opaque) renamed the project
    folder. ``CLAUDE_PROJECT_DIR`` still names the old path, where no config is: every later
    call was judged as a project without one (warn), so the Write of the moved project's
    settings, config or sources went through in enforce. Now the call is refused: the
    project's folder is gone (ADR 0063)."""
    (project / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    moved = project.with_name("moved")
    project.rename(moved)
    raw = (
        write_call(project)
        .encode()
        .replace(
            json.dumps(f"{project}/src/a.py").encode(), json.dumps(f"{moved}/{target}").encode()
        )
    )
    env = _env(moved, CLAUDE_PROJECT_DIR=str(project))
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse"]
    done = subprocess.run(argv, input=raw, capture_output=True, env=env, cwd=moved, timeout=60)
    assert (done.returncode, done.stdout) == (2, b""), done
    assert b"is gone (moved or removed during the session)" in done.stderr, done.stderr


# ---- 7. what held, kept: garbage never holds a stop; other encodings are read as sent ----

GARBAGE = [("empty", b""), ("not-json", b"{x"), ("list", b"[]"), ("deep", b"[" * 100_000)]
QUIET = ["PostToolUseFailure", "SubagentStop", "Stop", "SessionEnd"]


@pytest.mark.parametrize("event", QUIET)
@pytest.mark.parametrize("raw", [g[1] for g in GARBAGE], ids=[g[0] for g in GARBAGE])
def test_garbage_on_a_lifecycle_or_observed_event_never_blocks(
    project: Path, event: str, raw: bytes
) -> None:
    (project / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), event]
    env = _env(project, CLAUDE_PROJECT_DIR=str(project))
    done = subprocess.run(argv, input=raw, capture_output=True, env=env, cwd=project, timeout=60)
    assert (done.returncode, done.stdout) == (0, b""), done
    assert b"cannot judge this call" in done.stderr


ENCODINGS = ["utf-8-sig", "utf-16", "utf-16-le", "utf-32"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_call_in_another_json_encoding_is_judged_as_sent(project: Path, encoding: str) -> None:
    """A PowerShell pipe writes UTF-16 with a BOM; JSON allows UTF-8, -16 and -32. The call
    is read as sent and gets the verdict its UTF-8 form gets."""
    (project / ".claude" / "boundary.toml").write_text('phase = "enforce"\n')
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), "PreToolUse"]
    env = _env(project, CLAUDE_PROJECT_DIR=str(project))
    raw = write_call(project).encode().decode().encode(encoding)
    done = subprocess.run(argv, input=raw, capture_output=True, env=env, cwd=project, timeout=60)
    assert done.returncode == 0 and b'"permissionDecision": "deny"' in done.stdout, done
