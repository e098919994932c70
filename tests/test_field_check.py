"""The field check through the real hook (ADR 0029): in warn, a Bash call's PostToolUse line
says what the call changed and which of it the analysis missed; nothing runs in the other
phases or with ``field_check = "off"``."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook

from orchestrator_boundary import field_check, field_cli
from orchestrator_boundary.field_scan import Bounds
from orchestrator_boundary.payload import payload_from_obj

SESSION = "6d1c5b2e-0000-4000-8000-000000000001"
# A project file named like a standard module shadows it: `python3 -c` puts the working folder
# first on sys.path, so the command writes pwned.txt. The analysis rates it opaque for that
# reason; a team that declared python3 read-only (`[bash] read_only_commands`) makes it a
# read_only rating that writes: the miss the field check exists to find.
SHADOW = 'import pathlib\npathlib.Path("pwned.txt").write_text("x")\ndef dumps(o): return str(o)\n'
SHADOWED = "python3 -c 'import json; print(json.dumps(1))'"
MISDECLARED = 'read_only_commands = ["python3"]\n'


def _shadow(project: Path) -> None:
    """The shadowing json.py, and python3 wrongly declared read-only in the config."""
    (project / "json.py").write_text(SHADOW)
    cfg = project / ".claude/boundary.toml"
    text = cfg.read_text() if cfg.exists() else ""
    if "[bash]\n" in text:
        cfg.write_text(text.replace("[bash]\n", "[bash]\n" + MISDECLARED, 1))
    else:
        cfg.write_text(text + "[bash]\n" + MISDECLARED)


def _records(project: Path) -> list[dict[str, Any]]:
    trail = project / ".claude/boundary/audit.jsonl"
    return [json.loads(line) for line in trail.read_text().splitlines()]


def _field(project: Path, event: str = "PostToolUse", call: str = "toolu_1") -> Any:
    found = [r for r in _records(project) if r["event"] == event and r.get("tool_use_id") == call]
    assert found, _records(project)
    return found[-1].get("field")


class Calls:
    """PreToolUse and PostToolUse of tool calls through the in-process hook."""

    def __init__(self, project: Path, env: dict[str, str] | None = None) -> None:
        self.project = project
        self.env = {"CLAUDE_PROJECT_DIR": str(project), **(env or {})}

    def payload(
        self, event: str, tool: str, tool_input: dict[str, Any], call: str, **extra: Any
    ) -> dict[str, Any]:
        data = {
            "session_id": SESSION,
            "transcript_path": "",
            "cwd": str(self.project),
            "permission_mode": "acceptEdits",
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": call,
            **extra,
        }
        if event == "PostToolUse":
            data.setdefault("tool_response", {"stdout": "", "stderr": "", "interrupted": False})
        return data

    def pre(self, command: str, call: str = "toolu_1", tool: str = "Bash", **kw: Any) -> None:
        tool_input = (
            {"command": command} if tool in ("Bash", "PowerShell") else kw.pop("tool_input")
        )
        tool_input.update(kw.pop("extra_input", {}))
        rc, _, err = run_hook(self.payload("PreToolUse", tool, tool_input, call, **kw), self.env)
        assert rc == 0, err

    def post(self, command: str, call: str = "toolu_1", tool: str = "Bash", **kw: Any) -> None:
        tool_input = (
            {"command": command} if tool in ("Bash", "PowerShell") else kw.pop("tool_input")
        )
        tool_input.update(kw.pop("extra_input", {}))
        payload = self.payload("PostToolUse", tool, tool_input, call, **kw)
        rc, _, err = run_hook(payload, self.env, event="PostToolUse")
        assert rc == 0, err

    def run(self, command: str, call: str = "toolu_1", **kw: Any) -> Any:
        """The call as Claude Code makes it: PreToolUse, the command really runs, PostToolUse."""
        self.pre(command, call, **kw)
        subprocess.run(["bash", "-c", command], cwd=self.project, check=False, timeout=30)
        self.post(command, call, **kw)
        return _field(self.project, call=call)


def test_a_read_only_rating_that_writes_is_a_miss(project: Path) -> None:
    _shadow(project)
    found = Calls(project).run(SHADOWED)
    assert (project / "pwned.txt").read_text() == "x"  # it really wrote
    assert found == {
        "source": "scan",
        "label": "read_only",
        "changed": ["pwned.txt"],
        "changed_count": 1,
        "missed": ["pwned.txt"],
        "missed_count": 1,
        "partial": False,
        "overlapped": False,
        "ms": found["ms"],
        "command": SHADOWED,
    }
    pre = _field(project, "PreToolUse")
    assert pre["snapshot"] >= 3 and pre["ms"] >= 0


def test_a_file_changed_between_pre_and_post_of_a_read_only_command(project: Path) -> None:
    (project / "a.txt").write_text("a")
    calls = Calls(project)
    calls.pre("cat a.txt")
    (project / "src" / "changed.py").write_text("changed meanwhile")
    calls.post("cat a.txt")
    found = _field(project)
    assert (found["label"], found["missed"]) == ("read_only", ["src/changed.py"])


@pytest.mark.parametrize(
    ("command", "label", "missed", "opaque"),
    [
        ("echo hi > out.txt", "writes", [], None),
        ("mkdir -p d && echo x > d/new.txt && rm gone.txt", "writes", [], None),
        ("echo hi > out.txt; cp out.txt copy.txt", "writes", [], None),
        ("python3 ./script.py", "opaque", [], ["made.txt"]),
        ("sh ./script.sh", "opaque", [], None),  # its text is read: made.txt was predicted
        ("ls -la && git status --short 2>/dev/null; true", "read_only", [], None),
    ],
    ids=[
        "redirect",
        "folder-file-remove",
        "copy",
        "opaque-script",
        "shell-script-read",
        "truly-read-only",
    ],
)
def test_what_the_analysis_predicted_is_no_miss(
    project: Path, command: str, label: str, missed: list[str], opaque: list[str] | None
) -> None:
    (project / "gone.txt").write_text("g")
    (project / "script.sh").write_text("echo m > made.txt\n")
    (project / "script.py").write_text("open('made.txt', 'w').write('m')\n")
    found = Calls(project).run(command)
    assert (found["label"], found["missed"], found.get("opaque")) == (label, missed, opaque)


def _edit_diff_response(project: Path, paths: list[str], more: int = 0) -> dict[str, Any]:
    """A PostToolUse tool_response in the shape 2.1.330 sends with bashEditDiffEnabled."""
    absolute = [str(project / p) for p in paths]
    return {
        "stdout": "",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "noOutputExpected": False,
        "bashEditDiff": {
            "files": [{"filePath": p, "hunks": [], "created": True} for p in absolute[:5]],
            "moreFiles": max(0, len(absolute) - 5) + more,
            "changedFiles": absolute[:200],
        },
    }


def _snapshots(project: Path) -> int:
    state = project / ".claude/boundary/audit.jsonl.state.sqlite3"
    if not state.exists():
        return 0
    conn = sqlite3.connect(state)
    try:
        return conn.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # no such table
    finally:
        conn.close()


def test_the_cli_s_own_list_is_used_and_no_snapshot_is_taken(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    _shadow(project)
    calls = Calls(project, {"CLAUDE_CODE_BASH_EDIT_DIFF": "1"})
    calls.pre(SHADOWED)
    assert _field(project, "PreToolUse") == {"awaits": "bashEditDiff"}
    assert _snapshots(project) == 0
    response = _edit_diff_response(project, ["pwned.txt", "../outside.txt"])
    response["bashEditDiff"]["changedFiles"].append("/elsewhere/x.txt")
    calls.post(SHADOWED, tool_response=response)
    found = _field(project)
    assert (found["source"], found["missed"], found["partial"]) == (
        "bashEditDiff",
        ["pwned.txt"],
        False,
    )


def test_a_list_cut_at_200_makes_the_comparison_partial(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    calls = Calls(project, {"CLAUDE_CODE_BASH_EDIT_DIFF": "1"})
    command = "for i in $(seq 260); do echo x > f$i.txt; done"
    calls.pre(command)
    calls.post(
        command, tool_response=_edit_diff_response(project, [f"f{i}.txt" for i in range(1, 261)])
    )
    found = _field(project)
    assert (found["changed_count"], found["partial"], found["source"]) == (
        200,
        True,
        "bashEditDiff",
    )


def test_scan_mode_joins_the_cli_s_list_with_its_own_snapshots(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".claude/boundary.toml").write_text('[bash]\nfield_check = "scan"\n')
    (project / ".gitignore").write_text("*.log\n")
    calls = Calls(project, {"CLAUDE_CODE_BASH_EDIT_DIFF": "1"})
    calls.pre("cat a")
    (project / "build.log").write_text("ignored by git, so not in the CLI's list")
    calls.post("cat a", tool_response=_edit_diff_response(project, ["tracked.txt"]))
    found = _field(project)
    assert found["source"] == "scan+bashEditDiff"
    assert found["missed"] == ["build.log", "tracked.txt"]


def test_expected_diff_that_never_came_is_said(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    calls = Calls(project, {"CLAUDE_CODE_BASH_EDIT_DIFF": "1"})
    calls.pre("cat a")
    calls.post("cat a")
    assert _field(project) == {"source": "none", "note": "Claude Code sent no bashEditDiff"}


def _no_field_state(project: Path) -> bool:
    state = project / ".claude/boundary/audit.jsonl.state.sqlite3"
    if not state.exists():
        return True
    conn = sqlite3.connect(state)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    return not {"calls", "snapshots"} & tables


@pytest.mark.parametrize(
    ("toml", "phase"),
    [
        ('[bash]\nfield_check = "off"\n', "warn"),
        ("", "enforce"),
        ("", "ask"),
        ("", "off"),
    ],
    ids=["switched-off", "enforce", "ask", "off"],
)
def test_nothing_runs_outside_warn_or_when_switched_off(
    project: Path, toml: str, phase: str
) -> None:
    (project / ".claude/boundary.toml").write_text(toml)
    _shadow(project)
    calls = Calls(project, {"ORCHESTRATOR_BOUNDARY_PHASE": phase})
    calls.run(SHADOWED)
    calls.run("echo x > f.txt", call="toolu_2")
    assert all("field" not in r for r in _records(project))
    assert _no_field_state(project)  # no snapshot, no window: no state written at all


def test_a_broken_switch_is_a_config_error(project: Path) -> None:
    (project / ".claude/boundary.toml").write_text('[bash]\nfield_check = "sometimes"\n')
    from orchestrator_boundary.config import ConfigProblem, load_config

    got = load_config(str(project / ".claude/boundary.toml"))
    assert isinstance(got, ConfigProblem) and got.key == "bash.field_check"


def test_a_call_that_ran_beside_another_is_marked_overlapped(project: Path) -> None:
    calls = Calls(project)
    target = project / "src" / "w.py"
    write = {"tool_input": {"file_path": str(target), "content": "w"}}
    calls.pre("cat a", call="toolu_A")
    calls.pre("", call="toolu_B", tool="Write", **write)
    target.write_text("w")  # the subagent's Write, while the Bash call runs
    calls.post("", call="toolu_B", tool="Write", **write)
    calls.post("cat a", call="toolu_A")
    found = _field(project, call="toolu_A")
    assert (found["missed"], found["overlapped"]) == (["src/w.py"], True)
    # the next call, alone, is not
    assert Calls(project).run("cat a", call="toolu_C")["overlapped"] is False


def test_a_background_command_is_not_compared_and_overlaps_what_follows(project: Path) -> None:
    calls = Calls(project)
    background = {"extra_input": {"run_in_background": True}}
    calls.pre("sleep 1; echo x > late.txt", call="toolu_bg", **background)
    calls.post("sleep 1; echo x > late.txt", call="toolu_bg", **background)
    assert _field(project, call="toolu_bg") == {
        "skipped": "background command: it runs on after this hook"
    }
    assert calls.run("cat a", call="toolu_next")["overlapped"] is True


def test_the_bounds_hold_through_the_hook(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(field_check, "BOUNDS", Bounds(entries=100))
    for d in range(10):
        (project / f"d{d}").mkdir()
        for f in range(30):
            (project / f"d{d}" / f"f{f}.txt").write_text("x")
    calls = Calls(project)
    calls.pre("cat a")
    pre = _field(project, "PreToolUse")
    assert pre["snapshot"] <= 100 and pre["partial"] == "entries"
    calls.post("cat a")
    assert _field(project)["partial"] is True


def test_a_command_that_failed_is_compared_at_post_tool_use_failure(project: Path) -> None:
    """2.1.330 sends PostToolUseFailure, not PostToolUse, for a Bash command exiting non-zero."""
    _shadow(project)
    command = "python3 -c 'import json; json.nope()'"
    calls = Calls(project)
    calls.pre(command)
    done = subprocess.run(["bash", "-c", command], cwd=project, check=False, timeout=30)
    assert done.returncode != 0
    payload = calls.payload("PostToolUseFailure", "Bash", {"command": command}, "toolu_1")
    payload.update(error="Exit code 1", is_interrupt=False)
    rc, out, _ = run_hook(payload, calls.env, event="PostToolUse")
    assert (rc, out) == (0, None)
    found = _field(project, "PostToolUseFailure")
    assert (found["label"], found["missed"]) == ("read_only", ["pwned.txt"])
    assert found["overlapped"] is False


def test_a_subagent_s_bash_is_measured_too(project: Path) -> None:
    _shadow(project)
    found = Calls(project).run(SHADOWED, agent_id="a1b2c3", agent_type="coder")
    assert found["missed"] == ["pwned.txt"]


@pytest.mark.parametrize(
    ("env", "settings", "mode", "git", "expected"),
    [
        ({"CLAUDE_CODE_BASH_EDIT_DIFF": "1"}, None, "acceptEdits", True, True),
        ({"CLAUDE_CODE_BASH_EDIT_DIFF": "1"}, None, "acceptEdits", False, False),
        ({}, None, "acceptEdits", True, False),
        ({}, {"bashEditDiffEnabled": True}, "acceptEdits", True, True),
        ({}, None, "bypassPermissions", True, True),
        ({}, {"bashEditDiffEnabled": False}, "bypassPermissions", True, False),
        ({}, {"bashEditDiffEnabled": "yes"}, "acceptEdits", True, False),
    ],
    ids=[
        "env",
        "env-no-git",
        "nothing",
        "user-setting",
        "bypass-mode",
        "bypass-mode-setting-off",
        "setting-not-a-bool",
    ],
)
def test_when_the_cli_will_send_its_list(
    tmp_path: Path,
    env: dict[str, str],
    settings: dict[str, Any] | None,
    mode: str,
    git: bool,
    expected: bool,
) -> None:
    root = tmp_path / "repo"
    (root / ".git" if git else root).mkdir(parents=True)
    home = tmp_path / "home"
    if settings is not None:
        (home / ".claude").mkdir(parents=True, exist_ok=True)
        (home / ".claude" / "settings.json").write_text(json.dumps(settings))
    payload = payload_from_obj(
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
            "permission_mode": mode,
        }
    )
    environ = {"HOME": str(home), **env}
    assert field_cli.diff_expected(payload, str(root), environ) is expected
