"""The rules of delegation contracts (ADR 0027): Agent calls before they run, writes outside a
delegation's scope, stale writes, leases, deliverables; and their config tables."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from orchestrator_boundary.config_schema import AgentRequires, ContractsConfig
from orchestrator_boundary.contracts import (
    DELEGATION_INVALID,
    DELEGATION_SCOPE,
    FILE_LEASED,
    STALE_FILE,
    Breach,
    Contracts,
    Launch,
    Profile,
    can_write,
    check_launch,
    delegation_scope,
    file_leased,
    stale_file,
)
from orchestrator_boundary.contracts_config import Deliverable, Intent
from orchestrator_boundary.delegation import (
    Delegation,
    EffectiveScope,
    Lease,
    ScopeSet,
    UnknownDelegation,
)
from orchestrator_boundary.deliverables import stop_check
from orchestrator_boundary.paths import Located

INTENTS = {
    "login-fix": Intent(owned_scope=["src/auth/**", "tests/auth/**"], description="Fix login"),
    "billing": Intent(owned_scope=["src/billing/**"], agent_types=["coder"]),
    "old": Intent(owned_scope=["src/old/**"], status="done"),
    "docs": Intent(owned_scope=["docs/**"]),
}
PROFILES = {
    "coder": Profile(write_scope=("src/**", "tests/**")),
    "reader": Profile(tools=("Read", "Grep", "search")),
    "writer": Profile(tools=("read", "Write")),
}


def _contracts(**kw: object) -> Contracts:
    return Contracts(INTENTS, PROFILES, **kw)  # type: ignore[arg-type]


def _sets(launch: Launch | Breach) -> list[tuple[str, tuple[str, ...]]]:
    assert isinstance(launch, Launch), launch
    return [(s.source, s.patterns) for s in launch.scope.sets]


def test_a_launch_intersects_profile_intent_and_scope_line() -> None:
    got = check_launch(
        _contracts(), "Do it.\nIntent: login-fix\nScope: src/auth/login.py", "Coder", None
    )
    assert isinstance(got, Launch)
    assert (got.agent_type, got.intent, got.depth, got.parent) == ("coder", "login-fix", 1, None)
    assert _sets(got) == [
        ("agents.coder.write_scope", ("src/**", "tests/**")),
        ('intents."login-fix".owned_scope', ("src/auth/**", "tests/auth/**")),
        ("Scope: line", ("src/auth/login.py",)),
    ]


def test_write_outside_root_joins_every_set() -> None:
    got = check_launch(_contracts(outside=("/tmp/**",)), "Intent: docs", "reader", None)
    assert _sets(got) == [('intents."docs".owned_scope', ("docs/**", "/tmp/**"))]


def test_a_nested_launch_lies_inside_its_parent() -> None:
    parent = Delegation(
        "a1", "toolu_1", "auth work", "coder", "login-fix",
        EffectiveScope((ScopeSet('intents."login-fix".owned_scope', ("src/auth/**",)),)),
        1, None,
    )  # fmt: skip
    got = check_launch(_contracts(), "Scope: src/auth/x.py", "general-purpose", parent)
    assert isinstance(got, Launch) and (got.depth, got.parent) == (2, "a1")
    assert _sets(got)[0] == ('intents."login-fix".owned_scope', ("src/auth/**",))
    wider = check_launch(_contracts(), "Scope: src/billing/**", "general-purpose", parent)
    assert isinstance(wider, Breach) and "lies outside intents" in wider.reason


@pytest.mark.parametrize(
    ("prompt", "agent", "rule", "fragment"),
    [
        ("Intent: nope", "coder", "intents", "intent 'nope', which is not in [intents]"),
        ("Intent: old", "coder", "intents", "intent 'old' is done, not active"),
        ("Intent: billing", "general-purpose", 'intents."billing".agent_types', "is for coder"),
        ("Scope: `src/**`", "coder", "delegation.scope_line", "prompt line 1 (Scope:)"),
        ("intent: login-fix", "coder", "delegation.intent_line", "write 'Intent:'"),
        ("Intent: docs", "coder", "delegation.scope", "(docs/**) lies outside agents.coder"),
        ("Scope: lib/**", "coder", "delegation.scope", "Scope: line (lib/**) lies outside"),
        (
            "Intent: login-fix\nScope: src/billing/**",
            "coder",
            "delegation.scope",
            "outside intents",
        ),
    ],
    ids=[
        "unknown-intent",
        "inactive-intent",
        "intent-not-for-type",
        "scope-unparsable",
        "key-case",
        "intent-outside-profile",
        "scope-outside-profile",
        "scope-outside-intent",
    ],
)
def test_agent_calls_refused(prompt: str, agent: str, rule: str, fragment: str) -> None:
    got = check_launch(_contracts(), prompt, agent, None)
    assert isinstance(got, Breach), got
    assert (got.code, got.rule) == (DELEGATION_INVALID, rule)
    assert fragment in got.reason
    assert "Active intents: login-fix (Fix login: src/auth/**, tests/auth/**)" in got.reason
    assert "old" not in got.reason.split("Active intents:")[1]


@pytest.mark.parametrize(
    ("prompt", "agent", "caller"),
    [
        ("Intent: nope", "coder", None),
        ("Intent: docs", "coder", None),
        ("Just do it", "writer", None),
        ("Intent: billing", "general-purpose", None),
        ("Scope: lib/**", "general-purpose", Delegation(
            "a1", "t", "d", "coder", None,
            EffectiveScope((ScopeSet("Scope: line", ("pkg/**",)),)), 1, None,
        )),
    ],
    ids=["unknown-intent", "outside-profile", "required", "not-for-type", "nested"],
)  # fmt: skip
def test_the_example_in_a_refusal_is_accepted(
    prompt: str, agent: str, caller: Delegation | None
) -> None:
    contracts = _contracts(require=True)
    got = check_launch(contracts, prompt, agent, caller)
    assert isinstance(got, Breach)
    m = re.search(r'prompt="<what to do>\\n(.*?)"\)', got.suggestion)
    assert m is not None, got.suggestion
    accepted = check_launch(contracts, "<what to do>\n" + m.group(1), agent, caller)
    assert isinstance(accepted, Launch), (got.suggestion, accepted)


@pytest.mark.parametrize(
    ("prompt", "agent", "accepted"),
    [
        ("Do it", "writer", False),
        ("Do it", "general-purpose", False),
        ("Do it", "reader", True),
        ("Intent: docs", "writer", True),
        ("Scope: src/**", "writer", True),
    ],
    ids=["writer-bare", "unknown-type-bare", "reader-bare", "intent", "scope"],
)
def test_require_wants_an_intent_or_scope_from_types_that_can_write(
    prompt: str, agent: str, accepted: bool
) -> None:
    got = check_launch(_contracts(require=True), prompt, agent, None)
    assert isinstance(got, Launch) is accepted, got


def test_require_refuses_delegating_from_an_unknown_contract() -> None:
    caller = UnknownDelegation("a9", "no meta.json")
    got = check_launch(_contracts(require=True), "Intent: docs", "reader", caller)
    assert isinstance(got, Breach) and "no meta.json" in got.reason
    loose = check_launch(_contracts(), "Intent: docs", "reader", caller)
    assert isinstance(loose, Launch) and (loose.depth, loose.parent) == (0, "a9")


@pytest.mark.parametrize(
    ("tools", "writes"),
    [
        (None, True),
        (("Read", "Grep"), False),
        (("read", "search", "coordinate"), False),
        (("Read", "Bash"), True),
        (("execute",), True),
        (("mcp__*",), True),
        (("SomeMcpTool",), True),
    ],
    ids=["every-tool", "readers", "classes", "bash", "execute-class", "pattern", "unknown-tool"],
)
def test_can_write(tools: tuple[str, ...] | None, writes: bool) -> None:
    assert can_write(Profile(tools=tools)) is writes


REC = Delegation(
    "a1", "toolu_1", "fix login", "coder", "login-fix",
    EffectiveScope((ScopeSet('intents."login-fix".owned_scope', ("src/auth/**",)),)), 1, None,
)  # fmt: skip


def _at(rel: str) -> Located:
    return Located(rel, (f"/p/{rel}",), (rel,), "")


def test_delegation_scope_names_the_intent_and_scope_and_says_report_back() -> None:
    assert (
        delegation_scope(REC, _at("src/auth/a.py"), False, require=False, what="Write of") is None
    )
    got = delegation_scope(REC, _at("src/billing.py"), False, require=False, what="Write of")
    assert got is not None and (got.code, got.rule, got.path) == (
        DELEGATION_SCOPE,
        'intents."login-fix".owned_scope',
        "src/billing.py",
    )
    assert "intent 'login-fix'" in got.reason and "src/auth/**" in got.reason
    assert "report back to the main agent" in got.suggestion


@pytest.mark.parametrize("require", [False, True], ids=["loose", "required"])
def test_an_unknown_delegation_blocks_writes_only_when_required(require: bool) -> None:
    rec = UnknownDelegation("a2", "no Agent call recorded")
    got = delegation_scope(rec, _at("x.py"), False, require=require, what="Write of")
    assert (got is not None) is require
    assert delegation_scope(None, _at("x.py"), False, require=True, what="Write of") is None


@pytest.mark.parametrize(
    ("known", "current", "stale"),
    [(None, "b" * 64, False), ("a" * 64, "a" * 64, False), ("a" * 64, "b" * 64, True),
     ("a" * 64, None, True)],
    ids=["never-seen", "unchanged", "changed", "deleted"],
)  # fmt: skip
def test_stale_file(known: str | None, current: str | None, stale: bool) -> None:
    got = stale_file("src/a.py", known, current, by="subagent coder (a2)")
    assert (got is not None) is stale
    if got is not None:
        assert got.code == STALE_FILE and "Read it again (src/a.py)" in got.suggestion
        assert "by subagent coder (a2)" in got.reason


@pytest.mark.parametrize(
    ("mode", "holder", "denied", "advised"),
    [
        ("enforce", Lease("a2", "other work"), True, False),
        ("warn", Lease("a2", "other work"), False, True),
        ("off", Lease("a2", "other work"), False, False),
        ("enforce", Lease("a1", "mine"), False, False),
        ("enforce", None, False, False),
    ],
    ids=["enforce", "warn", "off", "own-lease", "free"],
)
def test_file_leased(mode: str, holder: Lease | None, denied: bool, advised: bool) -> None:
    breach, advisory = file_leased("src/a.py", holder, "a1", mode)
    assert (breach is not None, bool(advisory)) == (denied, advised)
    if breach is not None:
        assert breach.code == FILE_LEASED and "'other work'" in breach.reason


CODER_NEEDS = (Deliverable(deliverable="write"), Deliverable(deliverable="TaskCreate", min=2))


@pytest.mark.parametrize(
    ("counts", "active", "before", "block"),
    [
        ({}, False, 0, True),
        ({"write": 1, "TaskCreate": 2}, False, 0, False),
        ({"write": 3, "TaskCreate": 1}, False, 0, True),
        ({}, True, 0, False),
        ({}, False, 1, False),
    ],
    ids=["nothing", "delivered", "one-short", "stop-hook-active", "blocked-enough"],
)
def test_stop_check(counts: dict[str, int], active: bool, before: int, block: bool) -> None:
    got = stop_check(
        "coder", CODER_NEEDS, counts, stop_hook_active=active, blocked_before=before, max_blocks=1
    )
    assert got.block is block
    if block:
        assert "[agents.coder] requires" in got.reason
        assert "2 successful TaskCreate calls" in got.reason


def test_config_tables_parse_strictly() -> None:
    cfg = ContractsConfig.model_validate(
        {
            "intents": {"login-fix": {"owned_scope": ["src/auth/**"], "status": "active"}},
            "delegation": {"require": True, "leases": "enforce"},
        }
    )
    assert cfg.intents["login-fix"].active and cfg.delegation.leases == "enforce"
    req = AgentRequires.model_validate(
        {"requires": ["write", {"deliverable": "TaskCreate", "min": 2}]}
    )
    assert req.requires == [
        Deliverable(deliverable="write"),
        Deliverable(deliverable="TaskCreate", min=2),
    ]


@pytest.mark.parametrize(
    "data",
    [
        {"intents": {"bad id": {"owned_scope": ["a/**"]}}},
        {"intents": {"a": {"owned_scope": ["!a/**"]}}},
        {"intents": {"a": {"owned_scope": ["../a"]}}},
        {"intents": {"a": {"owned_scope": ["a/**"], "status": "ongoing"}}},
        {"intents": {"a": {"owned_scope": ["a/**"], "owner": "me"}}},
        {"delegation": {"leases": "on"}},
        {"delegation": {"require": "yes"}},
    ],
    ids=["id", "only-exclusions", "dotdot", "status", "unknown-key", "leases", "require-type"],
)
def test_config_tables_refuse(data: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ContractsConfig.model_validate(data)


def test_requires_refuse_bad_deliverables() -> None:
    with pytest.raises(ValidationError):
        AgentRequires.model_validate({"requires": ["two words"]})
    with pytest.raises(ValidationError):
        AgentRequires.model_validate({"requires": [{"deliverable": "write", "min": 0}]})
