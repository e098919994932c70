"""Round ten's attack on the policy core and the tools that are not Bash (ADR 0071).

Each row runs the real decision: the hook shell (``shell.evaluate``) on a payload, against a
real project in tmp_path, with the config the row names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project

from orchestrator_boundary.config import Config, config_notes, parse_config
from orchestrator_boundary.skills import SKILL_TOOLS
from orchestrator_boundary.targets import OUT_DIR_TOOLS
from orchestrator_boundary.tools import BUILTIN, FIXED_CLASS, ToolClass, classify

ENFORCE = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
SETTINGS = ".claude/settings.json"
BASE = """
[orchestrator]
write_allow = ["STATE.md", "docs/**"]

[agents.coder]
write_scope = ["src/**"]

[intents."auth"]
owned_scope = ["src/auth/**"]
description = "login fix"
"""
SKILL = ".claude/skills/argy/SKILL.md"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    (p.root / SKILL).parent.mkdir(parents=True)
    (p.root / SKILL).write_text("---\nname: argy\n---\nA: !`echo $ARGUMENTS > notes.txt`\n")
    return p


def _abs(project: Project, value: Any) -> Any:
    return value.replace("{root}", str(project.root)) if isinstance(value, str) else value


# ---- 1. a [tools] entry that moves a built-in tool whose input the guard reads ----
# Before: classify took the config's word for a built-in tool too, and the class decides
# which input is read: "Write" = "read" (or a pattern meant for other tools, "Notebook*",
# "*Edit") left a Write of the settings unchecked, in every phase, for every agent;
# "Write" = "unknown" let a subagent write outside its scope (an unknown tool's input only
# meets the tamper rule); "Skill" = "coordinate" (the class the README gives it) stopped the
# check of the commands a skill runs.
# (id, [tools] lines, agent or None, tool, input, decision, code)
RECLASSIFIED: list[tuple[str, str, str | None, str, dict[str, Any], str, str | None]] = [
    ("write-as-read-main", '"Write" = "read"', None, "Write",
     {"file_path": "{root}/" + SETTINGS, "content": "{}"}, "deny", "TAMPER"),
    ("write-as-read-coder", '"Write" = "read"', "coder", "Write",
     {"file_path": "{root}/" + SETTINGS, "content": "{}"}, "deny", "TAMPER"),
    ("write-as-read-outside-allow", '"Write" = "read"', None, "Write",
     {"file_path": "{root}/src/app.py", "content": "x"}, "deny", "ORCHESTRATOR_WRITE"),
    ("notebook-pattern", '"Notebook*" = "read"', "coder", "NotebookEdit",
     {"notebook_path": "{root}/" + SETTINGS, "new_source": "x"}, "deny", "TAMPER"),
    ("edit-pattern", '"*Edit" = "read"', None, "Edit",
     {"file_path": "{root}/" + SETTINGS, "old_string": "{", "new_string": "["}, "deny", "TAMPER"),
    ("multiedit-pattern", '"*Edit" = "search"', "coder", "MultiEdit",
     {"file_path": "{root}/" + SETTINGS, "edits": []}, "deny", "TAMPER"),
    ("every-tool-read", '"*" = "read"', "coder", "Write",
     {"file_path": "{root}/docs/x.md", "content": "x"}, "deny", "SCOPE_VIOLATION"),
    ("write-as-unknown-scope", '"Write" = "unknown"', "coder", "Write",
     {"file_path": "{root}/docs/x.md", "content": "x"}, "deny", "SCOPE_VIOLATION"),
    ("bash-as-read", '"Bash" = "read"', "coder", "Bash",
     {"command": "echo {} > " + SETTINGS}, "deny", "TAMPER"),
    ("bash-as-unknown-scope", '"Bash" = "unknown"', "coder", "Bash",
     {"command": "echo x > docs/x.md"}, "deny", "SCOPE_VIOLATION"),
    ("monitor-as-read", '"Monitor" = "read"', None, "Monitor",
     {"command": "tail -f x.log > " + SETTINGS, "description": "d"}, "deny", "TAMPER"),
    ("skill-as-coordinate", '"Skill" = "coordinate"', None, "Skill",
     {"skill": "argy", "args": "x; echo {} > " + SETTINGS}, "deny", "TAMPER"),
    ("agent-as-coordinate", '"Agent" = "coordinate"', None, "Agent",
     {"description": "d", "prompt": "Intent: nope", "subagent_type": "coder"}, "deny", "DELEGATION_INVALID"),
    ("artifact-as-network", '"Artifact" = "network"', "coder", "Artifact",
     {"action": "read_file", "out_dir": "{root}/.claude"}, "deny", "TAMPER"),
]  # fmt: skip


@pytest.mark.parametrize("env", [ENFORCE, WARN], ids=["enforce", "warn"])
@pytest.mark.parametrize(
    ("tools", "agent", "tool", "tool_input", "decision", "code"),
    [row[1:] for row in RECLASSIFIED],
    ids=[row[0] for row in RECLASSIFIED],
)
def test_a_builtin_tool_the_config_reclassifies_keeps_its_checks(
    project: Project,
    env: dict[str, str],
    tools: str,
    agent: str | None,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str,
) -> None:
    project.configure(BASE + "\n[tools]\n" + tools + "\n")
    given = {k: _abs(project, v) for k, v in tool_input.items()}
    got = project.judge(tool, given, agent=agent, env=env)[:2]
    if env is WARN and code != "TAMPER":
        decision = "warn"  # warn lets through, and records, what is not TAMPER
    assert got == (decision, code)


# Controls: the config still reclassifies every other tool, built-in or not.
CONTROLS: list[tuple[str, str, str | None, str, dict[str, Any], str, str | None]] = [
    ("webfetch-as-unknown", '"WebFetch" = "unknown"', None, "WebFetch",
     {"url": "https://example.com", "prompt": "p"}, "deny", "UNKNOWN_TOOL"),
    ("read-as-unknown", '"Read" = "unknown"', None, "Read",
     {"file_path": "{root}/src/app.py"}, "deny", "UNKNOWN_TOOL"),
    ("mcp-read-pattern", '"mcp__fs__read_*" = "read"', None, "mcp__fs__read_file",
     {"path": "src/app.py"}, "none", None),
    ("mcp-exact-read", '"mcp__db__query" = "read"', None, "mcp__db__query",
     {"sql": "select 1"}, "none", None),
    ("write-as-read-own-scope", '"Write" = "read"', "coder", "Write",
     {"file_path": "{root}/src/app.py", "content": "x"}, "none", None),
    ("bash-as-read-reads", '"Bash" = "read"', "coder", "Bash",
     {"command": "git status"}, "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tools", "agent", "tool", "tool_input", "decision", "code"),
    [row[1:] for row in CONTROLS],
    ids=[row[0] for row in CONTROLS],
)
def test_other_reclassifications_keep_their_verdict(
    project: Project,
    tools: str,
    agent: str | None,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    project.configure(BASE + "\n[tools]\n" + tools + "\n")
    given = {k: _abs(project, v) for k, v in tool_input.items()}
    assert project.judge(tool, given, agent=agent, env=ENFORCE)[:2] == (decision, code)


def test_the_fixed_tools_are_every_tool_whose_class_picks_its_input() -> None:
    from orchestrator_boundary.contract_rules import AGENT_TOOLS
    from orchestrator_boundary.tools import COMMAND_KEYS, PATH_KEYS

    assert {*PATH_KEYS, *COMMAND_KEYS, *SKILL_TOOLS, *OUT_DIR_TOOLS, *AGENT_TOOLS} == FIXED_CLASS
    for name in FIXED_CLASS:
        got = classify(name, {name: ToolClass.READ, "*": ToolClass.READ})
        assert (got.tool_class, got.source) == (BUILTIN[name], "builtin")


def test_the_config_check_says_the_entry_is_ignored() -> None:
    config = parse_config('[tools]\n"Write" = "read"\n"mcp__db__query" = "read"\n', "b.toml")
    assert isinstance(config, Config)
    notes = config_notes(config)
    assert any("Write keeps its own class (write)" in n and "ignored" in n for n in notes)
    assert not any("mcp__db__query" in n for n in notes)


# ---- 2. a file:// URI whose "host" is a path: what a server that cuts "file://" off opens ----
# Before: the part after "file://" up to the next "/" was only a host (a UNC share), so
# "file://./.claude/settings.json" was "//./.claude/settings.json", outside the project, and a
# subagent's MCP write through a server that strips the scheme (uri.replace("file://", ""))
# went through in every phase.
NAIVE_URIS = [
    "file://./.claude/settings.json",
    "file://.claude/settings.json",
    "file://~/.claude/settings.json",
    "file://src/../.claude/settings.json",
    "FILE://./.claude/settings.json",
    "file://./.claude/settings%2Ejson",
]


@pytest.mark.parametrize("env", [ENFORCE, WARN], ids=["enforce", "warn"])
@pytest.mark.parametrize("uri", NAIVE_URIS)
def test_a_file_uri_read_without_its_scheme_is_checked(
    project: Project, uri: str, env: dict[str, str]
) -> None:
    for key in ("uri", "path"):
        got = project.judge(
            "mcp__fs__write_file", {key: uri, "content": "{}"}, agent="coder", env=env
        )
        assert got[:2] == ("deny", "TAMPER"), key


@pytest.mark.parametrize(
    "uri", ["file://server/share/notes.md", "file://./src/app.py", "file:///tmp/elsewhere/x.md"]
)
def test_an_ordinary_file_uri_keeps_its_verdict(project: Project, uri: str) -> None:
    # not TAMPER; since ADR 0083 each reading outside the coder's src/** meets its scope
    got = project.judge("mcp__fs__write_file", {"uri": uri}, agent="coder", env=ENFORCE)
    assert got[:2] == ("deny", "SCOPE_VIOLATION")


# ---- 3. an exclusion that meant less than it says ----
# Before: every pattern named exactly what it reads, exclusions too, so "!src/secrets" only
# excluded the path src/secrets (not the files in it), "!*.pem" and "!secrets/" only the
# root's; "./src/**", "!./src/secrets/**" and, written with Windows separators,
# "!src\\secrets\\**" (a gitignore escape) matched nothing. A subagent's (or the main
# agent's) write to src/secrets/key.txt or src/a.pem went through with the scope the team
# wrote; "./src/**" refused every write the team meant to allow.
# (id, the list, who, path, decision, code)
EXCLUSIONS: list[tuple[str, str, str | None, str, str, str | None]] = [
    ("folder-without-slash", '["src/**", "!src/secrets"]', "coder", "src/secrets/key.txt", "deny", "SCOPE_VIOLATION"),
    ("folder-deep", '["src/**", "!src/secrets"]', "coder", "src/secrets/a/b.txt", "deny", "SCOPE_VIOLATION"),
    ("name-any-depth", '["src/**", "!*.pem"]', "coder", "src/tls/a.pem", "deny", "SCOPE_VIOLATION"),
    ("folder-any-depth", '["src/**", "!secrets/"]', "coder", "src/secrets/key.txt", "deny", "SCOPE_VIOLATION"),
    ("bare-name-any-depth", '["src/**", "!secrets"]', "coder", "src/app/secrets/k.txt", "deny", "SCOPE_VIOLATION"),
    ("dot-slash-exclusion", '["src/**", "!./src/secrets/**"]', "coder", "src/secrets/key.txt", "deny", "SCOPE_VIOLATION"),
    ("backslashes-exclusion", '["src/**", "!src\\\\secrets\\\\**"]', "coder", "src/secrets/key.txt", "deny", "SCOPE_VIOLATION"),
    ("backslash-folder-exclusion", '["src/**", "!src\\\\secrets"]', "coder", "src/secrets/a/b.txt", "deny", "SCOPE_VIOLATION"),
    ("main-folder-without-slash", '["docs/**", "!docs/private"]', None, "docs/private/x.md", "deny", "ORCHESTRATOR_WRITE"),
    ("main-name-any-depth", '["docs/**", "!*.key"]', None, "docs/a/b.key", "deny", "ORCHESTRATOR_WRITE"),
    # what stays: an inclusion names exactly what it reads; the exclusions spare the rest
    ("dot-slash-inclusion", '["./src/**"]', "coder", "src/app.py", "none", None),
    ("folder-exclusion-spares-siblings", '["src/**", "!src/secrets"]', "coder", "src/secretsx.py", "none", None),
    ("name-exclusion-spares-others", '["src/**", "!*.pem"]', "coder", "src/a.pem.txt", "none", None),
    ("inclusion-names-a-file", '["STATE.md", "src/**"]', "coder", "STATE.md/x", "deny", "SCOPE_VIOLATION"),
    ("inclusion-stays-anchored", '["*.md"]', "coder", "docs/a.md", "deny", "SCOPE_VIOLATION"),
    ("dot-slash-anchors-exclusion", '["src/**", "!./*.pem"]', "coder", "src/a.pem", "none", None),
    ("main-allowed", '["docs/**", "!docs/private"]', None, "docs/privatex.md", "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("patterns", "agent", "path", "decision", "code"),
    [row[1:] for row in EXCLUSIONS],
    ids=[row[0] for row in EXCLUSIONS],
)
def test_an_exclusion_covers_what_a_person_means_by_it(
    project: Project, patterns: str, agent: str | None, path: str, decision: str, code: str | None
) -> None:
    project.configure(
        f"[orchestrator]\nwrite_allow = {patterns}\n\n[agents.coder]\nwrite_scope = {patterns}\n"
    )
    given = {"file_path": str(project.root / path), "content": "x"}
    # a session of its own per row: the main agent is told of no subagent's write (ADR 0059)
    got = project.judge("Write", given, agent=agent, env=ENFORCE, session_id=f"s-{path}")
    assert got[:2] == (decision, code)


# ---- 4. '..' after a symlink: the text's reading and the file system's differ ----
# Before: a path was resolved by the file system only, where "src/cl/.." (src/cl a link to
# .claude) is the project's parent; Claude Code's file tools and Node MCP servers undo ".." on
# the text first (path.resolve), where it is the project root. "src/cl/../../.claude/
# settings.json" was outside the project (SCOPE_VIOLATION: let through in warn; for an MCP
# tool nothing at all), and "src/deep/../../docs/a.md" was src/docs/a.md, inside the scope.
LINKS = {"src/cl": "../.claude", "src/deep": "d1/d2"}
# (id, who, tool, input (paths from the root), decision in enforce, code)
CLIMBS: list[tuple[str, str | None, str, dict[str, Any], str, str | None]] = [
    ("write-past-link", "coder", "Write", {"file_path": "{root}/src/cl/../../.claude/settings.json", "content": "{}"}, "deny", "TAMPER"),
    ("main-write-past-link", None, "Write", {"file_path": "{root}/src/cl/../../.claude/settings.json", "content": "{}"}, "deny", "TAMPER"),
    ("mcp-past-link", "coder", "mcp__fs__write_file", {"path": "src/cl/../../.claude/settings.json"}, "deny", "TAMPER"),
    ("mcp-abs-past-link", "coder", "mcp__fs__write_file", {"path": "{root}/src/cl/../../.claude/settings.json"}, "deny", "TAMPER"),
    ("scope-past-link", "coder", "Write", {"file_path": "{root}/src/deep/../../docs/a.md", "content": "x"}, "deny", "SCOPE_VIOLATION"),
    # what stays
    ("plain-climb-in-scope", "coder", "Write", {"file_path": "{root}/src/d1/../app.py", "content": "x"}, "none", None),
    ("through-link-in-scope", "coder", "Write", {"file_path": "{root}/src/deep/x.py", "content": "x"}, "none", None),
    ("link-then-climb-in-scope", "coder", "Write", {"file_path": "{root}/src/deep/../x.py", "content": "x"}, "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("agent", "tool", "tool_input", "decision", "code"),
    [row[1:] for row in CLIMBS],
    ids=[row[0] for row in CLIMBS],
)
def test_dot_dot_after_a_symlink_is_read_as_the_text_reads_it_too(
    project: Project,
    agent: str | None,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    project.configure(BASE)
    (project.root / "src" / "d1" / "d2").mkdir(parents=True)
    for link, to in LINKS.items():
        (project.root / link).symlink_to(to)
    given = {k: _abs(project, v) for k, v in tool_input.items()}
    assert project.judge(tool, given, agent=agent, env=ENFORCE)[:2] == (decision, code)


# ---- 5. /proc/self/cwd: the cwd of the process that opens the path ----
# Before: resolved in the hook's own process, whose cwd need not be Claude Code's (the tests'
# is not the project): /proc/self/cwd/.claude/settings.json was outside the project.
@pytest.mark.parametrize("agent", [None, "coder"])
@pytest.mark.parametrize("prefix", ["/proc/self/cwd", "/proc/thread-self/cwd"])
def test_proc_self_cwd_is_read_in_the_root_too(
    project: Project, monkeypatch: pytest.MonkeyPatch, prefix: str, agent: str | None
) -> None:
    monkeypatch.chdir(project.home)
    given = {"file_path": f"{prefix}/{SETTINGS}", "content": "{}"}
    assert project.judge("Write", given, agent=agent, env=WARN)[:2] == ("deny", "TAMPER")
    mcp = {"path": f"{prefix}/.mcp.json"}
    (project.root / ".mcp.json").write_text("{}\n")
    assert project.judge("mcp__fs__write_file", mcp, agent=agent, env=WARN)[:2] == (
        "deny",
        "TAMPER",
    )


def test_proc_self_cwd_in_scope_stays_allowed(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project.root)
    given = {"file_path": "/proc/self/cwd/src/app.py", "content": "x"}
    assert project.judge("Write", given, agent="coder", env=ENFORCE)[:2] == ("none", None)


# ---- 6. a script the settings' commands run ----
# Before: only the settings files were protected, not what their commands run. A subagent
# whose scope covers tools/ rewrote tools/format_hook.py, which the project's PostToolUse hook
# runs after every edit, with no hook asked: code outside the guard, able to write the
# settings themselves. The same for the status line's script, the user's apiKeyHelper and
# the script an MCP server of .mcp.json runs.
HOOKED_SETTINGS = {
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [{"type": "command", "command": "python3 tools/format_hook.py --fix"}],
            }
        ]
    },
    "statusLine": {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/scripts/status.sh'},
    "fileSuggestion": {"type": "command", "command": "sh -c 'node scripts/suggest.js && exit 0'"},
}
USER_SETTINGS = {"apiKeyHelper": "~/bin/key.sh"}
HOOKED_CONFIG = """
[orchestrator]
write_allow = ["STATE.md", "docs/**", "tools/**"]

[agents.coder]
write_scope = ["**"]
"""


@pytest.fixture
def hooked(project: Project) -> Project:
    import json

    for rel in (
        "tools/format_hook.py",
        "scripts/status.sh",
        "scripts/suggest.js",
        "tools/other.py",
    ):
        (project.root / rel).parent.mkdir(exist_ok=True)
        (project.root / rel).write_text("print(1)\n")
    (project.home / "bin").mkdir()
    (project.home / "bin" / "key.sh").write_text("echo k\n")
    (project.root / SETTINGS).write_text(json.dumps(HOOKED_SETTINGS))
    (project.root / "scripts" / "mcp_server.js").write_text("x\n")
    servers = {"mcpServers": {"local": {"command": "node", "args": ["scripts/mcp_server.js"]}}}
    (project.root / ".mcp.json").write_text(json.dumps(servers))
    (project.home / SETTINGS).write_text(json.dumps(USER_SETTINGS))
    project.configure(HOOKED_CONFIG)
    return project


# (id, who, tool, input, decision in warn, code)
HOOKED: list[tuple[str, str | None, str, dict[str, Any], str, str | None]] = [
    ("write-hook-script", "coder", "Write", {"file_path": "{root}/tools/format_hook.py", "content": "x"}, "deny", "TAMPER"),
    ("main-write-hook-script", None, "Edit", {"file_path": "{root}/tools/format_hook.py", "old_string": "1", "new_string": "2"}, "deny", "TAMPER"),
    ("write-status-line", "coder", "Write", {"file_path": "{root}/scripts/status.sh", "content": "x"}, "deny", "TAMPER"),
    ("write-script-inside-sh-c", "coder", "Write", {"file_path": "{root}/scripts/suggest.js", "content": "x"}, "deny", "TAMPER"),
    ("write-mcp-server-script", "coder", "Write", {"file_path": "{root}/scripts/mcp_server.js", "content": "x"}, "deny", "TAMPER"),
    ("write-api-key-helper", "coder", "Write", {"file_path": "{home}/bin/key.sh", "content": "x"}, "deny", "TAMPER"),
    ("mcp-hook-script", "coder", "mcp__fs__write_file", {"path": "tools/format_hook.py"}, "deny", "TAMPER"),
    ("bash-append-hook-script", "coder", "Bash", {"command": "echo x >> tools/format_hook.py"}, "deny", "TAMPER"),
    # what stays: the files next to it, and running or reading the script
    ("write-other-tool", "coder", "Write", {"file_path": "{root}/tools/other.py", "content": "x"}, "none", None),
    ("run-hook-script", "coder", "Bash", {"command": "python3 tools/format_hook.py --selftest"}, "none", None),
    ("lint-hook-script", "coder", "Bash", {"command": "ruff check tools/format_hook.py"}, "none", None),
    ("test-its-folder", "coder", "Bash", {"command": "pytest tools"}, "none", None),
    ("read-hook-script", None, "Read", {"file_path": "{root}/tools/format_hook.py"}, "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("agent", "tool", "tool_input", "decision", "code"),
    [row[1:] for row in HOOKED],
    ids=[row[0] for row in HOOKED],
)
def test_a_script_the_settings_run_is_protected(
    hooked: Project,
    agent: str | None,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    given = {
        k: v.replace("{home}", str(hooked.home)) if isinstance(v, str) else v
        for k, v in tool_input.items()
    }
    given = {k: _abs(hooked, v) for k, v in given.items()}
    assert hooked.judge(tool, given, agent=agent, env=WARN)[:2] == (decision, code)


# ---- 7. [protect] paths: a list of what no agent may change, read as narrowly as a scope ----
# Before: "infra" protected the path infra but none of the files in it, "*.tf" only the
# root's, "infra\\prod\\**" (Windows separators) nothing, and deleting the folder a
# "infra/**" entry covers (rm -rf infra, a write to the folder itself) was not TAMPER.
# (id, paths, path written, decision in warn, code)
PROTECT_PATHS: list[tuple[str, str, str, str, str | None]] = [
    ("folder-named", '["infra"]', "infra/main.tf", "deny", "TAMPER"),
    ("folder-named-deep", '["infra"]', "infra/prod/x.tf", "deny", "TAMPER"),
    ("name-any-depth", '["*.tf"]', "infra/main.tf", "deny", "TAMPER"),
    ("backslashes", '["infra\\\\prod\\\\**"]', "infra/prod/x.tf", "deny", "TAMPER"),
    ("dot-slash", '["./infra/**"]', "infra/main.tf", "deny", "TAMPER"),
    ("the-folder-itself", '["infra/**"]', "infra", "deny", "TAMPER"),
    # what stays
    ("sibling", '["infra"]', "infrastructure.md", "none", None),
    ("other-suffix", '["*.tf"]', "infra/main.tfvars", "none", None),
    ("its-own-exclusion", '["infra/**", "!infra/scratch/**"]', "infra/scratch/x", "none", None),
    ("anchored-with-slash", '["infra/prod"]', "infra/main.tf", "none", None),
    ("anchored-with-dot-slash", '["./main.tf"]', "infra/main.tf", "none", None),
]  # fmt: skip


@pytest.mark.parametrize("agent", [None, "coder"])
@pytest.mark.parametrize(
    ("paths", "path", "decision", "code"),
    [row[1:] for row in PROTECT_PATHS],
    ids=[row[0] for row in PROTECT_PATHS],
)
def test_protect_paths_cover_what_a_person_means_by_them(
    project: Project, agent: str | None, paths: str, path: str, decision: str, code: str | None
) -> None:
    project.configure(
        '[orchestrator]\nwrite_allow = ["**"]\n\n[agents.coder]\nwrite_scope = ["**"]\n\n'
        f"[protect]\npaths = {paths}\n"
    )
    (project.root / "infra" / "prod").mkdir(parents=True)
    given = {"file_path": str(project.root / path), "content": "x"}
    got = project.judge("Write", given, agent=agent, env=WARN, session_id=f"s-{path}")
    assert got[:2] == (decision, code)


# ---- 8. a profile named by a pattern ----
# Before: [agents."*-reviewer"] was compared with agent types as a name; no agent type has a
# '*', so it judged none, and a code-reviewer got no profile: every tool, writes anywhere in
# the project.
# (id, profile, agent type, tool, decision, code)
PATTERN_PROFILES: list[tuple[str, str, str, str, str, str | None]] = [
    ("suffix-scope", '[agents."*-reviewer"]\nwrite_scope = []\n', "code-reviewer", "Write", "deny", "SCOPE_VIOLATION"),
    ("suffix-tools", '[agents."*-reviewer"]\ntools = ["Read", "Grep"]\n', "code-reviewer", "Write", "deny", "TOOL_NOT_ALLOWED"),
    ("plugin-prefix", '[agents."feature-dev:*"]\nwrite_scope = []\n', "feature-dev:code-explorer", "Write", "deny", "SCOPE_VIOLATION"),
    ("prefix-in-scope", '[agents."code-*"]\nwrite_scope = ["src/**"]\n', "code-writer", "Write", "none", None),
    # what stays: an exact name (and its spellings) before a pattern; others unmatched
    ("exact-first", '[agents."*-reviewer"]\nwrite_scope = []\n\n[agents.code-reviewer]\nwrite_scope = ["src/**"]\n', "code-reviewer", "Write", "none", None),
    ("spelling-first", '[agents."*_reviewer"]\nwrite_scope = []\n\n[agents.code_reviewer]\nwrite_scope = ["src/**"]\n', "code-reviewer", "Write", "none", None),
    ("no-match", '[agents."*-reviewer"]\nwrite_scope = []\n', "coder", "Write", "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("config", "agent", "tool", "decision", "code"),
    [row[1:] for row in PATTERN_PROFILES],
    ids=[row[0] for row in PATTERN_PROFILES],
)
def test_a_profile_named_by_a_pattern_judges_the_agent_types_it_matches(
    project: Project, config: str, agent: str, tool: str, decision: str, code: str | None
) -> None:
    project.configure(config)
    given = {"file_path": str(project.root / "src" / "app.py"), "content": "x"}
    assert project.judge(tool, given, agent=agent, env=ENFORCE)[:2] == (decision, code)


# ---- 9. what a skill pastes the call's args into ----
# Before: only "$ARGUMENTS" was replaced, so "!`git log $1`" or "$ARGUMENTS[0]" read as a
# harmless shell variable while the CLI pastes the argument in (quotes taken off: one
# argument "x; echo {} > F" runs the echo); and a plugin's skill or command was not read at
# all, so its ! lines ran the args unseen.
TAMPERING = "x; echo {} > .claude/settings.json"
PLUGIN = ".claude/plugins/cache/market/myplug/1.0.0"
SKILL_FILES = {
    f"{PLUGIN}/commands/run.md": "---\ndescription: d\n---\n!`git log $ARGUMENTS`\n",
    f"{PLUGIN}/skills/log/SKILL.md": "---\nname: log\n---\n!`git log $1`\n",
}
PROJECT_SKILLS = {
    ".claude/skills/pos/SKILL.md": "---\nname: pos\n---\n!`git show $ARGUMENTS[0]`\n",
    ".claude/skills/braced/SKILL.md": "---\nname: braced\n---\n!`git show ${2}`\n",
}
# (id, skill, args, decision, code)
SKILL_ARGS: list[tuple[str, str, str, str, str | None]] = [
    ("plugin-command", "myplug:run", TAMPERING, "deny", "TAMPER"),
    ("plugin-skill-positional", "myplug:log", f'"{TAMPERING}"', "deny", "TAMPER"),
    ("arguments-index", "pos", f'"{TAMPERING}"', "deny", "TAMPER"),
    ("braced-positional", "braced", f"a '{TAMPERING}'", "deny", "TAMPER"),
    # what stays
    ("plugin-harmless", "myplug:run", "--oneline -5", "none", None),
    ("positional-harmless", "pos", "HEAD~1", "none", None),
    ("unknown-plugin", "otherplug:run", TAMPERING, "none", None),
]


@pytest.mark.parametrize("agent", [None, "coder"])
@pytest.mark.parametrize(
    ("skill", "args", "decision", "code"),
    [row[1:] for row in SKILL_ARGS],
    ids=[row[0] for row in SKILL_ARGS],
)
def test_the_args_a_skill_pastes_in_are_judged(
    project: Project, agent: str | None, skill: str, args: str, decision: str, code: str | None
) -> None:
    for base, files in ((project.home, SKILL_FILES), (project.root, PROJECT_SKILLS)):
        for rel, text in files.items():
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_text(text)
    got = project.judge("Skill", {"skill": skill, "args": args}, agent=agent, env=WARN)
    assert got[:2] == (decision, code)


# ---- 10. the home folder as a server that expands variables spells it ----
# Before: only "~/" was read as the home folder; "$HOME/.claude.json" was the project's
# "$HOME" folder (TAMPER only where a name below it happened to be protected in any folder,
# as .claude/settings.json is), so the user's global config and plugins were open.
HOME_SPELLINGS = [
    "$HOME/.claude.json",
    "${HOME}/.claude/cowork_settings.json",
    "$HOME/.claude/plugins/installed_plugins.json",
    "%USERPROFILE%\\.claude.json",
    "$env:USERPROFILE/.claude/session-env/x.sh",
]


@pytest.mark.parametrize("spelt", HOME_SPELLINGS)
def test_an_mcp_path_in_the_home_spelled_as_a_variable_is_checked(
    project: Project, spelt: str
) -> None:
    got = project.judge("mcp__fs__write_file", {"path": spelt}, agent="coder", env=WARN)
    assert got[:2] == ("deny", "TAMPER")


@pytest.mark.parametrize(
    "spelt", ["$HOME/notes/todo.md", "$HOMEDIR/.claude.json", "~x/.claude.json"]
)
def test_other_home_spellings_keep_their_verdict(project: Project, spelt: str) -> None:
    # not TAMPER; since ADR 0083 a place outside the coder's src/** (or one a variable the
    # guard cannot read names) meets its scope
    got = project.judge("mcp__fs__write_file", {"path": spelt}, agent="coder", env=WARN)
    assert got[:2] == ("warn", "SCOPE_VIOLATION")


# ---- 11. a pattern calls a tool "read" whose name says no reading ----
# Before: under a config pattern (``"mcp__fs__*" = "read"``) only a name holding a word of a
# list of changing verbs kept its input guarded (ADR 0066); "overwriteFile", "upsert_doc",
# "download_to" or any verb not on the list wrote the settings in every phase.
@pytest.mark.parametrize(
    "tool",
    ["mcp__fs__overwriteFile", "mcp__fs__upsert_doc", "mcp__fs__download_to", "mcp__fs__frob"],
)
def test_a_pattern_read_keeps_guarding_a_tool_that_does_not_say_it_reads(
    project: Project, tool: str
) -> None:
    project.configure(BASE + '\n[tools]\n"mcp__fs__*" = "read"\n')
    given = {"path": SETTINGS, "content": "{}"}
    assert project.judge(tool, given, agent="coder", env=WARN)[:2] == ("deny", "TAMPER")


@pytest.mark.parametrize(
    "tool", ["mcp__fs__read_text_file", "mcp__fs__list_directory", "mcp__fs__get_file_info"]
)
def test_a_pattern_read_still_trusts_a_tool_that_says_it_reads(project: Project, tool: str) -> None:
    project.configure(BASE + '\n[tools]\n"mcp__fs__*" = "read"\n')
    got = project.judge(tool, {"path": SETTINGS}, agent="coder", env=ENFORCE)
    assert got[:2] == ("none", None)


# ---- 12. a long path under a key that does not say path ----
# Before: a one-line string over 1,024 characters under a key such as "name" was not read as
# a path at all, so "./" x 600 + ".claude/settings.json" (what a server normalises itself)
# went through an MCP write.
@pytest.mark.parametrize(
    "spelt",
    [
        "./" * 600 + SETTINGS,
        "src/" + "a/../" * 600 + SETTINGS,
        ".\\" * 600 + ".claude\\settings.json",
    ],
    ids=["dot-slashes", "climbs", "backslashes"],
)
def test_a_long_loose_path_is_read_as_its_short_form(project: Project, spelt: str) -> None:
    got = project.judge("mcp__x__create", {"name": spelt}, agent="coder", env=WARN)
    assert got[:2] == ("deny", "TAMPER")


def test_long_loose_text_stays_text(project: Project) -> None:
    prose = ("see .claude/settings.json for the hooks " * 40).strip()
    blob = "QUJD" * 400
    for value in (prose, blob):
        got = project.judge("mcp__x__create", {"name": value}, agent="coder", env=ENFORCE)
        assert got[:2] == ("none", None)


def test_a_backslash_exclusion_has_its_folder_head_too() -> None:
    """``rm -rf src`` changes what ``!src\\secrets\\**`` excludes: the exclusion's literal
    folder is found on its separator reading too (``scope.exclusion_within``)."""
    from orchestrator_boundary.paths import Located
    from orchestrator_boundary.scope import exclusion_within

    src = Located("src", ("/p/src",), ("src",), "")
    assert exclusion_within(src, ["src/**", "!src\\secrets\\**"], False) == "!src/secrets/**"
    assert exclusion_within(src, ["src/**", "!docs\\x\\**"], False) is None


class _WindowsSettings:
    """A Windows file system that holds one project settings file and the files it names."""

    windows = True

    def __init__(self, settings: str, text: str, files: set[str]) -> None:
        self.settings, self.text, self.files = settings, text, files

    def script_text(self, path: str, limit: int) -> str | None:
        return self.text if path == self.settings else None

    def identity(self, path: str) -> tuple[int, int, int] | None:
        return (1, 1, 1) if path in self.files else None

    def files_below(self, folder: str, limit: int) -> list[str]:
        return []  # no managed-settings.d (ADR 0083 reads it through the FileSystem's walk)


def test_a_windows_settings_command_names_its_scripts() -> None:
    """Before: a Windows file system read no settings command (its words are not POSIX
    words), so no hook script was protected there."""
    import json

    from orchestrator_boundary.protect_hooks import hook_scripts

    root, home = "C:\\Users\\dev\\proj", "C:\\Users\\dev"
    commands = {
        "hooks": {
            "PostToolUse": [
                {"hooks": [{"type": "command", "command": 'powershell -NoProfile -File "%CLAUDE_PROJECT_DIR%\\scripts\\fmt.ps1"'}]},
                {"hooks": [{"type": "command", "command": "node $env:USERPROFILE\\bin\\notify.js; exit 0"}]},
                {"hooks": [{"type": "command", "command": "python tools\\check.py --all"}]},
            ]
        }
    }  # fmt: skip
    files = {
        root + "\\scripts\\fmt.ps1",
        home + "\\bin\\notify.js",
        root + "\\tools\\check.py",
    }
    fs = _WindowsSettings(root + "/.claude/settings.json", json.dumps(commands), files)
    found = {path for path, _ in hook_scripts(root, home, None, fs)}  # type: ignore[arg-type]
    assert found == files
