"""Round twelve, the hook shell: a package too broken for its own client still answers by the
phase and leaves the call's record (ADR 0084).

Before: ``launcher.py`` caught only ``ImportError``. A ``wire.py`` or ``hook_main.py`` that does
not compile (a SyntaxError, a file cut short by a full disk) or raises anything else at import
died with a traceback: exit 1, which Claude Code before 2.1.295 (and any version without
``onFailure``) lets through, in enforce too. An ``ImportError`` was answered from
``ORCHESTRATOR_BOUNDARY_PHASE`` alone (a warn project's config was not read: every call
blocked), and nothing was recorded. Windows' exec-form program had no guard at all. When
``peer`` itself could not load, ``client.cannot_load`` recorded nothing either.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator_boundary import client, gone_guard, rescue

PACKAGE = Path(client.__file__).parent
PAYLOAD = {
    "session_id": "s-r12",
    "hook_event_name": "PreToolUse",
    "tool_name": "Write",
    "tool_use_id": "toolu_r12",
    "tool_input": {"file_path": "/nowhere/a.txt", "content": "x"},
}


def broken_copy(tmp_path: Path, module: str, how: str) -> Path:
    """The package copied into ``tmp_path/site`` with ``module`` broken ``how``."""
    copy = tmp_path / "site" / "orchestrator_boundary"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / f"{module}.py"
    if how == "syntax":
        target.write_text(target.read_text() + "\ndef (\n")
    elif how == "raises":
        target.write_text(target.read_text() + "\nraise RuntimeError('half written')\n")
    elif how == "gone":
        target.unlink()
    return copy


def project(tmp_path: Path, phase: str | None) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    if phase is not None:
        (root / ".claude" / "boundary.toml").write_text(f'phase = "{phase}"\n')
    return root


def run(
    argv: list[str], root: Path, tmp_path: Path, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        **(extra or {}),
    }
    return subprocess.run(
        argv,
        input=json.dumps(PAYLOAD).encode(),
        capture_output=True,
        env=env,
        cwd=root,
        timeout=60,
        check=False,
    )


def spooled(root: Path, trail: str = ".claude/boundary/audit.jsonl") -> list[dict[str, object]]:
    folder = (root / trail).parent
    names = sorted(folder.glob(f".{Path(trail).name}-spool-*")) if folder.is_dir() else []
    return [json.loads(p.read_text()) for p in names]


CASES = [
    # (phase in the config, environment, event, exit code)
    ("warn", {}, "PreToolUse", 0),
    ("enforce", {}, "PreToolUse", 2),
    ("ask", {}, "PostToolUse", 2),
    ("enforce", {"AMPLIFIER_BYPASS_BOUNDARY": "yes"}, "PreToolUse", 0),
    ("enforce", {"ORCHESTRATOR_BOUNDARY_PHASE": "off"}, "PreToolUse", 0),
    (None, {}, "PreToolUse", 2),
    ("enforce", {}, "Stop", 0),
]


@pytest.mark.parametrize(("module", "how"), [("wire", "syntax"), ("wire", "raises"),
                                             ("wire", "gone"), ("hook_main", "syntax"),
                                             ("client", "syntax")])  # fmt: skip
@pytest.mark.parametrize(("phase", "env", "event", "code"), CASES)
def test_a_package_whose_wire_cannot_load_answers_by_phase_and_records_the_call(
    tmp_path: Path,
    module: str,
    how: str,
    phase: str | None,
    env: dict[str, str],
    event: str,
    code: int,
) -> None:
    copy = broken_copy(tmp_path, module, how)
    root = project(tmp_path, phase)
    done = run([sys.executable, "-I", "-S", str(copy / "launcher.py"), event], root, tmp_path, env)
    assert (done.returncode, done.stdout) == (code, b""), done.stderr
    err = done.stderr.decode()
    assert err.startswith("orchestrator-boundary: cannot load the package") and err.count("\n") == 1
    [rec] = spooled(root)
    assert rec["unjudged"] is True and rec["event"] == event
    assert rec["decision"] == ("deny" if code == 2 else "none")
    assert rec["bypassed"] is ("AMPLIFIER_BYPASS_BOUNDARY" in env)
    assert str(rec["error"]).startswith("cannot load the policy: ")
    if event in ("PreToolUse", "PostToolUse"):  # the payload is read for who called what
        assert (rec["session_id"], rec["tool_name"]) == ("s-r12", "Write")


def test_the_record_lands_where_the_config_puts_the_trail(tmp_path: Path) -> None:
    copy = broken_copy(tmp_path, "wire", "syntax")
    root = project(tmp_path, None)
    (root / ".claude" / "boundary.toml").write_text(
        'phase = "enforce"\n[audit]\npath = "logs/trail.jsonl"\n'
    )
    done = run(
        [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse"], root, tmp_path
    )
    assert done.returncode == 2, done.stderr
    assert [r["tool_name"] for r in spooled(root, "logs/trail.jsonl")] == ["Write"]


def test_a_user_scope_entry_records_under_the_users_claude_folder(tmp_path: Path) -> None:
    """``launcher.py EVENT user``: the trail is the per-user one ``hook_main.user_trail``
    names; nothing is written into the repository."""
    from orchestrator_boundary import hook_main

    copy = broken_copy(tmp_path, "wire", "syntax")
    root = project(tmp_path, "warn")
    argv = [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse", "user"]
    done = run(argv, root, tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (root / ".claude" / "boundary").exists()
    env = {"HOME": str(tmp_path / "home")}
    trail = Path(hook_main.user_trail(str(root), env))
    assert [r["tool_name"] for r in spooled(trail.parent, trail.name)] == ["Write"]


def test_the_windows_exec_form_program_answers_by_phase_when_wire_cannot_load(
    tmp_path: Path,
) -> None:
    """The ``-c`` program Windows entries run (exec form, no shell) imported ``hook_main``
    unguarded: a traceback, exit 1. Run here with this machine's paths: the same program."""
    copy = broken_copy(tmp_path, "wire", "syntax")
    args = gone_guard.exec_args(str(copy / "launcher.py"), ["PreToolUse"])
    for phase, code in (("enforce", 2), ("warn", 0)):
        root = project(tmp_path / phase, phase)
        done = run([sys.executable, *args], root, tmp_path)
        assert (done.returncode, done.stdout) == (code, b""), done.stderr
        assert b"cannot load the package" in done.stderr
        assert [r["tool_name"] for r in spooled(root)] == ["Write"]


def test_the_windows_program_without_rescue_still_reads_the_configs_phase(tmp_path: Path) -> None:
    copy = broken_copy(tmp_path, "wire", "syntax")
    (copy / "rescue.py").unlink()
    args = gone_guard.exec_args(str(copy / "launcher.py"), ["PreToolUse"])
    root = project(tmp_path, "warn")
    done = run([sys.executable, *args], root, tmp_path)
    assert (done.returncode, done.stdout) == (0, b""), done.stderr
    root = project(tmp_path / "e", "enforce")
    assert run([sys.executable, *args], root, tmp_path).returncode == 2


def test_a_launcher_without_rescue_still_never_exits_1(tmp_path: Path) -> None:
    copy = broken_copy(tmp_path, "wire", "syntax")
    (copy / "rescue.py").unlink()
    root = project(tmp_path, "enforce")
    argv = [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse"]
    done = run(argv, root, tmp_path)
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    assert done.stderr.startswith(b"orchestrator-boundary: cannot load the package")
    done = run(argv, root, tmp_path, {"AMPLIFIER_BYPASS_BOUNDARY": "1"})
    assert done.returncode == 0, done.stderr


def test_when_peer_and_the_policy_cannot_load_the_client_still_records(tmp_path: Path) -> None:
    """``wire`` loads, ``peer`` does not, nor the policy: ``cannot_load`` answered, but said
    "no record of this call either"."""
    copy = broken_copy(tmp_path, "peer", "syntax")
    shell = copy / "shell.py"
    shell.write_text(shell.read_text().replace("\nimport os\n", "\nimport not_there_at_all\n", 1))
    root = project(tmp_path, "enforce")
    done = run(
        [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse"], root, tmp_path
    )
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    assert b"no record" not in done.stderr
    [rec] = spooled(root)
    assert (rec["tool_name"], rec["decision"], rec["unjudged"]) == ("Write", "deny", True)


def test_the_rescue_record_reads_as_peers_does(tmp_path: Path) -> None:
    """Two copies of one record (rescue must load where peer cannot): the same keys, so
    ``report`` and the chain's sealing read both alike."""
    from orchestrator_boundary import peer

    raw = json.dumps(PAYLOAD).encode()
    ours = json.loads(rescue.record(raw, "PreToolUse", "e", "warn", 0, False))
    theirs = json.loads(peer.unjudged_record(raw, "PreToolUse", "e", "warn", 0, False))
    assert set(theirs) - set(ours) == {"version"}  # wire's version reader is what failed
    assert {k: v for k, v in ours.items() if k != "ts"} == {
        k: v for k, v in theirs.items() if k not in ("ts", "version")
    }


def test_a_rescued_record_is_counted_by_report(tmp_path: Path) -> None:
    """The spooled record is what ``report`` reads: a hook error, the project NOT READY."""
    copy = broken_copy(tmp_path, "wire", "syntax")
    root = project(tmp_path, "warn")
    run([sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse"], root, tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    done = subprocess.run(
        [sys.executable, "-m", "orchestrator_boundary.cli", "report", "--project", str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert "cannot load the policy" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize(("phase", "code"), [("warn", 0), ("enforce", 2)])
def test_the_plugins_hook_answers_a_broken_package_by_the_configs_phase(
    tmp_path: Path, phase: str, code: int
) -> None:
    """``hooks/hook.py`` (the plugin, a checkout) caught only ImportError: a ``wire.py`` that
    does not compile ended in a traceback, exit 1, let through by any Claude Code without
    ``onFailure``; a warn project's config was not read."""
    checkout = tmp_path / "checkout"
    shutil.copytree(PACKAGE.parents[1] / "hooks", checkout / "hooks")
    copy = broken_copy(tmp_path, "wire", "syntax")
    shutil.move(str(copy.parent), str(checkout / "src"))
    root = project(tmp_path, phase)
    argv = [sys.executable, "-I", "-S", str(checkout / "hooks" / "hook.py"), "PreToolUse"]
    done = run(argv, root, tmp_path)
    assert (done.returncode, done.stdout) == (code, b""), done.stderr
    assert [r["tool_name"] for r in spooled(root)] == ["Write"]


def test_a_rescued_call_whose_stdin_never_ends_is_answered_in_time(tmp_path: Path) -> None:
    """The rescue reads stdin for the record: a writer that never closes it must not hold the
    hook until Claude Code's timeout (which lets the call through without ``onFailure``)."""
    import time

    copy = broken_copy(tmp_path, "wire", "syntax")
    root = project(tmp_path, "enforce")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(root)}
    started = time.monotonic()
    with subprocess.Popen(
        [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    ) as proc:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(PAYLOAD).encode())
        proc.stdin.flush()  # and never closed
        code = proc.wait(timeout=30)
        proc.stdin.close()
    assert code == 2 and time.monotonic() - started < 8
    [rec] = spooled(root)
    assert rec["tool_name"] == "Write"


def test_a_huge_payload_is_recorded_without_its_fields(tmp_path: Path) -> None:
    copy = broken_copy(tmp_path, "wire", "syntax")
    root = project(tmp_path, "warn")
    big = {**PAYLOAD, "tool_input": {"content": "x" * (3 << 20)}}
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse"],
        input=json.dumps(big).encode(),
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CLAUDE_PROJECT_DIR": str(root)},
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, b""), done.stderr
    [rec] = spooled(root)
    assert "tool_name" not in rec and rec["input_bytes"] > rescue.PAYLOAD_MAX


@pytest.mark.parametrize("broken", ["shell", "wire"], ids=["peer's record", "rescue's record"])
def test_a_broken_install_never_makes_a_moved_projects_folder_again(
    tmp_path: Path, broken: str
) -> None:
    """The project was moved during the session (``CLAUDE_PROJECT_DIR`` names the old path).
    The record of a broken install made ``<old>/.claude/boundary/`` again, and from then on a
    working install judged the session as an unconfigured project (warn: every call through)
    instead of a project gone (blocked, ADR 0063)."""
    copy = broken_copy(tmp_path, broken, "gone")
    if broken == "shell":  # the policy cannot load, peer can: client.cannot_load's record
        shutil.copy(PACKAGE / "shell.py", copy / "shell.py")
        shell = copy / "shell.py"
        shell.write_text(shell.read_text().replace("\nimport os\n", "\nimport not_at_all\n", 1))
    gone = tmp_path / "moved-away"
    done = run(
        [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse"],
        tmp_path,
        tmp_path,
        {"CLAUDE_PROJECT_DIR": str(gone)},
    )
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    assert not gone.exists()
    assert b"is gone" in done.stderr  # and the record itself, on stderr
    working = run(
        [sys.executable, "-I", "-S", str(PACKAGE / "launcher.py"), "PreToolUse"],
        tmp_path,
        tmp_path,
        {"CLAUDE_PROJECT_DIR": str(gone)},
    )
    assert working.returncode == 2 and b"is gone" in working.stderr


def test_where_the_process_cannot_be_started_again_a_cut_pyc_is_dropped_for_the_next_call(
    tmp_path: Path,
) -> None:
    """Windows has no ``exec`` that keeps the process Claude Code waits for: the exec-form
    program answers the call by the phase, and the next call must not meet the cut file
    again (before: no answer at all, a traceback, exit 1, on every call)."""
    copy = tmp_path / "site" / "orchestrator_boundary"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-I", "-m", "compileall", "-q", str(copy)], check=True)
    cached = copy / "__pycache__" / f"wire.{sys.implementation.cache_tag}.pyc"
    cached.write_bytes(cached.read_bytes()[:100])
    root = project(tmp_path, "enforce")
    code = (
        f"import os, sys; sys.path.insert(0, {str(copy.parent)!r}); os.name = 'nt'\n"
        "from orchestrator_boundary.rescue import rescued\n"
        "sys.exit(rescued(EOFError('marshal data too short'))(['-c', 'PreToolUse']))"
    )
    done = run([sys.executable, "-I", "-S", "-c", code], root, tmp_path)
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    assert not cached.exists()


def test_a_user_entry_whose_slug_module_cannot_load_answers_by_phase(tmp_path: Path) -> None:
    """``hook_main`` loads, but what it needs before the client (``digests`` for a ``user``
    entry's trail) does not: a traceback, exit 1, before this round."""
    copy = broken_copy(tmp_path, "digests", "syntax")
    root = project(tmp_path, "enforce")
    argv = [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse", "user"]
    done = run(argv, root, tmp_path)
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    assert done.stderr.startswith(b"orchestrator-boundary: cannot load the package (SyntaxError")


def test_files_of_two_versions_mid_upgrade_never_exit_1(tmp_path: Path) -> None:
    """Every module loads, but one lacks a name another uses (``pip install --upgrade`` writes
    the files one by one): the client raised ``AttributeError`` past its own guards, a
    traceback, exit 1."""
    copy = broken_copy(tmp_path, "wire", "keep")
    wire = copy / "wire.py"
    text = (PACKAGE / "wire.py").read_text()
    wire.write_text(text.replace("\nMAX_PAYLOAD_BYTES =", "\nRENAMED_PAYLOAD_BYTES =", 1))
    root = project(tmp_path, "enforce")
    done = run(
        [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse"], root, tmp_path
    )
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    assert b"Traceback" not in done.stderr and b"AttributeError" in done.stderr


@pytest.mark.parametrize(("extra", "code"), [([], 2), (["user"], 0)], ids=["local", "user"])
def test_with_no_phase_to_read_a_user_entry_lets_the_call_through(
    tmp_path: Path, extra: list[str], code: int
) -> None:
    """As the gone guard answers (ADR 0079): a user-scope entry serves every project of its
    user, most without a config, which a working hook judges in warn; a broken package must
    not block them all. A local entry serves a project meant to be guarded: blocked."""
    copy = broken_copy(tmp_path, "wire", "syntax")
    root = project(tmp_path, None)
    argv = [sys.executable, "-I", "-S", str(copy / "launcher.py"), "PreToolUse", *extra]
    assert run(argv, root, tmp_path).returncode == code


def _small_files() -> None:  # in the child: files past 120 bytes fail, as on a full disk
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (120, 120))


@pytest.mark.parametrize("broken", ["shell", "wire"], ids=["peer's record", "rescue's record"])
def test_a_record_the_disk_cannot_hold_is_never_left_cut(tmp_path: Path, broken: str) -> None:
    """A full disk writes short, then fails: the record was written with one ``os.write``,
    its short count unchecked, and renamed into the spool cut in the middle, a torn line for
    the merging writer; a failed write left its private file behind."""
    copy = broken_copy(tmp_path, broken, "syntax")
    root = project(tmp_path, "enforce")
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-B", str(copy / "launcher.py"), "PreToolUse"],
        input=json.dumps(PAYLOAD).encode(),
        capture_output=True,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "CLAUDE_PROJECT_DIR": str(root),
            "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        },
        preexec_fn=_small_files,  # a limit for the child alone
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    folder = root / ".claude" / "boundary"
    assert sorted(p.name for p in folder.iterdir()) == [], "a cut or partial record was left"
    assert b"not writable" in done.stderr and b'"tool_name": "Write"' in done.stderr
