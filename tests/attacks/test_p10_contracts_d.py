"""Delegation contracts attacked a fourth time (ADR 0065), through the registered hook command
and the resident evaluator (``support``): git's repository shared by agents that each commit
their own work, and what stays judged inside it; a folder made beside another agent's file;
an intent changed while its subagent runs."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from .support import Arena, new_arena, route_params
from .test_p10_delegation import Session

CONFIG = """\
phase = "enforce"

[intents."a"]
owned_scope = ["src/a/**", "src/t", "src/t/**", ".git", ".git/**"]

[intents."b"]
owned_scope = ["src/b/**", "src/t", "src/t/**", ".git", ".git/**"]

[bash]
allow_write = ["**"]

[delegation]
leases = "{leases}"
"""


@pytest.fixture(scope="module", params=["off", "enforce"])
def arena(request: pytest.FixtureRequest) -> Iterator[Arena]:
    with new_arena(CONFIG.format(leases=request.param)) as a:
        root = a.root
        for rel in ("src/a/x.py", "src/b/y.py"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("v1\n")
        subprocess.run(["git", "init", "-q"], cwd=root, check=True, timeout=30)
        a.warm()
        yield a


def _ran(s: Session, agent: str | None, command: str) -> tuple[str, str | None]:
    got = s.call(agent, "Bash", {"command": command})
    if got.decision == "none":
        s.done(agent, "Bash", {"command": command})
    return got.decision, got.code


@pytest.mark.parametrize("route", route_params())
def test_agents_that_each_commit_their_own_work_are_not_told_they_overwrite(
    arena: Arena, route: str
) -> None:
    """git locks its index and refs itself, and no agent can Read the folder .git: a git
    command's write to the repository is not an overwrite of another agent's work."""
    s = Session(arena, route)
    s.launch("A", "Do.\nIntent: a")
    s.launch("B", "Do.\nIntent: b")
    steps = [
        ("A", "git add src/a/x.py"),
        ("B", "git add src/b/y.py"),
        ("A", "git commit -qm a"),
        ("B", "git commit -qm b"),
        (None, "git commit -q --allow-empty -m main"),
        (None, "git tag -f done"),
    ]
    got = [(agent, command, _ran(s, agent, command)) for agent, command in steps]
    assert [g for g in got if g[2] != ("none", None)] == []


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    "command",
    [
        "rm -rf .git",
        "echo x > .git/info/exclude",
        "echo y > src/a/x.py",
        "cp -r src/a/. .git",
        "git checkout -- src/a/x.py",
    ],
    ids=["delete-repository", "a-file-inside-it", "work-tree", "copy-into-it", "git-work-tree"],
)
def test_what_git_does_not_lock_is_still_judged(arena: Arena, route: str, command: str) -> None:
    """The repository folder is exempt only from a write by a command that does not delete
    it; a file in it another agent wrote, and the work tree, stay judged (STALE_FILE with
    leases off, FILE_LEASED while the holder runs with leases on)."""
    s = Session(arena, route)
    s.launch("A", "Do.\nIntent: a")
    s.launch("B", "Do.\nIntent: a")
    (arena.root / ".git" / "info").mkdir(exist_ok=True)
    for first in ("git add src/a/x.py", "echo a > .git/info/exclude", "echo a > src/a/x.py"):
        assert _ran(s, "A", first) == ("none", None)
    decision, code = _ran(s, "B", command)
    # copying a folder into .git may plant .git/config or a hook: code git runs (ADR 0082)
    judged = ("STALE_FILE", "FILE_LEASED", *(("TAMPER",) if command.startswith("cp ") else ()))
    assert decision == "deny" and code in judged, (decision, code)


INTENT_NOW = """\
phase = "enforce"

[intents."a"]
owned_scope = {owned}
status = "{status}"

[bash]
allow_write = ["**"]
"""


@pytest.fixture
def intents() -> Iterator[Arena]:
    config = INTENT_NOW.format(owned='["src/a/**"]', status="active")
    with new_arena(config) as a:
        (a.root / "src" / "a").mkdir(parents=True, exist_ok=True)
        a.warm()
        yield a


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("owned", "status", "code"),
    [
        ('["src/a/**"]', "active", None),
        ('["src/a/keep.py"]', "active", "DELEGATION_SCOPE"),
        ('["src/a/**"]', "done", "DELEGATION_SCOPE"),
        ('["src/a/**"]', "paused", "DELEGATION_SCOPE"),
    ],
    ids=["unchanged", "narrowed", "done", "paused"],
)
def test_an_intent_changed_while_its_subagent_runs_holds_from_the_next_call(
    intents: Arena, route: str, owned: str, status: str, code: str | None
) -> None:
    """The contract was stored at the Agent call: a person who narrowed the intent, or
    marked it done, saw its running subagent go on writing under the old one."""
    s = Session(intents, route)
    s.launch("A", "Do.\nIntent: a")
    target = {"file_path": "{root}/src/a/x.py", "content": "x"}
    assert s.call("A", "Write", target).decision == "none"
    (intents.root / ".claude" / "boundary.toml").write_text(
        INTENT_NOW.format(owned=owned, status=status)
    )
    got = s.call("A", "Write", target)
    assert (got.decision, got.code) == (("deny", code) if code else ("none", None)), got
    if status != "active":
        assert f"intent 'a' is now {status}" in got.stdout


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("mkdir -p src/t", None),
        ("mkdir -p src/t && echo b > src/t/test_b.py", None),
        ("mkdir src/t/sub", None),
        ("echo b > src/t/test_a.py", "STALE_FILE"),
        ("rm -r src/t", "STALE_FILE"),
    ],
    ids=["mkdir-p", "mkdir-then-own-file", "mkdir-below", "overwrite", "remove-the-folder"],
)
def test_making_a_folder_beside_another_agents_file_is_no_overwrite(
    arena: Arena, route: str, command: str, code: str | None
) -> None:
    """`mkdir -p tests && echo ... > tests/test_b.py` next to the test another subagent just
    wrote was STALE_FILE (FILE_LEASED with leases on): mkdir changes no file's content."""
    s = Session(arena, route)
    s.launch("A", "Do.\nIntent: a")
    s.launch("B", "Do.\nIntent: b")
    (arena.root / "src" / "t").mkdir(exist_ok=True)
    mine = {"file_path": "{root}/src/t/test_a.py", "content": "a\n"}
    assert s.call("A", "Write", mine).decision == "none"
    (arena.root / "src" / "t" / "test_a.py").write_text("a\n")
    s.done("A", "Write", mine)
    decision, got = _ran(s, "B", command)
    if code is None:
        assert (decision, got) == ("none", None)
    else:
        assert decision == "deny" and got in (code, "FILE_LEASED"), (decision, got)


def _read(s: Session, agent: str, rel: str) -> None:
    read = {"file_path": "{root}/" + rel}
    assert s.call(agent, "Read", read).decision == "none"
    s.done(agent, "Read", read)


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("changer", "tool", "code"),
    [
        ("unrecorded", "Edit", None),
        ("unrecorded", "Write", None),
        ("unrecorded", "Bash", "STALE_FILE"),
        ("agent", "Edit", "STALE_FILE"),
        ("agent", "Bash", "STALE_FILE"),
    ],
    ids=[
        "hook-then-edit",
        "hook-then-write",
        "hook-then-bash",
        "agent-then-edit",
        "agent-then-bash",
    ],
)
def test_a_change_no_agent_recorded_is_left_to_claude_codes_own_check(
    arena: Arena, route: str, changer: str, tool: str, code: str | None
) -> None:
    """A file A read, then changed by a formatter hook, a person or a tool without hooks
    (nothing the trail records), then written by A: Claude Code's own read-before-edit check
    judges Write and Edit (and takes a hook's change as the file's content); Bash has no such
    check, so STALE_FILE stays. A change by another agent's recorded write stays STALE_FILE
    for every tool."""
    s = Session(arena, route)
    s.launch("A", "Do.\nIntent: a")
    s.launch("B", "Do.\nIntent: b")
    (arena.root / "src" / "t").mkdir(exist_ok=True)
    # a file of this test's own: leases are the project's (ADR 0085), and the sessions of the
    # module's earlier tests never end, so their subagents still hold the files they wrote
    rel = f"src/t/shared_{changer}_{tool}_{route}.py"
    shared = arena.root / rel
    shared.write_text("v1\n")
    _read(s, "A", rel)
    if changer == "agent":
        assert _ran(s, "B", f"echo v2 > {rel}") == ("none", None)
        shared.write_text("v2\n")
    else:
        shared.write_text("v1\n# formatted\n")
    inputs = {
        "Edit": {"file_path": str(shared), "old_string": "v", "new_string": "w"},
        "Write": {"file_path": str(shared), "content": "w\n"},
        "Bash": {"command": f"echo w >> {rel}"},
    }
    got = s.call("A", tool, inputs[tool])
    if code is None:
        assert (got.decision, got.code) == ("none", None), got
    else:  # with leases on, B still holds the file it wrote
        assert got.decision == "deny" and got.code in (code, "FILE_LEASED"), got


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("mkdir -p src/a/deep", None),
        ("mkdir -p src", None),
        ("mkdir src/a/deep/one.py.d", "DELEGATION_SCOPE"),
        ("mkdir -p src/a/other", "DELEGATION_SCOPE"),
        ("mkdir -p src/a/deep/sub", "DELEGATION_SCOPE"),
        ("touch src/a/deep", "DELEGATION_SCOPE"),
    ],
    ids=["its-folder", "a-folder-above", "a-sibling-name", "aside", "below-its-file", "not-mkdir"],
)
def test_a_delegation_may_make_the_folders_on_the_way_to_its_scope(
    arena: Arena, route: str, command: str, code: str | None
) -> None:
    """`Scope: src/a/deep/one.py`: `mkdir -p src/a/deep` before writing the file was
    DELEGATION_SCOPE. A folder on the way to what the scope covers holds no file it guards."""
    s = Session(arena, route)
    s.launch("A", "Do.\nIntent: a\nScope: src/a/deep/one.py")
    got = s.call("A", "Bash", {"command": command})
    assert (got.decision, got.code) == (("deny", code) if code else ("none", None)), got
