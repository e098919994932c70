"""The delegation-contract rules inside the policy (ADR 27), with a ledger faked in memory:
where they sit in the precedence, what they judge, and what they leave alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator_boundary.config_schema import validate
from orchestrator_boundary.context import Context
from orchestrator_boundary.delegation import (
    Delegation,
    EffectiveScope,
    Lease,
    Record,
    ScopeSet,
    Seen,
    Unavailable,
)
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.paths import Located
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.policy import assess
from orchestrator_boundary.ruleset import compile_config

REC = Delegation(
    "a1", "t1", "fix login", "coder", "auth",
    EffectiveScope((ScopeSet('intents."auth".owned_scope', ("src/auth/**",)),)), 1, None,
)  # fmt: skip


class FakeLedger:
    def __init__(
        self,
        record: Record | None = REC,
        seen: Seen | Unavailable | None = None,
        current: str | None = "now",
        lease: Lease | None = None,
        unseen: str = "",
    ) -> None:
        self._record, self._seen, self._current, self._lease = record, seen, current, lease
        self._unseen = unseen

    def record(self) -> Record | None:
        return self._record

    def seen(self, located: Located) -> Seen | Unavailable | None:
        return self._seen

    def current(self, located: Located) -> str | None:
        return self._current

    def last_writer(self, located: Located) -> str:
        return "subagent a2"

    def unseen_write(self, located: Located) -> str:
        return self._unseen

    def lease(self, located: Located) -> Lease | Unavailable | None:
        return self._lease


CONFIG = {
    "intents": {"auth": {"owned_scope": ["src/auth/**"]}},
    "delegation": {"leases": "enforce"},
    "agents": {"coder": {"write_scope": ["src/**"]}},
}


def _code(tmp_path: Path, rel: str, ledger: FakeLedger | None, *, main: bool = False,
          event: str = "PreToolUse", config: dict = CONFIG) -> str | None:  # fmt: skip
    payload = HookPayload(
        hook_event_name=event,
        session_id="s",
        cwd=str(tmp_path),
        tool_name="Write",
        tool_input={"file_path": str(tmp_path / rel), "content": "x"},
        agent_id=None if main else "a1",
        agent_type=None if main else "coder",
    )
    rules = compile_config(validate(config))
    context = Context(str(tmp_path.resolve()), RealFileSystem(), ledger=ledger)
    v = assess(payload, rules, context).violation
    return v.code.value if v else None


@pytest.mark.parametrize(
    ("rel", "ledger", "code"),
    [
        ("src/auth/a.py", FakeLedger(), None),
        ("src/billing.py", FakeLedger(), "DELEGATION_SCOPE"),
        ("docs/x.md", FakeLedger(), "SCOPE_VIOLATION"),  # the profile's scope speaks first
        ("src/auth/a.py", FakeLedger(seen=Seen("old", False)), "STALE_FILE"),
        ("src/auth/a.py", FakeLedger(seen=Seen("now", True)), None),
        ("src/auth/a.py", FakeLedger(lease=Lease("a2", "other")), "FILE_LEASED"),
        ("src/auth/a.py", FakeLedger(lease=Lease("a1", "mine")), None),
        ("src/auth/a.py", FakeLedger(seen=Seen("old", False), lease=Lease("a2", "o")), "FILE_LEASED"),
        ("src/billing.py", FakeLedger(lease=Lease("a2", "o")), "DELEGATION_SCOPE"),
        ("src/auth/a.py", FakeLedger(seen=Unavailable()), None),
        ("src/billing.py", None, None),  # check and replay: no state, no contract rules
    ],
    ids=[
        "inside", "outside-delegation", "outside-profile", "stale", "fresh", "leased",
        "own-lease", "lease-before-stale", "scope-before-lease", "state-unavailable", "no-ledger",
    ],
)  # fmt: skip
def test_contract_rules_in_the_policy(
    tmp_path: Path, rel: str, ledger: FakeLedger | None, code: str | None
) -> None:
    assert _code(tmp_path, rel, ledger) == code


def test_stale_and_lease_are_judged_before_the_call_only(tmp_path: Path) -> None:
    stale = FakeLedger(seen=Seen("old", False))
    assert _code(tmp_path, "src/auth/a.py", stale, event="PostToolUse") is None
    leased = FakeLedger(lease=Lease("a2", "o"))
    assert _code(tmp_path, "src/auth/a.py", leased, event="PostToolUse") is None


def test_the_main_agents_stale_write_is_refused_too(tmp_path: Path) -> None:
    config = {**CONFIG, "orchestrator": {"write_allow": ["STATE.md"]}}
    stale = FakeLedger(record=None, seen=Seen("old", True))
    assert _code(tmp_path, "STATE.md", stale, main=True, config=config) == "STALE_FILE"
    fresh = FakeLedger(record=None)
    assert _code(tmp_path, "STATE.md", fresh, main=True, config=config) is None
