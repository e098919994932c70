"""Audit trails for the report tests, made by REALLY replaying payloads through the hook shell.

Every record comes from ``orchestrator_boundary.shell.evaluate`` with a controllable clock, so
the report is tested against what the hooks actually write, not against hand-made JSON.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from orchestrator_boundary.shell import evaluate

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
TODAY = (START + timedelta(days=40)).date()


class TrailBuilder:
    def __init__(self, root: Path, config: str = "") -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "src").mkdir(exist_ok=True)
        if config:
            (root / ".claude").mkdir(exist_ok=True)
            (root / ".claude" / "boundary.toml").write_text(config)
        home = root.parent / "home"
        home.mkdir(exist_ok=True)
        self.env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(home)}
        self.calls = 0
        self._tick = 0

    @property
    def audit(self) -> Path:
        return self.root / ".claude" / "boundary" / "audit.jsonl"

    def _clock(self, day: int) -> float:
        self._tick += 1
        return (START + timedelta(days=day, seconds=self._tick)).timestamp()

    def call(
        self,
        day: int,
        session: str,
        tool: str = "Read",
        *,
        path: str = "src/app.py",
        agent_id: str | None = None,
        agent_type: str | None = None,
        bypass: bool = False,
        phase: str | None = None,
        event: str = "PreToolUse",
        raw: bytes | None = None,
        tool_use_id: str | None = None,
    ) -> Any:
        tool_input: dict[str, Any]
        if tool in ("Write", "Edit", "Read"):
            tool_input = {"file_path": str(self.root / path)}
            if tool == "Write":
                tool_input["content"] = "x = 1\n"
            if tool == "Edit":
                tool_input.update(old_string="x", new_string="y")
        elif tool == "Bash":
            tool_input = {"command": path}
        elif tool == "Agent":
            tool_input = {"description": "change it", "prompt": "please", "subagent_type": "coder"}
        else:
            tool_input = {"pattern": "*.py"}
        payload: dict[str, Any] = {
            "session_id": session,
            "transcript_path": str(self.root.parent / f"{session}.jsonl"),
            "cwd": str(self.root),
            "permission_mode": "acceptEdits",
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": tool_use_id or f"toolu_{self.calls:05d}",
        }
        if agent_id:
            payload["agent_id"] = agent_id
        if agent_type:
            payload["agent_type"] = agent_type
        if event == "PostToolUse":
            payload["tool_response"] = {"success": True}
        env = dict(self.env)
        if bypass:
            env["AMPLIFIER_BYPASS_BOUNDARY"] = "1"
        if phase:
            env["ORCHESTRATOR_BOUNDARY_PHASE"] = phase
        self.calls += 1
        data = raw if raw is not None else json.dumps(payload).encode()
        return evaluate(data, env, event=event, clock=lambda: self._clock(day))

    def pair(self, day: int, session: str, tool: str, **kw: Any) -> Any:
        """One tool call as Claude Code makes it: PreToolUse, then PostToolUse with the same
        ``tool_use_id`` when the call went through (not denied)."""
        call_id = f"toolu_{session}_{self.calls:05d}"
        answer = self.call(day, session, tool, tool_use_id=call_id, **kw)
        if '"permissionDecision": "deny"' not in answer.stdout:
            self.call(day, session, tool, tool_use_id=call_id, event="PostToolUse", **kw)
        return answer

    def session(
        self,
        day: int,
        sid: str,
        *,
        main_writes: int = 0,
        subagent: bool = True,
        agent_id: bool = True,
        bypass: bool = False,
        phase: str | None = None,
        reads: int = 2,
    ) -> None:
        """One realistic session: the main agent reads and delegates, a subagent edits, the
        main agent sometimes edits itself (the violations)."""
        for k in range(reads):
            self.call(day, sid, "Read", path=f"src/m{k}.py", phase=phase, bypass=bypass)
        self.call(day, sid, "Grep", phase=phase, bypass=bypass)
        if subagent:
            self.call(day, sid, "Agent", phase=phase, bypass=bypass)
            self.pair(
                day,
                sid,
                "Edit",
                path=f"src/feature_{day}.py",
                agent_id=f"a{sid}" if agent_id else None,
                agent_type="coder",
                phase=phase,
                bypass=bypass,
            )
        for k in range(main_writes):
            tool = "Write" if k % 2 == 0 else "Edit"
            target = "src/hotfix.py" if tool == "Write" else "README.md"
            self.pair(day, sid, tool, path=target, phase=phase, bypass=bypass)

    def garbage(self, lines: list[str]) -> None:
        with self.audit.open("a") as fh:
            for line in lines:
                fh.write(line + "\n")


def falling(d: int) -> int:
    """Main-agent writes on day ``d``: a team learning to delegate."""
    return max(0, 3 - d // 4)


def build(
    root: Path,
    *,
    days: int = 20,
    sessions_per_day: int = 1,
    writes: Any = falling,
    agent_id: bool = True,
    bypass_sessions: int = 0,
    bad_inputs: int = 0,
    reads: int = 2,
    config: str = "",
) -> TrailBuilder:
    """A trail over ``days`` days; the defaults make a READY trail (20 days, ~130 tool uses,
    subagents seen, no errors, no bypass, violations falling)."""
    b = TrailBuilder(root, config)
    n = 0
    phases = ["warn", None, "ask", "enforce"]
    for d in range(days):
        for _ in range(sessions_per_day):
            n += 1
            b.session(
                d,
                f"s{n:03d}",
                main_writes=writes(d),
                agent_id=agent_id,
                bypass=n <= bypass_sessions,
                phase=phases[d * 4 // days % 4],
                reads=reads,
            )
    for k in range(bad_inputs):
        b.call(k % days, "ignored", raw=b"{not json")
    return b


def keep_notes(
    b: TrailBuilder,
    days: range,
    *,
    path: str = "STATE.md",
    tool: str = "Edit",
    per_session: int = 2,
) -> None:
    """The orchestrator updating its own notes file in each day's session (after ``build``,
    whose session on day ``d`` is ``s{d + 1:03d}`` with one session a day). For ``tool="Bash"``
    the main agent appends with ``echo``."""
    for d in days:
        for _ in range(per_session):
            if tool == "Bash":
                b.pair(d, f"s{d + 1:03d}", "Bash", path=f"echo 'step done' >> {path}")
            else:
                b.pair(d, f"s{d + 1:03d}", tool, path=path)
