"""Delegation contracts attacked a fourth time (ADR 0065), on the pure rules and a real state
store: an intent split between roles, a scope that narrows nothing, Scope: spellings that
name no project file, and a subagent TaskStop ended."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary import scope
from orchestrator_boundary.contracts import (
    Breach,
    Contracts,
    Launch,
    Profile,
    check_launch,
    delegation_scope,
)
from orchestrator_boundary.contracts_config import Intent
from orchestrator_boundary.delegation import Delegation, Lease
from orchestrator_boundary.ledger import StoreLedger, after
from orchestrator_boundary.paths import Located
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.state import Store, state_path

INTENTS = {
    "login-fix": Intent(owned_scope=["src/auth/**", "tests/auth/**"], description="login"),
    "docs": Intent(owned_scope=["docs/**"]),
}
PROFILES = {
    "coder": Profile(write_scope=("src/**",)),
    "tester": Profile(write_scope=("tests/**",)),
    "both": Profile(write_scope=("src/**", "tests/**")),
}


def _contracts(require: bool = False) -> Contracts:
    return Contracts(INTENTS, PROFILES, require=require)


@pytest.mark.parametrize(
    ("prompt", "agent_type", "sets"),
    [
        ("Intent: login-fix", "coder", [("src/**",), ("src/auth/**", "tests/auth/**")]),
        ("Intent: login-fix", "tester", [("tests/**",), ("src/auth/**", "tests/auth/**")]),
        ("Intent: login-fix", "both", [("src/**", "tests/**"), ("src/auth/**", "tests/auth/**")]),
        (
            "Intent: login-fix\nScope: src/auth/login.py",
            "coder",
            [("src/**",), ("src/auth/**", "tests/auth/**"), ("src/auth/login.py",)],
        ),
    ],
    ids=["code-to-the-coder", "tests-to-the-tester", "all-to-both", "narrowed-further"],
)
def test_an_intent_split_between_roles_is_accepted_and_narrows(
    prompt: str, agent_type: str, sets: list[tuple[str, ...]]
) -> None:
    """An intent owning code and tests, delegated to a coder whose profile writes src/**:
    it was refused ("tests/auth/** lies outside agents.coder.write_scope"), and the deny's
    example dropped the intent for `Scope: src/**`, a wider contract. The intersection is
    what the coder gets."""
    got = check_launch(_contracts(), prompt, agent_type, None)
    assert isinstance(got, Launch), got
    assert [s.patterns for s in got.scope.sets] == sets


@pytest.mark.parametrize(
    ("prompt", "agent_type", "fragment"),
    [
        ("Intent: docs", "coder", "(docs/**) lies outside agents.coder.write_scope"),
        ("Scope: src/auth/**, docs/**", "coder", "Scope: line (docs/**) lies outside"),
        ("Intent: login-fix\nScope: docs/**", "both", "Scope: line (docs/**) lies outside"),
    ],
    ids=["intent-wholly-apart", "scope-line-partly-apart", "scope-line-apart-from-intent"],
)
def test_what_shares_no_file_is_still_refused(prompt: str, agent_type: str, fragment: str) -> None:
    got = check_launch(_contracts(), prompt, agent_type, None)
    assert isinstance(got, Breach) and fragment in got.reason, got


@pytest.mark.parametrize(
    "line", ["**", "**/*", "**/**", "/", "/**", "*, */**"], ids=lambda s: s.replace("*", "s")
)
def test_with_require_a_scope_that_covers_every_file_does_not_count(line: str) -> None:
    """`require = true` asks every Agent call of a writing type to say what it may change:
    `Scope: **` met it and narrowed nothing (for an agent type without a write_scope, the
    whole project). Without `require` it is no narrower than no line, and accepted."""
    got = check_launch(_contracts(require=True), f"Do it.\nScope: {line}", None, None)
    assert isinstance(got, Breach) and "covers every file, so it narrows nothing" in got.reason
    assert 'prompt="<what to do>\\nIntent: login-fix")' in got.suggestion
    assert isinstance(check_launch(_contracts(), f"Do it.\nScope: {line}", None, None), Launch)


@pytest.mark.parametrize(
    "line",
    ["**, !secrets/**", "src/**", "*", "Scope: **\nIntent: login-fix"],
    ids=["everything-but", "a-folder", "top-level-files", "with-an-intent"],
)
def test_with_require_a_scope_that_leaves_something_out_counts(line: str) -> None:
    prompt = line if line.startswith("Scope:") else f"Scope: {line}"
    got = check_launch(_contracts(require=True), f"Do it.\n{prompt}", None, None)
    assert isinstance(got, Launch), got


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("{src,docs}/**", "braces are not pattern syntax"),
        ("src/{a}/**", "braces are not pattern syntax"),
        ("src/**\u3001docs/**", "separated by ','"),
        ("src/**\uff0cdocs/**", "separated by ','"),
        ("src/**;docs/**", "separated by ','"),
        ("~/work/**", "relative to the project root"),
        ("src/**, !~/x", "relative to the project root"),
    ],
    ids=[
        "brace-list",
        "braces",
        "ideographic-comma",
        "full-width-comma",
        "semicolon",
        "home",
        "home-exclusion",
    ],
)
def test_scope_spellings_that_name_no_project_file_are_refused(line: str, fragment: str) -> None:
    """`{src,docs}/**` was split at its comma into `{src` and `docs}/**`, and `~` is never
    expanded in a Scope: line: accepted, they matched nothing the author meant."""
    got = check_launch(_contracts(), f"Do it.\nScope: {line}", None, None)
    assert isinstance(got, Breach) and fragment in got.reason, got


@pytest.mark.parametrize("rel", ["a.py", "src/a.py", ".hidden/deep/x.py"])
def test_a_double_star_slash_star_pattern_covers_every_file(rel: str) -> None:
    """`**/*` was translated to a pattern that matched no file: a `write_scope`,
    `owned_scope` or `Scope:` line written so refused every write."""
    full = f"/r/{rel}"
    located = Located(full, (full,), (rel,), "")
    assert scope.check(located, ["**/*"], False).allowed
    assert scope.check(located, ["**", "!**/*"], False).excluded_by == "!**/*"


def _payload(event: str, agent: str | None, **kw: Any) -> HookPayload:
    extra = {"agent_id": agent, "agent_type": "coder"} if agent else {}
    return HookPayload(
        hook_event_name=event, session_id="s", transcript_path="", cwd="/p", **extra, **kw
    )


@pytest.mark.parametrize(
    ("response", "released"),
    [
        ({"task_id": "a1", "task_type": "local_agent", "message": "stopped"}, True),
        ({"task_id": "a1", "task_type": "local_bash"}, False),
        ({"task_id": "a2", "task_type": "local_agent"}, False),
        ("Successfully stopped task: a1", False),
    ],
    ids=["the-subagent", "a-shell", "another-subagent", "no-response-object"],
)
def test_task_stop_ends_the_subagent_it_stopped(
    tmp_path: Path, response: object, released: bool
) -> None:
    """No SubagentStop comes for a subagent TaskStop ended (seen on 2.1.330): its PostToolUse
    stops it in the state, so its leases go."""
    trail = str(tmp_path / "audit.jsonl")
    f = tmp_path / "f.py"
    located = Located(str(f), (str(f),), ("f.py",), "")
    contracts = Contracts({}, {}, leases="enforce")
    write = _payload("PostToolUse", "a1", tool_name="Write")
    after(contracts, write, StoreLedger(trail, write, leases="enforce"), None, [located])
    store = Store(state_path(trail))
    assert store.lease("s", "f.py") == Lease("a1", "a1")
    stop = _payload("PostToolUse", None, tool_name="TaskStop", tool_response=response)
    after(contracts, stop, StoreLedger(trail, stop, leases="enforce"), None, ())
    assert (store.lease("s", "f.py") is None) is released


def test_a_delegation_under_an_intent_since_removed_writes_nothing() -> None:
    launched = check_launch(_contracts(), "Intent: docs", None, None)
    assert isinstance(launched, Launch)
    record = Delegation("a1", "t1", "docs", "general-purpose", "docs", launched.scope, 1, None)
    inside = Located("/r/docs/a.md", ("/r/docs/a.md",), ("docs/a.md",), "")
    now = Contracts({"login-fix": INTENTS["login-fix"]}, PROFILES)
    kw: dict[str, Any] = {"require": False, "what": "Write of"}
    assert delegation_scope(record, inside, False, contracts=_contracts(), **kw) is None
    got = delegation_scope(record, inside, False, contracts=now, **kw)
    assert got is not None and "intent 'docs' is no longer in [intents]" in got.reason


def test_a_delegation_whose_intent_no_longer_takes_its_agent_type_writes_nothing() -> None:
    launched = check_launch(_contracts(), "Intent: docs", "general-purpose", None)
    assert isinstance(launched, Launch)
    record = Delegation("a1", "t1", "docs", "general-purpose", "docs", launched.scope, 1, None)
    inside = Located("/r/docs/a.md", ("/r/docs/a.md",), ("docs/a.md",), "")
    tester_only = Intent(owned_scope=["docs/**"], agent_types=["tester"])
    now = Contracts({**INTENTS, "docs": tester_only}, PROFILES)
    got = delegation_scope(record, inside, False, require=False, what="Write of", contracts=now)
    assert got is not None and "intent 'docs' is no longer for general-purpose" in got.reason


@pytest.mark.parametrize(
    ("write_scope", "allowed"),
    [(("src/**", "docs/**"), True), (("lib/**",), False), (None, True)],
    ids=["widened", "moved", "no-longer-narrowed"],
)
def test_an_agent_types_write_scope_is_read_as_it_is_now(
    write_scope: tuple[str, ...] | None, allowed: bool
) -> None:  # docs/a.md: outside src/**, where the coder was launched
    """A coder launched under `write_scope = ["src/**"]`: its stored contract kept that set
    after the team widened the profile, refusing what the config now allows."""
    launched = check_launch(_contracts(), "Do it.", "coder", None)
    assert isinstance(launched, Launch)
    record = Delegation("a1", "t1", "d", "coder", None, launched.scope, 1, None)
    docs = Located("/r/docs/a.md", ("/r/docs/a.md",), ("docs/a.md",), "")
    src = Located("/r/src/a.py", ("/r/src/a.py",), ("src/a.py",), "")
    now = Contracts(INTENTS, {**PROFILES, "coder": Profile(write_scope=write_scope)})
    kw: dict[str, Any] = {"require": False, "what": "Write of", "contracts": now}
    assert (delegation_scope(record, docs, False, **kw) is None) is allowed
    assert (delegation_scope(record, src, False, **kw) is None) is (write_scope != ("lib/**",))
