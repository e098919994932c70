"""When a subagent lets go of its files (ADR 0085): a foreground Agent call that failed (Esc,
an error) releases its subagent at once, not at the main agent's next Stop; a subagent's
background shell keeps its leases past its SubagentStop while the shell runs; a Bash command
that exited non-zero leaves its writes recorded as done. Through the hook shell in process,
with a real state store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook
from test_contracts_attack_r10 import SHARED, Team


def _team(project: Path, leases: str = "enforce") -> Team:
    team = Team(project, leases)
    (project / ".claude" / "boundary.toml").write_text(SHARED.format(leases=leases))
    return team


def _event(team: Team, event: str, agent: str | None = None, **more: Any) -> None:
    data = {**team.payload(event, "", {}, agent), **more}
    for key in ("tool_name", "tool_input", "tool_use_id"):
        data.pop(key, None)
    run_hook(data, team.env, event)


def _foreground(team: Team, agent: str, prompt: str) -> dict[str, Any]:
    """A foreground Agent call: its PostToolUse comes only when the subagent is done; the
    subagent is linked to it by its meta.json (``toolUseId``) at its first call."""
    pre = team.payload(
        "PreToolUse", "Agent", {"description": f"work {agent}", "prompt": prompt}, None
    )
    assert run_hook(pre, team.env)[1] is None
    meta = team.project.parent / "sess" / "subagents" / f"agent-{agent}.meta.json"
    meta.parent.mkdir(parents=True, exist_ok=True)
    meta.write_text(f'{{"agentType": "general-purpose", "toolUseId": "{pre["tool_use_id"]}"}}')
    return pre


# ---- a foreground Agent call that failed ------------------------------------------------------


@pytest.mark.parametrize("interrupt", [True, False], ids=["esc", "error"])
def test_a_failed_foreground_agent_call_releases_its_subagent(
    project: Path, interrupt: bool
) -> None:
    """The main agent pressed Esc on a1's foreground Agent call (PostToolUseFailure, no
    SubagentStop): a1 kept pay.py leased until the main agent's next Stop, so a2, started to
    redo the work, was refused FILE_LEASED meanwhile."""
    team = _team(project)
    pre = _foreground(team, "a1", "Fix the payment rounding.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    failure = {**pre, "hook_event_name": "PostToolUseFailure", "error": "interrupted"}
    run_hook({**failure, "is_interrupt": interrupt}, team.env, "PostToolUseFailure")
    team.launch("a2", "Redo the payment rounding.\nIntent: shared")
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "-"


def test_a_failed_agent_call_releases_only_its_own_subagent(project: Path) -> None:
    """Control: a1's Agent call failed; a3, started by another call, still holds its file."""
    team = _team(project)
    pre = _foreground(team, "a1", "Fix the payment rounding.\nIntent: shared")
    team.launch("a3", "Fix the login.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.write("a3", "src/auth/login.py") == "-"
    run_hook({**pre, "hook_event_name": "PostToolUseFailure", "error": "x"}, team.env,
             "PostToolUseFailure")  # fmt: skip
    team.launch("a2", "Redo.\nIntent: shared")
    team.read("a2", "src/auth/login.py")
    assert team.write("a2", "src/auth/login.py") == "FILE_LEASED"


def test_a_failed_tool_call_of_another_kind_releases_nothing(project: Path) -> None:
    """Control: a Read that failed in the main agent stops no subagent."""
    team = _team(project)
    team.launch("a1", "Fix the payment rounding.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    read = team.payload("PostToolUseFailure", "Read", {"file_path": str(project / "x")}, None)
    run_hook({**read, "error": "no such file"}, team.env, "PostToolUseFailure")
    team.launch("a2", "Redo.\nIntent: shared")
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "FILE_LEASED"


# ---- a subagent's background shell ------------------------------------------------------------


def _background(team: Team, agent: str, command: str, shell: str, **more: Any) -> None:
    asked = {} if more else {"run_in_background": True}  # else: Ctrl+B, a timeout
    pre = team.payload("PreToolUse", "Bash", {"command": command, **asked}, agent)
    assert run_hook(pre, team.env)[1] is None
    resp = {"stdout": "", "stderr": "", "interrupted": False, "backgroundTaskId": shell, **more}
    run_hook({**pre, "hook_event_name": "PostToolUse", "tool_response": resp}, team.env,
             "PostToolUse")  # fmt: skip


def _shell(shell: str, status: str = "running") -> dict[str, Any]:
    return {"id": shell, "type": "shell", "status": status, "description": "watch", "command": "x"}


def _two_with_a_shell(project: Path) -> Team:
    team = _team(project)
    team.launch("a1", "Regenerate the payment tables.\nIntent: shared")
    team.launch("a2", "Fix the payment rounding.\nIntent: shared")
    _background(team, "a1", "sleep 60; echo v2 > src/billing/pay.py", "bsh1")
    return team


def test_a_background_shell_keeps_its_subagents_leases_past_its_stop(project: Path) -> None:
    """a1 started `... > pay.py` in the background and stopped while it ran: SubagentStop
    released pay.py, and a2 wrote it, to be overwritten when the shell got there."""
    team = _two_with_a_shell(project)
    _event(team, "SubagentStop", "a1", background_tasks=[_shell("bsh1")])
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "FILE_LEASED"


def test_stop_keeps_the_leases_while_the_shell_runs_and_then_lets_go(project: Path) -> None:
    team = _two_with_a_shell(project)
    _event(team, "SubagentStop", "a1", background_tasks=[_shell("bsh1")])
    _event(
        team,
        "Stop",
        None,
        background_tasks=[_shell("bsh1"), {"id": "a2", "type": "subagent", "status": "running"}],
    )
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "FILE_LEASED"
    _event(
        team,
        "Stop",
        None,
        background_tasks=[
            _shell("bsh1", "completed"),
            {"id": "a2", "type": "subagent", "status": "running"},
        ],
    )
    assert team.write("a2", "src/billing/pay.py") == "-"


@pytest.mark.parametrize("how", ["KillShell", "KillBash", "TaskStop"])
def test_killing_the_shell_lets_the_stopped_subagent_go(project: Path, how: str) -> None:
    team = _two_with_a_shell(project)
    _event(team, "SubagentStop", "a1", background_tasks=[_shell("bsh1")])
    tool_input: dict[str, Any] = {"task_id": "bsh1"} if how == "TaskStop" else {"shell_id": "bsh1"}
    response = {"task_id": "bsh1", "task_type": "local_bash"} if how == "TaskStop" else {}
    pre = team.payload("PostToolUse", how, tool_input, None)
    run_hook({**pre, "tool_response": response}, team.env, "PostToolUse")
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "-"


@pytest.mark.parametrize(
    "more", [{"backgroundedByUser": True}, {"timedOutAfterMs": 120000}], ids=["ctrl-b", "timeout"]
)
def test_a_command_moved_to_the_background_keeps_the_leases_too(
    project: Path, more: dict[str, Any]
) -> None:
    """A command the person moved to the background (Ctrl+B), or one Claude Code moved there
    at its timeout, runs on as one started there (2.1.330's BashOutput schema)."""
    team = _team(project)
    team.launch("a1", "Regenerate the payment tables.\nIntent: shared")
    team.launch("a2", "Fix the payment rounding.\nIntent: shared")
    _background(team, "a1", "sleep 60; echo v2 > src/billing/pay.py", "bsh2", **more)
    _event(team, "SubagentStop", "a1", background_tasks=[_shell("bsh2")])
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "FILE_LEASED"


def test_a_monitor_keeps_its_subagents_leases_while_it_runs(project: Path) -> None:
    """A Monitor's command runs on after its subagent's stop (up to 30 minutes, 2.1.330's
    MonitorInput), as a background shell does; its PostToolUse names it as `taskId`."""
    team = _team(project)
    team.launch("a1", "Watch the payment tables.\nIntent: shared")
    team.launch("a2", "Fix the payment rounding.\nIntent: shared")
    watch = {"description": "regen", "timeout_ms": 600000,
             "command": "while sleep 5; do date > src/billing/pay.py; done"}  # fmt: skip
    pre = team.payload("PreToolUse", "Monitor", watch, "a1")
    assert run_hook(pre, team.env)[1] is None
    resp = {"taskId": "mon1", "timeoutMs": 600000}
    run_hook({**pre, "hook_event_name": "PostToolUse", "tool_response": resp}, team.env,
             "PostToolUse")  # fmt: skip
    monitor = {"id": "mon1", "type": "monitor", "status": "running", "description": "regen"}
    _event(team, "SubagentStop", "a1", background_tasks=[monitor])
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "FILE_LEASED"
    a2 = {"id": "a2", "type": "subagent", "status": "running"}
    _event(team, "Stop", None, background_tasks=[{**monitor, "status": "completed"}, a2])
    assert team.write("a2", "src/billing/pay.py") == "-"


def test_a_shell_that_ends_with_the_subagent_keeps_nothing(project: Path) -> None:
    """Control: `backgroundEndsWithFinalResponse` (a foreground subagent's background
    command): Claude Code ends it at the subagent's final response."""
    team = _team(project)
    team.launch("a1", "Regenerate the payment tables.\nIntent: shared")
    team.launch("a2", "Fix the payment rounding.\nIntent: shared")
    command = "sleep 60; echo v2 > src/billing/pay.py"
    _background(team, "a1", command, "bsh3", backgroundEndsWithFinalResponse=True)
    _event(team, "SubagentStop", "a1", background_tasks=[_shell("bsh3")])
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "-"


def test_killing_the_shell_of_a_resumed_subagent_keeps_its_leases(project: Path) -> None:
    """a1 stopped while its shell ran, was resumed with SendMessage and wrote again; then its
    shell was killed: that released a1's leases though a1 ran."""
    team = _two_with_a_shell(project)
    _event(team, "SubagentStop", "a1", background_tasks=[_shell("bsh1")])
    assert team.write("a1", "src/billing/tax.py") == "-"  # resumed
    kill = team.payload("PostToolUse", "KillShell", {"shell_id": "bsh1"}, None)
    run_hook({**kill, "tool_response": {}}, team.env, "PostToolUse")
    team.read("a2", "src/billing/tax.py")
    assert team.write("a2", "src/billing/tax.py") == "FILE_LEASED"


def test_a_shell_that_ended_before_the_stop_keeps_nothing(project: Path) -> None:
    """Control: the shell had finished when a1 stopped (not listed, or listed as over)."""
    team = _two_with_a_shell(project)
    _event(team, "SubagentStop", "a1", background_tasks=[_shell("bsh1", "completed")])
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "-"


def test_another_agents_shell_keeps_nothing(project: Path) -> None:
    """Control: SubagentStop lists every background shell of the session (seen in the
    corpus: the main agent's `cargo build` in a subagent's list); a1 keeps its leases only
    for a shell it started."""
    team = _team(project)
    team.launch("a1", "Fix the payment rounding.\nIntent: shared")
    team.launch("a2", "Redo.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    _event(team, "SubagentStop", "a1", background_tasks=[_shell("bmain")])
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "-"


# ---- a command that exited non-zero -----------------------------------------------------------


def test_a_command_that_failed_after_writing_is_no_stale_write_of_its_own(project: Path) -> None:
    """a1's `sed -i ... pay.py && false` exited non-zero (PostToolUseFailure): its mark of
    a write still running kept the content from before, so a1's next write of its own file
    was STALE_FILE ("changed since this agent last read it")."""
    team = _team(project, "off")
    team.launch("a1", "Fix the payment rounding.\nIntent: shared")
    command = "sed -i s/v1/v2/ src/billing/pay.py && false"
    pre = team.payload("PreToolUse", "Bash", {"command": command}, "a1")
    assert run_hook(pre, team.env)[1] is None
    (project / "src/billing/pay.py").write_text("v2\n")  # what sed did
    run_hook({**pre, "hook_event_name": "PostToolUseFailure", "error": "Exit code 1"},
             team.env, "PostToolUseFailure")  # fmt: skip
    assert team.bash("a1", "echo v3 >> src/billing/pay.py") == "-"


def test_another_agent_still_sees_the_failed_commands_write(project: Path) -> None:
    """Control: a2 did not read pay.py after a1's failed command changed it."""
    team = _team(project, "off")
    team.launch("a1", "Fix the payment rounding.\nIntent: shared")
    team.launch("a2", "Redo.\nIntent: shared")
    pre = team.payload(
        "PreToolUse", "Bash", {"command": "sed -i s/v1/v2/ src/billing/pay.py && false"}, "a1"
    )
    assert run_hook(pre, team.env)[1] is None
    (project / "src/billing/pay.py").write_text("v2\n")
    run_hook({**pre, "hook_event_name": "PostToolUseFailure", "error": "Exit code 1"},
             team.env, "PostToolUseFailure")  # fmt: skip
    assert team.write("a2", "src/billing/pay.py") == "STALE_FILE"


@pytest.mark.parametrize("tool", ["Edit", "Write", "NotebookEdit"])
def test_a_file_tool_that_failed_holds_nothing_against_the_others(project: Path, tool: str) -> None:
    """a1's Edit failed ("String to replace not found", PostToolUseFailure): it changed
    nothing, but its mark held pay.py as "a write still running", and a2, which had read it,
    was refused STALE_FILE until it read it again."""
    team = _team(project, "off")
    team.launch("a1", "Fix the payment rounding.\nIntent: shared")
    team.launch("a2", "Redo.\nIntent: shared")
    team.read("a1", "src/billing/pay.py")
    team.read("a2", "src/billing/pay.py")
    path = str(project / "src/billing/pay.py")
    tool_input = {
        "Edit": {"file_path": path, "old_string": "nothere", "new_string": "x"},
        "Write": {"file_path": path, "content": "x"},
        "NotebookEdit": {"notebook_path": path, "new_source": "x"},
    }[tool]
    pre = team.payload("PreToolUse", tool, tool_input, "a1")
    assert run_hook(pre, team.env)[1] is None
    failed = {
        **pre,
        "hook_event_name": "PostToolUseFailure",
        "error": "String to replace not found",
    }
    run_hook(failed, team.env, "PostToolUseFailure")
    assert team.write("a2", "src/billing/pay.py") == "-"


def test_a_failed_edit_does_not_hide_the_agents_earlier_write(project: Path) -> None:
    """a1 wrote pay.py, then an Edit of it failed: a2, which never read pay.py, is still
    told of a1's write (a fix that made the failed Edit's mark a read lost it)."""
    team = _team(project, "off")
    team.launch("a1", "Fix the payment rounding.\nIntent: shared")
    team.launch("a2", "Redo.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    edit = {"file_path": str(project / "src/billing/pay.py"), "old_string": "no", "new_string": "x"}
    pre = team.payload("PreToolUse", "Edit", edit, "a1")
    assert run_hook(pre, team.env)[1] is None
    failed = {
        **pre,
        "hook_event_name": "PostToolUseFailure",
        "error": "String to replace not found",
    }
    run_hook(failed, team.env, "PostToolUseFailure")
    assert team.bash("a2", "echo v3 > src/billing/pay.py") == "STALE_FILE"


def test_a_read_that_failed_settles_nothing(project: Path) -> None:
    """Control: a failed Read takes no mark and settles none of its agent's others."""
    team = _team(project, "off")
    team.launch("a1", "Fix.\nIntent: shared")
    team.launch("a2", "Redo.\nIntent: shared")
    team.read("a2", "src/billing/pay.py")
    pre = team.payload("PreToolUse", "Bash", {"command": "echo v2 > src/billing/pay.py"}, "a1")
    assert run_hook(pre, team.env)[1] is None  # still running
    read = team.payload("PostToolUseFailure", "Read", {"file_path": str(project / "nope")}, "a1")
    run_hook({**read, "error": "File does not exist."}, team.env, "PostToolUseFailure")
    assert team.write("a2", "src/billing/pay.py") == "STALE_FILE"  # a1's write still runs
