"""Delegation contracts attacked, third round (ADR 0059), on a real state store: two first
writes to one file at the same instant with leases off, and the hand-overs that must stay
quiet (a subagent that read the file again, its own second write, the file's hard link)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.contracts import Contracts
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.ledger import StoreLedger, after
from orchestrator_boundary.paths import Located
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.state import Store, state_path

FS = RealFileSystem()
OFF = Contracts({}, {}, leases="off")


@pytest.fixture
def trail(tmp_path: Path) -> str:
    return str(tmp_path / "boundary" / "audit.jsonl")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "proj" / "src").mkdir(parents=True)
    return tmp_path / "proj"


def _payload(event: str, agent: str | None, **kw: Any) -> HookPayload:
    extra = {"agent_id": agent, "agent_type": "coder"} if agent else {}
    return HookPayload(
        hook_event_name=event, session_id="s", transcript_path="", cwd="/p", **extra, **kw
    )


def _ledger(trail: str, root: Path, agent: str | None, event: str = "PreToolUse") -> StoreLedger:
    return StoreLedger(trail, _payload(event, agent), False, "off", str(root), FS)


def _at(root: Path, rel: str) -> Located:
    f = root / rel
    return Located(str(f), (str(f),), (rel,), "")


def _done(trail: str, root: Path, agent: str | None, tool: str, located: Located) -> None:
    post = _payload("PostToolUse", agent, tool_name=tool)
    ledger = _ledger(trail, root, agent, "PostToolUse")
    read, written = (located, ()) if tool == "Read" else (None, [located])
    after(OFF, post, ledger, read, written)


def _runs(trail: str, root: Path, *agents: str) -> None:
    """The subagents are running (a call of theirs was seen) before anything is written."""
    for agent in agents:
        _done(trail, root, agent, "Read", _at(root, "README"))


@pytest.mark.parametrize(
    "writers", [("a", "b"), (None, "b"), ("a", None)], ids=["two-subagents", "main-first", "main"]
)
def test_two_first_writes_at_the_same_instant_one_is_told(
    trail: str, root: Path, writers: tuple[str | None, str | None]
) -> None:
    """leases = "off": both ask at once (threads with a store connection each, as parallel
    hook processes have); of every pair exactly one goes ahead (before, both did)."""
    _runs(trail, root, *[w for w in writers if w])
    for n in range(12):
        f = _at(root, f"src/new{n}.py")
        told = _at_once([_ledger(trail, root, w) for w in writers], f)
        assert sorted(bool(t) for t in told) == [False, True], told
        assert any("(a write still running)" in t for t in told), told


def _at_once(ledgers: list[StoreLedger], f: Located) -> list[str]:
    """Each asks on a connection of its own, as parallel hook processes do."""
    for ledger in ledgers:
        ledger.store = Store(state_path(ledger.audit_file))
    start = threading.Barrier(len(ledgers))
    told = [""] * len(ledgers)

    def ask(i: int) -> None:
        start.wait()
        told[i] = ledgers[i].unseen_write(f)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(ledgers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return told


def test_a_write_still_running_is_told_even_to_one_that_read_the_file(
    trail: str, root: Path
) -> None:
    """b read the file before a's write began: its hash still matches while a writes, so the
    running write itself must tell it."""
    _runs(trail, root, "a", "b")
    f = _at(root, "src/f.py")
    (root / "src/f.py").write_text("x")
    _done(trail, root, "b", "Read", f)
    assert _ledger(trail, root, "a").unseen_write(f) == ""  # a's write begins
    assert _ledger(trail, root, "b").unseen_write(f) == (
        "subagent a wrote src/f.py (a write still running)"
    )


def test_the_hand_overs_stay_quiet(trail: str, root: Path) -> None:
    """a wrote; b read it again and writes twice; a file with a hard link is judged by its own
    name first (its own rows), not as the other name of itself."""
    _runs(trail, root, "a", "b")
    f = _at(root, "src/f.py")
    (root / "src/f.py").write_text("x")
    os.link(root / "src/f.py", root / "src/hard.py")
    assert _ledger(trail, root, "a").unseen_write(f) == ""
    _done(trail, root, "a", "Write", f)
    assert _ledger(trail, root, "b").unseen_write(f) == "subagent a wrote src/f.py"
    _done(trail, root, "b", "Read", f)
    for _ in range(2):
        assert _ledger(trail, root, "b").unseen_write(f) == ""
        _done(trail, root, "b", "Write", f)
    # a wrote it before: b's finished write is a's hash comparison's to judge (stale_file)
    assert _ledger(trail, root, "a").unseen_write(f) == ""


# ---- directives in a long prompt (ADR 0059: prose lines without a colon are skipped) ----

COLONS = [":", "\u2a74", "\ufe13", "\ufe55", "\uff1a", "\u2236", "\ua789", "\u02f8", "\u0589",
          "\u05c3", "\u1361"]  # fmt: skip


@pytest.mark.parametrize("colon", COLONS, ids=[f"U+{ord(c):04X}" for c in COLONS])
def test_a_look_alike_key_deep_in_a_long_prompt_is_still_refused(colon: str) -> None:
    from orchestrator_boundary.directives import parse_directives

    prose = "Fix the login flow.\n" + "def f(x):\n    return x\n" * 20_000
    got = parse_directives(prose + f"- Scope{colon} src/**\n")
    if colon == "\u2a74":  # NFKC makes it "::=": what follows is no list of patterns
        assert got.error is None
    else:
        assert got.error is not None and "plainly at the start" in got.error.problem
    assert parse_directives(prose + "Scope: src/**").scope == ("src/**",)


def test_a_very_long_prompt_is_read_in_bounded_time() -> None:
    """300,000 lines of prose: each is skipped at its missing colon (a second and more
    before; ~0.2 s now). Generous bound: the machine is shared."""
    import time

    from orchestrator_boundary.directives import parse_directives

    prompt = "y\n" * 300_000 + "Intent: fix"
    started = time.perf_counter()
    assert parse_directives(prompt).intent == "fix"
    assert time.perf_counter() - started < 2.0
