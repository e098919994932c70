"""Delegation contracts attacked, third round (ADR 0059), through the registered hook command
and the resident evaluator (``support``): a sibling that rewrites another subagent's
meta.json before that subagent's first call, to hand it a wider Agent call's contract."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator

import pytest

from .support import Answer, Arena, new_arena, route_params
from .test_p10_delegation import CONFIG, Session

OUTSIDE = {"file_path": "{root}/billing.py", "content": "x"}


@pytest.fixture(scope="module")
def arena() -> Iterator[Arena]:
    with new_arena(CONFIG.format(leases="off")) as a:
        a.warm()
        yield a


def _forge(s: Session, victim: str, onto: str) -> None:
    """What a sibling's opaque script (`python3 x.py`, which the config lets through) can
    do before the victim's first call: point its meta.json at another Agent call."""
    meta = {"agentType": "coder", "toolUseId": s.launched[onto], "spawnDepth": 1}
    s.meta(victim).write_text(json.dumps(meta))


def _code(got: Answer) -> tuple[str, str | None]:
    return got.decision, got.code


@pytest.mark.parametrize("route", route_params())
def test_a_call_its_postToolUse_named_stays_with_that_subagent(arena: Arena, route: str) -> None:
    """The wide call was launched in the background: its PostToolUse named "wide" at once.
    The narrow victim, pointed at it, is contested and writes nothing; "wide" goes on."""
    s = Session(arena, route)
    s.launch("wide", "Do anything.")
    s.launch("v", background=False)
    _forge(s, "v", "wide")
    got = s.call("v", "Write", OUTSIDE)
    assert _code(got) == ("deny", "DELEGATION_SCOPE"), got
    assert "started subagent wide" in got.stdout, got
    assert (got.record or {}).get("delegation", {}).get("contested") is True
    assert _code(s.call("v", "Write", {**OUTSIDE, "file_path": "{root}/src/x.py"}))[1] == (
        "DELEGATION_SCOPE"
    )
    assert _code(s.call("wide", "Write", OUTSIDE)) == ("none", None)


@pytest.mark.parametrize("route", route_params())
def test_two_claims_on_one_foreground_call_are_both_contested(arena: Arena, route: str) -> None:
    """Both calls run in the foreground (no PostToolUse yet): the victim's first call cannot
    tell; the rightful subagent's first call can, and from then on neither writes."""
    s = Session(arena, route)
    s.launch("fg", "Do anything.", background=False)
    s.launch("v", background=False)
    _forge(s, "v", "fg")
    inside = {**OUTSIDE, "file_path": "{root}/src/v.py"}
    assert _code(s.call("v", "Write", inside)) == ("none", None)
    got = s.call("fg", "Write", OUTSIDE)
    assert _code(got) == ("deny", "DELEGATION_SCOPE"), got
    assert "started subagent v" in got.stdout, got
    again = s.call("v", "Write", inside)
    assert _code(again) == ("deny", "DELEGATION_SCOPE"), again
    assert "started subagent fg" in again.stdout, again


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("first", ["link", "call"], ids=["link-first", "first-call-first"])
def test_a_background_subagent_is_never_contested_with_itself(
    arena: Arena, route: str, first: str
) -> None:
    """The launch's PostToolUse may come before or after the subagent's first call (both
    seen on the CLI): the same subagent, never a contest."""
    s = Session(arena, route)
    s.launch("b", background=False)  # its meta.json names the call; no link yet
    inside = {**OUTSIDE, "file_path": "{root}/src/b.py"}
    link = {"status": "async_launched", "agentId": "b"}
    post = s.payload("PostToolUse", "Agent", {"prompt": "x"}, None, tool_response=link)
    post["tool_use_id"] = s.launched["b"]
    if first == "link":
        arena.run(post, route, event="PostToolUse")
    assert _code(s.call("b", "Write", inside)) == ("none", None)
    if first == "call":
        arena.run(post, route, event="PostToolUse")
    assert _code(s.call("b", "Write", inside)) == ("none", None)
    assert _code(s.call("b", "Write", OUTSIDE)) == ("deny", "DELEGATION_SCOPE")


# ---- trace: every write route names the subagent and its delegation (ADR 0059) ----

NB = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
TRACED = [
    ("Write", {"file_path": "{root}/src/t/w.py", "content": "w"}, "src/t/w.py", "write"),
    ("Edit", {"file_path": "{root}/src/t/e.py", "old_string": "A", "new_string": "e"},
     "src/t/e.py", "edit"),
    ("Edit", {"file_path": "{root}/src/t/r.py", "old_string": "A", "new_string": "r",
              "replace_all": True}, "src/t/r.py", "edit-replace-all"),
    ("MultiEdit", {"file_path": "{root}/src/t/m.py", "edits": [{"old_string": "A",
                   "new_string": "m"}]}, "src/t/m.py", "multi-edit"),
    ("NotebookEdit", {"notebook_path": "{root}/src/t/n.ipynb", "new_source": "n"},
     "src/t/n.ipynb", "notebook"),
    ("Bash", {"command": "echo b > src/t/b.py"}, "src/t/b.py", "redirect"),
    ("Bash", {"command": "sed -i s/A/s/ src/t/s.py"}, "src/t/s.py", "sed-i"),
    ("Bash", {"command": "cp src/app.py src/t/c.py"}, "src/t/c.py", "cp"),
    ("Bash", {"command": "mv src/t/old.py src/t/mv.py"}, "src/t/mv.py", "mv"),
    ("Bash", {"command": "git mv src/t/g0.py src/t/g.py"}, "src/t/g.py", "git-mv"),
    ("mcp__fs__write_file", {"path": "{root}/src/t/x.py", "content": "x"}, "src/t/x.py",
     "mcp-absolute"),
    ("mcp__fs__write_file", {"path": "src/t/y.py", "content": "y"}, "src/t/y.py",
     "mcp-relative"),
]  # fmt: skip


def _trace(arena: Arena, rel: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    from orchestrator_boundary.cli import main

    for k, v in arena.env("hook").items():
        monkeypatch.setenv(k, v)
    monkeypatch.chdir(arena.root)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["trace", rel, "--json"])
    data: dict[str, object] = json.loads(out.getvalue())
    return data


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("tool", "tool_input", "rel"), [pytest.param(*c[:3], id=c[3]) for c in TRACED]
)
def test_every_write_route_is_traced_to_its_delegation(
    arena: Arena,
    route: str,
    tool: str,
    tool_input: dict[str, object],
    rel: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = Session(arena, route)
    # git mv also writes the index (.git), which intent "fix" (src/**) does not own
    git = str(tool_input.get("command", "")).startswith("git ")
    s.launch("t", "Rename it." if git else "Do it.\nIntent: fix")
    folder = arena.root / "src" / "t"
    folder.mkdir(exist_ok=True)
    for name in ("e.py", "r.py", "m.py", "s.py", "old.py", "g0.py"):
        (folder / name).write_text("A\n")
    (folder / "n.ipynb").write_text(NB)
    got = s.call("t", tool, tool_input)
    assert _code(got) == ("none", None), got
    (arena.root / rel).write_text(f"{tool} {route}\n")  # what the tool did
    s.done("t", tool, tool_input)
    data = _trace(arena, rel, monkeypatch)
    assert data["explained"] is True, data
    last = data["changes"][-1]  # type: ignore[index]
    assert (last["delegation"], last["intent"]) == (s.launched["t"], None if git else "fix")
    assert "(t)" in last["who"], data


@pytest.mark.parametrize("route", route_params())
def test_a_reused_agent_id_is_traced_to_its_own_sessions_delegation(
    arena: Arena, route: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same agent id in two sessions (a resumed project, a reused id): each write names
    the Agent call of its own session."""
    write = {"file_path": "{root}/src/u.py", "content": "u"}
    sessions = [Session(arena, route), Session(arena, route)]
    for n, s in enumerate(sessions):
        s.launch("same")
        s.done("same", "Read", write)
        assert _code(s.call("same", "Write", write)) == ("none", None)
        (arena.root / "src" / "u.py").write_text(f"session {n}\n")
        s.done("same", "Write", write)
    changes = _trace(arena, "src/u.py", monkeypatch)["changes"]
    got = [(c["session_id"], c["delegation"]) for c in changes]  # type: ignore[attr-defined]
    assert got[-2:] == [(s.sid, s.launched["same"]) for s in sessions]


@pytest.mark.parametrize("route", route_params())
def test_a_relative_mcp_path_meets_another_agents_write(arena: Arena, route: str) -> None:
    """b's MCP tool names src/app.py relative to the cwd, which a wrote: told, as Write is."""
    s = Session(arena, route)
    s.launch("a")
    s.launch("b")
    app = {"file_path": "{root}/src/app.py", "content": "A\n"}
    assert _code(s.call("a", "Write", app)) == ("none", None)
    s.done("a", "Write", app)
    got = s.call("b", "mcp__fs__write_file", {"path": "src/app.py", "content": "B"})
    assert _code(got) == ("deny", "STALE_FILE"), got
    assert "subagent a wrote src/app.py" in got.stdout


# ---- Scope: spellings (ADR 0059: a Windows spelling is refused, not a scope of nothing) ----

SPELLINGS = [
    ("../**", "src/a.py", None, "dot-dot"),
    ("{root}/src/**", "src/a.py", None, "absolute"),
    ("src\\auth\\**", "src/auth/a.py", None, "backslashes"),
    ("C:/repo/src/**", "src/a.py", None, "drive"),
    ("!C:\\x\\**, src/**", "src/a.py", None, "drive-exclusion"),
    ("", "src/a.py", None, "empty"),
    ("!src/secret/**", "src/a.py", None, "only-a-negation"),
    ("**", "billing.py", "none", "everything"),
    ("src/**, !src/secret/**", "src/secret/k.py", "deny", "negation"),
    ("src/**, !src/secret/**", "src/ok.py", "none", "beside-the-negation"),
    ("src/", "src/a.py", "none", "trailing-slash"),
    ("src", "src/a.py", "none", "a-folder-named-src"),  # a bare folder holds its files, ADR 0085
    ("src/auth/**", "src/auth/out/x.py", "deny", "symlink-out-of-scope"),
    ("src/auth/**", "src/auth/../b.py", "deny", "dot-dot-in-the-write"),
    ("src/auth/**", "src/AUTH/x.py", "deny", "case-on-a-case-sensitive-disk"),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("scope", "rel", "write"), [pytest.param(*c[:3], id=c[3]) for c in SPELLINGS]
)
def test_scope_spellings(arena: Arena, route: str, scope: str, rel: str, write: str | None) -> None:
    """``write`` None: the Agent call is refused (DELEGATION_INVALID); else the write's
    decision under the accepted scope."""
    auth = arena.root / "src" / "auth"
    auth.mkdir(parents=True, exist_ok=True)
    (arena.root / "billing").mkdir(exist_ok=True)
    if not (auth / "out").is_symlink():
        (auth / "out").symlink_to("../../billing")
    s = Session(arena, route)
    got = s.launch("sc", "Do it.\nScope: " + arena.expand(scope))
    if write is None:
        assert _code(got) == ("deny", "DELEGATION_INVALID"), got
        return
    assert _code(got) == ("none", None), got
    done = s.call("sc", "Write", {"file_path": "{root}/" + rel, "content": "x"})
    assert _code(done) == ((write, "DELEGATION_SCOPE") if write == "deny" else ("none", None))


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        pytest.param("Write", {"file_path": "{root}/src/h.py", "content": "x"}, id="write"),
        pytest.param("Edit", {"file_path": "{root}/src/h.py", "old_string": "b",
                              "new_string": "x"}, id="edit"),
        pytest.param("Bash", {"command": "echo x > src/h.py"}, id="redirect"),
        pytest.param("Bash", {"command": "sed -i s/b/x/ src/h.py"}, id="sed-i"),
    ],
)  # fmt: skip
def test_a_hard_link_out_of_the_scope_is_not_a_way_out(
    arena: Arena, route: str, tool: str, tool_input: dict[str, object]
) -> None:
    """A narrowed subagent links billing.py into its scope (`ln` writes only src/h.py) and
    writes through the link: the file has two names, the write is refused."""
    s = Session(arena, route)
    s.launch("hl", "Do it.\nScope: src/**")
    billing, link = arena.root / "billing.py", arena.root / "src" / "h.py"
    billing.write_text("b\n")
    link.unlink(missing_ok=True)
    assert _code(s.call("hl", "Bash", {"command": "ln billing.py src/h.py"})) == ("none", None)
    os.link(billing, link)
    got = s.call("hl", tool, tool_input)
    assert _code(got) == ("deny", "DELEGATION_SCOPE"), got
    assert "2 names (hard links)" in got.stdout, got
    link.unlink()
    link.write_text("b\n")  # one name again: an ordinary write in scope
    assert _code(s.call("hl", tool, tool_input)) == ("none", None)


# ---- false alarms: the common team sequences are never denied ----


def _stop(s: Session, agent: str) -> None:
    stop = s.payload("SubagentStop", "", {}, agent, stop_hook_active=False)
    s.arena.run(stop, s.route, event="SubagentStop")


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("background", [True, False], ids=["background", "foreground"])
def test_a_normal_team_flow_is_never_denied(arena: Arena, route: str, background: bool) -> None:
    """a writes and finishes; b, started next, reads and edits the same file; the main agent
    reviews (reads) and fixes a line; c, started while the main agent worked, runs the
    formatter over it (Bash, after reading it); two subagents at once on two files."""
    s = Session(arena, route)
    f = {"file_path": "{root}/src/team.py", "content": "a\n"}
    edit = {"file_path": "{root}/src/team.py", "old_string": "a", "new_string": "b"}
    steps: list[tuple[str | None, str, dict[str, object]]] = []
    s.launch("a", background=background)
    for agent, tool, given in [("a", "Write", f), ("a", "Edit", edit)]:
        steps.append((agent, tool, given))
        assert _code(s.call(agent, tool, given)) == ("none", None), steps
        s.done(agent, tool, given)
    _stop(s, "a")
    s.launch("b", background=background)
    s.done("b", "Read", f)
    for agent, tool, given in [("b", "Edit", edit), ("b", "MultiEdit", {**edit, "edits": []})]:
        steps.append((agent, tool, given))
        assert _code(s.call(agent, tool, given)) == ("none", None), steps
        s.done(agent, tool, given)
    _stop(s, "b")
    s.done(None, "Read", f)  # the main agent reviews, then fixes a line
    assert _code(s.call(None, "Read", f)) == ("none", None)
    s.launch("c", background=background)
    s.done("c", "Read", f)
    fmt = {"command": "sed -i s/b/c/ src/team.py"}
    assert _code(s.call("c", "Bash", fmt)) == ("none", None)
    s.done("c", "Bash", fmt)
    _stop(s, "c")
    s.launch("d", background=background)
    s.launch("e", background=background)
    for agent in ("d", "e"):  # at once, each its own file
        own = {"file_path": "{root}/src/" + agent + ".py", "content": agent}
        assert _code(s.call(agent, "Write", own)) == ("none", None)
    for agent in ("d", "e"):
        own = {"file_path": "{root}/src/" + agent + ".py", "content": agent}
        s.done(agent, "Write", own)
        assert _code(s.call(agent, "Write", own)) == ("none", None)  # its own again


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("tool", ["Write", "NotebookEdit"])
def test_the_main_agents_refused_write_leaves_no_claim_on_the_file(
    arena: Arena, route: str, tool: str
) -> None:
    """The usual enforce flow: the main agent tries to write a file itself, is told to
    delegate, and delegates; the subagent then creates the file without reading it (there is
    nothing to read). A refused write never happened, so it must not count as another agent's
    write in progress (STALE_FILE) against the subagent doing the work."""
    s = Session(arena, route)
    given: dict[str, object] = {"file_path": "{root}/src/fresh.py", "content": "x = 1\n"}
    if tool == "NotebookEdit":
        given = {"notebook_path": "{root}/src/fresh.py", "new_source": "x = 1\n"}
    assert _code(s.call(None, tool, given)) == ("deny", "ORCHESTRATOR_WRITE")
    s.launch("worker")
    write = {"file_path": "{root}/src/fresh.py", "content": "x = 1\n"}
    assert _code(s.call("worker", "Write", write)) == ("none", None)
