"""Delegation contracts attacked a sixth time (ADR 0080), through the hook shell in process
with a real state store: a narrowed subagent's opaque commands, writes the text does not place
(globs, `find -exec`) and writes of the whole project, a write in a delegated folder, links a
subagent makes, subagents that ended without a SubagentStop, what `trace` says of formatters,
and the Workflow tool. The Bash rows that say where a command writes are run for real
(``reality``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import reality
from conftest import run_hook
from hypothesis import given, settings
from hypothesis import strategies as st
from test_contracts_attack_r10 import SHARED, Team

from orchestrator_boundary.contracts import Contracts, Launch, check_launch
from orchestrator_boundary.directives import parse_directives, runs_listed
from orchestrator_boundary.state_claims import at_stop, in_flight

REQUIRE = SHARED + "require = true\n"


def _team(project: Path, config: str = SHARED, leases: str = "off") -> Team:
    team = Team(project, leases)
    (project / ".claude" / "boundary.toml").write_text(config.format(leases=leases))
    return team


# ---- 1. a narrowed subagent's opaque command ------------------------------------------------

OPAQUE = ["make", "npm run build", "./build.sh", "python tools/gen.py", "cargo xtask dist"]


@pytest.mark.parametrize("command", OPAQUE)
def test_an_opaque_command_the_run_line_does_not_name_is_outside_the_delegation(
    project: Path, command: str
) -> None:
    """A subagent held to `src/billing/**` ran `make` (or a script) and so could write
    anywhere: only `bash.opaque` judged it, which lets a subagent's opaque command through."""
    team = _team(project)
    team.launch("a1", "Add the invoice model.\nIntent: shared\nScope: src/billing/**\nRun: pytest")
    assert team.bash("a1", command) == "DELEGATION_SCOPE"


@pytest.mark.parametrize("command", OPAQUE)
def test_under_require_an_opaque_command_needs_a_run_line(project: Path, command: str) -> None:
    team = _team(project, REQUIRE)
    team.launch("a1", "Add the invoice model.\nIntent: shared")
    assert team.bash("a1", command) == "DELEGATION_SCOPE"


@pytest.mark.parametrize(
    ("run", "command"),
    [
        ("make", "make"),
        ("make", "make -j4 dist"),
        ("make test", "make test"),
        ("npm run build, make", "npm run build -- --prod"),
        ("pytest", ".venv/bin/pytest -q tests"),
        ("python -m pytest", "python -m pytest -q"),
        ("./build.sh", "./build.sh --fast"),
        ("make", "timeout 5 make"),
        ("make", "FOO=1 make -j4"),
        ("make", "env FOO=1 make"),
        ("make", "nohup make > src/build.log 2>&1 &"),
        ("make test", "bash -c 'make test'"),
    ],
)
def test_a_command_its_run_line_names_goes_through(project: Path, run: str, command: str) -> None:
    team = _team(project, REQUIRE)
    team.launch("a1", f"Build it.\nIntent: shared\nRun: {run}")
    assert team.bash("a1", command) == "-"


@pytest.mark.parametrize(
    ("run", "command"),
    [
        ("make test", "make install"),
        ("make", "cmake ."),
        ("pytest", "pytest-watch"),
        ("./build.sh", "/tmp/build.sh"),
        ("npm test", "npm"),
        ("none", "make"),
        ("make", "timeout 5 ./evil.sh"),
        ("make", "make; ./evil.sh"),
        ("make", "echo $(( "),  # does not parse: any command may hide in it
        ("make", "make $(( "),
    ],
)
def test_a_run_line_names_its_commands_and_no_others(project: Path, run: str, command: str) -> None:
    team = _team(project)
    team.launch("a1", f"Build it.\nIntent: shared\nRun: {run}")
    assert team.bash("a1", command) == "DELEGATION_SCOPE"


def test_without_require_or_a_run_line_bash_opaque_still_judges(project: Path) -> None:
    """Control: README's delegation runs its tests (`bash.opaque` judges them, as before)."""
    team = _team(project)
    team.launch("a1", "Fix the rounding.\nIntent: shared")
    assert team.bash("a1", "python -m pytest -q tests") == "-"
    assert team.bash("a1", "make") == "-"


def test_a_subagent_no_delegation_narrows_may_run_what_it_likes(project: Path) -> None:
    """Control: no intent, no Scope: line, no profile scope: nothing to hold."""
    team = _team(project, "phase = 'enforce'\n[delegation]\nleases = '{leases}'\n")
    team.launch("a1", "Look around.\nRun: none")
    assert team.bash("a1", "make") == "-"


def test_the_refusal_tells_the_main_agent_how(project: Path) -> None:
    team = _team(project, REQUIRE)
    team.launch("a1", "Add the invoice model.\nIntent: shared")
    pre = team.payload("PreToolUse", "Bash", {"command": "npm run build"}, "a1")
    out = run_hook(pre, team.env)[1]
    assert out is not None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert "`Run: npm run build`" in reason and "cannot see" in reason


def test_a_delegating_subagent_hands_on_only_the_commands_it_was_given(project: Path) -> None:
    team = _team(project, REQUIRE)
    team.launch("a1", "Split the work.\nIntent: shared\nRun: make test")
    agent_input = {
        "description": "sub",
        "prompt": "Do it.\nScope: src/billing/**\nRun: make, make test",
    }
    pre = team.payload("PreToolUse", "Agent", agent_input, "a1")
    assert run_hook(pre, team.env)[1] is None
    post = {**pre, "hook_event_name": "PostToolUse", "tool_response": {"agentId": "a1x"}}
    run_hook(post, team.env, "PostToolUse")
    assert team.bash("a1x", "make test") == "-"
    assert team.bash("a1x", "make") == "DELEGATION_SCOPE"


def test_the_run_line_is_parsed_strictly() -> None:
    assert parse_directives("x\nRun: make test,  npm   run build\n").run == (
        "make test",
        "npm run build",
    )
    assert parse_directives("Run: none").run == ()
    assert parse_directives("Scope: src/**").run is None
    assert "second Run" in str(parse_directives("Run: a\nRun: b").error)
    assert "empty command" in str(parse_directives("Run: a,,b").error)
    assert parse_directives("run: make").run is None  # prose: allows less, never more
    assert not runs_listed("make", ())


def test_the_run_line_reaches_the_launch() -> None:
    got = check_launch(Contracts({}, {}), "Do it.\nScope: src/**\nRun: make", None, None)
    assert isinstance(got, Launch) and got.run == ("make",)


# ---- 3. a subagent killed other than by TaskStop keeps no lease past the next Stop ----------


def _killed(project: Path) -> tuple[Team, str]:
    team = _team(project, leases="enforce")
    team.launch("a1", "Add the invoice model.\nIntent: shared")
    team.launch("a2", "Fix the rounding.\nIntent: shared")
    assert team.bash("a1", "echo a > src/billing/new.py") == "-"
    assert team.bash("a2", "echo b > src/billing/new.py") == "FILE_LEASED"  # a1 runs
    return team, str(project / ".claude" / "boundary" / "audit.jsonl")


def _task(agent: str, kind: str = "subagent", status: str = "running") -> dict[str, Any]:
    return {"id": agent, "type": kind, "status": status, "description": "w", "agent_type": "x"}


def test_stop_releases_a_subagent_its_background_tasks_no_longer_list(project: Path) -> None:
    """a1 was killed (Esc, the process gone): no SubagentStop, no TaskStop. Its lease held
    `src/billing/new.py` against a2 for 30 minutes; the main agent's next Stop lists what
    is still in flight, and a1 is not there."""
    team, trail = _killed(project)
    got = at_stop(trail, "s1", [_task("a2"), {"id": "b1", "type": "shell", "status": "running"}])
    assert got == {"ended": ["a1"]}
    assert team.bash("a2", "echo b > src/billing/new.py") != "FILE_LEASED"


@pytest.mark.parametrize(
    "tasks",
    [
        None,  # an older CLI: no list
        [_task("a1"), _task("a2")],
        [_task("a2"), {"id": "w1", "type": "workflow", "status": "running"}],  # runs agents
        [_task("a2"), {"id": "r1", "type": "remote_agent", "status": "running"}],
        ["a2"],
    ],
    ids=["absent", "listed", "workflow", "remote", "damaged"],
)
def test_stop_keeps_what_may_still_run(project: Path, tasks: Any) -> None:
    team, trail = _killed(project)
    assert at_stop(trail, "s1", tasks) == {}
    assert team.bash("a2", "echo b > src/billing/new.py") == "FILE_LEASED"


def test_stop_keeps_a_listed_subagents_own_subagent(project: Path) -> None:
    """a1 runs in the background and started a1x in the foreground: only a1 is listed."""
    team = _team(project, leases="enforce")
    team.launch("a1", "Split the work.\nIntent: shared")
    agent_input = {"description": "sub", "prompt": "Do it.\nScope: src/billing/**"}
    pre = team.payload("PreToolUse", "Agent", agent_input, "a1")
    assert run_hook(pre, team.env)[1] is None
    run_hook({**pre, "hook_event_name": "PostToolUse", "tool_response": {"agentId": "a1x"}},
             team.env, "PostToolUse")  # fmt: skip
    assert team.bash("a1x", "echo a > src/billing/new.py") == "-"
    trail = str(project / ".claude" / "boundary" / "audit.jsonl")
    assert at_stop(trail, "s1", [_task("a1")]) == {}
    team.launch("a2", "Fix the rounding.\nIntent: shared")
    assert team.bash("a2", "echo b > src/billing/new.py") == "FILE_LEASED"


@pytest.mark.parametrize(
    "tasks",
    [[1], [None], [{"type": "subagent"}], [{"type": "subagent", "id": 5}], "x", {},
     [{"type": ["subagent"], "id": "a1"}], [{"type": {"x": 1}, "id": "a1"}]],
)  # fmt: skip
def test_a_damaged_task_list_releases_nothing(tasks: Any) -> None:
    """`"type": [...]` raised TypeError (unhashable) in the Stop hook."""
    assert in_flight(tasks) is None


def test_a_finished_task_in_the_list_is_not_in_flight() -> None:
    assert in_flight([_task("a1", status="completed"), _task("a2")]) == {"a2"}
    assert in_flight([{"type": "subagent", "id": "a1", "status": [1]}]) == {"a1"}


def test_the_stop_hook_releases_through_the_shell(project: Path) -> None:
    team, _ = _killed(project)
    stop = {"session_id": "s1", "transcript_path": str(project.parent / "sess.jsonl"),
            "cwd": str(project), "hook_event_name": "Stop", "stop_hook_active": False,
            "background_tasks": [_task("a2")]}  # fmt: skip
    run_hook(stop, team.env, "Stop")
    trail = (project / ".claude" / "boundary" / "audit.jsonl").read_text().splitlines()
    assert json.loads(trail[-1]).get("ended") == ["a1"]


# ---- 5. the Workflow tool: agents no Agent call's contract holds -----------------------------

WORKFLOW = {
    "script": "export const meta = {name: 'w', description: 'd', phases: []}\nawait agent('fix src/auth')"
}


def test_a_narrowed_subagent_may_not_start_a_workflow(project: Path) -> None:
    """a1, held to `src/billing/**`, ran a Workflow: its agents had no contract (unknown
    delegation) and, without `require`, wrote anywhere."""
    team = _team(project)
    team.launch("a1", "Add the invoice model.\nIntent: shared\nScope: src/billing/**")
    assert team.call("a1", "Workflow", WORKFLOW) == "DELEGATION_INVALID"


def test_under_require_nobody_starts_a_workflow(project: Path) -> None:
    team = _team(project, REQUIRE)
    assert team.call(None, "Workflow", WORKFLOW) == "DELEGATION_INVALID"


def test_a_workflow_without_contracts_in_play_goes_through(project: Path) -> None:
    """Control: the main agent without `require`, and an unnarrowed subagent."""
    team = _team(project, "phase = 'enforce'\n[delegation]\nleases = '{leases}'\n")
    assert team.call(None, "Workflow", WORKFLOW) == "-"
    team.launch("a1", "Look around.")
    assert team.call("a1", "Workflow", WORKFLOW) == "-"


# ---- 2. a glob write by a subagent no delegation narrows is keyed by what it matches ---------

OPEN = "phase = 'enforce'\n[delegation]\nleases = '{leases}'\n"
GLOBS = [
    "sed -i s/v1/v2/ src/billing/*.py",
    "sed -i s/v1/v2/ src/billing/p*",
    "rm src/billing/*",
    "find src/billing -type f -exec sed -i s/v1/v2/ {} +",
    "find src -name '*.py' -exec rm {} \\;",
    "find . -type f -exec sed -i s/v1/v2/ {} +",
    "find -P src/billing -exec truncate -s0 {} +",
]


def _ran(team: Team, agent: str, command: str) -> str:
    """``team.bash``, the command run for real between its two hooks."""
    pre = team.payload("PreToolUse", "Bash", {"command": command}, agent)
    out = run_hook(pre, team.env)[1]
    if out is not None:
        return str(out["hookSpecificOutput"]["permissionDecisionReason"])
    subprocess.run(["bash", "-c", command], cwd=team.project, check=True)
    run_hook(
        {**pre, "hook_event_name": "PostToolUse", "tool_response": {}}, team.env, "PostToolUse"
    )
    return "-"


def _two_open(project: Path, leases: str) -> Team:
    team = _team(project, OPEN, leases)
    team.launch("a1", "Fix the rounding.")
    team.launch("a2", "Rename the helpers.")
    return team


@pytest.mark.parametrize("glob", GLOBS)
@pytest.mark.parametrize(
    ("leases", "code"), [("enforce", "FILE_LEASED"), ("off", "STALE_FILE")], ids=["leases", "off"]
)
def test_a_glob_over_another_subagents_file_is_held(
    project: Path, glob: str, leases: str, code: str
) -> None:
    """a1 wrote src/billing/pay.py; a2's `sed -i ... src/billing/*.py` rewrote it unseen:
    no lease or stale rule keyed a write the text does not place."""
    team = _two_open(project, leases)
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.bash("a2", glob) == code


@pytest.mark.parametrize(
    ("leases", "code"), [("enforce", "FILE_LEASED"), ("off", "STALE_FILE")], ids=["leases", "off"]
)
def test_a_glob_holds_what_it_matched_against_the_next_writer(
    project: Path, leases: str, code: str
) -> None:
    team = _two_open(project, leases)
    team.read("a1", "src/billing/pay.py")
    assert _ran(team, "a2", GLOBS[0]) == "-"
    assert team.bash("a1", "echo v3 > src/billing/pay.py") == code


def test_past_the_match_limit_the_glob_holds_its_folder(project: Path) -> None:
    team = _two_open(project, "enforce")
    for n in range(70):
        (project / "src" / "billing" / f"m{n}.py").write_text("v1\n")
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.bash("a2", "sed -i s/v1/v2/ src/billing/m1*.py") == "-"  # 11 matches
    assert team.bash("a2", "sed -i s/v1/v2/ src/billing/*.py") == "FILE_LEASED"


@pytest.mark.parametrize("leases", ["off", "enforce"])
def test_the_glob_writer_goes_on_with_its_own_files(project: Path, leases: str) -> None:
    """Control: after its glob, a2's own next writes of the matched files are not stale
    (the marks its PreToolUse took are settled at PostToolUse), and a glob over files
    no one else wrote goes through."""
    team = _two_open(project, leases)
    assert _ran(team, "a2", GLOBS[0]) == "-"
    assert _ran(team, "a2", "echo v3 >> src/billing/pay.py") == "-"
    assert _ran(team, "a2", GLOBS[0]) == "-"
    assert team.write("a2", "src/billing/pay.py") == "-"


@pytest.mark.parametrize("command", GLOBS)
def test_the_glob_rewrites_the_file_for_real(command: str) -> None:
    outcome = reality.run(command, reality.Seed(files=(("src/billing/pay.py", "v1\n"),)))
    assert "src/billing/pay.py" in outcome.paths, outcome.describe()


@pytest.mark.parametrize(
    "command",
    ["find src/auth -type f -exec sed -i s/v1/v2/ {} +", "find -L src/billing -exec true {} +"],
)
def test_a_find_elsewhere_or_following_links_is_not_held_here(project: Path, command: str) -> None:
    """Control: a find below another folder meets no lease of src/billing; one that follows
    links (`-L`) has no folder to key, as before."""
    team = _two_open(project, "enforce")
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.bash("a2", command) == "-"


# ---- 4. trace tells a formatter's change from the subagent's write --------------------------


def _formatted_write(team: Team, rel: str, content: str, formatted: str) -> None:
    """A subagent's Write; the project's formatter hook rewrites the file before our
    PostToolUse hashes it (the hooks of one event run side by side)."""
    target = team.project / rel
    pre = team.payload("PreToolUse", "Write", {"file_path": str(target), "content": content}, "a1")
    assert run_hook(pre, team.env)[1] is None
    target.write_text(formatted)
    run_hook(
        {**pre, "hook_event_name": "PostToolUse", "tool_response": {}}, team.env, "PostToolUse"
    )


@pytest.mark.parametrize(
    ("formatted", "marked"), [("x = 1  # fmt\n", True), ("x = 1\n", False)], ids=["fmt", "as-is"]
)
def test_trace_marks_a_write_a_formatter_changed(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    formatted: str,
    marked: bool,
) -> None:
    """The formatter's content was listed as the subagent's write, with nothing to say so."""
    from orchestrator_boundary.cli import main

    team = _team(project)
    team.launch("a1", "Fix.\nIntent: shared")
    _formatted_write(team, "src/auth/login.py", "x = 1\n", formatted)
    monkeypatch.chdir(project)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert main(["trace", "src/auth/login.py"]) == 0
    out = capsys.readouterr().out
    assert ("changed beside the write" in out) is marked
    assert main(["trace", "src/auth/login.py", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["changes"][-1]["beside"] is marked


def test_trace_says_plainly_what_changes_content_outside_any_agent(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The formatter ran after our hash: the content matches no write, and trace says a
    formatter hook is one of the things that does that."""
    from orchestrator_boundary.cli import main

    team = _team(project)
    team.launch("a1", "Fix.\nIntent: shared")
    _formatted_write(team, "src/auth/login.py", "x = 1\n", "x = 1\n")
    (project / "src/auth/login.py").write_text("x = 1  # fmt\n")
    monkeypatch.chdir(project)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert main(["trace", "src/auth/login.py"]) == 3
    out = capsys.readouterr().out
    assert "formatter" in out and "note: The hook hashes a file beside" in out


# ---- 6. a write of the project's root, or a glob's folders, holds every file in them ---------

ROOT_WRITES = [
    "git stash",
    "git reset --hard",
    "git checkout .",
    "git restore .",
    "cd src && git checkout .",
    "cp -r /tmp/x/. .",
    "rsync -a /tmp/x/ ./",
    "rm -rf ./*",
    "rm -r src/*",
]


@pytest.mark.parametrize("command", ROOT_WRITES)
@pytest.mark.parametrize(
    ("leases", "code"), [("enforce", "FILE_LEASED"), ("off", "STALE_FILE")], ids=["leases", "off"]
)
def test_a_write_of_the_root_holds_another_subagents_file(
    project: Path, command: str, leases: str, code: str
) -> None:
    """a1 wrote src/billing/pay.py; a2's `git stash` (or `git checkout .`, `rm -rf ./*`)
    undid it unseen: the root is keyed by its absolute path, its files by relative ones, so
    neither rule found a1's file below it (nor a glob's matched folders below `src`)."""
    team = _two_open(project, leases)
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.bash("a2", command) == code


@pytest.mark.parametrize("command", ["git stash", "rm -rf ./*", "rm -f src/billing/*.pyc"])
def test_a_root_write_no_other_agent_meets_goes_through(project: Path, command: str) -> None:
    """Control: nobody else wrote; a glob delete that matches no file of another agent."""
    team = _two_open(project, "enforce")
    if command.endswith(".pyc"):
        assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.bash("a2", command) == "-"


@pytest.mark.parametrize("command", ["git stash", "git checkout .", "git reset --hard"])
def test_the_root_writes_undo_the_file_for_real(command: str) -> None:
    seed = reality.Seed(git=True, setup="echo changed > src/main.py")
    outcome = reality.run(command, seed)
    assert "src/main.py" in outcome.paths, outcome.describe()


# ---- 7. README's example: a delegated subagent formats or cleans its own folder --------------

FOLDER_WORK = [
    "ruff format src/auth",
    "ruff check --fix src/auth",
    "isort src/auth",
    "black src/auth",
    'find src/auth -name "*.pyc" -delete',
    "cp -r tests/fixtures/. src/auth",
]


def _auth(project: Path) -> Team:
    from test_contracts_attack_r10 import CONFIG

    team = _team(project, CONFIG)
    (project / "tests" / "fixtures").mkdir(parents=True)
    (project / "tests" / "fixtures" / "f.py").write_text("f\n")
    team.launch("a1", "Fix the login bug.\nIntent: auth")
    return team


@pytest.mark.parametrize("command", FOLDER_WORK)
def test_a_delegated_subagent_may_write_in_its_own_folder(project: Path, command: str) -> None:
    """Under `Intent: auth` (`src/auth/**`), `ruff format src/auth` was DELEGATION_SCOPE:
    the analysis names the folder, which `src/auth/**` does not cover itself."""
    assert _auth(project).bash("a1", command) == "-"


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf src/auth",  # the folder itself goes
        "find src/auth -delete",
        'find src/auth -name "a*" -delete',  # names the folder itself
        "ruff format src",  # above the scope
        "cp -r tests/fixtures/. src",
    ],
)
def test_a_write_of_the_folder_itself_or_above_stays_outside(project: Path, command: str) -> None:
    assert _auth(project).bash("a1", command) == "DELEGATION_SCOPE"


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_a_folder_holding_a_link_is_not_held(project: Path, link: str) -> None:
    """A link in the folder could take the write elsewhere (`rsync -K`, a formatter that
    follows links, a hard link's other name): not held, as before."""
    team = _auth(project)
    if link == "symbolic":
        (project / "src" / "auth" / "x").symlink_to("../billing")
    else:
        (project / "src" / "auth" / "x.py").hardlink_to(project / "src" / "billing" / "pay.py")
    assert team.bash("a1", "ruff format src/auth") == "DELEGATION_SCOPE"


def test_a_subagent_held_from_opaque_commands_hands_on_none(project: Path) -> None:
    """a1 (require, no Run: line) may not run `make`; it started a1x with `Run: make`, and
    a1x ran it: a delegation widened what its parent may do."""
    team = _team(project, REQUIRE)
    team.launch("a1", "Split the work.\nIntent: shared")
    assert team.bash("a1", "make") == "DELEGATION_SCOPE"
    agent_input = {"description": "sub", "prompt": "Do it.\nScope: src/billing/**\nRun: make"}
    pre = team.payload("PreToolUse", "Agent", agent_input, "a1")
    assert run_hook(pre, team.env)[1] is None
    post = {**pre, "hook_event_name": "PostToolUse", "tool_response": {"agentId": "a1x"}}
    run_hook(post, team.env, "PostToolUse")
    assert team.bash("a1x", "make") == "DELEGATION_SCOPE"


def test_trace_finds_a_glob_write(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """a2's `sed -i ... src/billing/*.py` rewrote pay.py; `trace` said no agent wrote it
    (exit 3): the audit line's trace names only what the text places."""
    from orchestrator_boundary.cli import main

    team = _two_open(project, "off")
    assert _ran(team, "a2", GLOBS[0]) == "-"
    monkeypatch.chdir(project)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert main(["trace", "src/billing/pay.py"]) == 0
    out = capsys.readouterr().out
    assert "(a2)" in out and "last recorded write" in out


# ---- 8. a link a subagent makes is no write of the file it points to -----------------------


@pytest.mark.parametrize(
    ("link", "write"),
    [
        ("ln -s pay.py src/billing/alias.py", "echo x > src/billing/alias.py"),
        ("ln -sf pay.py src/billing/alias.py", "sed -i s/v1/v2/ src/billing/alias.py"),
        ("ln -s billing src/b2", "echo x > src/b2/pay.py"),
    ],
)
def test_a_link_to_another_subagents_file_does_not_make_it_seen(
    project: Path, link: str, write: str
) -> None:
    """Leases off: a2 made a link to a1's pay.py, then wrote through it, never having read
    it. The link's PostToolUse recorded pay.py (where the link now leads) as written by a2,
    so its write was not STALE_FILE."""
    team = _two_open(project, "off")
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert _ran(team, "a2", link) == "-"
    assert team.bash("a2", write) == "STALE_FILE"


def test_the_link_maker_reads_and_goes_on(project: Path) -> None:
    """Control: after reading the file, a2 writes through its link; a1 keeps writing its own."""
    team = _two_open(project, "off")
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert _ran(team, "a2", "ln -s pay.py src/billing/alias.py") == "-"
    team.read("a2", "src/billing/pay.py")
    assert team.bash("a2", "echo x > src/billing/alias.py") == "-"
    team.read("a1", "src/billing/pay.py")
    assert team.write("a1", "src/billing/pay.py") == "-"


@pytest.mark.parametrize(
    "command",
    [
        "tar -C src/auth -xPf evil.tar",
        "timeout 60 tar -C src/auth -xPf evil.tar",
        "unzip -o -: evil.zip -d src/auth",
        "patch -d src/auth -p1 < fix.diff",
    ],
)
def test_an_archive_extract_into_the_folder_is_not_held(project: Path, command: str) -> None:
    """An archive's members may name `../billing/pay.py` (kept by `tar -P`, `unzip -:`):
    the extract writes where the archive says, not below the folder."""
    assert _auth(project).bash("a1", command) == "DELEGATION_SCOPE"


def test_tar_P_writes_outside_the_folder_for_real() -> None:
    setup = (
        "mkdir -p m/src/billing && echo evil > m/src/billing/pay.py && "
        "tar -C m/src -cf evil.tar --transform 's,^,../,' billing/pay.py && rm -r m && "
        "mkdir -p src/auth src/billing && echo v1 > src/billing/pay.py"
    )
    outcome = reality.run("tar -C src/auth -xPf evil.tar", reality.Seed(setup=setup))
    assert "src/billing/pay.py" in outcome.paths, outcome.describe()


# ---- 9. scope text that is not what it shows -------------------------------------------------


@pytest.mark.parametrize(
    "pattern", ["src/auth/**\u200b", "src/\u200bauth/**", "src/\u202eauth/**", "src/auth\u2060/**"]
)
def test_a_scope_pattern_with_an_invisible_character_is_refused(pattern: str) -> None:
    """`Scope: src/auth/**` followed by a zero-width space was accepted and matched no file:
    every write of the subagent was refused with "no pattern covers it", which does not say
    why. It is now refused at the Agent call, naming the character."""
    got = check_launch(Contracts({}, {}), f"Fix.\nScope: {pattern}", None, None)
    assert not isinstance(got, Launch) and "invisible character" in got.reason


@pytest.mark.parametrize("pattern", ["src/aüth/**", "src/日本/**", "docs/naïve.md"])
def test_a_scope_pattern_in_another_script_stays_a_pattern(pattern: str) -> None:
    got = check_launch(Contracts({}, {}), f"Fix.\nScope: {pattern}", None, None)
    assert isinstance(got, Launch)


def test_under_require_an_unknown_delegations_opaque_command_is_refused(project: Path) -> None:
    """A subagent no recorded Agent call names: under `require` its writes were refused,
    its `make` (which may write anywhere) was not."""
    team = _team(project, REQUIRE)
    assert team.bash("zz", "echo x > src/a.py") == "DELEGATION_SCOPE"
    assert team.bash("zz", "make") == "DELEGATION_SCOPE"
    assert _team(project).bash("zz", "make") == "-"  # without require, as its writes


# ---- the new readers take any text ------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.text(max_size=200))
def test_the_new_readers_never_raise(a: str, b: str) -> None:
    from orchestrator_boundary.directives import _from_program
    from orchestrator_boundary.ledger_files import find_roots, unpacks

    find_roots("find " + a, b)
    find_roots(a, b)
    unpacks(a)
    _from_program(a, b)
    got = parse_directives("Run: " + a)
    assert got.error is not None or got.run is not None
    runs_listed(a, tuple(b.split(",")))


@pytest.mark.parametrize(
    ("formatted", "marked"), [("x = 2  # fmt\n", True), ("x = 2\n", False)], ids=["fmt", "as-is"]
)
def test_trace_marks_an_edit_a_formatter_changed(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    formatted: str,
    marked: bool,
) -> None:
    """An Edit's result is its response's `originalFile` with `oldString` made `newString`
    (as 2.1.330 sends them: tests/payloads/subagent_general_purpose_edit_post.json)."""
    from orchestrator_boundary.cli import main

    team = _team(project)
    team.launch("a1", "Fix.\nIntent: shared")
    target = project / "src/auth/login.py"
    target.write_text("x = 1\n")
    edit = {"file_path": str(target), "old_string": "1", "new_string": "2"}
    pre = team.payload("PreToolUse", "Edit", edit, "a1")
    assert run_hook(pre, team.env)[1] is None
    target.write_text(formatted)
    response = {"filePath": str(target), "oldString": "1", "newString": "2",
                "originalFile": "x = 1\n", "structuredPatch": [], "userModified": False,
                "replaceAll": False}  # fmt: skip
    post = {**pre, "hook_event_name": "PostToolUse", "tool_response": response}
    run_hook(post, team.env, "PostToolUse")
    monkeypatch.chdir(project)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert main(["trace", "src/auth/login.py", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["changes"][-1]["beside"] is marked


@pytest.mark.parametrize("glob", GLOBS[:2])
def test_warn_notes_a_lease_a_glob_would_meet(project: Path, glob: str) -> None:
    """`leases = "warn"` notes what enforce refuses (`leased_to`, which `report` counts):
    a glob over a file another subagent holds was not noted."""
    team = _two_open(project, "warn")
    assert team.write("a1", "src/billing/pay.py") == "-"
    team.read("a2", "src/billing/pay.py")
    pre = team.payload("PreToolUse", "Bash", {"command": glob}, "a2")
    assert run_hook(pre, team.env)[1] is None
    trail = project / ".claude" / "boundary" / "audit.jsonl"
    line = json.loads(trail.read_text().splitlines()[-1])
    assert line["leased_to"] == {"src/billing/pay.py": "work a1 (a1)"}


# ---- found here, fixed elsewhere: the Bash analysis ------------------------------------------


@pytest.mark.parametrize(
    ("agent", "command", "code"),
    [
        ("a1", "mv src/billing/pay.py{,.bak}", "DELEGATION_SCOPE"),
        (None, "mv .claude/settings.json{,.bak}", "TAMPER"),
    ],
)
def test_a_brace_expanded_destination_is_a_write(
    project: Path, agent: str | None, command: str, code: str
) -> None:
    """bash expands `mv f{,.bak}` to `mv f f.bak` (checked for real below); the analysis read
    one word, "no destination", read_only: let through, also the settings (ADR 0081)."""
    team = _team(project)
    (project / ".claude" / "settings.json").write_text("{}")
    team.launch("a1", "Fix.\nIntent: shared\nScope: src/auth/**")
    assert team.bash(agent, command) == code


def test_mv_with_a_brace_moves_the_file_for_real() -> None:
    outcome = reality.run("mv f{,.bak}", reality.Seed())
    assert {"f", "f.bak"} <= outcome.paths, outcome.describe()


def test_an_opaque_command_past_the_32_judged_is_refused(project: Path) -> None:
    """Only a command's first 32 opaque commands become targets: `./a` 32 times (listed),
    then `make` (not listed), went through."""
    team = _team(project, REQUIRE)
    team.launch("a1", "Build.\nIntent: shared\nRun: ./a")
    assert team.bash("a1", "; ".join(["./a"] * 31 + ["make"])) == "DELEGATION_SCOPE"
    assert team.bash("a1", "; ".join(["./a"] * 32 + ["make"])) == "DELEGATION_SCOPE"
    assert team.bash("a1", "; ".join(["./a"] * 32)) == "-"


def test_a_glob_delete_over_many_folders_holds_its_folder(project: Path) -> None:
    """`rm -rf src/*` matching more folders than are keyed one by one: those past the cut
    were keyed by nothing (a1's file lies in the last one)."""
    team = _two_open(project, "enforce")
    for n in range(140):
        (project / "src" / f"d{n:03}").mkdir()
        (project / "src" / f"d{n:03}" / "f.py").write_text("x\n")
    assert team.write("a1", "src/d139/f.py") == "-"
    assert team.bash("a2", "rm -rf src/*") == "FILE_LEASED"
