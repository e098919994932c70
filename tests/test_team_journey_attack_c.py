"""A new team's journey, attacked (ADR 0058): what install and doctor tell a person."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from orchestrator_boundary import cli, registration
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary.cli_project import GITATTRIBUTES_LINE, gitattributes_with
from orchestrator_boundary.cmd_install import plan

WIN_PY = r"C:\Users\Zoë Ng\AppData\Local\Programs\Python\Python312\python.exe"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    return root


@pytest.mark.parametrize(
    ("platform", "git_bash", "noted"),
    [
        ("win32", False, True),
        ("win32", True, False),
        ("linux", False, False),
    ],
    ids=["windows without Git Bash", "windows with Git Bash", "linux"],
)
def test_install_says_when_the_committed_launcher_cannot_start_here(
    tmp_path: Path, platform: str, git_bash: bool, noted: bool
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": str(empty)}
    if git_bash:
        bash = tmp_path / "Git" / "bin" / "bash.exe"
        bash.parent.mkdir(parents=True)
        bash.write_text("")
        env["CLAUDE_CODE_GIT_BASH_PATH"] = str(bash)
    res = plan(
        "install", str(_project(tmp_path)), "project", environ=env, python=WIN_PY, platform=platform
    )
    said = [n for n in res.notes if "PowerShell" in n]
    assert bool(said) is noted
    if noted:
        assert "in warn calls go through unrecorded" in said[0]
        assert "Install Git for Windows" in said[0]


@pytest.mark.parametrize(
    ("text", "says", "install_says"),
    [
        ('{"hooks": "none"}', '"hooks" is a string, not an object', '"hooks" is a string'),
        ('{"hooks": {"PreToolUse": {"matcher": "*"}}}', '"hooks.PreToolUse" is an object', None),
        ("[]", "the top level is an array, not an object", "is an array"),
        ("null", "the top level is null", "is null"),
        ('{"a": 1,}', "Claude Code ignores the whole file", "not valid JSON"),
    ],
    ids=["hooks a string", "an event an object", "an array", "null", "a trailing comma"],
)
def test_doctor_and_install_say_what_is_wrong_with_a_settings_file(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
    says: str,
    install_says: str | None,
) -> None:
    """doctor used to answer a settings file whose "hooks" had the wrong type with "run
    install", which refuses to edit it; and both named Python's types (str, NoneType)."""
    root = _project(tmp_path)
    (root / ".claude" / "settings.json").write_text(text, encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(sf.MANAGED_ENV, str(tmp_path / "none.json"))
    assert cli.main(["doctor", "--json", "--project", str(root)]) == 1
    checks = json.loads(capsys.readouterr().out)["checks"]
    settings = next(c for c in checks if c["name"] == "settings")
    assert settings["status"] == "fail" and says in settings["message"], settings
    assert not re.search(r"\b(str|dict|list|NoneType)\b", settings["message"])
    assert cli.main(["install", "--project", str(root)]) == 1
    err = capsys.readouterr().err
    assert (install_says or says) in err and "NoneType" not in err
    assert (root / ".claude" / "settings.json").read_text(encoding="utf-8") == text


def test_doctor_never_advises_removing_the_committed_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """README has a teammate add user-scope entries for sessions started in subfolders;
    doctor then said "keep one: uninstall --scope SCOPE", and uninstalling the project scope
    would take the team's committed entries away."""
    root = _project(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(sf.MANAGED_ENV, str(tmp_path / "none.json"))
    for scope in ("project", "user"):
        assert cli.main(["install", "--project", str(root), "--scope", scope]) == 0
    capsys.readouterr()
    cli.main(["doctor", "--json", "--project", str(root)])
    checks = json.loads(capsys.readouterr().out)["checks"]
    hooks = next(c for c in checks if c["name"] == "hooks")
    assert hooks["status"] == "warn" and "user: " in hooks["message"], hooks
    assert "orchestrator-boundary uninstall --project" in hooks["fix"]
    assert f"{root} --scope user" in hooks["fix"]
    assert "--scope project" not in hooks["fix"] and "SCOPE" not in hooks["fix"]
    assert "subfolders" in hooks["fix"]


def test_doctor_fails_a_crlf_launcher_and_install_mends_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(sf.MANAGED_ENV, str(tmp_path / "none.json"))
    assert cli.main(["install", "--project", str(root)]) == 0
    shim = root / ".claude" / "orchestrator-boundary" / "launch.sh"
    shim.write_bytes(shim.read_bytes().replace(b"\n", b"\r\n"))  # as core.autocrlf checks out
    capsys.readouterr()
    cli.main(["doctor", "--json", "--project", str(root)])
    checks = json.loads(capsys.readouterr().out)["checks"]
    launcher = next(c for c in checks if c["name"] == "launcher")
    assert launcher["status"] == "fail" and "Windows line endings" in launcher["message"]
    assert cli.main(["install", "--project", str(root)]) == 0
    assert b"\r" not in shim.read_bytes()


@pytest.mark.parametrize(
    ("old", "added"),
    [(None, True), ("*.png binary\n", True), ("*.png binary", True), (GITATTRIBUTES_LINE, False)],
    ids=["no file", "other lines", "no final newline", "already there"],
)
def test_the_gitattributes_line_is_added_once(old: str | None, added: bool) -> None:
    new = gitattributes_with(old)
    assert (new is not None) is added
    if new is not None:
        assert new.startswith(old or "") and new.splitlines()[-1] == GITATTRIBUTES_LINE
        assert gitattributes_with(new) is None


@pytest.mark.parametrize(
    ("config", "arg", "env", "code", "says"),
    [
        ('phase = "enforce"\n', "warn", {}, 2, "guarded (phase enforce)"),
        ("# set by hand\r\nphase = 'ask'\r\n", "warn", {}, 2, "guarded (phase ask)"),
        ('phase = "off"\n', "enforce", {}, 0, ""),
        ('phase = "warn"\n', "enforce", {}, 0, "this project is in warn"),
        ('[report]\nphase = "x"\n', "enforce", {}, 2, "guarded (phase enforce)"),
        (None, "enforce", {}, 2, "guarded (phase enforce)"),
        ('phase = "enforce"\n', "enforce", {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}, 0, "in warn"),
    ],
    ids=[
        "a hand-edited enforce beats a stale warn argument",
        "single quotes and CRLF",
        "off",
        "warn beats a stale enforce argument",
        "a key in a table is not the phase",
        "no config: the argument",
        "the variable beats the config",
    ],
)
def test_the_launcher_without_an_installation_follows_the_committed_config(
    tmp_path: Path, config: str | None, arg: str, env: dict[str, str], code: int, says: str
) -> None:
    """A person who sets the phase in .claude/boundary.toml by hand leaves the settings'
    PHASE argument stale; a teammate without the package was then told "this project is in
    warn" and let through while the project was in enforce."""
    root = _project(tmp_path)
    shim = root / ".claude" / "orchestrator-boundary" / "launch.sh"
    shim.parent.mkdir()
    shim.write_text(registration.shim_text(), encoding="utf-8")
    if config is not None:
        (root / ".claude" / "boundary.toml").write_bytes(config.encode())
    payload = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Write"}
    done = subprocess.run(
        ["sh", str(shim), "PreToolUse", arg],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), **env},
        timeout=30,
        check=False,
    )
    assert done.returncode == code, done.stderr
    assert says in (done.stderr + done.stdout)
    if not says:
        assert done.stdout == done.stderr == ""


@pytest.mark.parametrize(
    ("old", "noted"),
    [
        (None, False),
        ("crlf", False),
        ("#!/bin/sh\n# an older launcher\nexit 0\n", True),
    ],
    ids=["none yet", "only its line endings differ", "another version's"],
)
def test_install_says_when_it_would_change_another_versions_launcher(
    tmp_path: Path, old: str | None, noted: bool
) -> None:
    """README says a teammate's install changes no committed file; with another package
    version it rewrites the committed launcher, and an older one must not be committed."""
    root = _project(tmp_path)
    shim = root / ".claude" / "orchestrator-boundary" / "launch.sh"
    if old is not None:
        shim.parent.mkdir()
        text = registration.shim_text().replace("\n", "\r\n") if old == "crlf" else old
        shim.write_bytes(text.encode())
    res = plan("install", str(root), "project", environ={"HOME": str(tmp_path / "home")})
    said = [n for n in res.notes if "another version of orchestrator-boundary" in n]
    assert bool(said) is noted
    if noted:
        assert "upgrade yours and run install again instead of committing" in said[0]
