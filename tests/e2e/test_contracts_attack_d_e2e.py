"""Delegation contracts attacked a fourth time, on the real CLI (ADR 0065): a subagent started
with ``isolation: "worktree"`` works in ``.claude/worktrees/NAME/`` under its delegation's
scope; subagents that each commit their own files with git, and the main agent that
commits after them, are not told they overwrite each other; a subagent TaskStop ended holds
no file; a subagent resumed in a resumed session keeps its contract; a formatter hook's change
is no other agent's."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Hooks, Project, python_command
from test_delegation_e2e import (
    CODER,
    CONFIG,
    ENTRY,
    HOOKS,
    agent_call,
    allowed,
    audit,
    bash,
    denied,
    write,
)

pytestmark = pytest.mark.e2e

GIT = ["git", "-c", "user.email=e2e@example.com", "-c", "user.name=e2e"]


def _committed(project: Project) -> None:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run([*GIT, *args], cwd=project.root, check=True, timeout=30)


# what a busy machine needs instead of a fixed sleep: wait (at most 60 s) until it holds
_COMMITTED = "grep -q 'commit: {}' .git/logs/HEAD"


def _until(*checks: str) -> str:
    test = " && ".join(checks)
    return f"for i in $(seq 300); do if {test}; then break; fi; sleep 0.2; done"


def test_a_worktree_subagent_writes_its_delegations_files_in_its_worktree(
    harness: Harness,
) -> None:
    """The subagent's files are ``.claude/worktrees/agent-ID/src/...``: its intent's
    ``src/auth/**`` covers its own copy of src/auth, not src/billing there or in the project."""
    files = {"src/auth/a.py": "v1\n", "src/billing/b.py": "v1\n"}
    project = harness.project(HOOKS, agents=[CODER], boundary_toml=CONFIG, files=files)
    _committed(project)
    launch = agent_call("sub", "Fix it.\nIntent: login-fix", background=False)
    launch.input["isolation"] = "worktree"
    run = harness.run(
        project,
        {
            "main": [launch, Text()],
            "sub": [
                bash("pwd"),
                Call("Write", {"file_path": "src/auth/a.py", "content": "fixed\n"}),
                bash("echo also >> src/auth/a.py"),
                bash("echo no > src/billing/b.py"),
                bash(f"echo no > {project.path('src/billing/b.py')}"),
                Text(),
            ],
        },
    )
    cwd = Path(run.result_for("sub", 0).text.strip())
    assert cwd.parent == project.path(".claude/worktrees"), run.explain(f"cwd {cwd}")
    allowed(run, "sub", 1)
    allowed(run, "sub", 2)
    assert "login-fix" in denied(run, "sub", 3, "DELEGATION_SCOPE")
    assert "login-fix" in denied(run, "sub", 4, "DELEGATION_SCOPE")
    assert (cwd / "src/auth/a.py").read_text(encoding="utf-8") == "fixed\nalso\n"
    assert (cwd / "src/billing/b.py").read_text(encoding="utf-8") == "v1\n"
    assert project.path("src/billing/b.py").read_text(encoding="utf-8") == "v1\n"


# git writes its repository, the folder .git: the intent, the coder and the main agent's
# Bash may write it (the README's advice for subagents that commit)
GIT_CONFIG = (
    CONFIG.replace(
        'owned_scope = ["src/auth/**"]', 'owned_scope = ["src/auth/**", ".git", ".git/**"]'
    ).replace('write_scope = ["src/**"]', 'write_scope = ["src/**", ".git", ".git/**"]')
    + '\n[bash]\nallow_write = [".git", ".git/**"]\n'
)


@pytest.mark.parametrize("leases", ["off", "enforce"])
def test_subagents_and_the_main_agent_each_commit_their_own_work(
    harness: Harness, leases: str
) -> None:
    """Two background subagents stage and commit their own files; then the main agent
    commits and tags. git locks its own index: nobody overwrites anybody's work, and nobody
    can Read the folder .git to be allowed again."""
    config = GIT_CONFIG.replace('leases = "enforce"', f'leases = "{leases}"')
    project = harness.project(HOOKS, agents=[CODER], boundary_toml=config, files={"README": "x\n"})
    _committed(project)
    mine = {name: project.path(f"src/auth/{name}.py") for name in ("one", "two")}

    def work(name: str, wait: str) -> list[object]:
        return [
            write(mine[name], f"{name}\n"),
            bash(wait),
            bash(f"{' '.join(GIT)} add src/auth/{name}.py"),
            bash(f"{' '.join(GIT)} commit -qm {name}"),
            Text(),
        ]

    run = harness.run(
        project,
        {
            "main": [
                [
                    agent_call("one", "Intent: login-fix", background=True),
                    agent_call("two", "Intent: login-fix", background=True),
                ],
                bash(_until(_COMMITTED.format("one"), _COMMITTED.format("two"))),
                bash(f"{' '.join(GIT)} commit -q --allow-empty -m main"),
                bash(f"{' '.join(GIT)} tag done"),
                Text(),
            ],
            "one": work("one", "true"),
            "two": work("two", _until(_COMMITTED.format("one"))),
        },
        extra_args=["--allowedTools", "Bash"],
    )
    for name in ("one", "two"):
        for step in range(4):
            allowed(run, name, step)
    allowed(run, "main", 2)
    allowed(run, "main", 3)
    log = subprocess.run(
        [*GIT, "log", "--format=%s", "done"],
        cwd=project.root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert sorted(log) == ["main", "one", "start", "two"], log


def test_a_subagent_stopped_with_task_stop_no_longer_holds_its_files(harness: Harness) -> None:
    """TaskStop ends a background subagent without a SubagentStop: its lease held the file it
    wrote for 30 minutes, and the next subagent's write was FILE_LEASED, naming a subagent
    that no longer ran."""
    project = harness.project(HOOKS, agents=[CODER], boundary_toml=CONFIG)
    target = project.path("src/auth/f.py")
    first = agent_call("one", "Intent: login-fix", background=True)
    first.input["name"] = "alpha"
    run = harness.run(
        project,
        {
            "main": [
                first,
                bash("sleep 2"),
                Call("ToolSearch", {"query": "select:TaskStop"}),
                Call("TaskStop", {"task_id": "alpha"}),
                agent_call("two", "Intent: login-fix", background=False),
                Text(),
            ],
            "one": [
                write(target, "one\n"),
                bash("python3 -c 'import time; time.sleep(30)'"),
                Text(),
            ],
            "two": [write(target, "two\n"), Text()],
        },
        extra_args=["--allowedTools", "Bash"],
    )
    assert "Successfully stopped task" in run.result_for("main", 3).text, run.explain("TaskStop")
    allowed(run, "two", 0)
    assert target.read_text(encoding="utf-8") == "two\n"


def test_a_subagent_resumed_in_a_resumed_session_keeps_its_contract(harness: Harness) -> None:
    """`claude --resume` goes on with the same session id after the first run's SessionEnd,
    and SendMessage resumes a stopped subagent under its old agent id. SessionEnd deleted the
    contract, so the resumed subagent ran as one never seen: unnarrowed."""
    project = harness.project(HOOKS, agents=[CODER], boundary_toml=CONFIG)
    launch = agent_call("sub", "Intent: login-fix", background=True)
    launch.input["name"] = "alpha"
    outside = project.path("src/billing/b.py")
    sub = [
        write(project.path("src/auth/a.py")),
        bash("python3 -c 'import time; time.sleep(30)'"),  # stopped here in the first run
        write(outside),
        Text(),
    ]
    first = [
        launch,
        bash("sleep 2"),
        Call("ToolSearch", {"query": "select:TaskStop,SendMessage"}),
        Call("TaskStop", {"task_id": "alpha"}),
        bash("true"),  # the fifth turn: --max-turns ends the run here, mid-script
    ]
    with pytest.raises(AssertionError, match="error_max_turns"):
        harness.run(
            project,
            {"main": first, "sub": sub},
            extra_args=["--allowedTools", "Bash", "--max-turns", "5"],
        )
    records = audit(project)
    assert [r["event"] for r in records][-1] == "SessionEnd"
    session = records[0]["session_id"]
    agent_id = next(r["agent_id"] for r in records if r.get("agent_id"))
    resume = Call("SendMessage", {"to": agent_id, "message": "Go on.", "summary": "go on"})
    run = harness.run(
        project,
        {"main": [*first, resume, bash("sleep 4"), Text()], "sub": sub},
        extra_args=["--allowedTools", "Bash", "--resume", session],
    )
    assert run.result["session_id"] == session
    assert "login-fix" in denied(run, "sub", 2, "DELEGATION_SCOPE")
    assert not outside.exists()


FORMATTER = """\
import json, sys
data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path")
if path and data.get("tool_name") in ("Write", "Edit"):
    with open(path, "a", encoding="utf-8") as f:
        f.write("# formatted\\n")
"""


def test_a_formatter_hook_beside_ours_is_no_other_agent(harness: Harness, tmp_path: Path) -> None:
    """A team's PostToolUse formatter (prettier, black) changes the file after our PostToolUse
    hashed it (the hooks of one event run side by side): the agent's next Edit was STALE_FILE,
    every time. Claude Code takes the hook's change as the file's content; so do we."""
    (tmp_path / "fmt.py").write_text(FORMATTER, encoding="utf-8")
    hooks = Hooks.commands(
        pre=[python_command(ENTRY, "PreToolUse")],
        post=[python_command(ENTRY, "PostToolUse"), python_command(tmp_path / "fmt.py")],
        other={e: [python_command(ENTRY, e)] for e in ("SubagentStop", "Stop", "SessionEnd")},
    )
    project = harness.project(hooks, agents=[CODER], boundary_toml=CONFIG)
    target = project.path("src/auth/a.py")

    def edit(old: str, new: str) -> Call:
        return Call("Edit", {"file_path": str(target), "old_string": old, "new_string": new})

    run = harness.run(
        project,
        {
            "main": [agent_call("sub", "Intent: login-fix", background=False), Text()],
            "sub": [
                write(target, "x = 1\n"),
                edit("x = 1", "x = 2"),
                edit("x = 2", "x = 3"),
                Text(),
            ],
        },
    )
    for step in range(3):
        allowed(run, "sub", step)
    assert target.read_text(encoding="utf-8").startswith("x = 3\n# formatted\n")


@pytest.mark.parametrize("leases", ["off", "enforce"])
def test_a_well_behaved_parallel_delegation_is_never_refused(harness: Harness, leases: str) -> None:
    """Two background subagents under one intent with disjoint Scope: lines, in one folder:
    each makes the folder, writes and edits its own file, reads the other's (Read and cat),
    compiles and tests, and commits its own work; then the main agent commits."""
    config = GIT_CONFIG.replace('leases = "enforce"', f'leases = "{leases}"')
    project = harness.project(HOOKS, agents=[CODER], boundary_toml=config, files={"README": "x\n"})
    _committed(project)
    git = " ".join(GIT)

    def work(me: str, other: str, wait: str) -> list[object]:
        mine, theirs = f"src/auth/{me}.py", f"src/auth/{other}.py"
        after = f"{_until(_COMMITTED.format(other))};" if me == "two" else ""
        return [
            bash("mkdir -p src/auth"),
            write(project.path(mine), f"{me.upper()} = 1\n"),
            bash(wait),
            Call("Read", {"file_path": str(project.path(theirs))}),
            Call(
                "Edit", {"file_path": str(project.path(mine)), "old_string": "1", "new_string": "2"}
            ),
            bash(f"cat {theirs} {mine}"),
            # a syntax check that writes nothing: py_compile writes __pycache__, outside a
            # one-file Scope (README, "Bash analysis")
            bash(f'python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" {mine}'),
            # git refuses a second commit while the first holds .git/index.lock: "two" waits
            bash(f"{after} {git} add {mine} && {git} commit -qm {me}"),
            Text(),
        ]

    run = harness.run(
        project,
        {
            "main": [
                [
                    agent_call(
                        "one",
                        "Intent: login-fix\nScope: src/auth/one.py, .git, .git/**",
                        background=True,
                    ),
                    agent_call(
                        "two",
                        "Intent: login-fix\nScope: src/auth/two.py, .git, .git/**",
                        background=True,
                    ),
                ],
                bash(_until(_COMMITTED.format("one"), _COMMITTED.format("two"))),
                bash(f"{git} commit -q --allow-empty -m main"),
                Text(),
            ],
            "one": work("one", "two", _until("test -f src/auth/two.py")),
            "two": work("two", "one", _until("test -f src/auth/one.py")),
        },
        extra_args=["--allowedTools", "Bash"],
    )
    for name in ("one", "two"):
        for step in range(8):
            allowed(run, name, step)
    allowed(run, "main", 2)
