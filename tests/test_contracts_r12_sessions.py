"""Two Claude Code sessions in one project (ADR 0085): two terminals, or a teammate's session
in the same checkout. Their subagents' leases and unseen writes are the project's, not the
session's: the refusal names the other session, and a session that died without SessionEnd
holds nothing once its lease lapses. Through the hook shell in process, a real state store."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import run_hook
from test_contracts_attack_r10 import SHARED, Team

from orchestrator_boundary.state import LEASE_TTL_S


class Session(Team):
    """A Team whose calls carry ``sid`` as their session id; ``twin`` adds a second session
    in the same project, without writing its files again."""

    sid = "s1"

    def payload(self, event: str, tool: str, tool_input: Any, agent: str | None) -> dict:
        return {**super().payload(event, tool, tool_input, agent), "session_id": self.sid}

    def twin(self, sid: str) -> Session:
        other = Session.__new__(Session)
        other.project, other.env, other.sid = self.project, self.env, sid
        return other

    def reason(self, agent: str, rel: str) -> str:
        tool_input = {"file_path": str(self.project / rel), "content": "x"}
        out = run_hook(self.payload("PreToolUse", "Write", tool_input, agent), self.env)[1]
        assert out is not None
        return str(out["hookSpecificOutput"]["permissionDecisionReason"])

    def end(self) -> None:
        run_hook(self.payload("SessionEnd", "", {}, None), self.env, "SessionEnd")


def _two(project: Path, leases: str) -> tuple[Session, Session]:
    one = Session(project, leases)
    (project / ".claude" / "boundary.toml").write_text(SHARED.format(leases=leases))
    two = one.twin("s2")
    one.launch("a1", "Fix the payment rounding.\nIntent: shared")
    two.launch("b1", "Rename the payment helpers.\nIntent: shared")
    return one, two


@pytest.mark.parametrize(
    ("leases", "code"), [("enforce", "FILE_LEASED"), ("off", "STALE_FILE")], ids=["leases", "off"]
)
@pytest.mark.parametrize("how", ["write", "bash"])
def test_a_subagent_of_another_session_does_not_overwrite_a_leased_file(
    project: Path, leases: str, code: str, how: str
) -> None:
    """Two terminals in one checkout: session s1's subagent a1 wrote pay.py; session s2's
    subagent b1 overwrote it, never having read it. Leases and unseen writes were keyed by
    session, so neither FILE_LEASED nor STALE_FILE fired."""
    one, two = _two(project, leases)
    assert one.write("a1", "src/billing/pay.py") == "-"
    if how == "write":
        assert two.write("b1", "src/billing/pay.py") == code
    else:
        assert two.bash("b1", "echo v3 > src/billing/pay.py") == code


def test_the_refusal_names_the_other_session(project: Path) -> None:
    one, two = _two(project, "enforce")
    assert one.write("a1", "src/billing/pay.py") == "-"
    reason = two.reason("b1", "src/billing/pay.py")
    assert "FILE_LEASED" in reason
    assert "(a1) of the Claude Code session s1 (until it stops, that session ends" in reason


def test_the_stale_refusal_names_the_other_session(project: Path) -> None:
    one, two = _two(project, "off")
    assert one.write("a1", "src/billing/pay.py") == "-"
    assert "subagent a1 of the Claude Code session s1 wrote" in two.reason(
        "b1", "src/billing/pay.py"
    )


def test_a_session_that_ended_holds_nothing(project: Path) -> None:
    """Control: session s1 ended (SessionEnd): its subagent's lease went with it."""
    one, two = _two(project, "enforce")
    assert one.write("a1", "src/billing/pay.py") == "-"
    one.end()
    two.read("b1", "src/billing/pay.py")
    assert two.write("b1", "src/billing/pay.py") == "-"


def test_reading_the_other_sessions_change_clears_it(project: Path) -> None:
    """Control (leases off): b1 reads the file a1 of the other session wrote, then writes."""
    one, two = _two(project, "off")
    assert one.write("a1", "src/billing/pay.py") == "-"
    two.read("b1", "src/billing/pay.py")
    assert two.write("b1", "src/billing/pay.py") == "-"


def test_each_session_writes_its_own_files(project: Path) -> None:
    """Control: two sessions' subagents on different files are not held."""
    one, two = _two(project, "enforce")
    assert one.write("a1", "src/billing/pay.py") == "-"
    assert two.write("b1", "src/auth/login.py") == "-"
    assert one.write("a1", "src/billing/pay.py") == "-"
    assert two.write("b1", "src/auth/login.py") == "-"


def test_a_session_that_died_holds_its_files_only_until_the_lease_lapses(
    project: Path,
) -> None:
    """A session killed without SessionEnd: its subagent's lease and its unseen write
    count for ``LEASE_TTL_S`` after its last write, no longer (else a crash last week would
    hold a file, or make every later session's write of it STALE_FILE, for ever)."""
    one, two = _two(project, "enforce")
    assert one.write("a1", "src/billing/pay.py") == "-"
    _age(project, "s1", LEASE_TTL_S + 5)
    assert two.write("b1", "src/billing/pay.py") == "-"


def _age(project: Path, session: str, seconds: float) -> None:
    """The session's leases and records, made ``seconds`` older."""
    (state,) = (project / ".claude").rglob("*.state.sqlite3")
    with sqlite3.connect(state) as c:
        for table in ("leases", "seen"):
            c.execute(f"UPDATE {table} SET ts = ts - ? WHERE session = ?", (seconds, session))  # noqa: S608


def test_in_warn_the_audit_line_names_the_other_session(project: Path) -> None:
    """``leases = "warn"`` notes what enforce refuses, with the session that holds it."""
    one, two = _two(project, "warn")
    assert one.write("a1", "src/billing/pay.py") == "-"
    two.read("b1", "src/billing/pay.py")
    assert two.write("b1", "src/billing/pay.py") == "-"
    (trail,) = (project / ".claude").rglob("audit.jsonl")
    lines = [json.loads(x) for x in trail.read_text().splitlines() if x.strip()]
    noted = [x["leased_to"] for x in lines if x.get("agent_id") == "b1" and "leased_to" in x]
    assert noted == [{"src/billing/pay.py": "work a1 (a1) of the Claude Code session s1"}]
