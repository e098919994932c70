"""Issue 6.1: no agent may change what guards the agents (ADR 0010).

Every test goes through the hook shell (``shell.evaluate``) against a real project in
tmp_path, so the protected set is the one the shell really builds.
"""

from __future__ import annotations

import json
import os
import sysconfig
from pathlib import Path

import pytest
from harden_support import WIDE_OPEN, Project, make_project, parse_answer

from orchestrator_boundary import bash as bash_mod
from orchestrator_boundary import shell, wire
from orchestrator_boundary.bash.model import BashAnalysis, Command, Effect, EffectKind, Status


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


# (label, how to build the absolute path from the project)
TARGETS = {
    "project settings": lambda p: p.root / ".claude/settings.json",
    "project local settings": lambda p: p.root / ".claude/settings.local.json",
    "user settings": lambda p: p.home / ".claude/settings.json",
    "boundary config": lambda p: p.root / ".claude/boundary.toml",
    "audit trail": lambda p: p.audit,
    "rotated audit file": lambda p: Path(f"{p.audit}.3"),
    "audit folder file": lambda p: p.root / ".claude/boundary/other.jsonl",
    "package module": lambda p: Path(wire.PACKAGE_DIR) / "policy.py",
    "package new file": lambda p: Path(wire.PACKAGE_DIR) / "evil.py",
    "hook entry script": lambda p: Path(wire.PACKAGE_DIR).parents[1] / "hooks/hook.py",
    "agent definition": lambda p: p.root / ".claude/agents/coder.md",
    "new agent definition": lambda p: p.root / ".claude/agents/new.md",
    "user agent definition": lambda p: p.home / ".claude/agents/mine.md",
    ".env": lambda p: p.root / ".env",
    ".envrc": lambda p: p.root / ".envrc",
    "committed launcher": lambda p: p.root / ".claude/orchestrator-boundary/launch.sh",
    "user trail folder": lambda p: p.home / ".claude/orchestrator-boundary/projects/x/audit.jsonl",
}

TOOLS = {
    "Write": lambda f: ("Write", {"file_path": f, "content": "{}"}),
    "Edit": lambda f: ("Edit", {"file_path": f, "old_string": "a", "new_string": "b"}),
    "MultiEdit": lambda f: (
        "MultiEdit",
        {"file_path": f, "edits": [{"old_string": "a", "new_string": "b"}]},
    ),
    "NotebookEdit": lambda f: ("NotebookEdit", {"notebook_path": f, "new_source": "x"}),
}

CALLERS = {"main": None, "coder": "coder", "general-purpose": "general-purpose"}


def _tamper(project: Project, target: str, tool: str, caller: str, phase: str, **env: str):
    name, tool_input = TOOLS[tool](str(TARGETS[target](project)))
    return project.judge(
        name, tool_input, agent=CALLERS[caller], env={"ORCHESTRATOR_BOUNDARY_PHASE": phase, **env}
    )


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("tool", list(TOOLS))
def test_every_write_tool_is_denied_on_every_protected_file(
    project: Project, target: str, tool: str
) -> None:
    for caller in CALLERS:
        for phase in ("warn", "ask", "enforce"):
            decision, code, answer = _tamper(project, target, tool, caller, phase)
            assert (decision, code) == ("deny", "TAMPER"), (caller, phase)
            out = parse_answer(answer)
            assert out is not None
            assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
            assert '"recoverable": false' in out["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize("target", list(TARGETS))
def test_scopes_that_cover_the_file_do_not_open_it(project: Project, target: str) -> None:
    project.configure(WIDE_OPEN)
    for caller in CALLERS:
        for tool in TOOLS:
            assert _tamper(project, target, tool, caller, "enforce")[:2] == ("deny", "TAMPER")
    # and the wide scopes really are wide: an ordinary file goes through for everyone
    for caller in CALLERS:
        assert project.judge(
            "Write",
            {"file_path": str(project.root / "x.txt"), "content": ""},
            agent=CALLERS[caller],
            env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
        )[:2] == ("none", None)


@pytest.mark.parametrize("caller", list(CALLERS))
def test_off_phase_records_but_does_not_deny(project: Project, caller: str) -> None:
    decision, code, answer = _tamper(project, "project settings", "Write", caller, "off")
    assert (decision, code, answer.stdout, answer.exit_code) == ("none", "TAMPER", "", 0)


def test_post_tool_use_blocks_after_the_fact_in_every_phase_but_off(project: Project) -> None:
    target = str(project.root / ".claude/settings.json")
    for phase in ("warn", "ask", "enforce"):
        data = project.payload("Write", {"file_path": target, "content": ""}, event="PostToolUse")
        answer, rec = project.call(
            data, env={"ORCHESTRATOR_BOUNDARY_PHASE": phase}, event="PostToolUse"
        )
        assert rec["code"] == "TAMPER" and rec["post_block"] is True
        assert parse_answer(answer)["decision"] == "block"  # type: ignore[index]


BYPASS = {"AMPLIFIER_BYPASS_BOUNDARY": "1"}


@pytest.mark.parametrize("caller", list(CALLERS))
def test_bypass_does_not_open_protected_files(project: Project, caller: str) -> None:
    for phase in ("warn", "ask", "enforce"):
        assert _tamper(project, "boundary config", "Edit", caller, phase, **BYPASS)[:2] == (
            "deny",
            "TAMPER",
        )


def test_bypass_opens_protected_files_only_when_configured(project: Project) -> None:
    project.configure(BASE_WITH_BYPASS_OPENS)
    decision, code, answer = _tamper(
        project, "boundary config", "Edit", "main", "enforce", **BYPASS
    )
    assert (decision, code) == ("none", "TAMPER")
    out = parse_answer(answer)
    assert out is not None and set(out) == {"systemMessage"}  # the user is told, nothing denied
    assert "bypassed" in out["systemMessage"]
    rec = json.loads(project.audit.read_text().splitlines()[-1])
    assert rec["bypassed"] is True
    # without the environment variable the setting alone opens nothing
    assert _tamper(project, "boundary config", "Edit", "main", "enforce")[:2] == ("deny", "TAMPER")


BASE_WITH_BYPASS_OPENS = """
[orchestrator]
write_allow = ["STATE.md"]

[protect]
bypass_opens = true
"""


def test_bypass_works_from_the_hook_environment(project: Project) -> None:
    """The control: the variable in the hook's own environment does bypass an ordinary rule."""
    src = str(project.root / "src/app.py")
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    assert project.judge("Write", {"file_path": src, "content": ""}, env=env)[:2] == (
        "deny",
        "ORCHESTRATOR_WRITE",
    )
    decision, code, _ = project.judge(
        "Write", {"file_path": src, "content": ""}, env={**env, **BYPASS}
    )
    assert (decision, code) == ("none", "ORCHESTRATOR_WRITE")


@pytest.mark.parametrize(
    "smuggle",
    [
        {"AMPLIFIER_BYPASS_BOUNDARY": "1"},
        {"env": {"AMPLIFIER_BYPASS_BOUNDARY": "1"}},
        {"environment": {"AMPLIFIER_BYPASS_BOUNDARY": "true"}},
        {"ORCHESTRATOR_BOUNDARY_PHASE": "off"},
        {"permission_mode": "bypassPermissions"},
    ],
)
def test_payload_fields_cannot_set_the_bypass_or_the_phase(project: Project, smuggle: dict) -> None:
    src = str(project.root / "src/app.py")
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    data = project.payload("Write", {"file_path": src, "content": "", **smuggle}, **smuggle)
    answer, rec = project.call(data, env=env)
    assert (rec["decision"], rec["code"], rec["bypassed"]) == ("deny", "ORCHESTRATOR_WRITE", False)
    assert parse_answer(answer)["hookSpecificOutput"]["permissionDecision"] == "deny"  # type: ignore[index]


def test_settings_env_is_not_read_by_the_hook(project: Project) -> None:
    """A settings file's ``env`` is Claude Code's business (which is why the file is protected);
    the hook reads the bypass from its own process environment only."""
    for f in (
        project.root / ".claude/settings.json",
        project.root / ".claude/settings.local.json",
        project.home / ".claude/settings.json",
    ):
        f.write_text(
            json.dumps(
                {"env": {"AMPLIFIER_BYPASS_BOUNDARY": "1", "ORCHESTRATOR_BOUNDARY_PHASE": "off"}}
            )
        )
    (project.root / ".env").write_text("AMPLIFIER_BYPASS_BOUNDARY=1\n")
    (project.root / ".envrc").write_text("export AMPLIFIER_BYPASS_BOUNDARY=1\n")
    src = str(project.root / "src/app.py")
    decision, code, _ = project.judge(
        "Write", {"file_path": src, "content": ""}, env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    )
    assert (decision, code) == ("deny", "ORCHESTRATOR_WRITE")
    rec = json.loads(project.audit.read_text().splitlines()[-1])
    assert rec["bypassed"] is False


@pytest.mark.parametrize("value", ["0", "false", "", "no", "off", " ", "2"])
def test_only_truthy_values_bypass(project: Project, value: str) -> None:
    src = str(project.root / "src/app.py")
    decision, code, _ = project.judge(
        "Write",
        {"file_path": src, "content": ""},
        env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce", "AMPLIFIER_BYPASS_BOUNDARY": value},
    )
    assert (decision, code) == ("deny", "ORCHESTRATOR_WRITE")


def test_config_named_by_the_environment_is_protected(project: Project, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere" / "policy.toml"
    other.parent.mkdir()
    other.write_text('[orchestrator]\nwrite_allow = ["**"]\n')
    env = {"ORCHESTRATOR_BOUNDARY_CONFIG": str(other), "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    for caller in CALLERS:
        decision, code, _ = project.judge(
            "Write", {"file_path": str(other), "content": ""}, agent=CALLERS[caller], env=env
        )
        assert (decision, code) == ("deny", "TAMPER")


def test_audit_trail_moved_by_config_is_protected_with_its_rotations(project: Project) -> None:
    project.configure('[audit]\npath = "logs/trail.jsonl"\n[agents.coder]\nwrite_scope = ["**"]\n')
    project.audit_rel = "logs/trail.jsonl"
    hidden = ("logs/.trail.jsonl-head", "logs/.trail.jsonl-lock", "logs/.trail.jsonl-spool-1")
    for name in ("logs/trail.jsonl", "logs/trail.jsonl.1", "logs/trail.jsonl.20", *hidden):
        f = str(project.root / name)
        for caller in CALLERS:
            _, rec = project.call(
                project.payload("Write", {"file_path": f, "content": ""}, agent=CALLERS[caller]),
                env={"ORCHESTRATOR_BOUNDARY_PHASE": "warn"},
            )
            assert (rec["decision"], rec["code"]) == ("deny", "TAMPER"), (name, caller)


def test_symlink_into_a_protected_file_is_protected(project: Project) -> None:
    link = project.root / "src" / "innocent.json"
    link.symlink_to(project.root / ".claude" / "settings.json")
    decision, code, _ = project.judge(
        "Write", {"file_path": str(link), "content": ""}, agent="coder"
    )
    assert (decision, code) == ("deny", "TAMPER")


def test_links_made_between_two_calls_are_seen_at_once(project: Project) -> None:
    """A long-lived process (the evaluator, replay) reuses its Setup for up to FS_TTL, but the
    target of each call is resolved live: a folder swapped for a symlink to .claude, or a file
    replaced by a hard link to the settings, right after a call that was fine, is TAMPER on the
    very next call."""
    folder, file = project.root / "src" / "gen", project.root / "src" / "notes.txt"
    folder.mkdir()
    file.write_text("n\n")
    through = {"file_path": str(folder / "settings.json"), "content": ""}
    edit = {"file_path": str(file), "old_string": "n", "new_string": "m"}
    assert project.judge("Write", through, agent="coder")[:2] == ("none", None)
    assert project.judge("Edit", edit, agent="coder")[:2] == ("none", None)
    folder.rmdir()
    folder.symlink_to(project.root / ".claude")
    file.unlink()
    os.link(project.root / ".claude" / "settings.json", file)
    assert project.judge("Write", through, agent="coder")[:2] == ("deny", "TAMPER")
    assert project.judge("Edit", edit, agent="coder")[:2] == ("deny", "TAMPER")


def test_protected_folder_reached_through_a_symlinked_claude_dir(
    project: Project, tmp_path: Path
) -> None:
    """``.claude`` itself a symlink (a dotfiles setup): both spellings are protected."""
    real = tmp_path / "dotfiles-claude"
    (project.root / ".claude").rename(real)
    (project.root / ".claude").symlink_to(real)
    for f in (project.root / ".claude/settings.json", real / "settings.json", real / "agents/x.md"):
        assert project.judge("Write", {"file_path": str(f), "content": ""}, agent="coder")[:2] == (
            "deny",
            "TAMPER",
        ), f


def test_ordinary_files_next_to_protected_ones_are_not_tamper(project: Project) -> None:
    """The guard names exact files: look-alikes are ordinary files under the ordinary rules."""
    for rel in (
        ".claude/settings.json.bak",
        ".claude/commands.md",  # (.claude/commands/ and .claude/skills/ hold code: ADR 0053)
        ".env.example",
        "src/env.py",  # (src/.env.py is an env file name below the root: protected since #13)
        "src/.envy",
        "docs/.claude/output-styles/x.md",  # (docs/.claude/settings.json is read by a
        # session started in docs/, or in a worktree: protected since the worktree attack)
    ):
        _, code, _ = project.judge("Write", {"file_path": str(project.root / rel), "content": ""})
        assert code != "TAMPER", rel


# --- Bash -----------------------------------------------------------------------------------

BASH_ATTACKS = [
    ("echo '{}' > .claude/settings.json", ".claude/settings.json"),
    ("cat x >> .claude/settings.local.json", ".claude/settings.local.json"),
    ("printf 'phase = \"off\"' | tee .claude/boundary.toml", ".claude/boundary.toml"),
    ("sed -i 's/enforce/off/' .claude/boundary.toml", ".claude/boundary.toml"),
    ("rm .claude/boundary/audit.jsonl", ".claude/boundary/audit.jsonl"),
    ("rm -f .claude/boundary/audit.jsonl.1", ".claude/boundary/audit.jsonl.1"),
    ("mv .claude/agents/coder.md /tmp/x", ".claude/agents/coder.md"),
    ("mv /tmp/evil.md .claude/agents/coder.md", ".claude/agents/coder.md"),
    ("cp /tmp/evil .envrc", ".envrc"),
    ("echo AMPLIFIER_BYPASS_BOUNDARY=1 >> .env", ".env"),
    ("git checkout -- .claude/settings.json", ".claude/settings.json"),
    ("git checkout HEAD~3 .claude/boundary.toml", ".claude/boundary.toml"),
    ("rm -rf .claude", ".claude"),
    ("echo x > ~/.claude/settings.json", "~/.claude/settings.json"),
]


@pytest.mark.parametrize("command", [c for c, _ in BASH_ATTACKS])
@pytest.mark.parametrize("caller", list(CALLERS))
def test_bash_cannot_change_protected_files(project: Project, command: str, caller: str) -> None:
    project.configure(WIDE_OPEN)
    for phase in ("warn", "enforce"):
        decision, code, _ = project.judge(
            "Bash",
            {"command": command},
            agent=CALLERS[caller],
            env={"ORCHESTRATOR_BOUNDARY_PHASE": phase},
        )
        assert (decision, code) == ("deny", "TAMPER"), phase


def _fake_analysis(project: Project, rel: str, kind: EffectKind, command: str):
    path = (
        rel.replace("~", str(project.home), 1) if rel.startswith("~") else str(project.root / rel)
    )

    def analyze(text: str, **_: object) -> BashAnalysis:
        effect = Effect(kind, rel, os.path.normpath(path), command, "test double")
        cmd = Command(command, command.split()[0], Status.WRITES, (effect,))
        return BashAnalysis(Status.WRITES, (cmd,), (effect,))

    return analyze


@pytest.mark.parametrize(("command", "rel"), BASH_ATTACKS)
@pytest.mark.parametrize("caller", list(CALLERS))
def test_bash_effects_on_protected_files_are_tamper(
    project: Project, monkeypatch: pytest.MonkeyPatch, command: str, rel: str, caller: str
) -> None:
    """The policy half, independent of the analysis: given the effect the analysis reports
    (a test double stands in for it), the verdict is TAMPER."""
    project.configure(WIDE_OPEN)
    kind = EffectKind.DELETE if command.startswith(("rm", "mv .claude")) else EffectKind.WRITE
    monkeypatch.setattr(bash_mod, "analyze", _fake_analysis(project, rel, kind, command))
    for phase in ("warn", "enforce"):
        decision, code, _ = project.judge(
            "Bash",
            {"command": command},
            agent=CALLERS[caller],
            env={"ORCHESTRATOR_BOUNDARY_PHASE": phase},
        )
        assert (decision, code) == ("deny", "TAMPER"), phase
    # the bypass does not open it either
    assert project.judge(
        "Bash",
        {"command": command},
        agent=CALLERS[caller],
        env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce", **BYPASS},
    )[:2] == ("deny", "TAMPER")


@pytest.mark.parametrize("rel", [".claude", ".claude/agents", ".claude/boundary", "."])
def test_deleting_a_folder_that_holds_protected_files_is_tamper(
    project: Project, monkeypatch: pytest.MonkeyPatch, rel: str
) -> None:
    """Attack: ``rm -rf .claude`` / ``mv .claude old`` never names settings.json."""
    project.configure(WIDE_OPEN)
    monkeypatch.setattr(
        bash_mod, "analyze", _fake_analysis(project, rel, EffectKind.DELETE, f"rm -rf {rel}")
    )
    for caller in CALLERS:
        decision, code, _ = project.judge(
            "Bash",
            {"command": f"rm -rf {rel}"},
            agent=CALLERS[caller],
            env={"ORCHESTRATOR_BOUNDARY_PHASE": "warn"},
        )
        assert (decision, code) == ("deny", "TAMPER"), caller


def test_deleting_an_ordinary_folder_is_not_tamper(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        bash_mod,
        "analyze",
        _fake_analysis(project, "src/secrets", EffectKind.DELETE, "rm -rf src/secrets"),
    )
    decision, code, _ = project.judge(
        "Bash", {"command": "rm -rf src/secrets"}, agent="general-purpose"
    )
    assert (decision, code) == ("none", None)


@pytest.mark.parametrize(
    ("raw", "cwd"),
    [
        (".claude/settings.json", None),
        ("./.claude/boundary.toml", None),
        ("../.claude/settings.json", "src"),
        ("../../.claude/agents/coder.md", "src/secrets"),
        (".env", None),
    ],
)
def test_relative_paths_to_protected_files_are_tamper(
    project: Project, raw: str, cwd: str | None
) -> None:
    """Attack: a relative file_path is not inside any scope, so in warn it used to be only a
    warning (ORCHESTRATOR_WRITE) although the tool may resolve it onto the settings."""
    where = str(project.root / cwd) if cwd else None
    for caller in CALLERS:
        decision, code, _ = project.judge(
            "Write",
            {"file_path": raw, "content": ""},
            agent=CALLERS[caller],
            cwd=where,
            env={"ORCHESTRATOR_BOUNDARY_PHASE": "warn"},
        )
        assert (decision, code) == ("deny", "TAMPER"), caller


def test_relative_ordinary_path_keeps_its_ordinary_code(project: Project) -> None:
    decision, code, _ = project.judge(
        "Write",
        {"file_path": "src/app.py", "content": ""},
        env={"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"},
    )
    assert (decision, code) == ("deny", "ORCHESTRATOR_WRITE")


@pytest.mark.parametrize(
    "protected_rel",
    [
        ".claude/settings.json",
        ".claude/boundary.toml",
        ".claude/agents/coder.md",
        ".claude/boundary/audit.jsonl",
        ".claude/boundary/audit.jsonl.1",
    ],
)
def test_hard_link_to_a_protected_file_is_tamper(project: Project, protected_rel: str) -> None:
    """Attack: ``ln .claude/settings.json src/notes.txt`` earlier (within scope), then a Write
    to src/notes.txt rewrites the settings: a hard link resolves to itself."""
    project.call(project.payload("Read", {"file_path": str(project.root / "x")}))  # audit exists
    target = project.root / protected_rel
    if not target.exists():
        target.write_text("{}\n")
    link = project.root / "src" / "notes.txt"
    os.link(target, link)
    for caller in CALLERS:
        decision, code, _ = project.judge(
            "Edit",
            {"file_path": str(link), "old_string": "a", "new_string": "b"},
            agent=CALLERS[caller],
        )
        assert (decision, code) == ("deny", "TAMPER"), caller


def test_hard_linked_ordinary_files_stay_ordinary(project: Project) -> None:
    os.link(project.root / "src/app.py", project.root / "src/app2.py")
    decision, code, _ = project.judge(
        "Write", {"file_path": str(project.root / "src/app2.py"), "content": ""}, agent="coder"
    )
    assert (decision, code) == ("none", None)


def test_protect_paths_from_the_config_are_enforced(project: Project) -> None:
    """Attack: ``[protect] paths`` was validated but never consulted, so files a team listed
    there were only as safe as the ordinary scopes."""
    project.configure(WIDE_OPEN + '\n[protect]\npaths = ["Makefile", "ci/**", "!ci/scratch/**"]\n')
    # a name with no '/' is read at any depth, as gitignore reads it (ADR 0071): src/Makefile too
    for rel in ("Makefile", "ci/deploy.yml", "ci/a/b.sh", "src/Makefile"):
        for caller in CALLERS:
            decision, code, _ = project.judge(
                "Write",
                {"file_path": str(project.root / rel), "content": ""},
                agent=CALLERS[caller],
                env={"ORCHESTRATOR_BOUNDARY_PHASE": "warn"},
            )
            assert (decision, code) == ("deny", "TAMPER"), (rel, caller)
    for rel in ("ci/scratch/x", "src/Makefile.am"):
        decision, code, _ = project.judge(
            "Write", {"file_path": str(project.root / rel), "content": ""}, agent="coder"
        )
        assert code != "TAMPER", rel


def test_user_settings_moved_by_claude_config_dir_are_protected(
    project: Project, tmp_path: Path
) -> None:
    """Attack: with CLAUDE_CONFIG_DIR set, Claude Code reads the user settings from there, not
    from ~/.claude, so the guard protected a file that was not in use."""
    cfg = tmp_path / "claude-config"
    cfg.mkdir()
    env = {"CLAUDE_CONFIG_DIR": str(cfg), "ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
    for name in (
        "settings.json",
        "settings.local.json",
        ".claude.json",
        "agents/x.md",
        "orchestrator-boundary/projects/p/audit.jsonl",
    ):
        for caller in CALLERS:
            decision, code, _ = project.judge(
                "Write",
                {"file_path": str(cfg / name), "content": ""},
                agent=CALLERS[caller],
                env=env,
            )
            assert (decision, code) == ("deny", "TAMPER"), (name, caller)


@pytest.mark.parametrize("key", ["purelib", "scripts"])
def test_the_hooks_runtime_is_protected(project: Project, key: str) -> None:
    """Attack: drop ``zzz.pth`` into site-packages (runs at every interpreter start) or rewrite
    a dependency or the console entry point so that the hook crashes: a crash fails open. In
    warn the main agent's write outside the root is only a warning, so it needs TAMPER."""
    folder = Path(sysconfig.get_paths()[key])
    for name in ("zzz-boundary-test.pth", "orchestrator-boundary-pre-tool-use"):
        for caller in CALLERS:
            decision, code, _ = project.judge(
                "Write",
                {"file_path": str(folder / name), "content": ""},
                agent=CALLERS[caller],
                env={"ORCHESTRATOR_BOUNDARY_PHASE": "warn"},
            )
            assert (decision, code) == ("deny", "TAMPER"), (name, caller)


@pytest.mark.parametrize(
    ("tool", "key"),
    [
        ("mcp__filesystem__write_file", "path"),
        ("mcp__filesystem__edit_file", "path"),
        ("mcp__fs__move_file", "destination"),
        ("mcp__fs__write", "file_path"),
        ("mcp__fs__write_many", "paths"),
        ("write", "file_path"),  # a name that is not the built-in Write
    ],
)
def test_unknown_tools_cannot_write_protected_files(project: Project, tool: str, key: str) -> None:
    """Attack: an MCP filesystem server's write tool is class unknown; only the main agent
    was checked (UNKNOWN_TOOL, a warning in warn) and a subagent was not checked at all."""
    target = str(project.root / ".claude/settings.json")
    value: object = [str(project.root / "src/a.py"), target] if key == "paths" else target
    for caller in CALLERS:
        for phase in ("warn", "enforce"):
            decision, code, _ = project.judge(
                tool,
                {key: value, "content": "{}"},
                agent=CALLERS[caller],
                env={"ORCHESTRATOR_BOUNDARY_PHASE": phase},
            )
            assert (decision, code) == ("deny", "TAMPER"), (caller, phase)


def test_unknown_tools_on_ordinary_files_keep_their_rules(project: Project) -> None:
    src = str(project.root / "src/a.py")
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    judge = project.judge
    assert judge("mcp__fs__write_file", {"path": src}, env=env)[:2] == ("deny", "UNKNOWN_TOOL")
    assert judge("mcp__fs__write_file", {"path": src}, agent="coder", env=env)[:2] == ("none", None)
    # text that merely mentions a protected path is not a target
    body = {"title": "x", "body": str(project.root / ".claude/settings.json")}
    assert judge("mcp__github__create_issue", body, agent="coder", env=env)[:2] == ("none", None)


class _Hang(BaseException):  # escapes the hook's own catch-all guard
    pass


@pytest.fixture
def no_hang():
    """Fail (instead of hanging the suite) when a call blocks for more than 5 s."""
    import signal

    def fire(*_: object) -> None:
        raise _Hang

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(5)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def test_config_replaced_by_a_fifo_fails_closed_without_hanging(
    project: Project, no_hang: None
) -> None:
    """Attack: an opaque program swaps boundary.toml for a FIFO; reading it blocked the hook
    until Claude Code's timeout, and a timed-out hook fails open."""
    cfg = project.root / ".claude/boundary.toml"
    cfg.unlink()
    os.mkfifo(cfg)
    decision, code, _ = project.judge(
        "Write", {"file_path": str(project.root / "docs/a.md"), "content": ""}
    )
    assert (decision, code) == ("deny", "CONFIG_INVALID")


def test_audit_trail_replaced_by_a_fifo_does_not_hang(project: Project, no_hang: None) -> None:
    project.audit.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(project.audit)
    data = project.payload(
        "Write", {"file_path": str(project.root / ".claude/settings.json"), "content": ""}
    )
    answer = shell.evaluate(json.dumps(data).encode(), project.env)
    assert parse_answer(answer)["hookSpecificOutput"]["permissionDecision"] == "deny"  # type: ignore[index]
    assert "audit trail not writable" in answer.stderr


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_post_tool_use_hashing_skips_special_files(
    project: Project, no_hang: None, special: str
) -> None:
    """PostToolUse hashes what a write changed; a FIFO blocks and /dev/zero never ends."""
    if special == "fifo":
        target = project.root / "docs" / "pipe"
        os.mkfifo(target)
    else:
        target = Path(special)
    data = project.payload("Write", {"file_path": str(target), "content": ""}, event="PostToolUse")
    answer, rec = project.call(data, event="PostToolUse")
    assert answer.exit_code == 0
    assert all(t["sha256"] is None for t in rec.get("trace", []))


def test_the_evaluators_runtime_folder_is_protected(tmp_path: Path) -> None:
    """Attack: remove or replace the evaluator's socket so that a fake listener answers."""
    from conftest import run_hook

    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    runtime = tmp_path / "rt"
    env = {
        "CLAUDE_PROJECT_DIR": str(root),
        "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": str(runtime),
        "ORCHESTRATOR_BOUNDARY_PHASE": "warn",
    }
    payload = {
        "session_id": "s",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "agent_id": "a1",
        "agent_type": "general-purpose",
        "tool_name": "Bash",
        "tool_input": {"command": f"rm -f {runtime}/x.sock"},
    }
    rc, out, _ = run_hook(payload, env)
    assert rc == 0 and out is not None
    assert "TAMPER" in out["hookSpecificOutput"]["permissionDecisionReason"]


# --- this product's own CLI (issue 13) ------------------------------------------------------

CONTROL_COMMANDS = [
    "orchestrator-boundary phase off",
    "python -m orchestrator_boundary phase off",
    "uv run orchestrator-boundary uninstall",
    "orchestrator-boundary install --phase off",
]


@pytest.mark.parametrize("command", CONTROL_COMMANDS)
@pytest.mark.parametrize("caller", list(CALLERS))
def test_running_the_boundarys_own_cli_to_change_it_is_tamper(
    project: Project, command: str, caller: str
) -> None:
    """Attack: the agent switches the boundary off through its own CLI, which writes no path
    the guard could see. In warn that was a warning for the main agent, nothing for a subagent."""
    project.configure(WIDE_OPEN)
    for phase in ("warn", "ask", "enforce"):
        decision, code, answer = project.judge(
            "Bash",
            {"command": command},
            agent=CALLERS[caller],
            env={"ORCHESTRATOR_BOUNDARY_PHASE": phase},
        )
        assert (decision, code) == ("deny", "TAMPER"), phase
        reason = parse_answer(answer)["hookSpecificOutput"]["permissionDecisionReason"]  # type: ignore[index]
        assert "only a person" in reason and "in their own terminal" in reason
        assert '"recoverable": false' in reason
    # neither the bypass nor any phase but off opens it
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce", **BYPASS}
    assert project.judge("Bash", {"command": command}, agent=CALLERS[caller], env=env)[:2] == (
        "deny",
        "TAMPER",
    )
    off = {"ORCHESTRATOR_BOUNDARY_PHASE": "off"}
    assert project.judge("Bash", {"command": command}, agent=CALLERS[caller], env=off)[:2] == (
        "none",
        "TAMPER",
    )


@pytest.mark.parametrize(
    "command",
    ["orchestrator-boundary report", "orchestrator-boundary phase", "orchestrator-boundary doctor"],
)
@pytest.mark.parametrize("caller", list(CALLERS))
def test_reading_the_boundarys_state_stays_allowed(
    project: Project, command: str, caller: str
) -> None:
    for phase in ("warn", "enforce"):
        assert project.judge(
            "Bash",
            {"command": command},
            agent=CALLERS[caller],
            env={"ORCHESTRATOR_BOUNDARY_PHASE": phase},
        )[:2] == ("none", None)


def test_the_starter_config_does_not_tell_an_agent_how_to_switch_the_phase() -> None:
    """The model reads .claude/boundary.toml: it must not find the command that turns it off."""
    from orchestrator_boundary.cmd_install import starter_config

    for text in (
        starter_config("warn"),
        (Path(__file__).parents[1] / "examples/boundary.toml").read_text(),
    ):
        for line in text.splitlines():
            assert "orchestrator-boundary phase" not in line, line


# --- targets the command text does not fix (issue 12) ---------------------------------------

UNFIXED_ATTACKS = [
    "rm -rf .cl*",  # a glob that names .claude
    "rm -rf ~/.cl*",
    'cd "$X"; echo {} > .claude/settings.json',  # after a cd that cannot be followed
    'cd "$X"; echo {} > settings.json',  # the cd may lead into .claude
    "cd .claude || exit; echo x > boundary.toml",
    'cp evil.json "$OUT"',  # a variable may be any path
    'cp evil.md "$X/agents/new.md"',  # a variable then a protected folder's name
    "echo x > $HOME/.claude/settings.json",
    "echo $( > .claude/settings.json",  # text that does not parse
]
UNFIXED_ORDINARY = [
    'echo x > "$OUT/log.txt"',
    "rm -f *.json",  # in the root: the glob does not reach into .claude
    "rm -rf build/*",
    "cd build; rm -f out.o",
    "echo $( > notes.txt",
]


@pytest.mark.parametrize("command", UNFIXED_ATTACKS)
@pytest.mark.parametrize("caller", list(CALLERS))
def test_targets_that_could_name_a_protected_file_are_tamper(
    project: Project, command: str, caller: str
) -> None:
    """Attack: a subagent's Bash target built from a glob, a variable or after a cd the analysis
    cannot follow was not checked at all (the main agent's was only a BASH_WRITE warning)."""
    project.configure(WIDE_OPEN)
    for phase in ("warn", "enforce"):
        decision, code, answer = project.judge(
            "Bash",
            {"command": command},
            agent=CALLERS[caller],
            env={"ORCHESTRATOR_BOUNDARY_PHASE": phase},
        )
        assert (decision, code) == ("deny", "TAMPER"), phase
        reason = parse_answer(answer)["hookSpecificOutput"]["permissionDecisionReason"]  # type: ignore[index]
        assert '"recoverable": false' in reason


@pytest.mark.parametrize("command", UNFIXED_ORDINARY)
def test_targets_that_cannot_name_a_protected_file_keep_their_rules(
    project: Project, command: str
) -> None:
    env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    # the coder's write_scope (src/**) may refuse them: tests/test_unplaced_scope.py (0075)
    assert project.judge("Bash", {"command": command}, agent="coder", env=env)[1] != "TAMPER"
    assert project.judge("Bash", {"command": command}, env=env)[1] != "TAMPER"


AUDIT_PATH_ENV = "ORCHESTRATOR_BOUNDARY_AUDIT_PATH"


def test_the_audit_path_from_the_environment_is_used_and_protected(
    project: Project, tmp_path: Path
) -> None:
    """A user-scope install names a per-user trail in the hook's environment (issue 14): the
    decision lands there, and no agent may change it, when the config names no trail."""
    trail = tmp_path / "claude-home" / "orchestrator-boundary" / "projects" / "p" / "audit.jsonl"
    env = {AUDIT_PATH_ENV: str(trail), "ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
    data = project.payload("Write", {"file_path": str(trail), "content": ""}, agent="coder")
    answer = shell.evaluate(json.dumps(data).encode(), {**project.env, **env})
    rec = json.loads(trail.read_text().splitlines()[-1])
    assert (rec["decision"], rec["code"]) == ("deny", "TAMPER")
    assert parse_answer(answer)["hookSpecificOutput"]["permissionDecision"] == "deny"  # type: ignore[index]


def test_the_configs_audit_path_wins_over_the_environment(project: Project, tmp_path: Path) -> None:
    project.configure('[audit]\npath = "logs/trail.jsonl"\n')
    elsewhere = tmp_path / "elsewhere.jsonl"
    data = project.payload("Read", {"file_path": str(project.root / "x")})
    shell.evaluate(json.dumps(data).encode(), {**project.env, AUDIT_PATH_ENV: str(elsewhere)})
    assert (project.root / "logs/trail.jsonl").exists() and not elsewhere.exists()
    # a relative value is not a place: the default trail is used
    project.configure("")
    shell.evaluate(json.dumps(data).encode(), {**project.env, AUDIT_PATH_ENV: "rel/trail.jsonl"})
    assert project.audit.exists() and not (project.root / "rel").exists()
