"""Delegation contracts attacked a fifth time (ADR 0073), through the hook shell in process
with a real state store: a subagent's write at a place its command's text does not fix, a
write of a folder that holds another subagent's file, and what a refused call had claimed.
The Bash rows that say where a command writes are run for real (``reality``)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import reality
from conftest import run_hook

from orchestrator_boundary.ledger import StoreLedger, after, before
from orchestrator_boundary.paths import Located
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.state import Store, state_path

CONFIG = """\
phase = "enforce"

[intents."auth"]
owned_scope = ["src/auth/**", "tests/auth/**"]
description = "login fix"

[intents."billing"]
owned_scope = ["src/billing/**"]

[delegation]
leases = "{leases}"
"""

_ids = itertools.count()


class Team:
    """One session in a project: the main agent's Agent calls, its subagents' calls."""

    def __init__(self, project: Path, leases: str = "off") -> None:
        self.project = project
        (project / ".claude" / "boundary.toml").write_text(CONFIG.format(leases=leases))
        self.env = {"CLAUDE_PROJECT_DIR": str(project), "HOME": str(project.parent / "home")}
        for rel in ("src/auth/login.py", "src/auth/forms.py", "src/billing/pay.py"):
            (project / rel).parent.mkdir(parents=True, exist_ok=True)
            (project / rel).write_text("v1\n")

    def payload(self, event: str, tool: str, tool_input: Any, agent: str | None) -> dict:
        data: dict[str, Any] = {
            "session_id": "s1",
            "transcript_path": str(self.project.parent / "sess.jsonl"),
            "cwd": str(self.project),
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": f"t{next(_ids)}",
        }
        if agent:
            data.update(agent_id=agent, agent_type="general-purpose")
        return data

    def launch(self, agent: str, prompt: str) -> None:
        """A background Agent call: its PostToolUse names the subagent at once."""
        agent_input = {"description": f"work {agent}", "prompt": prompt}
        pre = self.payload("PreToolUse", "Agent", agent_input, None)
        assert run_hook(pre, self.env)[1] is None
        resp = {"status": "async_launched", "agentId": agent}
        post = {**pre, "hook_event_name": "PostToolUse", "tool_response": resp}
        run_hook(post, self.env, "PostToolUse")

    def call(self, agent: str | None, tool: str, tool_input: dict[str, Any]) -> str:
        """The call's code ("-": let through); a call let through runs (its PostToolUse)."""
        pre = self.payload("PreToolUse", tool, tool_input, agent)
        out = run_hook(pre, self.env)[1]
        if out is None:
            run_hook({**pre, "hook_event_name": "PostToolUse", "tool_response": {}}, self.env,
                     "PostToolUse")  # fmt: skip
            return "-"
        return str(json.loads(out["hookSpecificOutput"]["permissionDecisionReason"]
                              .rsplit("\n", 1)[-1])["error"])  # fmt: skip

    def bash(self, agent: str | None, command: str) -> str:
        return self.call(agent, "Bash", {"command": command})

    def write(self, agent: str | None, rel: str) -> str:
        return self.call(agent, "Write", {"file_path": str(self.project / rel), "content": "x"})

    def read(self, agent: str, rel: str) -> None:
        read = self.payload("PostToolUse", "Read", {"file_path": str(self.project / rel)}, agent)
        run_hook({**read, "tool_response": {}}, self.env, "PostToolUse")


# ---- 1. a write the command's text does not place ------------------------------------------

UNPLACED = [
    "patch -p0 < fix.diff",
    "patch -p1 -i fix.diff",
    'cp src/auth/login.py "src/billing/$NAME"',
    "cp src/auth/login.py src/billing/*",
    "sed -i s/v1/v2/ src/*/*.py",
]


@pytest.mark.parametrize("command", UNPLACED)
def test_a_write_the_text_does_not_place_is_outside_a_delegation(
    project: Path, command: str
) -> None:
    """The Bash analysis knows these write, not where: the write rules leave such a target
    to a subagent's profile, and the contract rules skipped it, so a subagent delegated
    `src/auth/**` could rewrite src/billing (or anything a diff names) with them."""
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth")
    assert team.bash("a1", command) == "DELEGATION_SCOPE"


@pytest.mark.parametrize("command", UNPLACED)
def test_a_subagent_no_delegation_narrows_keeps_its_verdict(project: Path, command: str) -> None:
    """Control: a subagent started without an intent or a Scope: line is not narrowed."""
    team = Team(project)
    team.launch("a1", "Look around and fix what is broken.")
    assert team.bash("a1", command) == "-"


@pytest.mark.parametrize(
    "command",
    [
        "sed -i s/v1/v2/ src/auth/login.py src/auth/forms.py",
        "cp src/auth/login.py src/auth/login_old.py",
        "patch src/auth/login.py fix.diff",
        "python -m pytest -q tests/auth",
    ],
)
def test_named_writes_inside_the_scope_go_through(project: Path, command: str) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth")
    assert team.bash("a1", command) == "-"


def test_the_refusal_says_to_name_the_files(project: Path) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth\nScope: src/auth/**")
    pre = team.payload("PreToolUse", "Bash", {"command": "sed -i s/a/b/ src/*/login.py"}, "a1")
    reason = run_hook(pre, team.env)[1]["hookSpecificOutput"]["permissionDecisionReason"]  # type: ignore[index]
    assert "Name each file the command changes" in reason
    assert "the target cannot be determined from the command text" in reason


DIFF = "--- src/billing/pay.py\n+++ src/billing/pay.py\n@@ -1 +1 @@\n-v1\n+v2\n"
PROJECT_FILES = (("src/auth/login.py", "v1\n"), ("src/billing/pay.py", "v1\n"), ("fix.diff", DIFF))


@pytest.mark.parametrize(
    ("command", "changed"),
    [
        ("patch -p0 < fix.diff", "src/billing/pay.py"),
        ("patch -p0 -i fix.diff", "src/billing/pay.py"),
        ('NAME=pay.py; cp src/auth/login.py "src/billing/$NAME"', "src/billing/pay.py"),
        ("cp src/auth/login.py src/billing/*", "src/billing/pay.py"),
        ("cp -r src/auth/. src/billing", "src/billing/login.py"),
        ("mkdir t && tar -cf t.tar -C src/auth . && tar -C src/billing -xf t.tar",
         "src/billing/login.py"),
    ],
)  # fmt: skip
def test_the_rows_write_where_they_are_said_to(command: str, changed: str) -> None:
    """Reality: the command changes a file its text does not name (or names only by its
    folder), in a throwaway folder."""
    outcome = reality.run(command, reality.Seed(files=PROJECT_FILES))
    assert not outcome.timed_out, outcome.describe()
    assert changed in outcome.paths, outcome.describe()


# ---- 2. a write of a folder holds the files in it --------------------------------------------

FOLDER_WRITES = [
    "cp -r src/auth/. src/billing",
    "rsync -a src/auth/ src/billing/",
    "tar -C src/billing -xf t.tar",
    "unzip -o t.zip -d src/billing",
    "git checkout HEAD -- src/billing",
]
SHARED = """\
phase = "enforce"

[intents."shared"]
owned_scope = ["src/**"]

[delegation]
leases = "{leases}"
"""


def _two_on_one_intent(project: Path, leases: str) -> Team:
    team = Team(project, leases)
    (project / ".claude" / "boundary.toml").write_text(SHARED.format(leases=leases))
    team.launch("a1", "Bring the billing helpers over.\nIntent: shared")
    team.launch("a2", "Fix the payment rounding.\nIntent: shared")
    return team


@pytest.mark.parametrize("first", FOLDER_WRITES)
@pytest.mark.parametrize(
    ("leases", "code"), [("enforce", "FILE_LEASED"), ("off", "STALE_FILE")], ids=["leases", "off"]
)
def test_another_subagents_write_of_the_folder_holds_its_files(
    project: Path, first: str, leases: str, code: str
) -> None:
    """a1 wrote the folder src/billing (every file in it); a2's write of src/billing/pay.py
    was neither FILE_LEASED nor STALE_FILE: the lease and the record were at `src/billing`,
    and both rules only looked at the file and below it."""
    team = _two_on_one_intent(project, leases)
    assert team.bash("a1", first) == "-"
    assert team.write("a2", "src/billing/pay.py") == code
    assert team.bash("a2", "echo v3 > src/billing/pay.py") == code


def test_reading_the_file_again_clears_the_folder_write(project: Path) -> None:
    """Control (leases off): a2 reads pay.py after a1's folder write, then writes it."""
    team = _two_on_one_intent(project, "off")
    assert team.bash("a1", "cp -r src/auth/. src/billing") == "-"
    team.read("a2", "src/billing/pay.py")
    assert team.bash("a2", "echo v3 > src/billing/pay.py") == "-"
    assert team.write("a2", "src/auth/forms.py") == "-"  # outside the folder a1 wrote


@pytest.mark.parametrize("leases", ["off", "enforce"])
def test_the_readme_two_subagent_delegation_goes_through(project: Path, leases: str) -> None:
    """Control: README's example, two intents delegated side by side; each writes, formats
    and tests its own folder, and the main agent commits after them."""
    team = Team(project, leases)
    team.launch("a1", "Fix the login bug.\nIntent: auth")
    team.launch("a2", "Fix the rounding.\nIntent: billing")
    steps = [
        ("a1", "write", "src/auth/login.py"),
        ("a2", "write", "src/billing/pay.py"),
        ("a1", "bash", "mkdir -p tests/auth && touch tests/auth/test_login.py"),
        ("a2", "bash", "sed -i s/v1/v2/ src/billing/pay.py"),
        ("a1", "bash", "cp -r src/auth/. tests/auth/fixtures"),
        ("a2", "write", "src/billing/new.py"),
        ("a1", "write", "src/auth/forms.py"),
        ("a1", "bash", "python -m pytest -q tests/auth"),
    ]
    for agent, how, arg in steps:
        got = team.write(agent, arg) if how == "write" else team.bash(agent, arg)
        assert got == "-", (agent, arg, got)


# ---- 3. a refused call claims nothing -------------------------------------------------------


@pytest.mark.parametrize(
    ("leases", "first"),
    [
        ("enforce", "echo a > src/billing/new.py && echo b > src/auth/x.py"),
        ("enforce", "echo a > src/billing/new.py; echo b > docs/x.md"),
        ("off", "echo a > src/billing/new.py && echo b > src/auth/x.py"),
    ],
)
def test_a_refused_call_leaves_no_lease_and_no_running_write(
    project: Path, leases: str, first: str
) -> None:
    """a1 (`Scope: src/billing/**`) is refused at its command's second file: the first had
    already been leased to it and marked as its running write, and stayed so: a2's write of
    src/billing/new.py, a file a1 never changed, was FILE_LEASED ("which changed it") until
    a1 stopped, or STALE_FILE ("a write still running")."""
    team = Team(project, leases)
    (project / ".claude" / "boundary.toml").write_text(SHARED.format(leases=leases))
    team.launch("a1", "Add the invoice model.\nIntent: shared\nScope: src/billing/**")
    team.launch("a2", "Fix the rounding.\nIntent: shared")
    assert team.bash("a1", first) == "DELEGATION_SCOPE"
    assert team.bash("a2", "echo c > src/billing/new.py") == "-"


def test_an_accepted_write_still_holds_its_file(project: Path) -> None:
    """Control: a1's write that goes ahead keeps its lease against a2."""
    team = Team(project, "enforce")
    (project / ".claude" / "boundary.toml").write_text(SHARED.format(leases="enforce"))
    team.launch("a1", "Add the invoice model.\nIntent: shared\nScope: src/billing/**")
    team.launch("a2", "Fix the rounding.\nIntent: shared")
    assert team.bash("a1", "echo a > src/billing/new.py") == "-"
    assert team.bash("a2", "echo c > src/billing/new.py") == "FILE_LEASED"


def test_a_refused_write_gives_back_the_row_it_replaced(tmp_path: Path) -> None:
    """The agent's own record of the file (what it read) comes back: its next write is judged
    against the content it saw, as before the refused call."""
    trail = str(tmp_path / "b" / "audit.jsonl")
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "f.py").write_text("seen\n")
    f = Located(str(root / "src/f.py"), (str(root / "src/f.py"),), ("src/f.py",), "")

    def ledger(event: str) -> StoreLedger:
        payload = HookPayload(hook_event_name=event, session_id="s", transcript_path="",
                              cwd=str(root), agent_id="a", agent_type="coder", tool_name="Bash")  # fmt: skip
        return StoreLedger(trail, payload, False, "enforce", str(root))

    from orchestrator_boundary.contracts import Contracts

    contracts = Contracts({}, {}, leases="enforce")
    after(contracts, HookPayload(hook_event_name="PostToolUse", session_id="s", agent_id="a",
                                 tool_name="Read"), ledger("PostToolUse"), f, ())  # fmt: skip
    store = Store(state_path(trail))
    saw = store.seen("s", "a", "src/f.py")
    pre = ledger("PreToolUse")
    assert pre.lease(f) is None and pre.unseen_write(f) == ""  # both claimed
    assert store.lease("s", "src/f.py") is not None
    before(contracts, pre.payload, pre, denied=True)
    assert store.seen("s", "a", "src/f.py") == saw
    assert store.lease("s", "src/f.py") is None


# ---- 4. a subagent's foreground subagent ----------------------------------------------------


def _nested(team: Team, meta: dict[str, Any]) -> str:
    """a1 (Intent: auth) starts c1 in the foreground: no PostToolUse names c1 while it runs,
    only its meta.json (Claude Code 2.1.330 writes agentType, toolUseId, spawnDepth, no
    parent). c1's write outside a1's scope."""
    team.launch("a1", "Fix the login.\nIntent: auth")
    agent_input = {"description": "helper", "prompt": "Fix the forms.\nScope: src/auth/forms.py",
                   "run_in_background": False}  # fmt: skip
    pre = team.payload("PreToolUse", "Agent", agent_input, "a1")
    assert run_hook(pre, team.env)[1] is None
    folder = team.project.parent / "sess" / "subagents"
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"agentType": "general-purpose", "toolUseId": pre["tool_use_id"], **meta}
    (folder / "agent-c1.meta.json").write_text(json.dumps(meta))
    return team.write("c1", "src/billing/pay.py")


@pytest.mark.parametrize(
    "meta", [{"spawnDepth": 2}, {"spawnDepth": 2, "parentAgentId": "a1"}], ids=["cli", "named"]
)
def test_a_foreground_subagent_of_a_subagent_keeps_its_parents_scope(
    project: Path, meta: dict[str, Any]
) -> None:
    """The meta.json names no parent, the Agent call names a1: the record was unknown ("its
    meta.json names parent None"), so c1 was not narrowed at all and wrote src/billing."""
    assert _nested(Team(project), meta) == "DELEGATION_SCOPE"


def test_a_meta_file_that_names_another_parent_is_still_not_believed(project: Path) -> None:
    """Control: a parent the meta.json names and the Agent call does not stays a disagreement
    (an unknown record, ADR 0050), and with `require` every write of it is refused."""
    team = Team(project)
    config = (project / ".claude" / "boundary.toml").read_text()
    (project / ".claude" / "boundary.toml").write_text(config + "require = true\n")
    assert _nested(team, {"spawnDepth": 2, "parentAgentId": "zz"}) == "DELEGATION_SCOPE"


# ---- 5. Scope: lines spelled oddly -----------------------------------------------------------

DECORATED = [
    "**Scope:** `src/auth/**`, `tests/auth/**`",
    "- Scope: src\\auth\\**",
    "- Scope: ./src/auth/**",
    "  Scope: {src,tests}/auth/**",
    '- Scope: "src/auth/**"',
    "## Scope: C:/proj/src/auth/**",
    "> Scope: ~/proj/src/auth/**",
    '- Intent: "auth"',
]


@pytest.mark.parametrize("line", DECORATED)
def test_a_decorated_directive_in_a_refused_spelling_refuses_the_call(line: str) -> None:
    """A line a person reads as a contract, holding patterns, is refused rather than ignored
    (ADR 0050); one whose patterns were back-ticked each, quoted, or spelled with `\\`, `./`,
    `~`, braces or a drive letter was read as prose: the subagent ran unnarrowed."""
    from orchestrator_boundary.contracts import Breach, Contracts, check_launch

    got = check_launch(Contracts({}, {}), f"Fix the login.\n{line}", None, None)
    assert isinstance(got, Breach) and "plainly at the start of a line" in got.reason, got


@pytest.mark.parametrize(
    "line",
    [
        "**Scope:** only the auth module",
        "- Scope: the login flow, nothing else",
        "Scope of work: the login form",
        "**Scope:**",
    ],
)
def test_prose_after_a_scope_word_stays_prose(line: str) -> None:
    from orchestrator_boundary.contracts import Contracts, Launch, check_launch

    got = check_launch(Contracts({}, {}), f"Fix the login.\n{line}", None, None)
    assert isinstance(got, Launch) and not got.scope.sets, got


@pytest.mark.parametrize("pattern", [".", "./src/**", "src/./auth/**", "src//auth/**", "src/a/."])
def test_a_scope_pattern_with_a_dot_or_empty_folder_is_refused(pattern: str) -> None:
    """Patterns are compared with resolved paths: `./src/**` matched no file, so every write
    of the subagent was refused (a delegation lost to a spelling)."""
    from orchestrator_boundary.contracts import Breach, Contracts, check_launch

    got = check_launch(Contracts({}, {}), f"Fix it.\nScope: {pattern}", None, None)
    assert isinstance(got, Breach) and "without './'" in got.reason, got


@pytest.mark.parametrize("pattern", [".github/**", "src/.hidden/**", ".env.example", "/src/**"])
def test_dot_names_are_still_patterns(pattern: str) -> None:
    from orchestrator_boundary.contracts import Contracts, Launch, check_launch

    got = check_launch(Contracts({}, {}), f"Fix it.\nScope: {pattern}", None, None)
    assert isinstance(got, Launch), got


# ---- 6. trace: a write through a folder, a name in another case ------------------------------


def test_trace_lists_a_write_through_the_files_folder(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """a1's `cp -r` into src/billing rewrote pay.py; the trail names the folder. `trace
    src/billing/pay.py` said "no agent's write of this file is in the trail" (exit 3)."""
    from orchestrator_boundary.cli import main

    team = _two_on_one_intent(project, "off")
    assert team.bash("a1", "cp -r src/auth/. src/billing") == "-"
    monkeypatch.chdir(project)
    assert main(["trace", "src/billing/pay.py", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(c["who"], c["through"]) for c in data["changes"]] == [
        ("subagent general-purpose (a1)", "src/billing"),
    ]
    assert "through its folder src/billing" in data["finding"]
    team.read("a2", "src/billing/pay.py")
    assert team.write("a2", "src/billing/pay.py") == "-"
    assert main(["trace", "src/billing/pay.py", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["through"] for c in data["changes"]] == ["src/billing", None]
    assert "last recorded write" in data["finding"]


def test_trace_reads_names_as_a_case_insensitive_disk_does() -> None:
    """On macOS and Windows `src/App.py` and `SRC/app.py` are one file: a write recorded under
    one spelling was lost to `trace` under the other."""
    from orchestrator_boundary.cmd_trace import changes

    records = [
        {"event": "PostToolUse", "trace": [{"path": "SRC/app.py", "sha256": "x"}]},
        {"event": "PostToolUse", "trace": [{"path": "Src", "sha256": None}]},
    ]
    assert len(changes(records, {"src/App.py"}, {"src"}, insensitive=True)) == 2
    assert changes(records, {"src/App.py"}, {"src"}, insensitive=False) == []


# ---- 7. leases = "warn" notes only what enforce would refuse ----------------------------------


# A glob (`sed -i ... src/billing/*.py`) is keyed by its matches since ADR 0080: warn notes
# it (tests/test_contracts_r11_attack.py::test_warn_notes_a_lease_a_glob_would_meet).
@pytest.mark.parametrize("command", ['cp x "src/billing/$N"'])
def test_warn_notes_no_lease_for_a_write_the_text_does_not_place(
    project: Path, command: str
) -> None:
    """enforce cannot key such a write (no FILE_LEASED); warn looked its text up as a file
    name, found a1's lease of the folder (`src/billing/*.py` is inside `src/billing`), noted
    a conflict `report` counts, and leased the text itself to a2."""
    team = Team(project, "warn")
    team.launch("a1", "Bring the helpers over.")
    team.launch("a2", "Fix the rounding.")
    assert team.bash("a1", "cp -r src/auth/. src/billing") == "-"
    pre = team.payload("PreToolUse", "Bash", {"command": command}, "a2")
    assert run_hook(pre, team.env)[1] is None
    trail = project / ".claude" / "boundary" / "audit.jsonl"
    assert "leased_to" not in json.loads(trail.read_text().splitlines()[-1])
    store = Store(state_path(str(trail)))
    assert store.lease("s1", "src/billing") is not None  # a1's own stays
    assert store.lease("s1", command.split()[-1]) is None


GIT = """\
phase = "enforce"

[intents."shared"]
owned_scope = ["src/**", ".git", ".git/**"]

[delegation]
leases = "{leases}"
"""


@pytest.mark.parametrize("leases", ["off", "enforce"])
def test_a_git_command_after_another_subagents_commit_is_no_overwrite(
    project: Path, leases: str
) -> None:
    """Control for the folder rule: git writes and locks its repository folder itself (ADR
    0065), so a1's `git commit` does not hold `.git/config` against a2's `git config`."""
    team = Team(project, leases)
    (project / ".claude" / "boundary.toml").write_text(GIT.format(leases=leases))
    team.launch("a1", "Commit the login fix.\nIntent: shared")
    team.launch("a2", "Set up the remote.\nIntent: shared")
    for agent, command in [
        ("a1", "git add src/auth/login.py"),
        ("a1", "git commit -qm login"),
        ("a2", "git config user.email a2@example.com"),
        ("a2", "git remote add origin https://example.com/r.git"),
        ("a2", "git commit -qm remote --allow-empty"),
    ]:
        assert team.bash(agent, command) == "-", (agent, command)


def test_a_new_file_in_a_folder_another_subagent_wrote_is_no_overwrite(project: Path) -> None:
    """Control for the folder rule: a2 adds a new test beside the fixtures a1 copied in; no
    file of a1's is there to overwrite, so the folder does not hold it (leases on)."""
    team = _two_on_one_intent(project, "enforce")
    assert team.bash("a1", "cp -r src/auth/. src/billing") == "-"
    assert team.write("a2", "src/billing/test_new.py") == "-"
    assert team.write("a2", "src/billing/pay.py") == "FILE_LEASED"


# ---- 8. git pathspec magic ------------------------------------------------------------------

MAGIC = [
    "cd src/auth && git checkout -- ':/*.py'",
    "git -C src/auth checkout HEAD -- ':/'",
    "cd src/auth && git restore --source=HEAD -- ':(top)src/billing'",
    "cd src/auth && git checkout -- ':(top,glob)**/*.py'",
    "cd src/auth && git checkout -- ':!login.py'",
]


@pytest.mark.parametrize("command", MAGIC)
def test_a_git_pathspec_with_magic_is_outside_a_delegation(project: Path, command: str) -> None:
    """`:/` and `:(top)` make a pathspec start at the top of the repository, `:!` names what
    it leaves out: the analysis read `src/auth/:/*.py` as a file inside `src/auth/**`, so a
    subagent delegated src/auth rewrote every file of the repository from there."""
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth")
    # ':/' alone is the whole repository from its top, which holds the settings (ADR 0074)
    assert team.bash("a1", command) in ("DELEGATION_SCOPE", "TAMPER")


@pytest.mark.parametrize(
    "command",
    [
        "git checkout -- src/auth/login.py",
        "cd src/auth && git checkout -- login.py",
        "git -C src/auth restore login.py",
    ],
)
def test_a_plain_git_pathspec_inside_the_scope_goes_through(project: Path, command: str) -> None:
    team = Team(project)
    team.launch("a1", "Fix the login.\nIntent: auth")
    assert team.bash("a1", command) == "-"


def test_a_pathspec_from_the_top_rewrites_a_file_outside_the_folder() -> None:
    """Reality: from src/auth, `git checkout -- ':/*.py'` restores src/billing/pay.py."""
    seed = reality.Seed(git=True, files=PROJECT_FILES[:2], setup="echo v9 > src/billing/pay.py")
    outcome = reality.run("cd src/auth && git checkout -- ':/*.py'", seed)
    assert not outcome.timed_out, outcome.describe()
    assert "src/billing/pay.py" in outcome.paths, outcome.describe()


TAMPER_MAGIC = [
    "git checkout HEAD -- ':(top).claude/settings.json'",
    "cd src && git checkout HEAD -- ':(top,glob).claude/*.json'",
    "git checkout HEAD -- ':(icase).CLAUDE/SETTINGS.JSON'",
    "git rm -q ':(top).claude/settings.json'",
]


@pytest.mark.parametrize("command", TAMPER_MAGIC)
def test_a_pathspec_with_magic_naming_the_settings_is_tamper(project: Path, command: str) -> None:
    """A subagent no delegation narrows restored or deleted .claude/settings.json through
    pathspec magic: the analysis named `:(top).claude/settings.json`, which no protected
    pattern matches. bash/git_pathspec.py reads the magic now (ADR 0074)."""
    team = Team(project)
    team.launch("a1", "Tidy up the repository.")
    assert team.bash("a1", command) == "TAMPER"


@pytest.mark.parametrize("command", TAMPER_MAGIC[:3])
def test_the_magic_pathspecs_restore_the_settings(command: str) -> None:
    """Reality: each restores .claude/settings.json from HEAD."""
    files = ((".claude/settings.json", '{"hooks": {}}\n'), ("src/a.py", "x\n"))
    seed = reality.Seed(git=True, files=files, setup="echo {} > .claude/settings.json")
    outcome = reality.run(command, seed)
    assert ".claude/settings.json" in outcome.paths, outcome.describe()
