"""Delegation contracts attacked, third round (ADR 0059), through the registered hook command
and the resident evaluator (``support``): a sibling that rewrites another subagent's
meta.json before that subagent's first call, to hand it a wider Agent call's contract."""

from __future__ import annotations

import json
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
