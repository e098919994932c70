"""install / uninstall: merge in place, exact removal, atomic writes, quoting that survives sh."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import cli, registration
from orchestrator_boundary import settings_edit as se
from orchestrator_boundary import settings_files as sf
from orchestrator_boundary.config import Config, parse_config
from orchestrator_boundary.project_files import gitignore_with, starter_config

USER_BASH_HOOK = {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit-bash"}]}
RICH = {
    "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(./.env)"]},
    "env": {"FOO": "bär", "NESTED": "x"},
    "hooks": {
        "PreToolUse": [USER_BASH_HOOK],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
    "model": "opus",
}


def run_cli(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = tmp_path / "my project"  # a space on purpose
    (root / ".claude").mkdir(parents=True)
    return root


def settings(root: Path) -> Path:
    return root / ".claude" / "settings.json"


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=4, ensure_ascii=False), encoding="utf-8")


def ours(data: dict[str, Any], event: str) -> list[dict[str, Any]]:
    return se.registered(data)[event]


def commands(word: str) -> dict[str, str]:
    """A plain command of ours per registered event."""
    return {e: f"{word} /pkg/orchestrator_boundary/launcher.py {e}" for e in se.EVENTS}


def backup_folder() -> Path:
    return Path(os.environ["HOME"]) / ".claude" / "orchestrator-boundary" / "backups"


# ---- the pure merge ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "old",
    [
        {},
        {"hooks": {}},
        {"hooks": {"PreToolUse": []}},
        RICH,
        {"a": {"b": {"c": [1, {"d": "ünïcødé ✓"}]}}},
    ],
)
def test_with_hooks_adds_both_events_and_keeps_everything_else(old: dict[str, Any]) -> None:
    change = se.with_hooks(
        old,
        commands=commands("x"),
    )
    new = change.new
    for key, value in old.items():
        if key != "hooks":
            assert new[key] == value
    for event in se.EVENTS:
        assert len(ours(new, event)) == 1
        assert ours(new, event)[0]["timeout"] == se.HOOK_TIMEOUT_S
    for event, groups in old.get("hooks", {}).items():
        assert new["hooks"][event][: len(groups)] == groups  # theirs first, untouched
    # uninstall gives the original back, except containers that were empty before install:
    # nothing records that they pre-existed, so they go with our entries (a documented gap)
    expected = dict(old)
    if not any(old.get("hooks", {}).values()):
        expected.pop("hooks", None)
    assert se.without_hooks(new).new == expected


def test_with_hooks_is_idempotent_and_replaces_a_stale_command() -> None:
    first = se.with_hooks(
        RICH,
        commands=commands("old"),
    ).new
    again = se.with_hooks(
        first,
        commands=commands("old"),
    )
    assert not again.changed and again.actions == []
    moved = se.with_hooks(
        first,
        commands=commands("new"),
    )
    assert moved.actions == [f"replaced the {e} hook" for e in se.EVENTS]
    assert [h["command"] for h in ours(moved.new, "PreToolUse")] == [
        "new /pkg/orchestrator_boundary/launcher.py PreToolUse"
    ]
    assert moved.new["hooks"]["PreToolUse"][0] == USER_BASH_HOOK


def test_our_entry_inside_a_shared_group_is_removed_alone() -> None:
    mixed = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "*",
                    "hooks": [
                        {"type": "command", "command": "theirs"},
                        {
                            "type": "command",
                            "command": "/py -m orchestrator_boundary.hook_main pre",
                        },
                    ],
                }
            ]
        }
    }
    new = se.without_hooks(mixed).new
    assert new == {
        "hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "theirs"}]}]
        }
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"hooks": {"PreToolUse": {"matcher": "*"}}},
        {"hooks": {"PostToolUse": "nope"}},
        {"hooks": []},
    ],
)
def test_wrong_shapes_are_reported(bad: dict[str, Any]) -> None:
    with pytest.raises(se.SettingsError, match=r"not an array|not an object"):
        se.with_hooks(bad)
    with pytest.raises(se.SettingsError):
        se.without_hooks(bad)


def test_parse_settings_reports_line_and_column() -> None:
    with pytest.raises(se.SettingsError, match=r"line 3, column"):
        se.parse_settings('{\n  "a": 1,\n  oops\n}', "f.json")
    with pytest.raises(se.SettingsError, match="not an object"):
        se.parse_settings("[1]", "f.json")
    assert se.parse_settings("  \n", "f.json") == {}


def test_direct_entry_quotes_spaces_and_has_the_marker() -> None:
    entry = registration.direct_entry(
        "PreToolUse",
        python="/opt/my env/bin/python",
        launcher_py="/src/a b/orchestrator_boundary/launcher.py",
        platform="linux",
    )
    assert registration.entry_argv(entry) == [
        "/opt/my env/bin/python",
        "-I",
        "-S",
        "/src/a b/orchestrator_boundary/launcher.py",
        "PreToolUse",
    ]
    assert entry["command"].endswith(
        "; exec " + shlex.join(registration.entry_argv(entry)).replace("'", '"')
    )
    assert se.is_ours(entry)
    with pytest.raises(ValueError):
        registration.direct_entry("Notification")  # not an event the hooks serve


def test_lifecycle_events_are_registered_without_a_matcher_and_never_block() -> None:
    new = se.with_hooks({}, entries=registration.entries("local", "enforce", python="/p/python"))
    hooks = new.new["hooks"]
    assert list(hooks) == list(se.EVENTS)
    for event in registration.TOOL_EVENTS:
        [group] = hooks[event]
        assert group["matcher"] == "*" and group["hooks"][0]["onFailure"] == "block"
    for event in registration.LIFECYCLE_EVENTS:
        [group] = hooks[event]
        assert "matcher" not in group and "onFailure" not in group["hooks"][0]
        assert shlex.split(group["hooks"][0]["command"])[-1] == event
    assert se.without_hooks(new.new).new == {}


def test_matcher_rules() -> None:
    assert se.matcher_matches(None, "Write") and se.matcher_matches("", "Write")
    assert se.matcher_matches("Edit|Write", "Write")
    assert not se.matcher_matches("Edit|Bash", "Write")
    assert se.matcher_matches("Edit.*", "NotebookEdit")
    assert not se.matcher_matches("Bash", "Edit") and not se.matcher_matches("([", "Edit")


def test_starter_config_is_valid_and_comments_every_key() -> None:
    text = starter_config("enforce")
    cfg = parse_config(text, "boundary.toml")
    assert isinstance(cfg, Config) and cfg.phase.value == "enforce"
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "=" in line and not line.startswith("#"):
            assert lines[i - 1].startswith("#") or (
                lines[i - 2].startswith("#") and lines[i - 1] and "=" not in lines[i - 1]
            ), line


def test_gitignore_line_added_once() -> None:
    assert gitignore_with(None) == "# orchestrator-boundary audit trail\n.claude/boundary/\n"
    added = gitignore_with("node_modules")
    assert added is not None and added.startswith("node_modules\n")
    assert gitignore_with(added) is None
    assert gitignore_with("/.claude/boundary\n") is None


# ---- the command, on disk ----------------------------------------------------------------


def test_install_into_a_rich_file_then_uninstall_restores_it(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_json(settings(proj), RICH)
    code, out, _ = run_cli("install", "--project", str(proj), capsys=capsys)
    assert code == 0, out
    assert "added the PreToolUse hook" in out and "backup of the previous" in out
    data = json.loads(settings(proj).read_text(encoding="utf-8"))
    assert data["permissions"] == RICH["permissions"] and data["env"]["FOO"] == "bär"
    assert data["hooks"]["PreToolUse"][0] == USER_BASH_HOOK
    assert len(ours(data, "PreToolUse")) == len(ours(data, "PostToolUse")) == 1
    assert not list((proj / ".claude").glob("*.bak-*"))  # never beside a committed file
    backups = list(backup_folder().glob("*settings-json.bak-*"))
    assert len(backups) == 1 and json.loads(backups[0].read_text(encoding="utf-8")) == RICH

    code, out, _ = run_cli("uninstall", "--project", str(proj), capsys=capsys)
    assert code == 0 and "removed the PreToolUse hook" in out and "left in place" in out
    assert json.loads(settings(proj).read_text(encoding="utf-8")) == RICH
    assert (proj / ".claude" / "boundary.toml").exists()


@pytest.mark.parametrize("indent", [2, 4, "\t"])
def test_install_then_uninstall_gives_back_the_same_bytes(
    proj: Path, indent: int | str, capsys: pytest.CaptureFixture[str]
) -> None:
    original = json.dumps(RICH, indent=indent, ensure_ascii=False) + "\n"
    settings(proj).write_text(original, encoding="utf-8")
    assert run_cli("install", "--project", str(proj), capsys=capsys)[0] == 0
    installed = settings(proj).read_text(encoding="utf-8")
    assert installed.startswith(original[: original.index("permissions")])  # same indentation
    assert run_cli("uninstall", "--project", str(proj), capsys=capsys)[0] == 0
    assert settings(proj).read_text(encoding="utf-8") == original


def test_second_install_changes_nothing(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_json(settings(proj), RICH)
    assert run_cli("install", "--project", str(proj), capsys=capsys)[0] == 0
    before = settings(proj).read_bytes()
    os.utime(settings(proj), ns=(1_000_000_000, 1_000_000_000))
    n_files = len(list((proj / ".claude").iterdir()))
    code, out, _ = run_cli("install", "--project", str(proj), capsys=capsys)
    assert code == 0 and out.startswith("nothing to change")
    assert settings(proj).read_bytes() == before
    assert settings(proj).stat().st_mtime_ns == 1_000_000_000
    assert len(list((proj / ".claude").iterdir())) == n_files  # no new backup
    code, out, _ = run_cli("install", "--project", str(proj), "--json", capsys=capsys)
    assert json.loads(out)["changed"] is False


@pytest.mark.parametrize("text", ["", "{}", '{"hooks": {}}', '{"hooks": {"PreToolUse": []}}'])
def test_install_on_empty_shapes(proj: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    settings(proj).write_text(text, encoding="utf-8")
    assert run_cli("install", "--project", str(proj), capsys=capsys)[0] == 0
    data = json.loads(settings(proj).read_text(encoding="utf-8"))
    assert len(ours(data, "PreToolUse")) == 1 and len(ours(data, "PostToolUse")) == 1


@pytest.mark.parametrize("text", ['{"hooks": {"PreToolUse": {}}}', '{"a": 1,}', "[]", "{\n  nope"])
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_bad_files_are_reported_and_left_byte_identical(
    proj: Path, text: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    settings(proj).write_text(text, encoding="utf-8")
    before = settings(proj).read_bytes()
    code, _, err = run_cli(command, "--project", str(proj), capsys=capsys)
    assert code == 1
    assert str(settings(proj)) in err and "left unchanged" in err
    assert settings(proj).read_bytes() == before
    assert sorted(p.name for p in (proj / ".claude").iterdir()) == ["settings.json"]


def test_invalid_json_names_line_and_column(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings(proj).write_text('{\n  "a": 1\n  "b": 2\n}\n', encoding="utf-8")
    code, out, _ = run_cli("install", "--project", str(proj), "--json", capsys=capsys)
    assert code == 1 and "line 3, column 3" in json.loads(out)["error"]


def test_dry_run_writes_nothing_and_prints_a_diff(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (proj / ".git").mkdir()
    write_json(settings(proj), RICH)
    before = settings(proj).read_bytes()
    code, out, _ = run_cli("install", "--project", str(proj), "--dry-run", capsys=capsys)
    assert code == 0 and "nothing written" in out
    assert f"+++ {settings(proj)}" in out
    assert any(ln.startswith("+") and '"timeout": 10' in ln for ln in out.splitlines())
    assert '+phase = "warn"' in out and "+.claude/boundary/" in out
    assert settings(proj).read_bytes() == before
    assert sorted(p.name for p in proj.iterdir()) == [".claude", ".git"]
    assert sorted(p.name for p in (proj / ".claude").iterdir()) == ["settings.json"]


def test_starter_config_and_gitignore(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (proj / ".git").mkdir()
    (proj / ".gitignore").write_text("build/", encoding="utf-8")
    assert run_cli("install", "--project", str(proj), "--phase", "ask", capsys=capsys)[0] == 0
    assert 'phase = "ask"' in (proj / ".claude" / "boundary.toml").read_text(encoding="utf-8")
    assert run_cli("uninstall", "--project", str(proj), capsys=capsys)[0] == 0
    assert run_cli("install", "--project", str(proj), capsys=capsys)[0] == 0
    gi = (proj / ".gitignore").read_text(encoding="utf-8")
    assert gi.splitlines().count(".claude/boundary/") == 1 and gi.startswith("build/\n")
    assert 'phase = "ask"' in (proj / ".claude" / "boundary.toml").read_text(encoding="utf-8")


def test_no_gitignore_outside_git(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("install", "--project", str(proj), capsys=capsys)[0] == 0
    assert not (proj / ".gitignore").exists()


def test_scopes(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli("install", "--project", str(proj), "--scope", "local", capsys=capsys)[0] == 0
    assert ours(json.loads((proj / ".claude" / "settings.local.json").read_text()), "PreToolUse")
    assert not settings(proj).exists()
    assert run_cli("install", "--project", str(proj), "--scope", "user", capsys=capsys)[0] == 0
    user = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    assert ours(json.loads(user.read_text()), "PostToolUse")
    managed = tmp_path / "etc" / "managed-settings.json"
    monkeypatch.setenv(sf.MANAGED_ENV, str(managed))
    assert run_cli("install", "--scope", "managed", "--managed-only", capsys=capsys)[0] == 0
    data = json.loads(managed.read_text())
    assert data["allowManagedHooksOnly"] is True and ours(data, "PreToolUse")
    assert se.mods_managed_only(data)
    assert data["pluginConfigs"] == {
        "cc-plugin-sec-default@builtin": {"options": {"allowManagedModsOnly": True}}
    }
    assert run_cli("uninstall", "--scope", "managed", "--managed-only", capsys=capsys)[0] == 0
    assert not managed.exists()  # install created it: uninstall leaves no "{}" behind


def test_managed_paths_by_platform() -> None:
    assert (
        sf.settings_path("managed", "/p", platform="linux", environ={})
        == "/etc/claude-code/managed-settings.json"
    )
    assert (
        sf.settings_path("managed", "/p", platform="darwin", environ={})
        == "/Library/Application Support/ClaudeCode/managed-settings.json"
    )


def test_symlinked_settings_file_is_written_through(
    proj: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    write_json(real, {"model": "x"})
    settings(proj).symlink_to(real)
    assert run_cli("install", "--project", str(proj), capsys=capsys)[0] == 0
    assert settings(proj).is_symlink()
    assert ours(json.loads(real.read_text()), "PreToolUse")


def _venv_with_space(tmp_path: Path) -> Path:
    """A venv-like folder whose path has a space, borrowing this interpreter's libraries."""
    venv = tmp_path / "my venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(os.path.realpath(sys.executable))
    cfg = Path(sys.prefix) / "pyvenv.cfg"
    if cfg.exists():
        (venv / "pyvenv.cfg").write_text(cfg.read_text())
        (venv / "lib").symlink_to(Path(sys.prefix) / "lib")
    return venv / "bin" / "python"


def test_installed_command_runs_through_sh_with_spaces(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    python = _venv_with_space(tmp_path)
    probe = subprocess.run([str(python), "-c", "import pydantic, pathspec"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot build a venv-like interpreter path here")
    monkeypatch.setattr(sys, "executable", str(python))
    code = run_cli("install", "--project", str(proj), "--scope", "local", capsys=capsys)[0]
    assert code == 0
    data = json.loads((proj / ".claude" / "settings.local.json").read_text(encoding="utf-8"))
    pre = ours(data, "PreToolUse")[0]["command"]
    assert registration.entry_argv(ours(data, "PreToolUse")[0])[0] == str(python)
    payload = {
        "session_id": "s",
        "cwd": str(proj),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(proj / "src" / "a.py"), "content": "x"},
    }
    env = {
        **os.environ,
        "CLAUDE_PROJECT_DIR": str(proj),
        "ORCHESTRATOR_BOUNDARY_PHASE": "enforce",
        "PYTHONPATH": "",
    }
    done = subprocess.run(
        ["sh", "-c", pre],
        input=json.dumps(payload).encode(),
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    post = ours(data, "PostToolUse")[0]["command"]
    payload |= {
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(proj / "x")},
        "tool_response": {},
    }
    done = subprocess.run(
        ["sh", "-c", post],
        input=json.dumps(payload).encode(),
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout == b"", done.stderr


def test_foreign_shapes_inside_lists_are_left_alone() -> None:
    odd = {"hooks": {"PreToolUse": ["a string", {"matcher": "Bash"}, {"hooks": "not a list"}]}}
    new = se.with_hooks(
        odd,
        commands=commands("p"),
    ).new
    assert new["hooks"]["PreToolUse"][:3] == odd["hooks"]["PreToolUse"]
    assert se.without_hooks(new).new == odd


def test_json_report_of_a_real_install(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli("install", "--project", str(proj), "--json", capsys=capsys)
    data = json.loads(out)
    assert code == 0 and data["changed"] is True and data["error"] is None
    assert data["settings_file"] == str(settings(proj))
    assert {f["what"] for f in data["files"]} == {
        "settings",
        "starter config",
        "launcher",
        "pointer",
    }
    assert all(f["written"] and f["backup"] is None for f in data["files"])
    assert "diff" not in data["files"][0]


def test_unreadable_target_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv(sf.MANAGED_ENV, str(blocker / "managed-settings.json"))
    code, _, err = run_cli("install", "--scope", "managed", capsys=capsys)
    assert code == 1 and "managed-settings.json: cannot be read (Not a directory)" in err


def test_write_failure_is_an_error(
    proj: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(path: str, text: str, *, backup: bool = True, backup_to: str = "") -> None:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(sf, "write_atomic", refuse)
    code, out, _ = run_cli("install", "--project", str(proj), capsys=capsys)
    assert code == 1 and out.startswith("error: could not write: [Errno 13] Permission denied")
    assert "written before the error: nothing" in out and "added" not in out


def test_registered_command_runs_from_a_shell(proj: Path) -> None:
    cmd = registration.direct_entry("PreToolUse")["command"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(CLAUDE_PROJECT_DIR=str(proj), ORCHESTRATOR_BOUNDARY_NO_DAEMON="1")
    payload = json.dumps(
        {
            "session_id": "s",
            "cwd": str(proj),
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": str(proj / "a")},
        }
    )
    ok = subprocess.run(
        ["sh", "-c", cmd], input=payload.encode(), env=env, capture_output=True, timeout=60
    )
    assert ok.returncode == 0 and ok.stdout == b"", ok.stderr


def test_managed_only_keeps_other_plugin_configs_and_uninstall_restores_them() -> None:
    old = {
        "pluginConfigs": {
            "cc-plugin-sec-default@builtin": {"options": {"forceHotReloadPrompt": True}},
            "x@y": {"options": {"a": 1}},
        }
    }
    new = se.with_hooks(old, managed_only=True).new
    assert new["allowManagedHooksOnly"] is True and se.mods_managed_only(new)
    assert new["pluginConfigs"]["x@y"] == {"options": {"a": 1}}
    assert new["pluginConfigs"]["cc-plugin-sec-default@builtin"]["options"] == {
        "forceHotReloadPrompt": True,
        "allowManagedModsOnly": True,
    }
    assert se.without_hooks(new, managed_only=True).new == old
    with pytest.raises(se.SettingsError, match="pluginConfigs"):
        se.with_hooks({"pluginConfigs": []}, managed_only=True)
