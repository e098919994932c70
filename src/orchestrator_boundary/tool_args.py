"""The file paths in the input of a tool the policy does not know (MCP servers, plugins).

Pure string work. An MCP server names its arguments as it likes (``relative_path``,
``target_file``, ``edits[].path``, a ``file://`` URI), so every string in the input is looked
at, at any depth, and counts as a path when

- it is a ``file:`` URI, in any spelling (``file:///x``, ``file://localhost/x``, ``file:/x``,
  percent-encoded, ``file:C:/x``, ``file:///C:/x``, ``file:///C|/x``, ``file://host/share``);
- it is an absolute path (POSIX, a Windows drive, UNC);
- or its key suggests a path (``path``, ``file``, ``dir``, ``target``, ``output``, ``dest``,
  ``uri``, ``src``, ``to``...; a list inherits its key), relative paths included.

A value under a key that holds free text (``content``, ``body``, ``message``...) is never a
path: a message that mentions a path writes nothing there. The walk is bounded (depth, values
seen, paths kept); an input beyond the bounds is reported as incomplete, and the policy judges
what it did not see as a target that could name any protected file (TAMPER).

Beyond the paths, ``arguments`` gives (issue 13's attack suite):

- ``loose``: every other one-line string (a relative path under a key that does not say path),
  and the files a patch names (``--- a/x``, ``+++ b/x``, ``*** Update File: x``). The policy
  keeps those that, read as a path, name a protected entry (``targets``): an MCP tool writes by
  default, and a value that names no protected file costs nothing.
- a string that holds serialised JSON (``{"path": ...}``) is parsed and walked like the rest.
- ``commands``: the shell commands under a command key (``command``, ``cmd``...; a list is an
  argv), which the policy hands to the Bash analysis.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections import deque
from collections.abc import Iterator

from orchestrator_boundary.values import field, mutable

MAX_DEPTH = 32
MAX_NODES = 100_000  # values visited
MAX_PATHS = 128  # path arguments kept
# a longer one-line string under a path key (or absolute, or a file: URI) is not checked, so
# the input counts as incomplete: a server may well normalise "a/../" * 820 + ".claude/x"
MAX_CHARS = 16_384  # = paths.MAX_PATH_CHARS
OVERFLOW = (
    f"the tool input is larger than is checked (more than {MAX_PATHS} path arguments, "
    f"{MAX_NODES:,} values or {MAX_DEPTH} levels, or a path of more than {MAX_CHARS:,} "
    "characters)"
)

# Key fragments (lower case, without "_" and "-") that say the value names a file.
_PATH_WORDS = (
    "path",
    "file",
    "dir",
    "folder",
    "target",
    "output",
    "dest",
    "source",
    "uri",
    "url",
    "location",
    "notebook",
    "cwd",
    "root",
)
_SHORT_KEYS = frozenset({"src", "dst", "to", "from", "out", "into", "loc", "new", "old", "where"})
# Keys that hold free text: an absolute path there is only mentioned, not written to.
_TEXT_KEYS = frozenset(
    {"content", "contents", "body", "text", "message", "description", "title", "comment"}
    | {"summary", "query", "prompt", "newstring", "oldstring", "newsource", "code", "pattern"}
    | {"search", "replace", "replacement", "diff", "patch"}
)
_GLOB_KEYS = frozenset({"pattern", "patterns"})  # the files, for a tool that changes files
# `a/b`, `*.py`, `.env`, `C:\x\a.py`; not `TODO` or `\bfoo\b`
_FILES_LIKE = re.compile(r"/|^[\w*?.\-\[\]\\:]*\.\w+$")
_DRIVE = re.compile(r"[A-Za-z][:|]([\\/]|$)")
# keys whose text is a patch: the files it names are targets (free text otherwise)
_PATCH_KEYS = frozenset({"patch", "patches", "diff", "diffs", "unifieddiff", "changes"})
# keys whose string is a shell command line (a list: an argv), for the Bash analysis
COMMAND_ARG_KEYS = frozenset(
    {"command", "cmd", "commandline", "shellcommand", "bashcommand", "commands", "argv", "args"}
    # an MCP shell tool names its command as it likes (issue 13 point 7): these too
    | {"cmds", "cmdline", "commandstring", "commandtext", "script", "scripts", "shellscript"}
    | {"bashscript", "shell", "bash", "sh", "zsh", "powershell", "pwsh", "exec", "execute"}
    | {"run", "program", "line", "code"}
)
# code an MCP tool runs (``mcp__ide__executeCode``): analysed as ``python3 -c CODE`` would be,
# so what it spells (``open('.claude/settings.json', 'w')``) meets the same checks
_CODE_KEYS = frozenset({"code"})
_ARGV_KEYS = frozenset({"argv", "args"})  # only as a list of strings
MAX_COMMANDS = 16  # command lines kept for the analysis
MAX_JSON_CHARS = 1 << 16  # a longer string is not parsed as JSON
MAX_JSON_TOTAL = 1 << 22  # characters parsed as JSON in one input (past it: incomplete)
MAX_LOOSE_CHARS = 1024  # a longer one-line string is not read as a path
_PATCH_LINE = re.compile(
    r"^(?:(?:---|\+\+\+) (?P<u>[^\t\n]+)(?:\t.*)?"
    r"|\*\*\* (?:Update|Add|Delete) File: (?P<a>.+)"
    r"|\*\*\* Move to: (?P<m>.+)"
    r"|diff --git (?P<g1>\S+) (?P<g2>\S+)"
    r"|(?:rename|copy) (?:from|to) (?P<r>.+))$",
    re.MULTILINE,
)
_FILE_URI = re.compile(r"file:", re.IGNORECASE)


def _norm(key: str) -> str:
    return key.lower().replace("_", "").replace("-", "")


def _path_key(key: str) -> bool:
    k = _norm(key)
    return k in _SHORT_KEYS or any(w in k for w in _PATH_WORDS)


def _absolute(text: str) -> bool:
    return text.startswith(("/", "\\")) or bool(_DRIVE.match(text))


def file_uri_paths(uri: str) -> list[str]:
    """The paths a ``file:`` URI may stand for (empty when ``uri`` is not one): decoded, the
    authority ``localhost`` dropped, another host read as a UNC share, ``/C:/x`` as ``C:/x``;
    with a ``?`` or ``#`` also the path before it (a tool may or may not cut there)."""
    if not _FILE_URI.match(uri):
        return []
    rest = uri[5:]
    cuts = [rest]
    cut = re.split(r"[?#]", rest, maxsplit=1)[0]
    if cut != rest:
        cuts.append(cut)
    from urllib.parse import unquote  # urllib.parse imports ipaddress: only for a file: URI

    out: list[str] = []
    for part in cuts:
        for decoded in dict.fromkeys((unquote(part), part)):
            out += [p for p in _uri_paths(decoded) if p and p not in out]
    return out


def _uri_paths(rest: str) -> tuple[str, ...]:
    if rest.startswith("//"):
        host, sep, tail = rest[2:].partition("/")
        if host.lower() not in ("", "localhost", "127.0.0.1"):
            # file://server/share/x: a UNC path; a server that only cuts "file://" off reads
            # the rest as its own path (file://./x, file://~/x, file://.claude/x: ADR 0071)
            return "//" + host + sep + tail, rest[2:]
        rest = sep + tail
    if rest.startswith("/") and _DRIVE.match(rest[1:]):
        rest = rest[1:]  # file:///C:/x
    if _DRIVE.match(rest) and rest[1] == "|":
        rest = rest[0] + ":" + rest[2:]  # file:///C|/x, the old spelling
    return (rest,)


def _candidates(text: str, hinted: bool) -> list[str]:
    text = text.partition("\x00")[0]  # up to a NUL: what a server in C opens
    if not text or len(text) > MAX_CHARS or "\n" in text:
        return []
    out = []
    for reading in dict.fromkeys((text, text.strip())):
        uris = file_uri_paths(reading)
        if uris:
            out.extend(uris)
        elif reading and (hinted or _absolute(reading)) and not _WEB_URL.match(reading):
            out.append(reading)
    return out


_WEB_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")  # https://, s3://: no local file


def _too_long_path(text: str, hinted: bool) -> bool:
    """A string past MAX_CHARS that would have been read as a path: one line, under a path
    key, absolute or a ``file:`` URI."""
    body = text.strip()
    if "\n" in body:
        return False
    return hinted or _absolute(body) or bool(_FILE_URI.match(body))


def patch_files(text: str) -> list[str]:
    """The files a unified diff, a git diff or an apply_patch text names (``a/``, ``b/``
    prefixes also without them); empty for text that is no patch."""
    if "\n" not in text or not ("+++ " in text or "*** " in text or "diff --git" in text):
        return []
    out: dict[str, None] = {}
    for match in _PATCH_LINE.finditer(text):
        for name in match.groups():
            name = (name or "").strip().strip('"')
            if not name or name == "/dev/null" or name.startswith("*** "):
                continue
            out[name] = None
            if name[:2] in ("a/", "b/") and len(name) > 2:
                out[name[2:]] = None
    return list(out)


def _json_in(text: str) -> object:
    """The value a string holds as serialised JSON (an object or an array), else None."""
    body = text.strip()
    if len(body) < 2 or len(body) > MAX_JSON_CHARS or (body[0], body[-1]) not in _JSON_ENDS:
        return None
    try:
        value: object = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict | list) else None


_JSON_ENDS = frozenset({("{", "}"), ("[", "]")})


def _command_text(value: object, key: str) -> str | None:
    """The command line under a command key: a string, or an argv list quoted as one."""
    if isinstance(value, str) and key in _CODE_KEYS:
        return "python3 -c " + shlex.quote(value) if value.strip() else None
    if isinstance(value, str) and key not in _ARGV_KEYS:
        return value if value.strip() else None  # the analysis bounds its own input
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return " ".join(shlex.quote(str(v)) for v in value)
    return None


# a program under one key and its arguments under another (``{"program": "x", "args": [...]}``,
# as an MCP tool that runs a process without a shell takes them): judged as one command line
_PROGRAM_KEYS = frozenset({"command", "cmd", "program", "executable", "exe", "binary", "bin"})
_ARGUMENT_KEYS = frozenset({"args", "argv", "arguments", "params", "parameters"})


def program_with_args(node: dict[object, object]) -> str | None:
    """The command line a program and its argument list, under two keys of ``node``, make."""
    program = [v for k, v in node.items() if _norm(str(k)) in _PROGRAM_KEYS and isinstance(v, str)]
    argv = [
        v
        for k, v in node.items()
        if _norm(str(k)) in _ARGUMENT_KEYS
        and isinstance(v, list)
        and all(isinstance(a, str) for a in v)
    ]
    if not program or not argv or not program[0].strip():
        return None
    return " ".join(shlex.quote(w) for w in (program[0], *argv[0]))


_GLUED = re.compile(r"[^=\"'$`\s]+=(\S.*)")


def _loose_readings(node: str) -> list[str]:
    """A one-line string as it may name a file: as it is (up to a NUL), and the path glued to
    an option (``--out=PATH``, ``KEY=PATH``: ADR 0066) first; nothing for a web address."""
    text = node.partition("\x00")[0].strip()
    if not text or _WEB_URL.match(text):
        return []
    if len(text) > MAX_LOOSE_CHARS:  # a long path spelt out with ./ or a/../ (ADR 0071)
        short = posixpath.normpath(text.replace("\\", "/"))
        return [short] if len(short) <= MAX_LOOSE_CHARS and len(text.split()) == 1 else []
    glued = _GLUED.match(text)
    return [glued[1], text] if glued else [text]


def _walk(value: object, key: str, depth: int) -> Iterator[tuple[object, str, int]]:
    """(value, the key it is under, depth), breadth first."""
    queue = deque([(value, key, depth)])
    while queue:
        item = queue.popleft()
        yield item
        node, name, level = item
        if level >= MAX_DEPTH:
            if isinstance(node, dict | list) and node:
                yield (_TOO_DEEP, name, level)
            continue
        if isinstance(node, dict):
            queue.extend((v, str(k), level + 1) for k, v in node.items())
            # a map's keys that look like files are paths (``{"files": {"a.py": "..."}}``)
            mapped = _norm(name) in _MAP_KEYS
            queue.extend(
                (k, "path" if mapped and _FILES_LIKE.search(k) else "", level + 1)
                for k in node
                if isinstance(k, str)
            )
        elif isinstance(node, list):
            queue.extend((v, name, level + 1) for v in node)  # a list inherits its key


_TOO_DEEP = object()
# keys whose table maps file names to what is written there (ADR 0083)
_MAP_KEYS = frozenset({"changes", "edits", "updates", "writes", "contents", "content", "files"})


def _home_reading(path: str, home: str | None) -> str | None:
    """``~/x`` (``$HOME/x``, ``%USERPROFILE%\\x``...) as MCP servers expand it (ADR 0071)."""
    head, _, rest = path.replace("\\", "/").partition("/")
    if not home or head.lower() not in _HOME_WORDS:
        return None
    return home.rstrip("/\\") + "/" + rest


_HOME_WORDS = ("~", "$home", "${home}", "%userprofile%", "$env:userprofile", "${env:userprofile}")


@mutable
class Arguments:
    """What the input of an unknown tool names (see the module's doc)."""

    paths: list[str] = field(default_factory=list)  # path arguments, each once, in order
    loose: list[str] = field(default_factory=list)  # other strings that may be paths
    commands: list[str] = field(default_factory=list)  # command lines under a command key
    code: list[str] = field(default_factory=list)  # those made of code (``python3 -c CODE``)
    complete: bool = True  # False: the input is deeper or larger than is checked


def _keep(kept: dict[str, None], strings: list[str], home: str | None) -> None:
    """``strings`` kept in order, each once, a ``~/`` one also as read in ``home``."""
    for text in strings:
        kept[text] = None
        expanded = _home_reading(text, home)
        if expanded is not None:
            kept[expanded] = None


def arguments(
    tool_input: dict[str, object], home: str | None = None, changes: bool = False
) -> Arguments:
    """The path arguments in ``tool_input`` (``~/`` also read in ``home``), the loose strings
    and patch names, and the command lines; incomplete when the input is deeper, larger or
    holds more paths than is checked. A tool that ``changes`` files: a ``pattern`` that looks
    like files names them (``bulk_replace {"pattern": "src/*.py"}``), ADR 0081."""
    text_keys = _TEXT_KEYS - _GLOB_KEYS if changes else _TEXT_KEYS
    out: dict[str, None] = {}
    loose: dict[str, None] = {}
    found = Arguments()
    parsed = n = 0
    queue = deque([_walk(tool_input, "", 0)])
    while queue:
        for node, key, depth in queue.popleft():
            n += 1
            if n > MAX_NODES or node is _TOO_DEEP:
                found.complete = False
                break
            norm = _norm(key)
            command = _command_text(node, norm) if norm in COMMAND_ARG_KEYS else None
            if command is None and isinstance(node, dict):
                command = program_with_args(node)
            if command is not None:
                if len(found.commands) >= MAX_COMMANDS:  # what is not analysed could be any
                    found.complete = False
                    break
                found.commands.append(command)
                if norm in _CODE_KEYS and isinstance(node, str):
                    found.code.append(command)
            if not isinstance(node, str):
                continue
            if norm in _PATCH_KEYS or (norm not in text_keys and "\n" in node):
                loose.update(dict.fromkeys(patch_files(node)))
            if norm in text_keys or (norm in _GLOB_KEYS and not _FILES_LIKE.search(node)):
                continue
            inner = _json_in(node) if node[:1] in "{[ \t\n" else None
            if inner is not None and depth < MAX_DEPTH:
                parsed += len(node)
                if parsed > MAX_JSON_TOTAL:
                    found.complete = False
                    break
                queue.append(_walk(inner, key, depth + 1))  # serialised JSON: walked too
                continue
            hinted = _path_key(key) or norm in _GLOB_KEYS
            if len(node) > MAX_CHARS and _too_long_path(node, hinted):
                found.complete = False
                break
            paths = _candidates(node, hinted)
            _keep(out, paths, home)
            if len(out) > MAX_PATHS:
                found.complete = False
                break
            if not paths and len(node) <= MAX_CHARS and "\n" not in node:
                _keep(loose, _loose_readings(node), home)
        if not found.complete:
            break
    found.paths = list(out)[:MAX_PATHS]
    found.loose = [v for v in loose if v not in out]
    return found


def path_arguments(
    tool_input: dict[str, object], home: str | None = None
) -> tuple[list[str], bool]:
    """(the path arguments in ``tool_input``, in order and each once, ``~/`` also read in
    ``home``; whether the walk saw everything: False when the input is deeper, larger or
    holds more paths than is checked)."""
    found = arguments(tool_input, home)
    return found.paths, found.complete
