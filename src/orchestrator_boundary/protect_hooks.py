"""The files Claude Code's settings run: hook commands, the status line, the helpers. ADR 0071.

Claude Code runs a settings file's hook commands on every matching event, its ``statusLine``
command while the session is open, and its helpers (``apiKeyHelper``, ``awsAuthRefresh``...)
when it needs them, with no PreToolUse hook asked: a script one of them names
(``"command": "python3 tools/format_hook.py"``) is code that runs outside the guard, as a
skill's ``!`` lines are (ADR 0053). Whoever changes the script changes what the hook does, so
each existing file a command's words name is protected, as the settings file is.

The same holds for the programs the project's ``.mcp.json`` starts (``"command": "node",
"args": ["scripts/mcp_server.js"]``): Claude Code starts them with no hook asked. Read from
the project's settings (shared and local), its ``.mcp.json`` and the user's settings, through
the Setup's file system (a payload judged on another machine reads none: string rules only).
"""

from __future__ import annotations

import contextlib
import json
import ntpath
import posixpath
import re
from collections.abc import Iterator

from orchestrator_boundary.paths import FileSystem
from orchestrator_boundary.protect_follow import DEFINITIONS_LABEL, definitions, followed
from orchestrator_boundary.protect_plugins import plugin_sources

SETTINGS_MAX_BYTES = 256 * 1024  # a larger settings file is not read for its commands
MAX_COMMANDS = 64  # commands read per settings file
MAX_WORDS = 64  # words read per command
MAX_DEPTH = 8  # how deep the settings' JSON is walked for commands
# keys whose string value is a command Claude Code runs: hooks' and the status line's
# "command", and the helpers that print credentials or headers
COMMAND_KEYS = frozenset({"command", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport"})
# the variables a settings file (or a server) sets: Claude Code passes the settings' to every
# Bash command and hook, where BASH_ENV is sourced and NODE_OPTIONS' --require loaded (0078)
ENV_KEY = "env"
# the managed settings of Linux, macOS and Windows (``wire.MANAGED_SETTINGS``): their hooks run
# for everyone, and the scripts they name may lie where an agent can write
MANAGED_SETTINGS = (
    "/etc/claude-code/managed-settings.json",
    "/Library/Application Support/ClaudeCode/managed-settings.json",
    "C:\\Program Files\\ClaudeCode\\managed-settings.json",
)
DROP_IN_DIR = "managed-settings.d"  # beside managed-settings.json, merged into it (2.1.330)
MAX_DROP_INS = 64
# ~/.claude.json keeps the history of every project (a local settings file its permission
# rules): past SETTINGS_MAX_BYTES only the tables that run code are read, up to this size
GLOBAL_CONFIG_MAX_BYTES = 16 * 1024 * 1024
_RUNS_KEY = re.compile(r'"(mcpServers|hooks|env|statusLine|\w*Helpers?|awsAuthRefresh)"\s*:\s*')
ARGS_KEY = "args"  # a hook's or an MCP server's argv after its command: each string read too
# the project folder and the home as a command spells them: POSIX shells, cmd, PowerShell
_ROOT_VARS = re.compile(r"\$\{?(?:env:)?CLAUDE_PROJECT_DIR\}?|%CLAUDE_PROJECT_DIR%", re.I)
_PLUGIN_VARS = re.compile(r"\$\{?(?:env:)?CLAUDE_PLUGIN_ROOT\}?|%CLAUDE_PLUGIN_ROOT%", re.I)
_HOME_VARS = re.compile(r"^~(?=[/\\]|$)|\$\{?(?:HOME|env:USERPROFILE)\}?|%USERPROFILE%", re.I)
PLUGIN_LABEL = "a file that makes a plugin of the project run code (its hooks, its servers)"
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'|\S+")


def settings_files(
    root: str, home: str | None, config_dir: str | None, managed: tuple[str, ...] = ()
) -> list[tuple[str, str]]:
    """(path, label) of each settings file whose commands are read."""
    out = [
        (posixpath.join(root, ".claude", name), f".claude/{name}")
        for name in ("settings.json", "settings.local.json")
    ]
    out.append((posixpath.join(root, ".mcp.json"), ".mcp.json"))  # the servers it starts
    # the user's settings, and the global config whose `mcpServers` (the user's, and each
    # project's `local` ones) Claude Code starts with no hook asked (ADR 0078)
    if config_dir:
        out.append(
            (posixpath.join(config_dir, "settings.json"), "$CLAUDE_CONFIG_DIR/settings.json")
        )
        out.append((posixpath.join(config_dir, ".claude.json"), "$CLAUDE_CONFIG_DIR/.claude.json"))
    elif home:
        out.append((posixpath.join(home, ".claude", "settings.json"), "~/.claude/settings.json"))
        out.append((posixpath.join(home, ".claude.json"), "~/.claude.json"))
    out += [(path, "the managed settings") for path in managed]  # ADR 0078
    return out


def managed_drop_ins(managed: tuple[str, ...], fs: FileSystem) -> list[tuple[str, str]]:
    """(path, label) of each ``managed-settings.d/*.json`` beside a managed settings file:
    Claude Code 2.1.330 merges them into the managed settings, hooks included (ADR 0083)."""
    out: list[tuple[str, str]] = []
    for path in managed:
        mod = ntpath if "\\" in path else posixpath
        folder = mod.join(mod.dirname(path), DROP_IN_DIR)
        found = sorted(fs.files_below(folder, MAX_DROP_INS))
        out += [(f, "the managed settings") for f in found if f.lower().endswith(".json")]
    return out


def _large_settings(path: str, fs: FileSystem) -> object:
    """The tables that run code (``mcpServers``, ``hooks``, ``env``...) of a settings file too
    long to parse whole (``~/.claude.json``'s history grows past ``SETTINGS_MAX_BYTES``): each
    value after such a key, which no string inside the file can spell (its quotes would be
    escaped). ADR 0083."""
    text = fs.script_text(path, GLOBAL_CONFIG_MAX_BYTES)
    if not text:
        return None
    decoder, out = json.JSONDecoder(), []
    for m in _RUNS_KEY.finditer(text):
        with contextlib.suppress(ValueError):
            out.append({m[1]: decoder.raw_decode(text, m.end())[0]})
        if len(out) >= MAX_COMMANDS:
            break
    return out


def _commands(node: object, key: str, depth: int) -> Iterator[str]:
    if isinstance(node, str):
        if key in COMMAND_KEYS or key == ARGS_KEY or key.endswith("Helper"):
            yield node
    elif isinstance(node, dict) and (key == ENV_KEY or key.endswith("Helpers")):
        # env: BASH_ENV, NODE_OPTIONS=--require x.js; policyHelpers: {"linux": command}
        yield from (v for v in node.values() if isinstance(v, str))
    elif depth < MAX_DEPTH and isinstance(node, dict):
        for k, v in node.items():
            yield from _commands(v, str(k), depth + 1)
    elif depth < MAX_DEPTH and isinstance(node, list):
        for v in node:
            yield from _commands(v, key, depth + 1)


def _words(command: str, windows: bool) -> list[str]:
    import shlex  # only when a settings file names a command

    try:  # a Windows command keeps its backslashes: its quoted words are only unquoted
        words = shlex.split(command, comments=True) if not windows else _QUOTED.findall(command)
    except ValueError:
        words = command.split()
    words = [w[1:-1] if len(w) > 1 and w[0] == w[-1] and w[0] in "\"'" else w for w in words]
    out = []
    for word in words[:MAX_WORDS]:
        # the words of a command inside a word (bash -c "python3 tools/x.py; make"), and the
        # path glued to an option or a variable (--config=tools/x.toml, VAR=path)
        for part in re.split(r"[\s;&|()<>`]+", word) if word else ():
            out += [part, part.partition("=")[2]] if "=" in part else [part]
    return [w for w in out if w]


def _path(
    word: str, root: str, home: str | None, windows: bool, plugin: str | None = None
) -> str | None:
    word = _ROOT_VARS.sub(lambda _: root, word)
    if plugin:
        word = _PLUGIN_VARS.sub(lambda _: plugin, word)
    if home:
        word = _HOME_VARS.sub(lambda _: home, word)
    if not word or "$" in word or "%" in word or "\x00" in word:
        return None
    if windows:  # hooks run in the project folder
        return ntpath.normpath(ntpath.join(root, word))
    return posixpath.normpath(posixpath.join(root, word))


_SCRIPT_WORD = re.compile(r"[^-][^:]*\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1|bat|cmd)$")


def _runs(word: str, path: str, fs: FileSystem) -> bool:
    """``path`` (``word`` as a command gives it) is a file the command runs or reads: one
    that exists, or one that does not yet but is spelt as a script (``scripts/hook.py``):
    whoever makes it first makes the hook's code (ADR 0078). Not a folder, and not another
    word that names nothing yet (``build/out`` would make ``rm -rf build`` TAMPER)."""
    if fs.identity(path) is not None:
        return True
    return _SCRIPT_WORD.match(word) is not None and not fs.files_below(path, 1)


# What a settings ``env`` makes every hook and Bash command load beyond its commands (ADR 0083):
# a file each word names, present or not (a library to preload, a script sourced at start,
# the interpreter or config the launcher takes)...
ENV_FILE_KEYS = frozenset(
    {"LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "PYTHONSTARTUP", "PERL5OPT"}
    | {"ORCHESTRATOR_BOUNDARY_PYTHON", "ORCHESTRATOR_BOUNDARY_CONFIG", "GIT_CONFIG_GLOBAL"}
)
# ...a folder searched for programs, libraries or config, everything in it (``npm install``
# fills ``./node_modules/.bin``: TAMPER when PATH names it); a folder that holds the project
# or the home folder (``PATH=.``) has only the programs named protected...
ENV_DIR_KEYS = frozenset(
    {"PATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH", "PYTHONHOME"}
    | {"PYTHONUSERBASE", "CLAUDE_CONFIG_DIR", "ZDOTDIR", "XDG_CONFIG_HOME", "GIT_EXEC_PATH"}
)
# ...and a folder searched for modules, which is often the project's own source folder
# (``PYTHONPATH=src``): only the files every interpreter start runs from it
ENV_MODULE_KEYS = {"PYTHONPATH": ("sitecustomize.py", "usercustomize.py")}
# programs a hook runs by name, looked up along PATH: the launcher's, and the usual runners
PATH_PROGRAMS = (
    *("sh", "bash", "dash", "zsh", "python3", "python", "py", "node", "npx", "env", "uv", "git"),
    *("sed", "tr", "cat", "date", "mkdir", "mv", "cut", "dirname", "jq"),  # launch.sh's own
)
ENV_LABEL = "a file the settings' env makes every hook load"
ENV_FOLDER_LABEL = "a folder the settings' env makes every hook search"
_NODE_LOADS = re.compile(r"(?:^|\s)(?:-r|--require|--import|--(?:experimental-)?loader)[=\s]+(\S+)")


def _env_tables(node: object, depth: int = 0) -> Iterator[dict[str, object]]:
    if isinstance(node, dict) and depth < MAX_DEPTH:
        for key, value in node.items():
            if key == ENV_KEY and isinstance(value, dict):
                yield value
            else:
                yield from _env_tables(value, depth + 1)
    elif isinstance(node, list) and depth < MAX_DEPTH:
        for value in node:
            yield from _env_tables(value, depth + 1)


def _holds(folder: str, path: str | None, windows: bool) -> bool:
    if not path:
        return False
    mod = ntpath if windows else posixpath
    a, b = (mod.normcase(folder).rstrip("/\\"), mod.normcase(path).rstrip("/\\"))
    return a == "" or b == a or b.startswith(a + mod.sep) or (windows and b.startswith(a + "/"))


def env_places(
    tables: list[dict[str, object]], root: str, home: str | None, windows: bool
) -> list[tuple[str, bool, str]]:
    """(path, folder, label) of what the ``env`` tables make hooks load (ADR 0083)."""
    out: list[tuple[str, bool, str]] = []
    sep = ";" if windows else ":"
    for table in tables:
        for key, value in table.items():
            name = str(key).upper() if windows else str(key)
            if not isinstance(value, str):
                continue
            if name == "NODE_OPTIONS":
                words = [m[1] for m in _NODE_LOADS.finditer(value)]
                words += [w + ext for w in words for ext in (".js", ".cjs", ".mjs")]
            elif name in {"LD_PRELOAD"}:
                words = re.split(r"[\s:]+", value)
            else:
                words = value.split(sep) if name not in {"BASH_ENV", "ENV"} else [value]
            places = [p for w in words if (p := _path(w.strip(), root, home, windows))]
            for place in places:
                if name in ENV_FILE_KEYS or name == "NODE_OPTIONS":
                    out.append((place, False, f"{ENV_LABEL} ({name})"))
                elif name in ENV_DIR_KEYS and not (
                    _holds(place, root, windows) or _holds(place, home, windows)
                ):
                    out.append((place, True, f"{ENV_FOLDER_LABEL} ({name})"))
                elif name in ENV_DIR_KEYS or name in ENV_MODULE_KEYS:
                    join = ntpath.join if windows else posixpath.join
                    names = ENV_MODULE_KEYS.get(name) or _programs(name, windows)
                    out += [(join(place, n), False, f"{ENV_LABEL} ({name})") for n in names]
    return out


def _programs(key: str, windows: bool) -> tuple[str, ...]:
    if key != "PATH":
        return ()
    if not windows:
        return PATH_PROGRAMS
    return tuple(p + ext for p in PATH_PROGRAMS for ext in ("", ".exe", ".cmd", ".bat"))


def hook_scripts(
    root: str,
    home: str | None,
    config_dir: str | None,
    fs: FileSystem,
    managed: tuple[str, ...] = MANAGED_SETTINGS,
    tables: list[dict[str, object]] | None = None,
) -> list[tuple[str, str]]:
    """(path, label) of each existing regular file a settings command names, of each file
    that makes a plugin the project holds run code, and of what those run in turn; each
    settings ``env`` table is added to ``tables`` when given."""
    out: dict[str, str] = {}
    files = settings_files(root, home, config_dir, managed) + managed_drop_ins(managed, fs)
    sources = [(path, label, None) for path, label in files]
    plugins = plugin_sources(root, fs)  # ADR 0078
    for path, label, plugin in sources + plugins:
        text = fs.script_text(path, SETTINGS_MAX_BYTES)
        if text is not None and (path, label, plugin) in plugins:  # it says what a plugin runs
            out.setdefault(path, PLUGIN_LABEL)
        try:
            data = json.loads(text) if text else None
        except ValueError:
            continue
        if text is None:
            data = _large_settings(path, fs)
        if data is None:
            continue
        if tables is not None:
            tables.extend(_env_tables(data))
        for n, command in enumerate(_commands(data, "", 0)):
            if n >= MAX_COMMANDS:
                break
            for word in _words(command, fs.windows):
                for base in (root, plugin) if plugin else (root,):
                    named = _path(word, base, home, fs.windows, plugin)
                    if named and named not in out and named != root and _runs(word, named, fs):
                        out[named] = f"a file a command in {label} runs"
    bases = (root, *dict.fromkeys(p for _, _, p in plugins if p and p != root))
    out.update(followed(list(out), bases, fs, home=home))  # what those run in turn, ADR 0078
    return list(out.items())


def definition_scripts(
    root: str, home: str | None, config_dir: str | None, fs: FileSystem
) -> list[tuple[str, str]]:
    """(path, label) of each code file the ``!`` lines and front-matter hooks of the
    project's and the user's skills, commands and agent definitions name (ADR 0078)."""
    claude_dirs = [posixpath.join(root, ".claude")]
    if config_dir or home:
        claude_dirs.append(config_dir or posixpath.join(home or "", ".claude"))
    docs = definitions(claude_dirs, fs)
    found = followed(docs, (root,), fs, label=DEFINITIONS_LABEL, home=home)
    return list(found.items())


def code_scripts(
    root: str, home: str | None, config_dir: str | None, fs: FileSystem
) -> list[tuple[str, bool, str]]:
    """(path, folder, label) of every file protected for the code in it: ``hook_scripts``,
    ``definition_scripts`` and what the settings' ``env`` makes hooks load (ADR 0083)."""
    tables: list[dict[str, object]] = []
    found = hook_scripts(root, home, config_dir, fs, tables=tables)
    found += definition_scripts(root, home, config_dir, fs)
    return [(p, False, label) for p, label in found] + env_places(tables, root, home, fs.windows)
