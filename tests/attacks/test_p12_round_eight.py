"""The eighth attack round on the policy core and the protected set (ADR 0066).

Claude Code 2.1.330 reads settings, policy and plugins from more places than the protected set
named, each listed by its own sandbox among the config folder's entries no tool may write:

- ``cowork_settings.json``: the user settings file when Claude Code runs with cowork plugins
  (``CLAUDE_CODE_USE_COWORK_PLUGINS``, Claude Desktop), in place of ``settings.json``;
- ``remote-settings.json`` and ``policy-limits.json`` (and their ``.signature.json`` and
  ``.signature-iat.json``): the organisation's settings and limits as delivered, cached there;
- ``cowork_plugins/``: the plugins folder in cowork mode (hooks and mods that answer first);
- ``~/.claude-staging-oauth.json``, ``-local-oauth``, ``-custom-oauth``: the global config
  (MCP servers, per-project tool permissions) for the other sign-in routes, as ``.claude.json``;
- folders and files that environment variables name: ``CLAUDE_CODE_PLUGIN_CACHE_DIR``,
  ``CLAUDE_CODE_PLUGIN_SEED_DIR``, ``CLAUDE_CODE_PLUGIN_DIRS`` (plugins loaded from there),
  ``CLAUDE_CODE_MANAGED_SETTINGS_PATH``, ``CLAUDE_CODE_REMOTE_SETTINGS_PATH``.

Each attack through the registered hook and through the warm evaluator, in warn with the
bypass set (TAMPER still blocks there), as in the rest of the suite.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from harden_support import WIDE_OPEN

from .support import (
    ENFORCE,
    WARN_AND_BYPASS,
    Arena,
    Attack,
    attempt,
    bash,
    new_arena,
    params,
    route_params,
    write,
)

MCP_WRITE = "mcp__fs__write_file"

ATTACKS = [
    # the user settings file of cowork mode
    write("cowork settings", "{home}/.claude/cowork_settings.json"),
    write("cowork settings, CLAUDE_CONFIG_DIR", "{ccd}/cowork_settings.json"),
    write("cowork settings, orchestrator", "{ccd}/cowork_settings.json", caller="orchestrator"),
    bash("cowork settings by redirect", "echo '{{}}' > ~/.claude/cowork_settings.json"),
    Attack("cowork settings by MCP", MCP_WRITE, {"target": "~/.claude/cowork_settings.json"}),
    # the organisation's settings and limits, as cached
    write("remote settings", "{home}/.claude/remote-settings.json"),
    write("remote settings signature", "{ccd}/remote-settings.json.signature.json"),
    write(
        "remote settings signature time", "{home}/.claude/remote-settings.json.signature-iat.json"
    ),
    write("policy limits", "{ccd}/policy-limits.json", env=ENFORCE),
    bash("policy limits by rm", "rm -f ~/.claude/policy-limits.json"),
    # cowork mode's plugins
    write("cowork plugin hooks", "{home}/.claude/cowork_plugins/cache/m/p/1/hooks/hooks.json"),
    write("cowork installed plugins", "{ccd}/cowork_plugins/installed_plugins.json"),
    bash("cowork plugins removed", "rm -rf ~/.claude/cowork_plugins"),
    # the global config of the other sign-in routes
    write("staging global config", "{home}/.claude-staging-oauth.json"),
    write("local global config", "{home}/.claude-local-oauth.json", caller="orchestrator"),
    bash("custom global config by tee", "echo '{{}}' | tee ~/.claude-custom-oauth.json"),
    write("custom global config, CLAUDE_CONFIG_DIR", "{ccd}/.claude-custom-oauth.json"),
]

# A program handed a protected file (ADR 0055) as the value of an option, or by an MCP tool's
# command line: the same word check as Bash's, on the path glued to the option too.
WORDS = [
    bash("the hook's interpreter handed to a program", "frobnicate --out {python}"),
    bash("opaque --out=FILE", "frobnicate --out=.claude/settings.json"),
    bash("opaque --out=FILE, absolute", "frobnicate --out={root}/.claude/boundary.toml"),
    bash('opaque --out="$D/FILE"', 'frobnicate --out="$D/.claude/settings.json"'),
    bash("opaque KEY=FILE", "frobnicate out=.claude/settings.local.json", caller="orchestrator"),
    bash("opaque -oFILE", "frobnicate -o.claude/agents/coder.md", env=ENFORCE),
    bash("opaque --settings=~", "frobnicate --settings=~/.claude/settings.json"),
    Attack("MCP shell, opaque program", "mcp__sh__run", {"command": "frob .claude/settings.json"}),
    Attack("MCP argv, glued", "mcp__sh__run", {"argv": ["frob", "--out=.claude/boundary.toml"]}),
    Attack(
        "MCP flags, glued", "mcp__x__fmt", {"flags": ["--write", "--out=.claude/settings.json"]}
    ),
    Attack("MCP env list, KEY=FILE", "mcp__x__run", {"env": ["CONFIG=.claude/boundary.toml"]}),
]

ALLOWED = [
    # the same names where Claude Code reads nothing: no false alarm
    write(
        "a project file named like cowork settings",
        "{root}/src/cowork_settings.json",
        expect=("none", None),
    ),
    write(
        "a project folder named cowork_plugins",
        "{root}/src/cowork_plugins/a.py",
        expect=("none", None),
    ),
    # a word that only holds a protected folder's name inside another (`fetch` holds `etc`)
    bash(
        "PR comment whose body says `fetch`",
        "gh pr comment 27 --body \"$(cat <<'EOF'\nBrowser APIs: `fetch` blocked\nEOF\n)\"",
        env=ENFORCE,
        expect=("none", None),
    ),
    # running the hook's own interpreter (a project venv the boundary is installed in) is not
    # changing it: the word that names the program is not handed to it
    bash(
        "the hook's interpreter runs the tests",
        "{python} -m pytest -q",
        env=ENFORCE,
        expect=("none", None),
    ),
    bash(
        "the interpreter by a variable",
        '"$VIRTUAL_ENV/bin/python" -m pytest -q',
        expect=("none", None),
    ),
    bash(
        "the interpreter after a wrapper",
        "timeout 60 {python} -m pytest",
        env=ENFORCE,
        expect=("none", None),
    ),
    bash("opaque --flag=value", "frobnicate --mode=fast --out=build/x.json", expect=("none", None)),
    bash("opaque --env-file=.env", "frobnicate --env-file=.env run", expect=("none", None)),
    Attack(
        "MCP flags, ordinary",
        "mcp__x__fmt",
        {"flags": ["--write", "--out=src/x.json"]},
        expect=("none", None),
    ),
    write("notes on remote settings", "{root}/docs/remote-settings.json.md", expect=("none", None)),
]


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(ATTACKS))
def test_round_eight_attacks_are_tamper(arena: Arena, attack: Attack, route: str) -> None:
    attempt(arena, attack, route)


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(WORDS))
def test_a_protected_file_glued_to_an_option_is_tamper(
    arena: Arena, attack: Attack, route: str
) -> None:
    attempt(arena, attack, route)


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(ALLOWED))
def test_round_eight_neighbours_stay_allowed(arena: Arena, attack: Attack, route: str) -> None:
    attempt(arena, attack, route)


# (variable, value below the arena's base folder, a file written below it)
NAMED = [
    ("CLAUDE_CODE_PLUGIN_CACHE_DIR", "plugin-cache", "plugin-cache/cache/m/p/1/hooks/hooks.json"),
    ("CLAUDE_CODE_PLUGIN_SEED_DIR", "seed-a{sep}seed-b", "seed-b/known_marketplaces.json"),
    ("CLAUDE_CODE_PLUGIN_DIRS", "dev-plugin{sep}other", "dev-plugin/hooks/hooks.json"),
    ("CLAUDE_CODE_MANAGED_SETTINGS_PATH", "policy", "policy/managed-settings.json"),
    ("CLAUDE_CODE_REMOTE_SETTINGS_PATH", "remote/settings.json", "remote/settings.json"),
]


@pytest.fixture(scope="module")
def named_arena() -> Iterator[Arena]:
    with new_arena() as a:
        a.warm()
        yield a


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize(("variable", "value", "written"), NAMED, ids=[n[0] for n in NAMED])
def test_what_claude_codes_variables_name_is_protected(
    named_arena: Arena, variable: str, value: str, written: str, route: str
) -> None:
    """A folder or file a Claude Code variable names, in the hook's environment (which Claude
    Code hands on): a write there is TAMPER, as in the folder it replaces."""
    base = named_arena.base
    parts = value.format(sep=os.pathsep).split(os.pathsep)
    env = {**WARN_AND_BYPASS, variable: os.pathsep.join(str(base / p) for p in parts)}
    target = base / written
    payload = named_arena.payload("Write", {"file_path": str(target), "content": "{}"})
    got = named_arena.run(payload, route, env)
    assert (got.decision, got.code) == ("deny", "TAMPER"), got
    # without the variable the same path is an ordinary file outside the project
    plain = named_arena.payload("Write", {"file_path": str(target), "content": "{}"})
    got = named_arena.run(plain, route, WARN_AND_BYPASS)
    assert got.code is None, got


def test_a_variable_naming_the_project_itself_does_not_protect_it(tmp_path: Path) -> None:
    """``CLAUDE_CODE_PLUGIN_DIRS=.`` (a plugin developed in the project's root) must not make
    every project file protected: a folder holding the root or the home is not taken."""
    with new_arena() as arena:
        env = {"ORCHESTRATOR_BOUNDARY_PHASE": "enforce", "CLAUDE_CODE_PLUGIN_DIRS": str(arena.root)}
        payload = arena.payload("Write", {"file_path": "{root}/src/app.py", "content": "x"})
        got = arena.run(payload, "hook", env)
        assert (got.decision, got.code) == ("none", None), got


# A config pattern that calls a whole MCP server "read" (as the docs suggest for its read_*
# tools) also matched its write_file: the input was no longer walked, and a subagent's MCP write
# to the settings went through in every phase. An exact name is the person's own word.
READ_PATTERN = (
    WIDE_OPEN
    + '\n[tools]\n"mcp__filesystem__*" = "read"\n"mcp__fs2__write_file" = "read"\n'
    + '"mcp__github__*" = "read"\n'
)
PATTERN_CALLS = [
    Attack("write_file under a read pattern", "mcp__filesystem__write_file",
           {"path": "{root}/.claude/settings.json", "content": "{}"}),
    Attack("editFile under a read pattern", "mcp__filesystem__editFile",
           {"path": ".claude/boundary.toml", "edits": []}, env=ENFORCE),
    Attack("move-file under a read pattern", "mcp__filesystem__move-file",
           {"source": "x", "destination": "{home}/.claude/settings.json"}),
    # what stays as the person said
    Attack("read_text_file of .env under a read pattern", "mcp__filesystem__read_text_file",
           {"path": "{root}/.env"}, expect=("none", None)),
    Attack("an exact name is the person's word", "mcp__fs2__write_file",
           {"path": "{root}/.claude/settings.json"}, expect=("none", None)),
    Attack("create_issue naming no file", "mcp__github__create_issue",
           {"title": "x", "body": "see .claude/settings.json"}, env=ENFORCE,
           expect=("none", None)),
]  # fmt: skip


@pytest.fixture(scope="module")
def pattern_arena() -> Iterator[Arena]:
    with new_arena(READ_PATTERN) as a:
        a.warm()
        yield a


@pytest.mark.parametrize("route", route_params())
@pytest.mark.parametrize("attack", params(PATTERN_CALLS))
def test_a_read_pattern_does_not_open_an_mcp_write(
    pattern_arena: Arena, attack: Attack, route: str
) -> None:
    attempt(pattern_arena, attack, route)
