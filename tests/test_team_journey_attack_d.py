"""A new team's journey, round eight (ADR 0064): where a teammate ended up unguarded without
being told, or was told something that was not so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import cli
from orchestrator_boundary import settings_files as sf


def _check(root: Path, name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    cli.main(["doctor", "--json", "--project", str(root)])
    checks = json.loads(capsys.readouterr().out)["checks"]
    found: dict[str, Any] = next(c for c in checks if c["name"] == name)
    return found


@pytest.fixture
def managed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "etc" / "claude-code" / "managed-settings.json"
    path.parent.mkdir(parents=True)
    monkeypatch.setenv(sf.MANAGED_ENV, str(path))
    return path


def _enforced(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text('phase = "enforce"\n', encoding="utf-8")
    assert cli.main(["install", "--project", str(root)]) == 0
    return root


# What Claude Code 2.1.330 did with each layout (real CLI, /etc/claude-code in a private mount
# namespace): the drop-ins in managed-settings.d apply on top of the file, in name order.
@pytest.mark.parametrize(
    ("files", "guarded", "deciding"),
    [
        ({"managed-settings.d/10-team.json": True}, False, "managed-settings.d/10-team.json"),
        ({"managed-settings.json": True, "managed-settings.d/10.json": False}, True, ""),
        ({"managed-settings.d/10.json": True, "managed-settings.d/20.json": False}, True, ""),
        (
            {"managed-settings.d/10.json": False, "managed-settings.d/20.json": True},
            False,
            "managed-settings.d/20.json",
        ),
        (
            {"managed-settings.json": False, "managed-settings.d/10.json": True},
            False,
            "managed-settings.d/10.json",
        ),
    ],
    ids=[
        "a drop-in switches the hooks off",
        "a drop-in switches them back on",
        "the later drop-in switches them on",
        "the later drop-in switches them off",
        "a drop-in beats the file",
    ],
)
def test_a_managed_drop_in_that_switches_the_hooks_off_is_seen(
    tmp_path: Path,
    managed: Path,
    capsys: pytest.CaptureFixture[str],
    files: dict[str, bool],
    guarded: bool,
    deciding: str,
) -> None:
    """doctor read only managed-settings.json: a drop-in with "disableAllHooks": true left every
    call of an enforced project unguarded, and doctor said OK."""
    root = _enforced(tmp_path)
    for name, value in files.items():
        path = managed.parent / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"disableAllHooks": value}), encoding="utf-8")
    check = _check(root, "hooks-off", capsys)
    assert (check["status"] == "ok") is guarded, check
    if not guarded:
        where = managed.parent / deciding
        assert check["message"].startswith(f'"disableAllHooks": true in {where} switches off')


@pytest.mark.parametrize(
    ("keys", "check", "says"),
    [
        ({"allowManagedHooksOnly": True}, "hooks-off", "only managed hooks run"),
        ({"env": {"AMPLIFIER_BYPASS_BOUNDARY": "1"}}, "settings-env", "bypasses the boundary"),
    ],
    ids=["managed hooks only", "the bypass in its env"],
)
def test_other_keys_of_a_managed_drop_in_are_seen(
    tmp_path: Path,
    managed: Path,
    capsys: pytest.CaptureFixture[str],
    keys: dict[str, Any],
    check: str,
    says: str,
) -> None:
    root = _enforced(tmp_path)
    drop_in = managed.parent / "managed-settings.d" / "50-org.json"
    drop_in.parent.mkdir()
    drop_in.write_text(json.dumps(keys), encoding="utf-8")
    found = _check(root, check, capsys)
    assert found["status"] == "fail" and says in found["message"], found


def test_windows_managed_settings_are_where_claude_code_reads_them() -> None:
    """On Windows install --scope managed wrote /etc/claude-code/managed-settings.json (a folder
    of the current drive that Claude Code never reads), and doctor never saw the managed file."""
    assert (
        sf.settings_path("managed", r"C:\p", platform="win32", environ={})
        == r"C:\Program Files\ClaudeCode\managed-settings.json"
    )


def _phase(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = cli.main(["phase", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("settings", "user", "unguarded"),
    [
        (None, None, True),
        ('{"permissions": {}}', None, True),
        ('{\n  // our hooks\n  "hooks": {}\n}', None, True),
        (None, "install", False),
        ("install", None, False),
        ('{"enabledPlugins": {"orchestrator-boundary@team": true}}', None, False),
    ],
    ids=[
        "no settings at all",
        "settings without hooks",
        "settings with a comment",
        "user-scope install",
        "project install",
        "the plugin enabled",
    ],
)
def test_phase_says_when_no_hook_would_apply_it(
    tmp_path: Path,
    managed: Path,
    capsys: pytest.CaptureFixture[str],
    settings: str | None,
    user: str | None,
    unguarded: bool,
) -> None:
    """phase enforce on a project whose hooks were never registered (or whose settings file
    Claude Code ignores) said "set", exited 0, and nothing was judged or recorded."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    if settings == "install" or user == "install":
        scope = "user" if user else "project"
        assert cli.main(["install", "--project", str(root), "--scope", scope]) == 0
    elif settings is not None:
        (root / ".claude" / "settings.json").write_text(settings, encoding="utf-8")
    code, out = _phase(["enforce", "--force", "--project", str(root)], capsys)
    assert code == 0 and out["phase"] == "enforce"
    said = [n for n in out["notes"] if "registers the orchestrator-boundary hooks" in n]
    assert bool(said) is unguarded, out
    if settings and "//" in settings:
        assert any("Claude Code ignores a settings file it cannot read" in n for n in out["notes"])


@pytest.mark.parametrize(
    "text",
    ['{\n  // team settings\n  "model": "opus"\n}\n', '{"permissions": {"allow": ["Bash(ls)"],},}'],
    ids=["a comment", "trailing commas"],
)
def test_install_refuses_a_settings_file_with_a_comment_and_says_what_it_means(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """install refused with the parser's words only ("Expecting property name enclosed in
    double quotes"); a person who wrote the comment took it for harmless."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    settings = root / ".claude" / "settings.json"
    settings.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["install", "--project", str(root)]) == 1
    said = capsys.readouterr()
    assert "Claude Code ignores a settings file it cannot read as JSON" in said.out + said.err
    assert settings.read_text(encoding="utf-8") == text
    assert not (root / ".claude" / "boundary.toml").exists()


def test_commands_reach_a_user_scope_trail_through_a_symlinked_project_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code names the project by its real path (CLAUDE_PROJECT_DIR, symlinks resolved),
    and the per-user trail is named from it. report --project through a symlink looked for
    another trail and said "there is no audit trail ... has the hook run in this project?"."""
    from orchestrator_boundary import hook_main

    real = tmp_path / "data" / "proj"
    real.mkdir(parents=True)
    link = tmp_path / "work"
    link.symlink_to(real.parent)
    assert cli.main(["install", "--scope", "user", "--project", str(link / "proj")]) == 0
    env = {"HOME": str(Path.home())}
    trail = Path(hook_main.user_trail(str(real), env))
    trail.parent.mkdir(parents=True, exist_ok=True)
    line = {"ts": "2026-11-20T10:00:00Z", "event": "PreToolUse", "session_id": "s"}
    trail.write_text(json.dumps(line) + "\n", encoding="utf-8")
    capsys.readouterr()
    code = cli.main(["report", "--json", "--project", str(link / "proj")])
    out = capsys.readouterr()
    assert code in (0, 3), out.err
    assert json.loads(out.out)["trail"] == str(trail)


def test_demo_cuts_no_agent_type_and_fits_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    """demo printed "subagent:general-pu": the first table a new team sees cut the agent type."""
    capsys.readouterr()
    assert cli.main(["demo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert any(line.startswith("subagent:general-purpose ") for line in lines)
    assert any(line.rstrip().endswith("ORCHESTRATOR_WRITE") for line in lines)


def test_demo_table_shortens_only_a_long_target() -> None:
    from orchestrator_boundary.cmd_demo import table

    row = {"who": "subagent:general-purpose", "tool": "Write", "warn": "warn"}
    row |= {"enforce": "deny", "code": "ORCHESTRATOR_WRITE", "target": "src/" + "x" * 90 + ".py"}
    lines = table([row])
    assert all(len(line) <= 80 for line in lines)
    assert "...xxx" in lines[1] and ".py" in lines[1] and lines[1].endswith("ORCHESTRATOR_WRITE")


@pytest.mark.parametrize("command", ["phase", "report", "doctor", "install", "uninstall"])
def test_help_says_which_project_a_command_acts_on(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--help said "default: current directory" (or "else cwd") while the commands act on the
    nearest folder above with .claude/boundary.toml (README, ADR 0046)."""
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the nearest folder at or above" in text and ".claude/boundary.toml" in text
    assert "(default: current directory)" not in text and "else cwd" not in text


@pytest.mark.parametrize(
    "argv",
    [
        ["install"],
        ["uninstall"],
        ["phase", "warn"],
        ["phase", "enforce", "--force"],
        ["doctor"],
        ["report"],
    ],
    ids=["install", "uninstall", "phase warn", "phase enforce", "doctor", "report"],
)
def test_a_mistyped_project_folder_is_refused_and_never_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """install --project with a typo made the folder, wrote hooks there and exited 0, and
    phase warn --project with a typo (a rollback) said "set" while the real project stayed in
    enforce."""
    typo = tmp_path / "wrok" / "proj"
    with pytest.raises(SystemExit) as ended:
        cli.main([*argv, "--project", str(typo)])
    assert ended.value.code == 2
    assert "no such folder" in capsys.readouterr().err
    assert not (tmp_path / "wrok").exists()


def test_report_on_a_trail_without_pretooluse_says_the_judging_hook_is_not_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A trail of PostToolUse lines only (the PreToolUse entry removed, or its matcher wrong)
    got NOT READY for want of tool uses, and nothing said that no call is being judged."""
    root = tmp_path / "proj"
    trail = root / ".claude" / "boundary" / "audit.jsonl"
    trail.parent.mkdir(parents=True)
    line = {"event": "PostToolUse", "session_kind": "main", "tool_name": "Write"}
    trail.write_text(
        "".join(
            json.dumps({**line, "ts": f"2026-11-{d:02d}T10:00:00Z", "session_id": f"s{d}"}) + "\n"
            for d in range(1, 20)
        ),
        encoding="utf-8",
    )
    capsys.readouterr()
    assert cli.main(["report", "--project", str(root)]) == 3
    text = " ".join(capsys.readouterr().out.split())
    assert "19 hook calls but no PreToolUse call" in text
    assert "Run: orchestrator-boundary doctor" in text


def test_a_fix_doctor_prints_works_from_the_folder_it_was_run_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """doctor --project DIR printed "run: orchestrator-boundary install"; run where the person
    stood, that registered the hooks in that folder, and DIR stayed unguarded."""
    import shlex

    root = tmp_path / "my proj"
    root.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    check = _check(root, "hooks", capsys)
    assert check["status"] == "fail"
    command = shlex.split(check["fix"].split("run: ", 1)[1].split(" (")[0])
    assert command[:2] == ["orchestrator-boundary", "install"], check
    assert cli.main(command[1:]) == 0
    assert (root / ".claude" / "settings.json").is_file()
    assert not (elsewhere / ".claude").exists()
    assert _check(root, "hooks", capsys)["status"] == "ok"


@pytest.mark.parametrize(
    ("last_day", "ready"),
    [("Write", True), ("Read", True), ("many writes", False)],
    ids=["one violation on a quiet last day", "a clean last day", "a real rise"],
)
def test_one_call_on_a_quiet_day_does_not_make_a_trend(
    tmp_path: Path, last_day: str, ready: bool
) -> None:
    """155 tool uses over 15 days, none a violation for 14 days, then one call on the last day:
    a violation made the unweighted daily rate jump to 100 % and the verdict "rising, +2.50
    points a day", NOT READY. The slope now weighs each day by its tool uses."""
    from report_trails import TODAY, TrailBuilder

    from orchestrator_boundary import audit
    from orchestrator_boundary.report import Thresholds, compute, load_trail

    b = TrailBuilder(tmp_path / "p")
    for day in range(14):
        b.session(day, f"s{day}", reads=8)
    if last_day == "many writes":
        for k in range(4):
            b.session(14 + k, f"late{k}", reads=8, main_writes=6)
    else:
        b.pair(14, "last", last_day, path="src/hotfix.py")
    trail = load_trail(audit.trail_files(str(b.audit)))
    rep = compute(trail.records, Thresholds(), TODAY)
    trend = next(c for c in rep.criteria if c.key == "trend")
    assert trend.ok is ready, trend
    assert rep.ready is ready, [c for c in rep.criteria if not c.ok]


OTHER_TOOLS = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "notify-send 'orchestrator-boundary review' \"$(jq -r .tool_input.command)\"",
                    }
                ],
            }
        ],
        "Stop": [
            {"hooks": [{"type": "command", "command": "cat >> ~/logs/orchestrator_boundary.jsonl"}]}
        ],
        "PostToolUse": [
            {"matcher": "*", "hooks": [{"type": "command", "command": "other-guard 'a"}]}
        ],
    }
}


@pytest.mark.parametrize("scope", ["project", "user"])
def test_install_and_uninstall_leave_other_tools_hooks_that_mention_our_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scope: str
) -> None:
    """Another tool's hook whose command only mentions our name (a notification, a log file
    named after the product) was taken for ours: install "replaced" it and uninstall deleted
    it, and with it the whole settings file."""
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    home = Path.home()
    settings = root / ".claude" / "settings.json" if scope == "project" else home / ".claude"
    if scope == "user":
        settings.mkdir(exist_ok=True)
        settings = settings / "settings.json"
    text = json.dumps(OTHER_TOOLS, indent=2) + "\n"
    settings.write_text(text, encoding="utf-8")
    assert cli.main(["install", "--project", str(root), "--scope", scope]) == 0
    out = capsys.readouterr().out
    assert "replaced" not in out, out
    installed = json.loads(settings.read_text(encoding="utf-8"))
    pre = [h["command"] for g in installed["hooks"]["PreToolUse"] for h in g["hooks"]]
    assert pre[0].startswith("notify-send") and len(pre) == 2
    assert cli.main(["uninstall", "--project", str(root), "--scope", scope]) == 0
    assert settings.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("scope", ["project", "user"])
def test_uninstall_names_only_what_it_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scope: str
) -> None:
    """After a user-scope install, uninstall said it left "the .claude/boundary/ line in
    .gitignore and the launcher's line in .gitattributes", which were never written."""
    root = tmp_path / "proj"
    root.mkdir()
    assert cli.main(["install", "--project", str(root), "--scope", scope]) == 0
    capsys.readouterr()
    assert cli.main(["uninstall", "--project", str(root), "--scope", scope]) == 0
    notes = [n for n in capsys.readouterr().out.splitlines() if "left in place" in n]
    if scope == "user":
        assert notes == []  # nothing of ours is left in the project
    else:
        assert notes == [
            "note: left in place: .claude/boundary.toml; delete it yourself if you no longer "
            "want it"
        ]


def test_a_missing_file_on_the_command_line_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """replay of a file that is not there ended in a Python traceback and exit 1."""
    missing = tmp_path / "calls.jsonl"
    assert cli.main(["replay", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err == f"orchestrator-boundary replay: error: {missing}: No such file or directory\n"


@pytest.mark.parametrize(
    ("where", "keys", "says"),
    [
        ("user", {"disableAllHooks": True}, '"disableAllHooks": true in'),
        ("drop-in", {"disableAllHooks": True}, "managed-settings.d"),
        ("managed", {"allowManagedHooksOnly": True}, "only managed hooks run"),
        ("user", {"disableAllHooks": False}, None),
    ],
    ids=["user settings", "a managed drop-in", "managed hooks only", "set false"],
)
def test_install_says_when_claude_code_will_run_none_of_its_entries(
    tmp_path: Path,
    managed: Path,
    capsys: pytest.CaptureFixture[str],
    where: str,
    keys: dict[str, bool],
    says: str | None,
) -> None:
    """install reported success into a session where no hook runs; only doctor said so."""
    files = {
        "user": Path.home() / ".claude" / "settings.json",
        "drop-in": managed.parent / "managed-settings.d" / "90-lockdown.json",
        "managed": managed,
    }
    files[where].parent.mkdir(parents=True, exist_ok=True)
    files[where].write_text(json.dumps(keys), encoding="utf-8")
    root = tmp_path / "proj"
    root.mkdir()
    capsys.readouterr()
    assert cli.main(["install", "--project", str(root)]) == 0
    notes = [n for n in capsys.readouterr().out.splitlines() if n.startswith("note: ")]
    hit = [n for n in notes if "hook" in n and ("disableAllHooks" in n or "managed" in n)]
    if says is None:
        assert hit == [], notes
    else:
        assert len(hit) == 1 and says in hit[0], notes


@pytest.mark.parametrize("platform", ["linux", "win32"])
def test_the_reinstall_command_doctor_prints_names_a_real_interpreter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], platform: str
) -> None:
    """doctor's fix for a registered command that fails said "/path/to/python -m ...": a
    placeholder a person had to replace. It names the interpreter doctor runs in."""
    import shlex
    import subprocess
    import sys

    from orchestrator_boundary.doctor_context import reinstall_command

    said = reinstall_command(platform)
    if platform == "win32":
        assert said.startswith(f'"{sys.executable}" -m orchestrator_boundary.cli install')
        assert f'(in PowerShell: & "{sys.executable}" -m' in said
        return
    root = tmp_path / "proj"
    root.mkdir()
    argv = [*shlex.split(said)[:-1], "install", "--project", str(root)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert (root / ".claude" / "settings.json").is_file()
    assert cli.main(["doctor", "--project", str(root)]) in (0, 1)
    assert "FAIL commands" not in capsys.readouterr().out


def test_files_git_ignores_are_named_by_install_and_doctor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A .claude/ line in .gitignore (common) kept settings.json and the launcher out of every
    commit while install said "commit it": teammates' clones ran no hook at all, silently."""
    import subprocess

    root = tmp_path / "proj"
    root.mkdir()

    def git(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "-C", str(root), "-c", "user.name=a", "-c", "user.email=a@b", *argv],
            capture_output=True,
            text=True,
            check=True,
        )

    git("init", "-q")
    (root / ".gitignore").write_text(".claude/\n", encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["install", "--project", str(root)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "git ignores .claude/settings.json, .claude/orchestrator-boundary/launch.sh" in out
    check = _check(root, "committed", capsys)
    assert check["status"] == "warn", check
    fix = check["fix"].removeprefix("run: ").split(" (once")[0].split()
    assert fix[:3] == ["git", "add", "-f"]
    git(*fix[1:])
    assert _check(root, "committed", capsys)["status"] == "ok"
    assert git("ls-files", ".claude").stdout.split() == [
        ".claude/boundary.toml",
        ".claude/orchestrator-boundary/launch.sh",
        ".claude/settings.json",
    ]


def test_install_names_the_project_in_its_next_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """README installs from the clone's folder with --project; install then said "next:
    orchestrator-boundary doctor", which, run there, checked the clone and failed."""
    root = tmp_path / "proj"
    root.mkdir()
    clone = tmp_path / "clone"
    clone.mkdir()
    monkeypatch.chdir(clone)
    capsys.readouterr()
    assert cli.main(["install", "--project", str(root)]) == 0
    assert f"  next: orchestrator-boundary doctor --project {root}" in capsys.readouterr().out
    monkeypatch.chdir(root)
    assert cli.main(["install"]) == 0
    out = capsys.readouterr().out
    assert "nothing to change" in out


def test_phase_enforce_refused_elsewhere_names_the_project_in_its_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """phase enforce --project DIR, refused for NOT READY, said "To enforce anyway:
    orchestrator-boundary phase enforce --force"; run where the person stood, that was refused
    again (no project there), or set the phase of another folder."""
    import shlex

    root = tmp_path / "proj"
    root.mkdir()
    assert cli.main(["install", "--project", str(root)]) == 0
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert cli.main(["phase", "enforce", "--project", str(root)]) == 1
    said = capsys.readouterr().out
    command = said.split("To enforce anyway: ", 1)[1].strip()
    assert f"--project {shlex.quote(str(root))}" in command, said
    assert cli.main(shlex.split(command)[1:]) == 0
    assert 'phase = "enforce"' in (root / ".claude" / "boundary.toml").read_text()
