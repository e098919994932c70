"""Two agents and one file, on a real state store (ADR 0050): a blind overwrite of another
agent's write, asking for a lease is claiming it (one transaction, so the second of two
parallel writers is told), a folder holding a leased file, one key per file whatever the case
on a disk that ignores it, hard links, a write deliverable that changes nothing in the project,
and a state file that is not a regular file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orchestrator_boundary.contracts import Contracts, Profile
from orchestrator_boundary.contracts_config import Deliverable
from orchestrator_boundary.delegation import Lease
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.ledger import StoreLedger, after, lifecycle
from orchestrator_boundary.paths import Located
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.state import UNAVAILABLE, Store, state_path
from orchestrator_boundary.state_claims import claim_lease

FS = RealFileSystem()
CONTRACTS = Contracts(
    {}, {"coder": Profile(requires=(Deliverable(deliverable="write"),))}, leases="enforce"
)


@pytest.fixture
def trail(tmp_path: Path) -> str:
    return str(tmp_path / "boundary" / "audit.jsonl")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "proj" / "src" / "d").mkdir(parents=True)
    return tmp_path / "proj"


def _payload(event: str, agent: str | None, **kw: Any) -> HookPayload:
    extra = {"agent_id": agent, "agent_type": "coder"} if agent else {}
    return HookPayload(
        hook_event_name=event, session_id="s", transcript_path="", cwd="/p", **extra, **kw
    )


def _ledger(trail: str, root: Path, agent: str | None, event: str = "PreToolUse",
            *, insensitive: bool = False, leases: str = "enforce") -> StoreLedger:  # fmt: skip
    return StoreLedger(trail, _payload(event, agent), insensitive, leases, str(root), FS)


def _at(root: Path, rel: str, text: str | None = "x") -> Located:
    f = root / rel
    if text is not None:
        f.write_text(text)
    return Located(str(f), (str(f),), (rel,), "")


def _wrote(trail: str, root: Path, agent: str | None, located: Located) -> None:
    post = _payload("PostToolUse", agent, tool_name="Write")
    after(CONTRACTS, post, _ledger(trail, root, agent, "PostToolUse"), None, [located])


def _read(trail: str, root: Path, agent: str | None, located: Located) -> None:
    post = _payload("PostToolUse", agent, tool_name="Read")
    after(CONTRACTS, post, _ledger(trail, root, agent, "PostToolUse"), located, ())


@pytest.mark.parametrize(
    ("story", "told"),
    [
        ("b never read it", "subagent a wrote src/f.py"),
        ("b read it after a wrote", ""),
        ("b read it before a wrote", None),  # b has seen it: the hash comparison decides
        ("a stopped since", "subagent a wrote src/f.py"),
        ("gone since", ""),
        ("b itself wrote it", ""),
        ("the main agent wrote it", "the main agent wrote src/f.py"),
        # a hand-over, not two agents at once: b was delegated after the write was done
        ("b started after a wrote", ""),
        ("b's first call comes after a wrote", ""),
    ],
    ids=["never-read", "read-after", "read-before", "writer-stopped", "gone", "own", "main",
         "started-after", "first-call-after"],
)  # fmt: skip
def test_a_blind_overwrite_of_another_agents_write(
    trail: str, root: Path, story: str, told: str | None
) -> None:
    f = _at(root, "src/f.py")
    if "after a wrote" not in story:
        _b_runs(trail, root)
    if story == "b read it before a wrote":
        _read(trail, root, "b", f)
    writer = None if story == "the main agent wrote it" else "b" if "itself" in story else "a"
    _wrote(trail, root, writer, f)
    if story == "b read it after a wrote":
        _read(trail, root, "b", f)
    if story == "b started after a wrote":
        _b_runs(trail, root)
    if story == "a stopped since":
        stop = _payload("SubagentStop", "a", stop_hook_active=True)
        lifecycle(CONTRACTS, stop, _ledger(trail, root, "a", "SubagentStop"), Phase.ENFORCE, False)
    if story == "gone since":
        (root / "src/f.py").unlink()
    b = _ledger(trail, root, "b")
    if told is None:
        assert b.seen(f) is not None
    else:
        assert b.seen(f) is None or told == ""
        assert b.unseen_write(f) == told


def _b_runs(trail: str, root: Path) -> None:
    """Subagent b has made a call: it runs while a writes (two agents at once)."""
    _read(trail, root, "b", _at(root, "src/other.py"))


def test_a_folder_holding_another_agents_write(trail: str, root: Path) -> None:
    _b_runs(trail, root)
    _wrote(trail, root, "a", _at(root, "src/d/f.py"))
    folder = Located(str(root / "src/d"), (str(root / "src/d"),), ("src/d",), "")
    assert _ledger(trail, root, "b").unseen_write(folder) == "subagent a wrote src/d/f.py"
    (root / "src/dx").mkdir()
    sibling = Located(str(root / "src/dx"), (str(root / "src/dx"),), ("src/dx",), "")
    assert _ledger(trail, root, "b").unseen_write(sibling) == ""


@pytest.mark.parametrize(
    ("asked", "holder"),
    [
        ("src/f.py", Lease("a", "a")),
        ("src", Lease("a", "a")),  # removing or moving its folder
        ("src/f.py.bak", None),
        ("sr", None),
    ],
    ids=["the-file", "its-folder", "a-longer-name", "a-shorter-name"],
)
def test_asking_for_a_lease_is_claiming_it(
    trail: str, root: Path, asked: str, holder: Lease | None
) -> None:
    f = _at(root, "src/f.py")
    assert _ledger(trail, root, "a").lease(f) is None  # free: now a's, before a writes
    other = _at(root, asked, None)
    _note_running(trail, root, "a")
    assert _ledger(trail, root, "b").lease(other) == holder
    if holder is None:  # b claimed it in turn (it holds it while it runs)
        _note_running(trail, root, "b")
        assert _ledger(trail, root, "a").lease(other) == Lease("b", "b")


def _note_running(trail: str, root: Path, agent: str) -> None:
    Store(state_path(trail)).note_running("s", agent, "")


def test_leases_off_asking_claims_nothing(trail: str, root: Path) -> None:
    f = _at(root, "src/f.py")
    assert _ledger(trail, root, "a", leases="off").lease(f) is None
    assert _ledger(trail, root, "b", leases="off").lease(f) is None


CLAIM = """
import sys
from orchestrator_boundary.state import Store
from orchestrator_boundary.state_claims import claim_lease
s = Store(sys.argv[1])
s.note_running("s", sys.argv[2], "")
got = claim_lease(s, "s", "src/f.py", sys.argv[2], sys.argv[2])
print("claimed" if got is None else "told" if got.agent_id != sys.argv[2] else "odd")
"""


def test_of_parallel_writers_exactly_one_claims_the_file(trail: str, tmp_path: Path) -> None:
    Store(state_path(trail)).note_running("s", "init", "")  # the file exists, in WAL mode
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CLAIM, state_path(trail), f"agent{n}"],
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(8)
    ]
    answers = sorted(p.communicate(timeout=60)[0].strip() for p in procs)
    assert answers.count("claimed") == 1 and answers.count("told") == 7, answers


@pytest.mark.parametrize("insensitive", [True, False], ids=["case-insensitive", "sensitive"])
def test_one_key_per_file_on_a_disk_that_ignores_case(
    trail: str, root: Path, insensitive: bool
) -> None:
    f = _at(root, "src/f.py")
    upper = Located(str(root / "SRC/F.py"), (str(root / "SRC/F.py"),), ("SRC/F.py",), "")
    post = _payload("PostToolUse", "a", tool_name="Write")
    after(CONTRACTS, post, _ledger(trail, root, "a", "PostToolUse", insensitive=insensitive),
          None, [f])  # fmt: skip
    b = _ledger(trail, root, "b", insensitive=insensitive)
    assert (b.lease(upper) is not None) is insensitive
    # the stale rule's question, from another agent that never read it
    assert bool(b.unseen_write(upper)) is (insensitive and os.path.exists(upper.absolutes[0]))
    assert _ledger(trail, root, "b", insensitive=insensitive).key(upper) == (
        "src/f.py" if insensitive else "SRC/F.py"
    )


def test_a_hard_link_to_a_leased_or_written_file(trail: str, root: Path) -> None:
    f = _at(root, "src/f.py")
    _wrote(trail, root, "a", f)
    _note_running(trail, root, "a")
    _ledger(trail, root, "a").lease(f)  # held by a
    os.link(root / "src/f.py", root / "src/g.py")
    g = _at(root, "src/g.py", None)
    held = _ledger(trail, root, "b").lease(g)
    assert held is not None and held.agent_id == "a" and "through src/f.py" in held.description
    assert (
        _ledger(trail, root, "b").unseen_write(g) == "subagent a wrote src/f.py (a hard link to it)"
    )


@pytest.mark.parametrize(
    ("written", "counted"),
    [("src/f.py", True), ("/dev/null", False), (None, False)],
    ids=["in-the-project", "dev-null", "nothing"],
)
def test_a_write_deliverable_is_a_change_in_the_project(
    trail: str, root: Path, written: str | None, counted: bool
) -> None:
    if written is None:
        targets: list[Located] = []
    elif written.startswith("/"):
        targets = [Located(written, (written,), (), "outside the project root")]
    else:
        targets = [_at(root, written)]
    post = _payload("PostToolUse", "a", tool_name="Bash")
    after(CONTRACTS, post, _ledger(trail, root, "a", "PostToolUse"), None, targets)
    stop = _payload("SubagentStop", "a", stop_hook_active=False)
    out, audit = lifecycle(
        CONTRACTS, stop, _ledger(trail, root, "a", "SubagentStop"), Phase.ENFORCE, False
    )
    assert (out == "") is counted
    assert audit["deliverables"]["missing"] == ([] if counted else [["write", 0, 1]])


@pytest.mark.parametrize("kind", ["symlink", "fifo", "folder"])
def test_a_state_file_that_is_not_a_regular_file_is_unavailable(
    trail: str, tmp_path: Path, kind: str
) -> None:
    path = Path(state_path(trail))
    path.parent.mkdir(parents=True)
    if kind == "symlink":
        path.symlink_to(tmp_path / "elsewhere.sqlite3")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    store = Store(str(path))
    assert store.seen("s", "a", "f") is UNAVAILABLE
    assert store.saw("s", "a", "f", "x", wrote=True) is False
    assert claim_lease(store, "s", "f", "a", "a") is UNAVAILABLE
    assert not (tmp_path / "elsewhere.sqlite3").exists()


def test_a_flood_of_reads_never_evicts_another_agents_write(
    trail: str, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """b reads more files than the store keeps rows: a's write is still there to tell b."""
    import orchestrator_boundary.state as state

    monkeypatch.setattr(state, "MAX_ROWS", 10)
    f = _at(root, "src/f.py")
    _b_runs(trail, root)
    _wrote(trail, root, "a", f)
    for n in range(30):
        _read(trail, root, "b", _at(root, f"src/r{n}.py"))
    assert _ledger(trail, root, "b").unseen_write(f) == "subagent a wrote src/f.py"
