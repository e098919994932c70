"""Which rules judge a caller (``profiles``, ADR 0032): a subagent by its profile, and a fork of
the main agent (``agent_type`` "fork") as a subagent by default or, with ``[subagents] fork =
"orchestrator"``, by the main agent's rules.

Through the hook shell (``shell.evaluate``) against a real project in tmp_path, and once per
setting through the real hook entry (``testing.run_hook``, a new process as Claude Code runs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project, parse_answer

from orchestrator_boundary.config import Config, ConfigProblem, parse_config
from orchestrator_boundary.testing import make_payload, run_hook
from orchestrator_boundary.verdict import HookAnswer

BASE = """
[orchestrator]
write_allow = ["STATE.md"]

[agents.coder]
write_scope = ["src/**"]
"""
AS_MAIN = BASE + '\n[subagents]\nfork = "orchestrator"\n'
ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def _write(rel: str) -> tuple[str, dict[str, Any]]:
    return "Write", {"file_path": rel, "content": "x"}


def _bash(command: str) -> tuple[str, dict[str, Any]]:
    return "Bash", {"command": command}


# (id, config, agent type, (tool, input with paths relative to the root), decision, code, rule)
TABLE: list[tuple[str, str, str, tuple[str, dict[str, Any]], str, str | None, str | None]] = [
    # the default: a fork is a subagent with no profile of its own (the root is its scope)
    ("default-write-src", BASE, "fork", _write("src/a.py"), "none", None, None),
    ("default-write-docs", BASE, "fork", _write("docs/a.md"), "none", None, None),
    ("default-bash-write", BASE, "fork", _bash("echo hi > out.txt"), "none", None, None),
    ("default-read", BASE, "fork", ("Read", {"file_path": "src/app.py"}), "none", None, None),
    (
        "default-outside-root",
        BASE,
        "fork",
        _write("/etc/x.conf"),
        "deny",
        "SCOPE_VIOLATION",
        "project root + subagents.write_outside_root",
    ),
    (
        "default-settings",
        BASE,
        "fork",
        _write(".claude/settings.json"),
        "deny",
        "TAMPER",
        "protected: .claude/settings.json",
    ),
    # [agents.fork] narrows forks; [agents."*"] covers them when there is none
    (
        "fork-profile-scope",
        BASE + '\n[agents.fork]\nwrite_scope = ["docs/**"]\n',
        "fork",
        _write("src/a.py"),
        "deny",
        "SCOPE_VIOLATION",
        "agents.fork.write_scope",
    ),
    (
        "fork-profile-in-scope",
        BASE + '\n[agents.fork]\nwrite_scope = ["docs/**"]\n',
        "fork",
        _write("docs/a.md"),
        "none",
        None,
        None,
    ),
    (
        "star-profile-tools",
        BASE + '\n[agents."*"]\ntools = ["Read", "Grep"]\n',
        "fork",
        _write("src/a.py"),
        "deny",
        "TOOL_NOT_ALLOWED",
        "agents.*.tools",
    ),
    # fork = "orchestrator": the main agent's rules
    (
        "main-write-src",
        AS_MAIN,
        "fork",
        _write("src/a.py"),
        "deny",
        "ORCHESTRATOR_WRITE",
        "orchestrator.write_allow",
    ),
    ("main-write-allowed", AS_MAIN, "fork", _write("STATE.md"), "none", None, None),
    (
        "main-bash-write",
        AS_MAIN,
        "fork",
        _bash("echo hi > out.txt"),
        "deny",
        "BASH_WRITE",
        "orchestrator.write_allow + bash.allow_write",
    ),
    ("main-bash-read", AS_MAIN, "fork", _bash("ls src"), "none", None, None),
    ("main-read", AS_MAIN, "fork", ("Read", {"file_path": "src/app.py"}), "none", None, None),
    (
        "main-unknown-tool",
        AS_MAIN,
        "fork",
        ("mcp__x__do", {"what": "x"}),
        "deny",
        "UNKNOWN_TOOL",
        "tools (unknown class is treated as a write)",
    ),
    (
        "main-settings",
        AS_MAIN,
        "fork",
        _write(".claude/settings.json"),
        "deny",
        "TAMPER",
        "protected: .claude/settings.json",
    ),
    # an [agents.fork] profile does not apply when forks are judged as the main agent
    (
        "main-ignores-fork-profile",
        AS_MAIN + '\n[agents.fork]\nwrite_scope = ["src/**"]\n',
        "fork",
        _write("src/a.py"),
        "deny",
        "ORCHESTRATOR_WRITE",
        "orchestrator.write_allow",
    ),
    # other subagents are not touched by the setting
    ("main-coder-in-scope", AS_MAIN, "coder", _write("src/a.py"), "none", None, None),
    (
        "main-coder-out-of-scope",
        AS_MAIN,
        "coder",
        _write("docs/a.md"),
        "deny",
        "SCOPE_VIOLATION",
        "agents.coder.write_scope",
    ),
    ("main-general-purpose", AS_MAIN, "general-purpose", _write("docs/a.md"), "none", None, None),
]


@pytest.mark.parametrize(
    ("config", "agent", "call", "decision", "code", "rule"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_forks_are_judged_as_configured(
    project: Project,
    config: str,
    agent: str,
    call: tuple[str, dict[str, Any]],
    decision: str,
    code: str | None,
    rule: str | None,
) -> None:
    project.configure(config)
    tool, tool_input = call
    if "file_path" in tool_input and not tool_input["file_path"].startswith("/"):
        tool_input = {**tool_input, "file_path": str(project.root / tool_input["file_path"])}
    data = project.payload(tool, tool_input, agent=agent)
    _, rec = project.call(data, env=ENFORCE)
    assert (rec["decision"], rec["code"], rec["rule"]) == (decision, code, rule)
    # the audit line still says who called: a subagent of type fork
    assert (rec["session_kind"], rec["agent_type"]) == ("subagent", agent)


def _reason(answer: HookAnswer) -> str:
    out = parse_answer(answer) or {}
    return str(out["hookSpecificOutput"]["permissionDecisionReason"])


def test_a_fork_judged_as_the_main_agent_is_named_so(project: Project) -> None:
    project.configure(AS_MAIN)
    data = project.payload("Write", {"file_path": str(project.root / "src/a.py")}, agent="fork")
    said = "orchestrator-boundary blocked Write (ORCHESTRATOR_WRITE): "
    assert _reason(project.call(data, env=ENFORCE)[0]).startswith(
        f"{said}subagent fork ({data['agent_id']}), judged by the main agent's rules "
        '([subagents] fork = "orchestrator"), may not change files itself: '
    )
    # the main agent's own call reads as before
    main = project.payload("Write", {"file_path": str(project.root / "src/a.py")})
    assert _reason(project.call(main, env=ENFORCE)[0]).startswith(
        f"{said}the main agent may not change files itself: "
    )


def test_the_fork_setting_is_validated() -> None:
    assert isinstance(parse_config("", "b.toml"), Config)
    default = parse_config("", "b.toml")
    assert isinstance(default, Config) and default.subagents.fork == "subagent"
    problem = parse_config('[subagents]\nfork = "main"\n', "b.toml")
    assert isinstance(problem, ConfigProblem) and problem.key == "subagents.fork"


@pytest.mark.parametrize(
    ("config", "decision", "code"),
    [(BASE, "none", None), (AS_MAIN, "deny", "ORCHESTRATOR_WRITE")],
    ids=["subagent", "orchestrator"],
)
def test_both_settings_through_the_real_hook_entry(
    tmp_path: Path, config: str, decision: str, code: str | None
) -> None:
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    payload = make_payload(
        "Write",
        {"file_path": "src/a.py", "content": "x"},
        agent_type="fork",
        subagent=True,
        cwd=project,
    )
    answer = run_hook(
        payload, project=project, config=config, phase="enforce", scratch=str(tmp_path)
    )
    assert (answer.exit_code, answer.decision, answer.code) == (0, decision, code)
    assert answer.record is not None and answer.record["agent_type"] == "fork"
