"""The team launcher (ADR 0023): a committed install guards every teammate.

Two "machines" share one repository: each has its own HOME and its own interpreter path (a
venv-like folder borrowing this interpreter's libraries). Machine A installs and commits; B
clones. B is guarded by its own installation once it has one, and before that is never silently
unguarded: enforce and ask block with how to install, warn tells the user once per session.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import hook_main, registration
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary.phase import BYPASS_ENV, PHASE_ENV

SH = shutil.which("sh") or "/bin/sh"
BARE_PATH = "/usr/bin:/bin"  # no interpreter with the package on it


def venv_python(folder: Path) -> Path:
    """A venv-like interpreter at ``folder`` (its own path, this interpreter's libraries)."""
    (folder / "bin").mkdir(parents=True)
    python = folder / "bin" / "python"
    python.symlink_to(os.path.realpath(sys.executable))
    cfg = Path(sys.prefix) / "pyvenv.cfg"
    if cfg.exists():
        (folder / "pyvenv.cfg").write_text(cfg.read_text())
        (folder / "lib").symlink_to(Path(sys.prefix) / "lib")
    return python


def cli(python: Path, home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env.update(HOME=str(home), PATH=BARE_PATH)
    return subprocess.run(
        [str(python), "-m", "orchestrator_boundary.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def git(*argv: str, cwd: Path | None = None) -> None:
    subprocess.run(
        ["git", "-c", "user.name=a", "-c", "user.email=a@b", *argv],
        cwd=cwd,
        check=True,
        capture_output=True,
        timeout=60,
    )


@pytest.fixture
def machines(tmp_path: Path) -> dict[str, Any]:
    """Machine A installed (project scope) and committed; machine B cloned."""
    a_home, b_home = tmp_path / "a-home", tmp_path / "b-home"
    a_home.mkdir()
    b_home.mkdir()
    a_python = venv_python(tmp_path / "a-tools" / "venv")
    b_python = venv_python(tmp_path / "b tools" / "venv two")  # spaces on purpose
    repo = tmp_path / "a-work" / "repo"
    repo.mkdir(parents=True)
    git("init", "-q", str(repo))
    (repo / "README").write_text("hi\n")
    done = cli(a_python, a_home, "install", "--project", str(repo), "--phase", "enforce", "--force")
    assert done.returncode == 0, done.stdout + done.stderr
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "guard", cwd=repo)
    clone = tmp_path / "b-work" / "clone"
    git("clone", "-q", str(repo), str(clone))
    return {
        "a": (a_python, a_home, repo),
        "b": (b_python, b_home, clone),
        "tmp": tmp_path,
    }


def payload(root: Path, tool: str = "Write", session: str = "s-1") -> bytes:
    data = {
        "session_id": session,
        "transcript_path": "",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"file_path": str(root / "src" / "x.py"), "content": "x"},
    }
    return json.dumps(data).encode()


def run_entry(
    root: Path,
    home: Path,
    event: str = "PreToolUse",
    *,
    data: bytes | None = None,
    env: dict[str, str] | None = None,
    path: str = BARE_PATH,
) -> subprocess.CompletedProcess[bytes]:
    """Run our entry from ``root``'s committed settings as Claude Code would (``sh -c``)."""
    settings = json.loads((root / ".claude" / "settings.json").read_text(encoding="utf-8"))
    [hook] = se.registered(settings)[event]
    full = {
        "HOME": str(home),
        "PATH": path,
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
        **(env or {}),
    }
    return subprocess.run(
        [SH, "-c", hook["command"]],
        input=data if data is not None else payload(root),
        env=full,
        capture_output=True,
        timeout=60,
        check=False,
        cwd=root,
    )


def test_committed_settings_hold_no_path_of_the_installers_machine(
    machines: dict[str, Any],
) -> None:
    a_python, a_home, _repo = machines["a"]
    _, _, clone = machines["b"]
    committed = (clone / ".claude" / "settings.json").read_text(encoding="utf-8")
    for private in (str(machines["tmp"]), str(a_home), sys.prefix, os.path.dirname(se.__file__)):
        assert private not in committed
    data = json.loads(committed)
    for event in se.EVENTS:
        [hook] = se.registered(data)[event]
        block = {"onFailure": "block"} if event in registration.TOOL_EVENTS else {}
        assert hook == {
            "type": "command",
            "command": f'sh "${{CLAUDE_PROJECT_DIR}}/.claude/orchestrator-boundary/launch.sh" '
            f"{event} enforce",
            "timeout": 10,
            **block,
        }
    assert (clone / registration.SHIM_RELPATH).read_text() == registration.shim_text()
    # the installer's own pointer lives in its Claude folder, not in the repository
    pointer = a_home / ".claude" / "orchestrator-boundary" / "launcher"
    assert pointer.read_text().splitlines()[0] == str(a_python)
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=clone, capture_output=True, text=True, check=True
    ).stdout.split()
    assert sorted(tracked) == [
        ".claude/boundary.toml",
        ".claude/orchestrator-boundary/launch.sh",
        ".claude/settings.json",
        ".gitattributes",  # keeps the launcher LF under core.autocrlf (ADR 0058)
        ".gitignore",
        "README",
    ]


def test_the_installers_machine_is_guarded(machines: dict[str, Any]) -> None:
    _, a_home, repo = machines["a"]
    done = run_entry(repo, a_home)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    read = run_entry(repo, a_home, data=payload(repo, "Read"))
    assert read.returncode == 0 and read.stdout == b"", read.stderr


@pytest.mark.parametrize("phase", ["enforce", "ask"])
def test_a_teammate_without_an_installation_is_blocked_with_how_to_install(
    machines: dict[str, Any], phase: str
) -> None:
    _, b_home, clone = machines["b"]
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": phase} if phase != "enforce" else {}
    for tool in ("Write", "Read"):
        done = run_entry(clone, b_home, data=payload(clone, tool), env=env)
        assert done.returncode == 2 and done.stdout == b""
        err = done.stderr.decode()
        assert err.startswith(
            f"orchestrator-boundary: this project is guarded (phase {phase}), but "
            "orchestrator-boundary is not installed on this machine, so this call is blocked."
        )
        assert "pip install it" in err and "python3 -m pip install PATH-TO-CLONE" in err
        assert "orchestrator-boundary install" in err
        assert registration.PYTHON_ENV in err
    post = run_entry(clone, b_home, "PostToolUse")
    assert post.returncode == 0 and post.stdout == b""


@pytest.mark.parametrize("value", ["1", "TRUE", " yes "])
def test_a_teammate_without_an_installation_may_use_the_emergency_bypass(
    machines: dict[str, Any], value: str
) -> None:
    """The bypass is the one documented way out of a blocked session; without the package the
    launcher reads it as the package does (true/1/yes/on, any case) and says the call is
    unguarded. Anything else keeps the block."""
    _, b_home, clone = machines["b"]
    done = run_entry(clone, b_home, data=payload(clone, "Write"), env={BYPASS_ENV: value})
    assert done.returncode == 0, done.stderr
    message = json.loads(done.stdout)["systemMessage"]
    assert f"{BYPASS_ENV} is set, so this call goes through unguarded" in message
    still = run_entry(clone, b_home, data=payload(clone, "Write"), env={BYPASS_ENV: "0"})
    assert still.returncode == 2 and still.stdout == b""


def test_the_launchers_phase_is_read_in_any_case(machines: dict[str, Any]) -> None:
    """``ORCHESTRATOR_BOUNDARY_PHASE=Warn`` means warn to the package; so to the launcher."""
    _, b_home, clone = machines["b"]
    done = run_entry(clone, b_home, data=payload(clone, "Write"), env={PHASE_ENV: "Warn"})
    assert done.returncode == 0 and b"systemMessage" in done.stdout, done.stderr
    off = run_entry(clone, b_home, data=payload(clone, "Write"), env={PHASE_ENV: "OFF"})
    assert (off.returncode, off.stdout) == (0, b"")


def lifecycle_payload(root: Path, event: str) -> bytes:
    data = {
        "session_id": "s-1",
        "transcript_path": "",
        "cwd": str(root),
        "hook_event_name": event,
        "stop_hook_active": False,
    }
    return json.dumps(data).encode()


@pytest.mark.parametrize("event", registration.LIFECYCLE_EVENTS)
def test_the_shim_passes_a_lifecycle_event_through_and_never_blocks_it(
    machines: dict[str, Any], event: str
) -> None:
    """ADR 0033: without an installation, or with one that fails (an older launcher that does
    not know the event exits 2), a lifecycle event exits 0: a stop is never held by a failure."""
    _, a_home, repo = machines["a"]
    done = run_entry(repo, a_home, event, data=lifecycle_payload(repo, event))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    trail = (repo / ".claude" / "boundary" / "audit.jsonl").read_text(encoding="utf-8")
    assert json.loads(trail.splitlines()[-1])["event"] == event  # it reached the installation
    _, b_home, clone = machines["b"]
    missing = run_entry(clone, b_home, event, data=lifecycle_payload(clone, event))
    assert (missing.returncode, missing.stdout) == (0, b"")
    old = machines["tmp"] / "old-launcher.py"
    old.write_text("import sys\nsys.stderr.write('usage: launcher.py PreToolUse')\nsys.exit(2)\n")
    pointer = b_home / ".claude" / "orchestrator-boundary" / "launcher"
    pointer.parent.mkdir(parents=True, exist_ok=True)
    pointer.write_text(f"{sys.executable}\n{old}\n")
    failing = run_entry(clone, b_home, event, data=lifecycle_payload(clone, event))
    assert (failing.returncode, failing.stdout) == (0, b""), failing.stderr
    blocked = run_entry(clone, b_home)  # the same failure on a tool call still blocks
    assert blocked.returncode == 2


def test_in_warn_a_teammate_without_one_is_told_once_per_session(
    machines: dict[str, Any],
) -> None:
    _, b_home, clone = machines["b"]
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
    first = run_entry(clone, b_home, data=payload(clone, session="one"), env=env)
    assert first.returncode == 0, first.stderr
    message = json.loads(first.stdout)["systemMessage"]
    assert message.startswith("orchestrator-boundary is not installed on this machine: this ")
    assert "go through unguarded and unrecorded" in message and "pip install" in message
    again = run_entry(clone, b_home, data=payload(clone, session="one"), env=env)
    assert again.returncode == 0 and again.stdout == b""
    other = run_entry(clone, b_home, data=payload(clone, session="two"), env=env)
    assert json.loads(other.stdout)["systemMessage"] == message
    by_env = run_entry(
        clone,
        b_home,
        data=payload(clone, session="two"),
        env={**env, "CLAUDE_CODE_SESSION_ID": "x"},
    )
    assert json.loads(by_env.stdout)["systemMessage"] == message
    off = run_entry(clone, b_home, env={"ORCHESTRATOR_BOUNDARY_PHASE": "off"})
    assert off.returncode == 0 and off.stdout == b"" and off.stderr == b""


def test_a_teammates_own_install_guards_the_clone_without_changing_it(
    machines: dict[str, Any],
) -> None:
    b_python, b_home, clone = machines["b"]
    done = cli(b_python, b_home, "install", "--project", str(clone))
    assert done.returncode == 0, done.stdout + done.stderr
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True, check=True
    )
    assert status.stdout == ""  # nothing to commit: the committed files already fit
    pointer = b_home / ".claude" / "orchestrator-boundary" / "launcher"
    assert pointer.read_text().splitlines() == [str(b_python), registration.LAUNCHER_PY]
    denied = run_entry(clone, b_home)
    assert denied.returncode == 0, denied.stderr
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_pointer_written_with_windows_line_ends_is_still_followed(
    machines: dict[str, Any],
) -> None:
    """The shim strips a CR only when the plain lines do not lead to an installation (that
    costs a process, so the usual pointer is read without it)."""
    b_python, b_home, clone = machines["b"]
    pointer = b_home / ".claude" / "orchestrator-boundary" / "launcher"
    pointer.parent.mkdir(parents=True)
    pointer.write_bytes(f"{b_python}\r\n{registration.LAUNCHER_PY}\r\n".encode())
    denied = run_entry(clone, b_home)  # no other route: BARE_PATH has no installation
    assert denied.returncode == 0, denied.stderr
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize(
    "how",
    ["env", "venv", "path"],
    ids=["ORCHESTRATOR_BOUNDARY_PYTHON", "project .venv", "python3 on PATH"],
)
def test_the_lookup_finds_an_installation_without_the_pointer(
    machines: dict[str, Any], how: str
) -> None:
    b_python, b_home, clone = machines["b"]
    env: dict[str, str] = {}
    path = BARE_PATH
    if how == "env":
        env[registration.PYTHON_ENV] = str(b_python)
    elif how == "venv":
        shutil.move(b_python.parent.parent, clone / ".venv")
    else:
        (b_python.parent / "python3").symlink_to("python")
        path = f"{b_python.parent}:{BARE_PATH}"
    denied = run_entry(clone, b_home, env=env, path=path)
    assert denied.returncode == 0, denied.stderr
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_stale_pointer_or_a_python_without_the_package_is_passed_over(
    machines: dict[str, Any],
) -> None:
    _, b_home, clone = machines["b"]
    pointer = b_home / ".claude" / "orchestrator-boundary" / "launcher"
    pointer.parent.mkdir(parents=True)
    pointer.write_text("/gone/python\n/gone/launcher.py\n")
    bare = shutil.which("python3", path=BARE_PATH)
    env = {registration.PYTHON_ENV: bare} if bare else {}
    done = run_entry(clone, b_home, env=env)
    assert done.returncode == 2 and b"not installed on this machine" in done.stderr


def test_user_scope_keeps_the_trail_out_of_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = "/home/u/my proj"
    monkeypatch.setenv("HOME", "/home/u")
    trail = hook_main.user_trail(root, os.environ)  # the slug ends in a hash (ADR 0057)
    assert trail.startswith("/home/u/.claude/orchestrator-boundary/projects/-home-u-my-proj-")
    assert trail.endswith("/audit.jsonl")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/cfg")
    assert hook_main.user_trail(root, os.environ).startswith("/cfg/orchestrator-boundary/")
    for event, entry in registration.entries("user", "warn", python="/p/python").items():
        assert entry["command"].endswith(f" {event} user")


def test_the_shim_is_posix_sh() -> None:
    """``sh -n`` parses it, and (where installed) dash and busybox sh, which have no bashisms."""
    text = registration.shim_text()
    for shell in ("sh", "dash", "bash", "busybox"):
        exe = shutil.which(shell)
        if exe is None:
            continue
        argv = [exe, "sh", "-n"] if shell == "busybox" else [exe, "-n"]
        done = subprocess.run(argv, input=text.encode(), capture_output=True, timeout=30)
        assert done.returncode == 0, (shell, done.stderr)
    assert "[[" not in text and "function " not in text and "local " not in text


@pytest.mark.parametrize(
    ("argv", "event", "trail"),
    [
        (["l", "PreToolUse"], "PreToolUse", None),
        (["l", "post"], "PostToolUse", None),
        (
            ["l", "PreToolUse", "user"],
            "PreToolUse",
            f"/h/.claude/orchestrator-boundary/projects/{hook_main.project_slug('/w/repo')}"
            "/audit.jsonl",
        ),
        (["l", "Notification"], None, None),
        (["l"], None, None),
        (["l", "PreToolUse", "other"], None, None),
    ],
    ids=["pre", "post", "user trail", "unknown event", "no event", "unknown flag"],
)
def test_launcher_arguments(argv: list[str], event: str | None, trail: str | None) -> None:
    env = {"HOME": "/h", "CLAUDE_PROJECT_DIR": "/w/repo"}
    assert hook_main.prepare(argv, env) == event
    assert env.get(hook_main.AUDIT_ENV) == trail
    kept = {"HOME": "/h", "CLAUDE_PROJECT_DIR": "/w/repo", hook_main.AUDIT_ENV: "/mine.jsonl"}
    hook_main.prepare(["l", "pre", "user"], kept)
    assert kept[hook_main.AUDIT_ENV] == "/mine.jsonl"


def test_a_misregistered_command_blocks(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", registration.LAUNCHER_PY, "Notification"],
        input=b"{}",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2 and b"usage: launcher.py" in done.stderr


def test_uninstall_leaves_the_project_as_it_was(tmp_path: Path) -> None:
    from orchestrator_boundary import cli as boundary_cli

    root = tmp_path / "fresh"
    root.mkdir()
    assert boundary_cli.main(["install", "--project", str(root)]) == 0
    assert (root / registration.SHIM_RELPATH).is_file()
    assert boundary_cli.main(["uninstall", "--project", str(root)]) == 0
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    assert left == [".claude", ".claude/boundary.toml"]  # the config stays, on purpose
    backups = Path(os.environ["HOME"]) / ".claude" / "orchestrator-boundary" / "backups"
    [saved] = backups.iterdir()  # the removed settings.json is kept outside the project
    assert se.registered(json.loads(saved.read_text()))["PreToolUse"]


def test_a_user_scope_install_writes_nothing_into_the_repository(tmp_path: Path) -> None:
    from orchestrator_boundary import cli as boundary_cli

    root = tmp_path / "repo"
    root.mkdir()
    git("init", "-q", str(root))
    assert boundary_cli.main(["install", "--project", str(root), "--scope", "user"]) == 0
    assert sorted(p.name for p in root.iterdir()) == [".git"]
    user = json.loads((Path(os.environ["HOME"]) / ".claude" / "settings.json").read_text())
    [pre] = se.registered(user)["PreToolUse"]
    assert pre["command"].endswith(" PreToolUse user")  # the trail goes under ~/.claude


def test_the_registered_script_is_a_stub() -> None:
    """ADR 0039: Python compiles a script run by path on every call (a module comes from its
    cached bytecode), so the file every registered command names holds no logic of its own."""
    import ast

    script = Path(registration.LAUNCHER_PY)
    tree = ast.parse(script.read_text())
    assert len(script.read_text().splitlines()) <= 20
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(script), "PreToolUse", "extra"],
        input=b"{}", capture_output=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and b"usage: launcher.py" in done.stderr
