"""A new team's journey, round ten (ADR 0072): the committed launcher on a Windows machine whose
``HOME`` is not its ``USERPROFILE``, a phase line written with tabs, and a broken installation
in a project that is in warn."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_windows_hook import hook_env, payload, run_windows_hook

from orchestrator_boundary import client, registration
from orchestrator_boundary.cmd_install import apply, plan
from orchestrator_boundary.cmd_phase import effective

SH = shutil.which("sh") or "/bin/sh"
BARE_PATH = "/usr/bin:/bin"  # no interpreter with the package on it
PACKAGE = Path(client.__file__).parent


def _shim(root: Path) -> Path:
    shim = root / ".claude" / "orchestrator-boundary" / "launch.sh"
    shim.parent.mkdir(parents=True)
    shim.write_text(registration.shim_text(), encoding="utf-8")
    return shim


def _pointer(home: Path, tmp_path: Path, name: str) -> None:
    """A pointer under ``home``'s Claude folder to a stand-in "interpreter" that says ``name``
    and exits 0 (what an agent's own pointer would do: let every call through)."""
    exe = tmp_path / f"{name}.sh"
    exe.write_text(f"#!/bin/sh\necho {name}\nexit 0\n")
    exe.chmod(0o755)
    folder = home / ".claude" / "orchestrator-boundary"
    folder.mkdir(parents=True)
    (folder / "launcher").write_text(f"{exe}\n{exe}\n")


@pytest.mark.parametrize(
    ("os_name", "profile", "runs"),
    [
        ("Windows_NT", True, "profile"),
        ("Windows_NT", False, "home"),
        ("", True, "home"),
    ],
    ids=[
        "windows: Claude Code's home is USERPROFILE, not a HOME set for Git Bash",
        "windows without USERPROFILE: HOME",
        "linux with a stray USERPROFILE: HOME",
    ],
)
def test_the_launcher_reads_the_pointer_where_install_wrote_it(
    tmp_path: Path, os_name: str, profile: bool, runs: str
) -> None:
    """``install`` writes the pointer under Claude Code's own ``~`` (``wire.user_home``:
    USERPROFILE on Windows, ADR 0061), and only there is it protected. The launcher read
    ``$HOME``'s: on a Windows machine whose HOME is a network drive, the teammate's install was
    not found ("not installed": unguarded in warn, every call blocked in enforce), and a
    pointer anyone wrote under HOME, unprotected, decided what ran as the guard."""
    root = tmp_path / "proj"
    shim = _shim(root)
    home, userprofile = tmp_path / "h", tmp_path / "up"
    _pointer(home, tmp_path, "home")
    _pointer(userprofile, tmp_path, "profile")
    env = {"PATH": BARE_PATH, "HOME": str(home), "CLAUDE_PROJECT_DIR": str(root)}
    if os_name:
        env["OS"] = os_name
    if profile:
        env["USERPROFILE"] = str(userprofile)
    done = subprocess.run(
        [SH, str(shim), "PreToolUse", "enforce"],
        input="{}",
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, runs), done.stderr


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ('phase\t=\t"enforce"\n', 2),
        ('\tphase = "enforce"\n', 2),
        ('phase = "enforce"\n', 2),
        ('phase = "warn"\n', 0),
    ],
    ids=["tabs around =", "an indenting tab", "spaces (control)", "warn (control)"],
)
def test_the_launcher_without_an_installation_reads_a_phase_line_with_tabs(
    tmp_path: Path, line: str, code: int
) -> None:
    """TOML allows tabs around ``=``; the launcher's reader took only spaces, so a phase set to
    enforce by hand with tabs was not seen and the settings' stale ``warn`` argument let a
    teammate without the package through, unguarded."""
    root = tmp_path / "proj"
    shim = _shim(root)
    (root / ".claude" / "boundary.toml").write_text("# config\n" + line + "\n[orchestrator]\n")
    done = subprocess.run(
        [SH, str(shim), "PreToolUse", "warn"],
        input=json.dumps({"session_id": "s1"}),
        capture_output=True,
        text=True,
        env={"PATH": BARE_PATH, "HOME": str(tmp_path / "home")},
        timeout=30,
        check=False,
    )
    assert done.returncode == code, done.stderr


def _broken_copy(tmp_path: Path) -> Path:
    """A copy of the package whose policy cannot be imported (a dependency that is missing or
    built for another Python): the launcher, hook_main and client still load."""
    copy = tmp_path / "site" / "orchestrator_boundary"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shell = copy / "shell.py"
    shell.write_text("import a_dependency_that_is_not_there  # noqa\n" + shell.read_text())
    return copy


@pytest.mark.parametrize(
    ("config", "env", "code"),
    [
        ('phase = "warn"\n', {}, 0),
        ('phase = "off"\n', {}, 0),
        ('phase = "enforce"\n', {}, 2),
        ('phase = "ask"\n', {}, 2),
        (None, {}, 2),
        ('[orchestrator]\nphase = "warn"\n', {}, 2),
        ('phase = "warn"\n', {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}, 2),
        ('phase = "enforce"\n', {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}, 0),
    ],
    ids=[
        "warn: goes through",
        "off: goes through",
        "enforce: blocks (control)",
        "ask: blocks (control)",
        "no config: blocks (control)",
        "a key in a table is not the phase",
        "the variable beats the config (enforce)",
        "the variable beats the config (warn)",
    ],
)
def test_a_broken_installation_follows_the_configs_phase(
    tmp_path: Path, config: str | None, env: dict[str, str], code: int
) -> None:
    """README: a broken install blocks in enforce and ask, and lets calls through in warn and
    off. The hook took the phase only from ORCHESTRATOR_BOUNDARY_PHASE, which the launcher never
    sets: a project in warn (the phase a new team starts in) had every tool call blocked."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    if config is not None:
        (root / ".claude" / "boundary.toml").write_text(config)
    launcher = _broken_copy(tmp_path) / "launcher.py"
    payload = {
        "session_id": "s",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(root / "a.py"), "content": ""},
    }
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(launcher), "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={
            "PATH": BARE_PATH,
            "HOME": str(tmp_path / "home"),
            "CLAUDE_PROJECT_DIR": str(root),
            "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
            **env,
        },
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (code, b""), done.stderr
    assert done.stderr.startswith(b"orchestrator-boundary: cannot load the policy")


@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ('phase = "warn"\n', "warn"),
        ("\ufeffphase='Enforce'  # by hand\n", "enforce"),
        ('# phase = "warn"\nphase = "enforce"\n', "enforce"),
        ('phase_x = "warn"\n', ""),
        ('[a]\nphase = "warn"\n', ""),
        ("", ""),
    ],
    ids=[
        "plain",
        "BOM, quotes, case, comment",
        "a comment is not it",
        "another key",
        "a table",
        "empty",
    ],
)
def test_config_phase_reads_the_top_level_phase_line(tmp_path: Path, text: str, phase: str) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "boundary.toml").write_text(text, encoding="utf-8")
    sub = tmp_path / "src"
    sub.mkdir()
    assert client.config_phase({"CLAUDE_PROJECT_DIR": str(tmp_path)}) == phase
    # a session started below the project (ADR 0054) reads the same config
    assert client.config_phase({"CLAUDE_PROJECT_DIR": str(sub)}) == phase


@pytest.mark.parametrize("scope", ["user", "managed"])
@pytest.mark.parametrize(
    ("existing", "phase", "written", "noted"),
    [
        (None, "enforce", 'phase = "enforce"\n', False),
        (None, "ask", 'phase = "ask"\n', False),
        (None, None, None, False),
        ('phase = "warn"\n', "enforce", None, True),
    ],
    ids=[
        "enforce asked, no config",
        "ask asked, no config",
        "no --phase: the repository is left alone",
        "a config already: a note",
    ],
)
def test_install_outside_the_project_keeps_the_phase_it_was_given(
    tmp_path: Path,
    scope: str,
    existing: str | None,
    phase: str | None,
    written: str | None,
    noted: bool,
) -> None:
    """``install --scope user --phase enforce`` wrote ``"onFailure": "block"`` into the user's
    entries and nothing else: with no config, the project stayed in the default warn, every
    violation went through, and the output never said so (only project and local scope wrote
    the phase into a config, or said that ``--phase`` was ignored)."""
    root = tmp_path / "proj"
    root.mkdir()
    cfg = root / ".claude" / "boundary.toml"
    if existing is not None:
        cfg.parent.mkdir()
        cfg.write_text(existing)
    env = {"HOME": str(tmp_path / "home"), "PATH": BARE_PATH}
    res = plan("install", str(root), scope, phase=phase, environ=env)
    made = [e.new for e in res.edits if e.path == str(cfg)]
    assert made == ([written] if written else [])
    assert any("--phase ignored" in n for n in res.notes) is noted
    if scope == "user":
        apply(res, env)
        want = phase if written else (existing and "warn") or "warn"
        assert effective(str(root), env)["phase"] == want
        if written:  # no [audit] path: the trail stays in the user's Claude folder (ADR 0057)
            assert "audit" not in cfg.read_text()


@pytest.fixture
def drive_c(tmp_path: Path) -> Path:
    """Drive C: with the project of ``test_windows_hook`` on it."""
    c = tmp_path / "C"
    (c / "Users" / "dev" / "proj" / ".claude").mkdir(parents=True)
    (c / "Users" / "dev" / "AppData" / "Local" / "Temp").mkdir(parents=True)
    return c


@pytest.mark.parametrize(("config", "code"), [('phase = "warn"\n', 0), ('phase = "enforce"\n', 2)])
def test_a_broken_installation_on_windows_follows_the_configs_phase(
    drive_c: Path, tmp_path: Path, config: str, code: int
) -> None:
    """The same on Windows (simulated): the config is found under ``C:\\`` through ``ntpath``."""
    (drive_c / "Users" / "dev" / "proj" / ".claude" / "boundary.toml").write_text(config)
    broken = tmp_path / "site" / "orchestrator_boundary"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('__version__ = "0"\n')
    for name in ("client.py", "wire.py"):
        (broken / name).write_bytes((PACKAGE / name).read_bytes())
    env = {k: v for k, v in hook_env(drive_c).items() if k != "ORCHESTRATOR_BOUNDARY_PHASE"}
    done = run_windows_hook(
        drive_c, [str(broken / "client.py"), "PreToolUse"], payload("Write"), env, tmp_path / "r"
    )
    assert (done.returncode, done.stdout) == (code, b""), done.stderr[-1500:]
    assert done.stderr.startswith(b"orchestrator-boundary: cannot load the policy")


def test_config_phase_never_waits_on_a_fifo(tmp_path: Path) -> None:
    """``cannot_load`` may run after the judgement deadline fired, with no timer left: a FIFO
    in the config's place reads as no phase line (block), never as a wait."""
    import os

    fifo = tmp_path / "boundary.toml"
    os.mkfifo(fifo)
    env = {"CLAUDE_PROJECT_DIR": str(tmp_path), "ORCHESTRATOR_BOUNDARY_CONFIG": str(fifo)}
    assert client.config_phase(env) == ""
