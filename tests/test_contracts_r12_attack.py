"""Delegation contracts attacked a seventh time (ADR 0085), through the hook shell in process
with a real state store: a subagent that hands its own file on to a subagent it starts, a
`Scope:` line that names a folder, and the overwrites between parallel subagents that already
hold (moves, renames, links, NotebookEdit, MCP tools; checked against reality)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import reality
from conftest import run_hook
from test_contracts_attack_r10 import SHARED, Team


def _team(project: Path, leases: str = "enforce", config: str = SHARED) -> Team:
    team = Team(project, leases)
    (project / ".claude" / "boundary.toml").write_text(config.format(leases=leases))
    return team


def _launch_by(team: Team, parent: str, child: str, prompt: str) -> None:
    """A background Agent call made by the subagent ``parent``."""
    pre = team.payload(
        "PreToolUse", "Agent", {"description": f"work {child}", "prompt": prompt}, parent
    )
    assert run_hook(pre, team.env)[1] is None
    resp = {"status": "async_launched", "agentId": child}
    run_hook(
        {**pre, "hook_event_name": "PostToolUse", "tool_response": resp}, team.env, "PostToolUse"
    )


# ---- a subagent hands its own file on to the subagent it starts ------------------------------


def test_a_subagent_may_hand_its_file_on_to_the_subagent_it_starts(project: Path) -> None:
    """a1 wrote pay.py, then started a11 to finish it: a11 was refused FILE_LEASED by its own
    parent's lease. A delegation hands on part of its scope; its files with it."""
    team = _team(project)
    team.launch("a1", "Billing.\nIntent: shared\nScope: src/billing/**")
    assert team.write("a1", "src/billing/pay.py") == "-"
    _launch_by(team, "a1", "a11", "Finish the rounding.\nIntent: shared\nScope: src/billing/**")
    team.read("a11", "src/billing/pay.py")
    assert team.write("a11", "src/billing/pay.py") == "-"


def test_two_levels_down_too(project: Path) -> None:
    team = _team(project)
    team.launch("a1", "Billing.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    _launch_by(team, "a1", "a11", "Rounding.\nIntent: shared")
    _launch_by(team, "a11", "a111", "Rounding, the tests.\nIntent: shared")
    team.read("a111", "src/billing/pay.py")
    assert team.write("a111", "src/billing/pay.py") == "-"


def test_the_parent_may_not_write_over_its_running_child(project: Path) -> None:
    """Control: the other way is two agents at once (a background child): refused."""
    team = _team(project)
    team.launch("a1", "Billing.\nIntent: shared")
    _launch_by(team, "a1", "a11", "Rounding.\nIntent: shared")
    assert team.write("a11", "src/billing/pay.py") == "-"
    team.read("a1", "src/billing/pay.py")
    assert team.write("a1", "src/billing/pay.py") == "FILE_LEASED"


def test_a_sibling_is_still_held(project: Path) -> None:
    """Control: a1's two children are not each other's ancestors."""
    team = _team(project)
    team.launch("a1", "Billing.\nIntent: shared")
    _launch_by(team, "a1", "a11", "Rounding.\nIntent: shared")
    _launch_by(team, "a1", "a12", "Tax.\nIntent: shared")
    assert team.write("a11", "src/billing/pay.py") == "-"
    team.read("a12", "src/billing/pay.py")
    assert team.write("a12", "src/billing/pay.py") == "FILE_LEASED"


def test_another_top_level_subagent_is_still_held(project: Path) -> None:
    """Control: a2, started by the main agent beside a1, does not inherit a1's hand-over."""
    team = _team(project)
    team.launch("a1", "Billing.\nIntent: shared")
    team.launch("a2", "Other.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "FILE_LEASED"


# ---- a Scope: line that names a folder ---------------------------------------------------------


@pytest.mark.parametrize("scope", ["src/billing", "src/billing, src/tax.py"])
def test_a_scope_line_that_names_a_folder_holds_what_is_in_it(project: Path, scope: str) -> None:
    """`Scope: src/billing` (how a main agent names a folder) refused every file in it, "no
    pattern covers it", and told the subagent to report back; `src/billing/` let them through."""
    team = _team(project, "off")
    team.launch("a1", f"Billing.\nIntent: shared\nScope: {scope}")
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.write("a1", "src/billing/deep/er.py") == "-"
    assert team.bash("a1", "sed -i s/v1/v2/ src/billing/pay.py") == "-"
    assert team.bash("a1", "ruff format src/billing") == "-"


@pytest.mark.parametrize(
    ("scope", "rel"),
    [
        ("src/billing", "src/billing2/pay.py"),  # a sibling whose name starts the same
        ("src/billing", "src/auth/login.py"),
        ("src/billing, !src/billing/secret", "src/billing/secret/key.py"),  # excluded below
        ("src/billing/pay.py", "src/billing/tax.py"),
        ("src/bill*", "src/billing/pay.py"),  # a pattern is read as written
    ],
)
def test_a_folder_scope_holds_nothing_else(project: Path, scope: str, rel: str) -> None:
    team = _team(project, "off")
    team.launch("a1", f"Billing.\nIntent: shared\nScope: {scope}")
    assert team.write("a1", rel) == "DELEGATION_SCOPE"


def test_the_audit_line_keeps_the_scope_as_written(project: Path) -> None:
    team = _team(project, "off")
    team.launch("a1", "Billing.\nIntent: shared\nScope: src/billing")
    assert team.write("a1", "src/billing/pay.py") == "-"
    (trail,) = (project / ".claude").rglob("audit.jsonl")
    last = json.loads(trail.read_text().splitlines()[-1])
    assert ["Scope: line", ["src/billing"]] in last["delegation"]["scope"]


# ---- overwrites between parallel subagents that hold (checked against reality) ---------------

MOVES = [
    "mv src/billing/pay.py src/billing/old.py",
    "mv src/auth/login.py src/billing/pay.py",
    "cp src/auth/login.py src/billing/pay.py",
    "install -m644 src/auth/login.py src/billing/pay.py",
    "ln -f src/auth/login.py src/billing/pay.py",
    "ln -sf ../auth/login.py src/billing/pay.py",
    "truncate -s0 src/billing/pay.py",
    "rm -r src/billing",
    "mv src/billing src/billing2",
    "find src -name pay.py -delete",
]


@pytest.mark.parametrize("command", MOVES)
def test_a_move_link_or_delete_of_a_leased_file_is_refused(project: Path, command: str) -> None:
    """Controls (they held before this round): each changes pay.py for real."""
    seed = reality.Seed(files=(("src/billing/pay.py", "v1\n"), ("src/auth/login.py", "v2\n")))
    outcome = reality.run(command, seed)
    assert "src/billing/pay.py" in outcome.paths, outcome.describe()
    team = _team(project)
    team.launch("a1", "Billing.\nIntent: shared")
    team.launch("a2", "Other.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    team.read("a2", "src/billing/pay.py")
    assert team.bash("a2", command) == "FILE_LEASED"


# ---- a directive after a line break that is not a newline ------------------------------------


def _agent_code(team: Team, prompt: str) -> str | None:
    pre = team.payload("PreToolUse", "Agent", {"description": "w", "prompt": prompt}, None)
    out = run_hook(pre, team.env)[1]
    if out is None:
        return None
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    return str(json.loads(reason.rsplit("\n", 1)[-1])["error"])


@pytest.mark.parametrize("brk", ["\r", "\u2028", "\u2029", "\x0c", "\x0b", "\x85"])
@pytest.mark.parametrize("key", ["Intent: shared", "Scope: src/billing/**", "scope: src/**"])
def test_a_directive_after_a_hidden_line_break_is_refused(
    project: Path, brk: str, key: str
) -> None:
    """`Fix the rounding.\rIntent: shared`: a terminal shows `Intent: shared` on a line of
    its own (the CR returns to the line's start), but the parser read one line of prose and
    started the subagent unnarrowed."""
    team = _team(project, "off")
    assert _agent_code(team, f"Fix the rounding.{brk}{key}\nMore text.") == "DELEGATION_INVALID"


@pytest.mark.parametrize("brk", ["\r", "\u2028"])
def test_a_scope_hidden_in_a_run_line_is_refused(project: Path, brk: str) -> None:
    """`Run: make\rScope: src/billing/**` was read as the command `make Scope: ...` and no
    Scope: line: the subagent ran held to the intent's `src/**` only."""
    team = _team(project, "off")
    prompt = f"Fix it.\nIntent: shared\nRun: make{brk}Scope: src/billing/**"
    assert _agent_code(team, prompt) == "DELEGATION_INVALID"


@pytest.mark.parametrize(
    "prompt",
    [
        "Fix it.\r\nIntent: shared\r\nScope: src/billing/**\r\n",  # CRLF: lines
        "Fix it.\rThe intent: we need it fast.",  # prose after the break
        "Fix it.\u2028**Scope:** only the billing module",
        "Fix it.\x0cNext page.",
    ],
    ids=["crlf", "prose", "bold-prose", "form-feed"],
)
def test_what_a_hidden_line_break_leaves_alone(project: Path, prompt: str) -> None:
    team = _team(project, "off")
    assert _agent_code(team, prompt) is None


# ---- a narrowed subagent's questions through MCP tools -----------------------------------------

READERS = [
    ("mcp__fs__read_file", "path"),
    ("mcp__filesystem__read_text_file", "path"),
    ("mcp__pyright__hover", "file"),
    ("mcp__language-server__references", "file_path"),
    ("mcp__serena__get_symbols_overview", "relative_path"),
]


@pytest.mark.parametrize(("tool", "key"), READERS)
def test_a_narrowed_subagent_may_read_outside_its_scope_through_mcp(
    project: Path, tool: str, key: str
) -> None:
    """A subagent held to `src/billing/**` read `src/auth/login.py` with `mcp__fs__read_file`
    (or asked a language server about it): DELEGATION_SCOPE, as if it wrote it. ADR 0081 had
    lifted this for `write_scope`; the delegation's scope still judged every path argument."""
    team = _team(project, "off")
    team.launch("a1", "Billing.\nIntent: shared\nScope: src/billing/**")
    assert team.call("a1", tool, {key: str(project / "src/auth/login.py")}) == "-"
    assert team.call("a1", tool, {key: "src/auth/login.py"}) == "-"


@pytest.mark.parametrize(("tool", "key"), READERS[:2])
def test_reading_another_subagents_file_through_mcp_is_no_write_of_it(
    project: Path, tool: str, key: str
) -> None:
    """a2 read a1's leased file through an MCP read tool: FILE_LEASED; and had it gone
    through, its PostToolUse recorded a2 as writing the file, so a1's next write of its own
    file was STALE_FILE."""
    team = _team(project, "enforce")
    team.launch("a1", "Billing.\nIntent: shared")
    team.launch("a2", "Auth.\nIntent: shared")
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.call("a2", tool, {key: str(project / "src/billing/pay.py")}) == "-"
    assert team.write("a1", "src/billing/pay.py") == "-"


@pytest.mark.parametrize("tool", ["mcp__fs__write_file", "mcp__fs__edit_file", "mcp__x__save"])
def test_an_mcp_tool_that_says_it_changes_files_is_still_judged(project: Path, tool: str) -> None:
    """Controls: a tool whose name says it writes meets the scope and the leases."""
    team = _team(project, "enforce")
    team.launch("a1", "Billing.\nIntent: shared\nScope: src/billing/**")
    team.launch("a2", "Auth.\nIntent: shared")
    assert team.call("a1", tool, {"path": str(project / "src/auth/login.py")}) == (
        "DELEGATION_SCOPE"
    )
    assert team.write("a1", "src/billing/pay.py") == "-"
    assert team.call("a2", tool, {"path": str(project / "src/billing/pay.py")}) == "FILE_LEASED"


# ---- `find DIR -exec CMD {} +` in a delegated folder --------------------------------------------

FIND_SED = "find src/billing -name '*.py' -exec sed -i s/v1/v2/ {} +"


@pytest.mark.parametrize(
    ("scope", "command"),
    [
        ("src/billing/**", FIND_SED),
        ("src/billing/**", "find src/billing -type f -exec sed -i s/v1/v2/ {} \\;"),
        ("src/billing", "find src/billing -exec rm -rf {} +"),  # the folder itself is held
        ("src/**", "find src/billing src/auth -name '*.py' -exec sed -i s/v1/v2/ {} +"),
    ],
)
def test_a_find_exec_in_a_delegated_folder_goes_through(
    project: Path, scope: str, command: str
) -> None:
    """A subagent held to `src/billing/**` ran a refactor over its own folder with `find
    ... -exec sed -i ... {} +`: DELEGATION_SCOPE ("name each file"), though every file it can
    reach is in its scope (as `sed -i ... src/billing/*.py` already went through)."""
    seed = reality.Seed(files=(("src/billing/pay.py", "v1\n"), ("src/auth/login.py", "v1\n")))
    changed = reality.run(command, seed).paths
    assert changed and all(p.startswith(("src/billing", "src/auth")) for p in changed)
    team = _team(project, "off")
    team.launch("a1", f"Billing.\nIntent: shared\nScope: {scope}")
    assert team.bash("a1", command) == "-"


@pytest.mark.parametrize(
    ("scope", "command"),
    [
        ("src/billing/**", "find src -name '*.py' -exec sed -i s/v1/v2/ {} +"),  # src: wider
        ("src/billing/**", "find src/billing src/auth -exec sed -i s/v1/v2/ {} +"),
        ("src/billing/**", "find -L src/billing -exec sed -i s/v1/v2/ {} +"),  # follows links
        ("src/billing/**", "cd src && find billing -exec sed -i s/v1/v2/ {} +"),
        ("src/billing/**", "find src/billing -exec rm -rf {} +"),  # deletes the folder too
        ("src/billing/**, !src/billing/secret/**", FIND_SED),  # an exclusion below
    ],
)
def test_a_find_exec_that_reaches_outside_is_still_refused(
    project: Path, scope: str, command: str
) -> None:
    team = _team(project, "off")
    team.launch("a1", f"Billing.\nIntent: shared\nScope: {scope}")
    assert team.bash("a1", command) == "DELEGATION_SCOPE"


def test_a_find_exec_over_a_folder_with_a_link_out_is_refused(project: Path) -> None:
    """Control: a link in the folder could take the write out of it (ADR 0080)."""
    (project / "src/billing").mkdir(parents=True, exist_ok=True)
    (project / "src/billing/out.py").symlink_to(project / "src/auth/login.py")
    team = _team(project, "off")
    team.launch("a1", "Billing.\nIntent: shared\nScope: src/billing/**")
    assert team.bash("a1", FIND_SED) == "DELEGATION_SCOPE"
