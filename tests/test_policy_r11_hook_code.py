"""Round eleven: the code a hook runs in turn, and a project that is itself a plugin (ADR 0078).

Each row runs the real decision (``shell.evaluate``) on a payload against a real project in
tmp_path. Before round eleven only the files a settings command names were protected (ADR
0071): a script that hook script ran or sourced, and every hook of a plugin the project is,
were ordinary files a subagent could rewrite, and Claude Code then ran them with no hook asked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harden_support import Project, make_project

WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
CONFIG = """
[orchestrator]
write_allow = ["STATE.md", "docs/**"]

[agents.coder]
write_scope = ["**"]
"""


def _write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text)


def _hook(command: str) -> dict[str, Any]:
    return {
        "PostToolUse": [
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": command}]}
        ]
    }


# ---- 1. what a hook script runs or sources ----
SCRIPTS = {
    ".claude/hooks/post.sh": (
        '#!/bin/bash\nset -e\nsource "$(dirname "$0")/lib.sh"\n. ./scripts/env_setup\n'
        'python3 scripts/check.py "$1"\nnode tools/notify.mjs || true\n'
        "jq .name package.json > /dev/null\n"
    ),
    ".claude/hooks/lib.sh": "helper() { bash ../../scripts/deeper.sh; }\n",
    "scripts/env_setup": "export X=1\n",
    "scripts/check.py": "import rules\nfrom checks.style import run\nrun()\n",
    "scripts/rules.py": "R = 1\n",
    "scripts/checks/__init__.py": "",
    "scripts/checks/style.py": "def run(): pass\n",
    "scripts/deeper.sh": "echo deep\n",
    "tools/notify.mjs": "import { send } from './send.js';\nconst u = require('./util')\n",
    "tools/send.js": "export const send = 1\n",
    "tools/util.js": "module.exports = 1\n",
    "package.json": "{}\n",
    "scripts/unrelated.py": "print(1)\n",
}


@pytest.fixture
def chained(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    for rel, text in SCRIPTS.items():
        _write(p.root, rel, text)
    settings = {"hooks": _hook('bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/post.sh')}
    (p.root / ".claude/settings.json").write_text(json.dumps(settings))
    # the hook script lives outside .claude/hooks too: tools/run_hook.sh
    p.configure(CONFIG)
    return p


# (id, path written by the coder, decision in warn, code)
CHAINED: list[tuple[str, str, str, str | None]] = [
    ("sourced-beside-it", ".claude/hooks/lib.sh", "deny", "TAMPER"),  # already: .claude/hooks/
    ("dot-sourced", "scripts/env_setup", "deny", "TAMPER"),
    ("run-by-python", "scripts/check.py", "deny", "TAMPER"),
    ("python-import", "scripts/rules.py", "deny", "TAMPER"),
    ("python-from-import", "scripts/checks/style.py", "deny", "TAMPER"),
    ("run-by-node", "tools/notify.mjs", "deny", "TAMPER"),
    ("js-import", "tools/send.js", "deny", "TAMPER"),
    ("js-require-no-ext", "tools/util.js", "deny", "TAMPER"),
    ("third-level", "scripts/deeper.sh", "deny", "TAMPER"),
    # what stays: data a script reads, files it does not name
    ("data-it-reads", "package.json", "none", None),
    ("unrelated", "scripts/unrelated.py", "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rel", "decision", "code"), [r[1:] for r in CHAINED], ids=[r[0] for r in CHAINED]
)
def test_what_a_hook_script_runs_is_protected(
    chained: Project, rel: str, decision: str, code: str | None
) -> None:
    given = {"file_path": str(chained.root / rel), "content": "x"}
    assert chained.judge("Write", given, agent="coder", env=WARN)[:2] == (decision, code)


def test_a_script_outside_dot_claude_sources_its_sibling(tmp_path: Path) -> None:
    """The first script is not in .claude/hooks/: what it sources is followed all the same."""
    p = make_project(tmp_path)
    _write(p.root, "tools/hook.sh", 'DIR="${BASH_SOURCE%/*}"\nsource "$DIR/common.sh"\n')
    _write(p.root, "tools/common.sh", "true\n")
    (p.root / ".claude/settings.json").write_text(json.dumps({"hooks": _hook("tools/hook.sh")}))
    p.configure(CONFIG)
    given = {"file_path": str(p.root / "tools/common.sh"), "content": "x"}
    assert p.judge("Write", given, agent="coder", env=WARN)[:2] == ("deny", "TAMPER")


def test_following_is_bounded(tmp_path: Path) -> None:
    """A chain longer than the levels read stops: the project still answers, and the first
    levels are protected."""
    p = make_project(tmp_path)
    for n in range(12):
        _write(p.root, f"chain/s{n}.sh", f"bash chain/s{n + 1}.sh\n")
    (p.root / ".claude/settings.json").write_text(json.dumps({"hooks": _hook("bash chain/s0.sh")}))
    p.configure(CONFIG)

    def verdict(n: int) -> tuple[str, str | None]:
        given = {"file_path": str(p.root / f"chain/s{n}.sh"), "content": "x"}
        return p.judge("Write", given, agent="coder", env=WARN)[:2]

    assert verdict(1) == ("deny", "TAMPER")
    assert verdict(3) == ("deny", "TAMPER")
    assert verdict(11) == ("none", None)


# ---- 2. a project that is itself a plugin, or a marketplace of them ----
PLUGIN_FILES = {
    ".claude-plugin/plugin.json": json.dumps({"name": "mine", "hooks": "./config/more-hooks.json"}),
    "hooks/hooks.json": json.dumps({"hooks": _hook("${CLAUDE_PLUGIN_ROOT}/hooks/format.sh")}),
    "hooks/format.sh": "python3 ${CLAUDE_PLUGIN_ROOT}/lib/fmt.py\n",
    "lib/fmt.py": "print(1)\n",
    "config/more-hooks.json": json.dumps({"hooks": _hook("node ${CLAUDE_PLUGIN_ROOT}/bin/x.js")}),
    "bin/x.js": "1\n",
    ".lsp.json": json.dumps(
        {"py": {"command": "python3", "args": ["${CLAUDE_PLUGIN_ROOT}/bin/lsp.py"]}}
    ),
    "bin/lsp.py": "1\n",
    "src/app.py": "1\n",
}


@pytest.fixture
def plugin(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    for rel, text in PLUGIN_FILES.items():
        _write(p.root, rel, text)
    p.configure(CONFIG)
    return p


PLUGIN: list[tuple[str, str, str, str | None]] = [
    ("hooks-json", "hooks/hooks.json", "deny", "TAMPER"),
    ("hook-script", "hooks/format.sh", "deny", "TAMPER"),
    ("what-the-hook-script-runs", "lib/fmt.py", "deny", "TAMPER"),
    ("hooks-file-the-manifest-names", "config/more-hooks.json", "deny", "TAMPER"),
    ("its-command", "bin/x.js", "deny", "TAMPER"),
    ("lsp-json", ".lsp.json", "deny", "TAMPER"),
    ("lsp-server", "bin/lsp.py", "deny", "TAMPER"),
    ("ordinary-code", "src/app.py", "none", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rel", "decision", "code"), [r[1:] for r in PLUGIN], ids=[r[0] for r in PLUGIN]
)
def test_a_plugin_projects_hooks_are_protected(
    plugin: Project, rel: str, decision: str, code: str | None
) -> None:
    given = {"file_path": str(plugin.root / rel), "content": "x"}
    assert plugin.judge("Write", given, agent="coder", env=WARN)[:2] == (decision, code)


def test_hooks_json_is_ordinary_when_the_project_is_no_plugin(tmp_path: Path) -> None:
    p = make_project(tmp_path)
    _write(p.root, "hooks/hooks.json", "{}")
    p.configure(CONFIG)
    given = {"file_path": str(p.root / "hooks/hooks.json"), "content": "x"}
    assert p.judge("Write", given, agent="coder", env=WARN)[:2] == ("none", None)


MARKET_FILES = {
    ".claude-plugin/marketplace.json": json.dumps(
        {"name": "team", "plugins": [{"name": "fmt", "source": "./plugins/fmt"}]}
    ),
    "plugins/fmt/.claude-plugin/plugin.json": json.dumps({"name": "fmt"}),
    "plugins/fmt/hooks/hooks.json": json.dumps({"hooks": _hook("${CLAUDE_PLUGIN_ROOT}/run.sh")}),
    "plugins/fmt/run.sh": "true\n",
    "tools/market/.claude-plugin/marketplace.json": json.dumps(
        {
            "name": "local",
            "plugins": [{"name": "lint", "source": {"source": "local", "path": "./lint"}}],
        }
    ),
    "tools/market/lint/.claude-plugin/plugin.json": json.dumps(
        {
            "name": "lint",
            "mcpServers": {"s": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/srv.js"]}},
        }
    ),
    "tools/market/lint/srv.js": "1\n",
    "tools/market/lint/.mcp.json": "{}",
}


@pytest.fixture
def market(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    for rel, text in MARKET_FILES.items():
        _write(p.root, rel, text)
    settings = {
        "extraKnownMarketplaces": {
            "local": {"source": {"source": "directory", "path": "./tools/market"}}
        },
        "enabledPlugins": {"lint@local": True},
    }
    (p.root / ".claude/settings.json").write_text(json.dumps(settings))
    p.configure(CONFIG)
    return p


MARKET: list[tuple[str, str, str, str | None]] = [
    ("listed-plugin-hooks", "plugins/fmt/hooks/hooks.json", "deny", "TAMPER"),
    ("listed-plugin-script", "plugins/fmt/run.sh", "deny", "TAMPER"),
    ("listed-plugin-manifest", "plugins/fmt/.claude-plugin/plugin.json", "deny", "TAMPER"),
    ("settings-marketplace-manifest", "tools/market/.claude-plugin/marketplace.json", "deny", "TAMPER"),
    ("settings-marketplace-plugin-manifest", "tools/market/lint/.claude-plugin/plugin.json", "deny", "TAMPER"),
    ("inline-mcp-server-script", "tools/market/lint/srv.js", "deny", "TAMPER"),
    ("plugin-mcp-json", "tools/market/lint/.mcp.json", "deny", "TAMPER"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rel", "decision", "code"), [r[1:] for r in MARKET], ids=[r[0] for r in MARKET]
)
def test_a_marketplaces_plugins_are_protected(
    market: Project, rel: str, decision: str, code: str | None
) -> None:
    given = {"file_path": str(market.root / rel), "content": "x"}
    assert market.judge("Write", given, agent="coder", env=WARN)[:2] == (decision, code)


# ---- 3. a skill of a plugin the project holds ----
# Before: `plugin:name` was looked up below the user's plugins folder only; the skill of a
# plugin loaded from the project (`--plugin-dir .`, a local marketplace) was not read, so the
# args the Skill call pastes into its ! lines ran unseen.
TAMPERING = "x; echo {} > .claude/settings.json"


@pytest.mark.parametrize("agent", [None, "coder"])
@pytest.mark.parametrize(
    ("skill", "args", "decision", "code"),
    [
        ("mine:fmt", TAMPERING, "deny", "TAMPER"),
        ("mine:run", TAMPERING, "deny", "TAMPER"),
        ("mine:fmt", "--check", "none", None),
    ],
    ids=["skill", "command", "harmless"],
)
def test_a_project_plugins_skill_pastes_args_that_are_judged(
    plugin: Project, agent: str | None, skill: str, args: str, decision: str, code: str | None
) -> None:
    _write(plugin.root, "skills/fmt/SKILL.md", "---\nname: fmt\n---\n!`ruff format $ARGUMENTS`\n")
    _write(plugin.root, "commands/run.md", "---\ndescription: d\n---\n!`make $1`\n")
    got = plugin.judge("Skill", {"skill": skill, "args": args}, agent=agent, env=WARN)
    assert got[:2] == (decision, code)


def test_the_reason_names_what_runs_a_plugins_script(plugin: Project) -> None:
    enforce = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    given = {"file_path": str(plugin.root / "hooks/format.sh"), "content": "x"}
    assert (
        "a command in hooks/hooks.json runs" in plugin.judge("Write", given, env=enforce)[2].stdout
    )


def test_the_reason_says_a_hook_runs_it_in_turn(chained: Project) -> None:
    enforce = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}
    given = {"file_path": str(chained.root / "scripts/rules.py"), "content": "x"}
    assert "a hook's script runs in turn" in chained.judge("Write", given, env=enforce)[2].stdout


# ---- 4. what a skill, a command or an agent definition runs ----
# Before: the skill's file was protected, not the script its `!` line runs, nor the script a
# hook in the front matter of a skill, a command or an agent definition runs: Claude Code runs
# them when it loads the skill (or while the subagent runs) with no hook asked.
DEFINITIONS = {
    ".claude/skills/gather/SKILL.md": "---\nname: gather\n---\n!`python3 scripts/gather.py`\n",
    ".claude/agents/reviewer.md": (
        "---\nname: reviewer\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n"
        "        - type: command\n          command: ./scripts/agent_check.sh\n---\nReview.\n"
    ),
    ".claude/commands/ship.md": "---\ndescription: d\n---\n```!\nbash tools/ship\n```\n",
    "scripts/gather.py": "1\n",
    "scripts/agent_check.sh": "true\n",
    "tools/ship": "true\n",
    "docs/guide.md": "see docs\n",
}


@pytest.mark.parametrize(
    ("rel", "decision", "code"),
    [
        ("scripts/gather.py", "deny", "TAMPER"),
        ("scripts/agent_check.sh", "deny", "TAMPER"),
        ("tools/ship", "deny", "TAMPER"),
        ("docs/guide.md", "none", None),
    ],
    ids=["skill-bang-line", "agent-front-matter-hook", "command-bang-block", "prose"],
)
def test_what_a_definition_runs_is_protected(
    tmp_path: Path, rel: str, decision: str, code: str | None
) -> None:
    p = make_project(tmp_path)
    for name, text in DEFINITIONS.items():
        _write(p.root, name, text)
    p.configure(CONFIG)
    given = {"file_path": str(p.root / rel), "content": "x"}
    assert p.judge("Write", given, agent="coder", env=WARN)[:2] == (decision, code)


def test_what_a_users_skill_runs_is_protected(tmp_path: Path) -> None:
    p = make_project(tmp_path)
    _write(p.home, ".claude/skills/tidy/SKILL.md", "---\nname: tidy\n---\n!`node ~/bin/tidy.js`\n")
    _write(p.home, "bin/tidy.js", "1\n")
    p.configure(CONFIG)
    given = {"file_path": str(p.home / "bin/tidy.js"), "content": "x"}
    assert p.judge("Write", given, agent="coder", env=WARN)[:2] == ("deny", "TAMPER")


# ---- 5. a script a settings command names that does not exist yet; what `env` loads ----
# Before: only an existing file a command names was protected: a hook whose script is missing
# (deleted, not yet written) ran whatever a subagent wrote there next. The settings' `env`,
# which Claude Code passes to every Bash command and hook, was not read: `BASH_ENV` is sourced
# by each of them, `NODE_OPTIONS=--require x.js` loaded by every node.
@pytest.fixture
def pending(tmp_path: Path) -> Project:
    p = make_project(tmp_path)
    _write(p.root, "scripts/preload.js", "1\n")
    _write(p.root, "src/a.py", "1\n")
    settings = {
        "hooks": {
            "PostToolUse": [
                {"hooks": [{"type": "command", "command": "python3 scripts/missing_hook.py"}]},
                {"hooks": [{"type": "command", "command": "ruff check src --fix"}]},
            ]
        },
        "env": {"BASH_ENV": "./scripts/env.sh", "NODE_OPTIONS": "--require ./scripts/preload.js"},
    }
    (p.root / ".claude/settings.json").write_text(json.dumps(settings))
    p.configure(CONFIG)
    return p


@pytest.mark.parametrize(
    ("tool", "tool_input", "decision", "code"),
    [
        ("Write", {"file_path": "scripts/missing_hook.py"}, "deny", "TAMPER"),
        ("Write", {"file_path": "scripts/env.sh"}, "deny", "TAMPER"),
        ("Write", {"file_path": "scripts/preload.js"}, "deny", "TAMPER"),
        # what stays: the folder a hook checks, and its files
        ("Write", {"file_path": "src/a.py"}, "none", None),
        ("Bash", {"command": "rm -rf src"}, "none", None),
    ],
    ids=[
        "missing-hook-script",
        "bash-env",
        "node-options",
        "checked-folder-file",
        "checked-folder",
    ],
)
def test_a_script_to_be_and_what_env_loads_are_protected(
    pending: Project, tool: str, tool_input: dict[str, Any], decision: str, code: str | None
) -> None:
    given = dict(tool_input)
    if "file_path" in given:
        given = {"file_path": str(pending.root / given["file_path"]), "content": "x"}
    assert pending.judge(tool, given, agent="coder", env=WARN)[:2] == (decision, code)


def test_the_managed_settings_commands_name_scripts(tmp_path: Path) -> None:
    """Before: the managed settings' hooks were not read, so the script a company hook runs
    (in a folder an agent may write) was an ordinary file."""
    from orchestrator_boundary.fs import RealFileSystem
    from orchestrator_boundary.protect_hooks import hook_scripts

    root, home = tmp_path / "proj", tmp_path / "home"
    root.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    script = tmp_path / "opt" / "guard.sh"
    _write(tmp_path, "opt/guard.sh", "true\n")
    managed = tmp_path / "managed-settings.json"
    managed.write_text(json.dumps({"hooks": _hook(f"bash {script}")}))
    found = dict(hook_scripts(str(root), str(home), None, RealFileSystem(), (str(managed),)))
    assert found.get(str(script)) == "a file a command in the managed settings runs"


def test_the_servers_of_the_users_global_config_are_read(tmp_path: Path) -> None:
    """Before: the MCP servers in ~/.claude.json (the user's, and this project's `local`
    ones) were not read: the script such a server runs was an ordinary file."""
    p = make_project(tmp_path)
    _write(p.root, "tools/local_server.py", "1\n")
    _write(p.home, "servers/mine.js", "1\n")
    config = {
        "mcpServers": {"mine": {"command": "node", "args": [str(p.home / "servers/mine.js")]}},
        "projects": {
            str(p.root): {"mcpServers": {"db": {"command": "python3 tools/local_server.py"}}}
        },
    }
    (p.home / ".claude.json").write_text(json.dumps(config))
    p.configure(CONFIG)
    for path in (p.root / "tools/local_server.py", p.home / "servers/mine.js"):
        given = {"file_path": str(path), "content": "x"}
        assert p.judge("Write", given, agent="coder", env=WARN)[:2] == ("deny", "TAMPER")


# ---- 6. a long script is read in linear time ----
# Before the fix in this round's own code: a name pattern that backtracked over a run of path
# characters took 30 s and more on a 64 KiB minified line (the hook answers within 8 s).
@pytest.mark.parametrize(
    "text",
    ["a" * 65000, "a/" * 32000, "from " + "." * 65000, "require('./" + "a" * 65000, "${" * 32000],
    ids=["run", "slashes", "from-dots", "require", "braces"],
)
def test_a_long_script_is_read_quickly(text: str) -> None:
    import time

    from orchestrator_boundary.protect_follow import _names

    started = time.perf_counter()
    _names(text)
    assert time.perf_counter() - started < 1.0


def test_the_reading_budget_bounds_many_scripts(tmp_path: Path) -> None:
    """Sixty-four scripts of 64 KiB each are read within the text budget, not all of them."""
    from orchestrator_boundary.fs import RealFileSystem
    from orchestrator_boundary.protect_follow import MAX_TEXT, followed

    scripts = []
    for n in range(64):
        path = tmp_path / f"s{n}.sh"
        path.write_text(("x" * 60 + "\n") * 1000 + f"bash s{n}_next.sh\n")
        (tmp_path / f"s{n}_next.sh").write_text("true\n")
        scripts.append(str(path))
    found = followed(scripts, (str(tmp_path),), RealFileSystem())
    assert 0 < len(found) <= MAX_TEXT // 61_000 + 1


def test_a_folder_a_hook_makes_is_not_protected(tmp_path: Path) -> None:
    """A word of a hook that names nothing yet and is no script (`mkdir -p build/cache`) is
    not protected: `rm -rf build` stays ordinary work."""
    p = make_project(tmp_path)
    settings = {"hooks": _hook("mkdir -p build/cache && touch build/cache/stamp")}
    (p.root / ".claude/settings.json").write_text(json.dumps(settings))
    p.configure(CONFIG)
    assert p.judge("Bash", {"command": "rm -rf build"}, agent="coder", env=WARN)[:2] == (
        "none",
        None,
    )
