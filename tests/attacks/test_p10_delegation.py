"""Issue 17, attacked: two subagents running at once write one file by every route, a
narrowed subagent writes outside its delegation through an MCP tool, an Agent prompt hides its
contract behind look-alikes. Each through the registered hook command and the resident
evaluator (``support``), on one state store per route, one session per case (ADR 0050).

Subagent A ("work a") wrote ``src/app.py`` and ``src/d/f.py``; subagent B, which never read
them, then tries each route. With leases off (the default) B is told the file changed unseen
(STALE_FILE); with ``leases = "enforce"`` that A holds it (FILE_LEASED).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .support import Answer, Arena, new_arena, route_params

CONFIG = """\
phase = "enforce"

[intents."fix"]
owned_scope = ["src/**"]
description = "the fix"

[agents.coder]
write_scope = ["**"]

[bash]
allow_write = ["**"]

[delegation]
leases = "{leases}"
"""

_ids = itertools.count()


@pytest.fixture(scope="module", params=["off", "enforce"])
def leased(request: pytest.FixtureRequest) -> Iterator[Arena]:
    with new_arena(CONFIG.format(leases=request.param)) as a:
        a.warm()
        yield a


class Session:
    """One Claude Code session in an arena: its Agent calls, its subagents' calls."""

    def __init__(self, arena: Arena, route: str) -> None:
        self.arena, self.route = arena, route
        self.sid = f"s{next(_ids)}-{os.getpid()}"
        self.transcript = arena.home / ".claude" / "projects" / "p" / f"{self.sid}.jsonl"
        (self.transcript.parent / self.sid / "subagents").mkdir(parents=True, exist_ok=True)
        self.launched: dict[str, str] = {}

    def payload(
        self, event: str, tool: str, tool_input: dict[str, Any], agent: str | None, **kw: Any
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "session_id": self.sid,
            "transcript_path": str(self.transcript),
            "cwd": str(self.arena.root),
            "permission_mode": "acceptEdits",
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": self.arena.expand(tool_input),
            "tool_use_id": f"toolu_{next(_ids)}",
            **kw,
        }
        if agent:
            data.update(agent_id=agent, agent_type="coder")
        return data

    def launch(
        self, agent: str, prompt: str = "Do it.\nIntent: fix", *, background: bool = True
    ) -> Answer:
        """An Agent call; in the background its PostToolUse names the subagent at once, in
        the foreground only its meta.json does while it runs."""
        agent_input = {"description": f"work {agent}", "prompt": prompt, "subagent_type": "coder"}
        pre = self.payload("PreToolUse", "Agent", agent_input, None)
        got = self.arena.run(pre, self.route)
        if background:
            resp = {"status": "async_launched", "agentId": agent}
            post = {**pre, "hook_event_name": "PostToolUse", "tool_response": resp}
            self.arena.run(post, self.route, event="PostToolUse")
        meta = {"agentType": "coder", "toolUseId": pre["tool_use_id"], "spawnDepth": 1}
        self.meta(agent).write_text(json.dumps(meta))
        self.launched[agent] = pre["tool_use_id"]
        return got

    def meta(self, agent: str) -> Path:
        return self.transcript.parent / self.sid / "subagents" / f"agent-{agent}.meta.json"

    def call(self, agent: str | None, tool: str, tool_input: dict[str, Any]) -> Answer:
        return self.arena.run(self.payload("PreToolUse", tool, tool_input, agent), self.route)

    def done(self, agent: str | None, tool: str, tool_input: dict[str, Any]) -> None:
        """The call's PostToolUse (it ran)."""
        post = self.payload("PostToolUse", tool, tool_input, agent, tool_response={})
        self.arena.run(post, self.route, event="PostToolUse")


def _a_wrote(arena: Arena, route: str) -> Session:
    s = Session(arena, route)
    (arena.root / "src" / "d").mkdir(exist_ok=True)
    for rel in ("src/app.py", "src/d/f.py", "src/other.py"):
        (arena.root / rel).write_text("A\n")
    assert s.launch("a").decision == "none" and s.launch("b").decision == "none"
    for rel in ("src/app.py", "src/d/f.py"):
        write = {"file_path": "{root}/" + rel, "content": "A\n"}
        assert s.call("a", "Write", write).decision == "none"
        s.done("a", "Write", write)
    return s


_SHARED: dict[tuple[int, str], Session] = {}


def _shared(arena: Arena, route: str) -> Session:
    """One session where A wrote, per arena and route, for the cases whose refused call
    leaves nothing behind."""
    key = (id(arena), route)
    if key not in _SHARED:
        _links(arena)
        _SHARED[key] = _a_wrote(arena, route)
    return _SHARED[key]


def _links(arena: Arena) -> None:
    for name, make in (("link.py", os.symlink), ("hard.py", os.link)):
        path = arena.root / "src" / name
        if not path.is_symlink() and not path.exists():
            source = "app.py" if make is os.symlink else arena.root / "src" / "app.py"
            make(source, path)


APP = "{root}/src/app.py"
ROUTES_TO_ONE_FILE = [
    ("Write", {"file_path": APP, "content": "B"}, "write"),
    ("Write", {"file_path": "{root}/./src/app.py", "content": "B"}, "dot"),
    ("Write", {"file_path": "{root}/src/../src/app.py", "content": "B"}, "dot-dot"),
    ("Write", {"file_path": "{root}/src/link.py", "content": "B"}, "symlink"),
    ("Write", {"file_path": "{root}/src/hard.py", "content": "B"}, "hard-link"),
    ("Edit", {"file_path": APP, "old_string": "A", "new_string": "B"}, "edit"),
    ("MultiEdit", {"file_path": APP, "edits": [{"old_string": "A", "new_string": "B"}]}, "multi"),
    ("NotebookEdit", {"notebook_path": APP, "new_source": "B"}, "notebook"),
    ("Bash", {"command": "echo B > src/app.py"}, "redirect"),
    ("Bash", {"command": "echo B >> ./src/../src/app.py"}, "append-dot-dot"),
    ("Bash", {"command": "mv src/other.py src/app.py"}, "mv-onto"),
    ("Bash", {"command": "cp src/other.py src/app.py"}, "cp-onto"),
    ("Bash", {"command": "sed -i s/A/B/ src/app.py"}, "sed-i"),
    ("Bash", {"command": "git checkout -- src/app.py"}, "git-checkout"),
    ("Bash", {"command": "tee src/app.py < /dev/null"}, "tee"),
    ("Bash", {"command": "rm src/app.py"}, "rm"),
    ("Bash", {"command": "rm -rf src/d"}, "rm-its-folder"),
    ("Bash", {"command": "mv src/d src/e"}, "mv-its-folder"),
    ("Bash", {"command": "echo B > src/link.py"}, "redirect-through-symlink"),
    ("mcp__fs__write_file", {"path": APP, "content": "B"}, "mcp-write"),
    ("mcp__fs__move_file", {"source": "{root}/src/x.py", "destination": APP}, "mcp-move-onto"),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [pytest.param(t, i, id=name) for t, i, name in ROUTES_TO_ONE_FILE],
)
def test_a_parallel_subagent_never_overwrites_another_unseen(
    leased: Arena, tool: str, tool_input: dict[str, Any], route: str
) -> None:
    got = _shared(leased, route).call("b", tool, tool_input)
    enforce = 'leases = "enforce"' in leased.config
    assert (got.decision, got.code) == ("deny", "FILE_LEASED" if enforce else "STALE_FILE"), got
    # the records are the project's (ADR 0085): the module's sessions share this arena, and the
    # latest write may be another session's subagent a ("subagent a of the Claude Code session")
    told = ("'work a", "(a)") if enforce else ("subagent a ", "wrote src/")
    assert all(words in got.stdout for words in told), got.stdout


@pytest.mark.parametrize("route", route_params())
def test_after_reading_it_again_the_other_subagent_may_write(leased: Arena, route: str) -> None:
    s = _a_wrote(leased, route)
    s.done("b", "Read", {"file_path": APP})
    got = s.call("b", "Bash", {"command": "echo B > src/app.py"})
    enforce = 'leases = "enforce"' in leased.config
    assert (got.decision, got.code) == (("deny", "FILE_LEASED") if enforce else ("none", None)), got


@pytest.mark.parametrize("route", route_params())
def test_the_main_agent_is_told_too(leased: Arena, route: str) -> None:
    s = _a_wrote(leased, route)
    got = s.call(None, "Bash", {"command": "echo M > src/app.py"})
    # the main agent's own write rule allows it here; the blind overwrite does not pass
    assert (got.decision, got.code) == ("deny", "STALE_FILE"), got


@pytest.mark.parametrize("route", route_params())
def test_two_first_writes_at_once_the_second_is_told(leased: Arena, route: str) -> None:
    """Asking is claiming: neither has written yet (no PostToolUse), yet the second to ask
    is refused while the first one's write runs; with leases off too (ADR 0059)."""
    s = _a_wrote(leased, route)
    fresh = {"file_path": "{root}/src/new.py", "content": "x"}
    first, second = s.call("a", "Write", fresh), s.call("b", "Write", fresh)
    assert (first.decision, first.code) == ("none", None)
    enforce = 'leases = "enforce"' in leased.config
    assert (second.decision, second.code) == ("deny", "FILE_LEASED" if enforce else "STALE_FILE")
    if not enforce:
        assert "subagent a wrote src/new.py (a write still running)" in second.stdout, second
        s.done("b", "Read", fresh)  # reading it clears it: the next try is not refused
        assert s.call("b", "Write", fresh).decision == "none"


MCP_OUTSIDE = [
    ("mcp__fs__write_file", {"path": "{root}/billing.py", "content": "x"}, "DELEGATION_SCOPE"),
    ("mcp__fs__move_file", {"source": APP, "destination": "{root}/billing.py"}, "DELEGATION_SCOPE"),
    ("mcp__fs__write_file", {"path": "{root}/src/ok.py", "content": "x"}, None),
    # a relative path argument is placed in the call's cwd, where Claude Code starts its
    # servers (ADR 0059)
    ("mcp__fs__write_file", {"path": "billing.py", "content": "x"}, "DELEGATION_SCOPE"),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("tool", "tool_input", "code"),
    [
        pytest.param(*case, id=name)
        for case, name in zip(
            MCP_OUTSIDE, ["write-outside", "move-outside", "write-inside", "relative"], strict=True
        )
    ],
)
def test_an_mcp_write_stays_inside_the_delegation(
    leased: Arena, tool: str, tool_input: dict[str, Any], code: str | None, route: str
) -> None:
    s = Session(leased, route)
    s.launch("c")
    got = s.call("c", tool, tool_input)
    # moving src/app.py, which another session's subagent a of this module holds: leases are
    # the project's (ADR 0085), and a lease is judged before the delegation's scope
    leases = 'leases = "enforce"' in leased.config
    held = ("FILE_LEASED",) if tool_input.get("source") == APP and leases else ()
    assert got.decision == ("deny" if code else "none") and got.code in (code, *held), got


LOOK_ALIKES = [
    ("Do it.\n\u0399ntent: fix", "greek-iota"),
    ("Do it.\n- Scope: src/**", "list-item"),
    ("Do it.\n**Intent:** fix", "bold"),
    ("Do it.\n  Intent: fix", "indented"),
    ("Do it.\nIntent\uff1a fix", "full-width-colon"),
    ("Do it.\n\u200bScope: src/**", "zero-width-space"),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(("prompt"), [pytest.param(p, id=i) for p, i in LOOK_ALIKES])
def test_a_contract_line_in_disguise_is_refused_not_ignored(
    leased: Arena, prompt: str, route: str
) -> None:
    got = Session(leased, route).launch("d", prompt)
    assert (got.decision, got.code) == ("deny", "DELEGATION_INVALID"), got
    assert "plainly at the start of a line" in got.stdout


TAMPERED = [
    ({"agentType": "coder", "toolUseId": "WIDE", "spawnDepth": 1}, "another-calls-contract"),
    ({"agentType": "coder", "spawnDepth": 1}, "no-tool-use-id"),
    ({"agentType": "coder", "toolUseId": "NARROW", "parentAgentId": "x"}, "another-parent"),
    ({}, "emptied"),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("background", [True, False], ids=["background", "foreground"])
@pytest.mark.parametrize(("meta"), [pytest.param(m, id=i) for m, i in TAMPERED])
def test_a_subagent_cannot_shed_its_contract_by_rewriting_its_meta_file(
    leased: Arena, meta: dict[str, Any], background: bool, route: str
) -> None:
    """Its own meta.json (beside the session transcript) is a file the subagent may be able
    to write: its contract, once found, stays (ADR 0050)."""
    s = Session(leased, route)
    s.launch("wide", "Do anything.")
    s.launch("narrow", background=background)
    outside = {"file_path": "{root}/billing.py", "content": "x"}
    assert s.call("narrow", "Write", outside).code == "DELEGATION_SCOPE"
    ids = {"WIDE": s.launched["wide"], "NARROW": s.launched["narrow"]}
    s.meta("narrow").write_text(json.dumps({k: ids.get(v, v) for k, v in meta.items()}))
    got = s.call("narrow", "Write", outside)
    assert (got.decision, got.code) == ("deny", "DELEGATION_SCOPE"), got
    assert (got.record or {}).get("delegation", {}).get("tool_use_id") == s.launched["narrow"]
