"""Helpers for the hardening tests: a real project in tmp_path, driven through the hook shell.

Not a conftest: each test module defines its own ``project`` fixture with ``make_project``, so
it overrides any shared ``project`` fixture for that module only.
"""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orchestrator_boundary import shell
from orchestrator_boundary.verdict import PRE, HookAnswer

BASE_CONFIG = """
[orchestrator]
write_allow = ["STATE.md", "docs/**"]

[agents.coder]
write_scope = ["src/**", "!src/secrets/**"]
"""


# Every scope covers everything: a deny can only come from the guard itself, not from a scope.
WIDE_OPEN = """\
[orchestrator]
write_allow = ["**", "/**"]

[subagents]
write_outside_root = ["/**"]

[agents.coder]
write_scope = ["**", "/**"]

[bash]
allow_write = ["**", "/**"]
"""


@dataclass
class Project:
    root: Path
    home: Path
    env: dict[str, str] = field(default_factory=dict)
    counter: int = 0
    audit_rel: str = ".claude/boundary/audit.jsonl"

    @property
    def audit(self) -> Path:
        return self.root / self.audit_rel

    def configure(self, text: str) -> None:
        cfg = self.root / ".claude" / "boundary.toml"
        cfg.write_text(textwrap.dedent(text))
        # the config cache keys on (mtime_ns, size): make every rewrite visible
        st = cfg.stat()
        os.utime(cfg, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000 * (self.counter + 1)))
        self.counter += 1

    def payload(
        self,
        tool: str,
        tool_input: Mapping[str, Any],
        *,
        agent: str | None = None,
        event: str = PRE,
        cwd: str | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        self.counter += 1
        data: dict[str, Any] = {
            "session_id": "sess-1",
            "transcript_path": str(self.home / "t.jsonl"),
            "cwd": cwd if cwd is not None else str(self.root),
            "permission_mode": "acceptEdits",
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": dict(tool_input),
            "tool_use_id": f"toolu_{self.counter:06d}",
        }
        if agent is not None:
            data["agent_id"] = f"a{self.counter:08x}"
            data["agent_type"] = agent
        if event == "PostToolUse":
            data["tool_response"] = {"success": True}
        data.update(extra)
        return data

    def call(
        self,
        data: Mapping[str, Any] | bytes,
        *,
        env: Mapping[str, str] | None = None,
        event: str = PRE,
    ) -> tuple[HookAnswer, dict[str, Any]]:
        raw = data if isinstance(data, bytes) else json.dumps(data).encode()
        environ = {**self.env, **(env or {})}
        answer = shell.evaluate(raw, environ, event=event)
        lines = self.audit.read_text(encoding="utf-8").splitlines()
        return answer, json.loads(lines[-1])

    def judge(
        self,
        tool: str,
        tool_input: Mapping[str, Any],
        *,
        env: Mapping[str, str] | None = None,
        **kw: Any,
    ) -> tuple[str, str | None, HookAnswer]:
        """(decision, code, answer) for one call."""
        data = self.payload(tool, tool_input, **kw)
        answer, rec = self.call(data, env=env, event=data["hook_event_name"])
        return rec["decision"], rec["code"], answer


def make_project(tmp_path: Path) -> Project:
    root = tmp_path / "proj"
    home = tmp_path / "home"
    for d in (
        root / ".claude" / "agents",
        root / "src" / "secrets",
        root / "docs",
        home / ".claude",
    ):
        d.mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text('{"hooks": {}}\n')
    (root / ".claude" / "agents" / "coder.md").write_text("---\nname: coder\n---\n")
    (home / ".claude" / "settings.json").write_text("{}\n")
    (root / "src" / "app.py").write_text("x = 1\n")
    (root / "src" / "secrets" / "key.txt").write_text("k\n")
    p = Project(root.resolve(), home.resolve())
    p.env = {
        "CLAUDE_PROJECT_DIR": str(p.root),
        "HOME": str(p.home),
        "PATH": os.environ.get("PATH", ""),
    }
    p.configure(BASE_CONFIG)
    return p


def parse_answer(answer: HookAnswer) -> dict[str, Any] | None:
    return json.loads(answer.stdout) if answer.stdout else None


def same_stat_edit(path: Path, text: str) -> None:
    """Rewrite ``path`` in place with as many bytes and put its mtime back: size, mtime and
    inode unchanged, so only the content (and the ctime) tells the edit."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        before.st_size,
        before.st_mtime_ns,
        before.st_ino,
    )


def write_call(root: Path, tool_use_id: str = "toolu_1") -> str:
    """A main agent's PreToolUse Write of ``src/a.py`` under ``root``, as Claude Code sends it."""
    return json.dumps(
        {
            "session_id": "s",
            "transcript_path": "",
            "cwd": str(root),
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": f"{root}/src/a.py", "content": "x = 1\n"},
            "tool_use_id": tool_use_id,
        }
    )


def bash_violation(root: Path, config: str, command: str, **who: str) -> str:
    """The violation code the hook's judgement finds for a Bash call in a project at ``root``
    with ``config`` as its boundary.toml (and a ``src`` folder), or "-" for none."""
    from orchestrator_boundary.foreign import setup_for
    from orchestrator_boundary.payload import HookPayload
    from orchestrator_boundary.shell import judge

    (root / ".claude").mkdir(exist_ok=True)
    (root / ".claude" / "boundary.toml").write_text(config)
    (root / "src").mkdir(exist_ok=True)
    payload = HookPayload(
        hook_event_name="PreToolUse",
        session_id="s",
        cwd=str(root),
        tool_name="Bash",
        tool_input={"command": command},
        **who,
    )
    verdict = judge(payload, setup_for(payload, {"CLAUDE_PROJECT_DIR": str(root)}))
    return verdict.violation.code.value if verdict.violation else "-"
