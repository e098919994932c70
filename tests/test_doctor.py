"""doctor: a healthy install passes; each fault it claims to find is found, on its own line."""

from __future__ import annotations

import json
import os
import shlex
import stat
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import cli
from orchestrator_boundary import settings_files as sf


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj dir"
    (root / ".claude").mkdir(parents=True)
    monkeypatch.setenv(sf.MANAGED_ENV, str(tmp_path / "no-managed.json"))
    return root.resolve()


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH entry searched first; holds a fake ``claude`` when a test writes one."""
    d = tmp_path / "bin"
    d.mkdir()
    monkeypatch.setenv("PATH", f"{d}{os.pathsep}{os.environ.get('PATH', '')}")
    return d


def fake_claude(bin_dir: Path, version: str) -> None:
    exe = bin_dir / "claude"
    exe.write_text(f"#!/bin/sh\necho '{version} (Claude Code)'\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)


def install(proj: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> None:
    assert cli.main(["install", "--project", str(proj), *extra]) == 0
    capsys.readouterr()


def doctor(proj: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, str]]:
    code = cli.main(["doctor", "--project", str(proj)])
    out = capsys.readouterr().out
    lines = {}
    for line in out.splitlines():
        _status, rest = line.split(None, 1)
        lines[rest.split(":", 1)[0]] = line
    return code, lines


def doctor_json(proj: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = cli.main(["doctor", "--project", str(proj), "--json"])
    data = json.loads(capsys.readouterr().out)
    return code, {c["name"]: c for c in data["checks"]}


def test_healthy_install(proj: Path, fake_bin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake_claude(fake_bin, "2.1.330")
    install(proj, capsys)
    code, lines = doctor(proj, capsys)
    assert code == 0, lines
    assert lines["claude"].startswith("OK   claude: claude 2.1.330")
    assert lines["hooks"].startswith(
        "OK   hooks: PreToolUse, PostToolUse, PostToolUseFailure, SubagentStop, Stop, SessionEnd"
        " registered"
    )
    assert "answer as expected" in lines["commands"] and lines["commands"].startswith("OK")
    assert lines["phase"] == "OK   phase: warn (from config)"
    assert all(v.startswith("OK") for v in lines.values()), lines
    code, checks = doctor_json(proj, capsys)
    assert code == 0 and checks["audit"]["status"] == "ok"


def test_claude_missing_is_a_warning(
    proj: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    install(proj, capsys)
    empty = tmp_path / "empty"
    empty.mkdir()
    sh_dir = Path("/bin")  # sh is still needed to run the hooks
    monkeypatch.setenv("PATH", f"{empty}{os.pathsep}{sh_dir}")
    if (sh_dir / "claude").exists():
        pytest.skip("a real claude lives in /bin")
    code, lines = doctor(proj, capsys)
    assert (
        lines["claude"] == "WARN claude: claude is not on PATH here  -> install Claude Code "
        ">= 2.1.69, or ignore if it runs elsewhere"
    )
    assert code == 0


def test_old_claude_fails(proj: Path, fake_bin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake_claude(fake_bin, "2.1.68")
    install(proj, capsys)
    code, lines = doctor(proj, capsys)
    assert code == 1
    assert lines["claude"].startswith("FAIL claude: claude 2.1.68")
    assert "older than 2.1.69" in lines["claude"] and "agent_id" in lines["claude"]


def test_no_hooks(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(proj, capsys)
    assert code == 1
    assert lines["hooks"].startswith(
        "FAIL hooks: no orchestrator-boundary hooks in any settings file"
    )
    assert "orchestrator-boundary install" in lines["hooks"]
    assert lines["commands"].startswith("WARN commands: no registered command")


def test_only_one_event(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    install(proj, capsys)
    path = proj / ".claude" / "settings.json"
    data = json.loads(path.read_text())
    del data["hooks"]["PostToolUse"]
    path.write_text(json.dumps(data))
    code, lines = doctor(proj, capsys)
    assert code == 1 and lines["hooks"].startswith("FAIL hooks: PostToolUse hook not registered")


def test_hooks_in_user_settings_count(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    install(proj, capsys, "--scope", "user")
    code, lines = doctor(proj, capsys)
    assert code == 0, lines
    assert lines["hooks"].startswith("OK") and str(Path(os.environ["HOME"])) in lines["hooks"]


def test_command_not_runnable(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = "/nonexistent/python -m orchestrator_boundary.hook_main"
    cmd = {"type": "command", "command": f"{entry} pre"}
    post = {"type": "command", "command": f"{entry} post"}
    (proj / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [{"matcher": "*", "hooks": [cmd]}],
                    "PostToolUse": [{"matcher": "*", "hooks": [post]}],
                }
            }
        )
    )
    code, lines = doctor(proj, capsys)
    assert code == 1
    assert lines["commands"].startswith("FAIL commands: PreToolUse command '/nonexistent/python")
    assert "exit 127" in lines["commands"] and "(+1 more)" in lines["commands"]


def test_command_that_never_denies(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    noop = {"type": "command", "command": "true # orchestrator-boundary stand-in"}
    (proj / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [{"matcher": "*", "hooks": [noop]}],
                    "PostToolUse": [{"matcher": "*", "hooks": [noop]}],
                }
            }
        )
    )
    code, lines = doctor(proj, capsys)
    assert code == 1 and "main agent Write in enforce: exit 0" in lines["commands"]
    assert "(expected a deny)" in lines["commands"]


def test_broken_config(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    install(proj, capsys)
    (proj / ".claude" / "boundary.toml").write_text('phase = "warn"\n[bash]\nopaqe = "deny"\n')
    code, lines = doctor(proj, capsys)
    assert code == 1
    assert lines["config"].startswith("FAIL config: ")
    assert "boundary.toml: bash.opaqe:" in lines["config"] and "fix bash.opaqe" in lines["config"]
    assert lines["phase"].startswith("FAIL phase: enforce (broken config")


def test_unwritable_audit_dir(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    install(proj, capsys)
    (proj / ".claude" / "boundary").write_text("a file where the folder should be")
    code, lines = doctor(proj, capsys)
    assert code == 1
    assert lines["audit"].startswith(f"FAIL audit: cannot create {proj}/.claude/boundary: ")
    assert "is not a folder" in lines["audit"]


def test_bypass_and_env_phase_are_warned(
    proj: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    install(proj, capsys)
    monkeypatch.setenv("AMPLIFIER_BYPASS_BOUNDARY", "1")
    monkeypatch.setenv("ORCHESTRATOR_BOUNDARY_PHASE", "enforce")
    code, lines = doctor(proj, capsys)
    assert lines["bypass"].startswith("WARN bypass: AMPLIFIER_BYPASS_BOUNDARY is set")
    assert lines["phase"].startswith("WARN phase: enforce (from environment)")
    assert lines["commands"].startswith("OK")  # the probe runs without the user's overrides
    assert code == 0


def test_another_hook_that_could_allow(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    install(proj, capsys)
    path = proj / ".claude" / "settings.local.json"
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Edit|Write",
                            "hooks": [{"type": "command", "command": "approve-all"}],
                        },
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": "bash-only"}]},
                    ]
                }
            }
        )
    )
    code, lines = doctor(proj, capsys)
    assert lines["other-hooks"].startswith(
        "WARN other-hooks: another PreToolUse hook sees "
        "Write/Edit and could answer allow: 'approve-all'"
    )
    assert "it would not override a deny, but worth knowing" in lines["other-hooks"]
    assert "bash-only" not in lines["other-hooks"]
    assert code == 0


def test_broken_settings_file(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    install(proj, capsys)
    (proj / ".claude" / "settings.local.json").write_text("{oops")
    code, lines = doctor(proj, capsys)
    assert code == 1 and lines["settings"].startswith("FAIL settings: ")
    assert "settings.local.json: not valid JSON at line 1, column 2" in lines["settings"]


def test_enabled_plugin_counts_as_registered(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (proj / ".claude" / "settings.json").write_text(
        json.dumps({"enabledPlugins": {"orchestrator-boundary@team-tools": True}})
    )
    code, lines = doctor(proj, capsys)
    assert lines["hooks"].startswith(
        "OK   hooks: registered through the plugin orchestrator-boundary@team-tools enabled in"
    )
    assert lines["commands"].startswith("WARN commands: no registered command")
    assert code == 0


def test_a_committed_launcher_from_another_version_is_named(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    install(proj, capsys)
    shim = proj / ".claude" / "orchestrator-boundary" / "launch.sh"
    _, lines = doctor(proj, capsys)
    assert lines["launcher"].startswith("OK   launcher: .claude/orchestrator-boundary/launch.sh")
    shim.write_text(shim.read_text().replace("cr=$(printf", "cr=$(  printf"))  # an older copy
    _, checks = doctor_json(proj, capsys)
    assert checks["launcher"]["status"] == "warn"
    fix = checks["launcher"]["fix"]
    assert fix.startswith("if your package is the older one, upgrade it and run: ")
    assert fix.endswith(f"install --project {shlex.quote(str(proj))}, then commit it")
    install(proj, capsys)
    _, checks = doctor_json(proj, capsys)
    assert checks["launcher"]["status"] == "ok"


def test_json_output_has_a_fix_for_each_problem(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, checks = doctor_json(proj, capsys)
    assert code == 1 and checks["hooks"]["status"] == "fail"
    assert checks["hooks"]["fix"].startswith("run: orchestrator-boundary install")
    assert all(c["fix"] for c in checks.values() if c["status"] != "ok")


def test_hanging_command_times_out(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a grandchild that keeps the pipes open must not hang doctor past the timeout
    hang = {
        "type": "command",
        "command": "sleep 30 & sleep 30; : orchestrator-boundary",
        "timeout": 1,
    }
    (proj / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [{"matcher": "*", "hooks": [hang]}],
                    "PostToolUse": [{"matcher": "*", "hooks": [hang]}],
                }
            }
        )
    )
    code, lines = doctor(proj, capsys)
    assert code == 1 and "no answer within 1s" in lines["commands"]


@pytest.mark.parametrize(
    ("version", "phase", "status", "says"),
    [
        ("2.1.330", "enforce", "OK", "phase enforce: every entry blocks when it cannot run"),
        ("2.1.295", "ask", "OK", "phase ask: every entry blocks"),
        ("2.1.294", "enforce", "WARN", 'claude 2.1.294 ignores "onFailure" (2.1.295+)'),
        ("2.1.200", "warn", "OK", "phase warn: no onFailure"),
    ],
    ids=["enforce on 2.1.330", "ask on 2.1.295", "enforce on 2.1.294", "warn"],
)
def test_onfailure_is_checked_against_the_cli_version(
    proj: Path,
    fake_bin: Path,
    capsys: pytest.CaptureFixture[str],
    version: str,
    phase: str,
    status: str,
    says: str,
) -> None:
    fake_claude(fake_bin, version)
    install(proj, capsys, "--phase", phase, "--force")
    _code, lines = doctor(proj, capsys)
    assert lines["onfailure"].startswith(f"{status:4} onfailure: "), lines["onfailure"]
    assert says in lines["onfailure"]


def test_onfailure_out_of_step_with_the_phase_fails(
    proj: Path, fake_bin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_claude(fake_bin, "2.1.330")
    install(proj, capsys, "--phase", "warn")
    cfg = proj / ".claude" / "boundary.toml"
    cfg.write_text(cfg.read_text().replace('phase = "warn"', 'phase = "enforce"'))
    code, lines = doctor(proj, capsys)
    assert code == 1
    assert lines["onfailure"].startswith("FAIL onfailure: phase enforce, but entries in ")
    assert "run: orchestrator-boundary phase enforce" in lines["onfailure"]
    assert cli.main(["phase", "enforce", "--force", "--project", str(proj)]) == 0
    capsys.readouterr()
    code, lines = doctor(proj, capsys)
    assert lines["onfailure"].startswith("OK   onfailure: phase enforce"), lines


def test_mods_and_plugin_hooks_that_could_answer_first(
    proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    install(proj, capsys)
    home = Path(os.environ["HOME"])
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"enabledPlugins": {"helper@market": True, "old@market": False}})
    )
    plugin_hooks = home / ".claude" / "plugins" / "cache" / "market" / "helper" / "1.0" / "hooks"
    plugin_hooks.mkdir(parents=True)
    (plugin_hooks.parent / ".claude-plugin").mkdir()
    (plugin_hooks.parent / ".claude-plugin" / "plugin.json").write_text('{"name": "helper"}')
    (plugin_hooks / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Write", "hooks": [{"type": "command", "command": "ok-all"}]}
                    ]
                }
            }
        )
    )
    _code, lines = doctor(proj, capsys)
    assert lines["mods"].startswith("WARN mods: enabled plugins (helper@market) may bring mods")
    assert "--managed-only" in lines["mods"]
    assert "'ok-all' (matcher 'Write') in plugin " in lines["other-hooks"]
    managed = tmp_path / "managed.json"
    monkeypatch.setenv(sf.MANAGED_ENV, str(managed))
    assert cli.main(["install", "--scope", "managed", "--managed-only"]) == 0
    capsys.readouterr()
    _code, lines = doctor(proj, capsys)
    assert lines["mods"] == "OK   mods: managed settings limit mods to the organization's"
