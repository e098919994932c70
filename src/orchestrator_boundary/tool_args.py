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
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from urllib.parse import unquote

MAX_DEPTH = 32
MAX_NODES = 100_000  # values visited
MAX_PATHS = 128  # path arguments kept
MAX_CHARS = 4096  # a longer string is text, not a path (paths.MAX_PATH_CHARS is higher)
OVERFLOW = (
    f"the tool input is larger than is checked (more than {MAX_PATHS} path arguments, "
    f"{MAX_NODES:,} values or {MAX_DEPTH} levels)"
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
    {
        "content",
        "contents",
        "body",
        "text",
        "message",
        "description",
        "title",
        "comment",
        "summary",
        "query",
        "prompt",
        "newstring",
        "oldstring",
        "newsource",
        "code",
        "pattern",
        "search",
        "replace",
        "replacement",
        "diff",
        "patch",
    }
)
_DRIVE = re.compile(r"[A-Za-z][:|]([\\/]|$)")
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
    out: list[str] = []
    for part in cuts:
        for decoded in dict.fromkeys((unquote(part), part)):
            path = _uri_path(decoded)
            if path and path not in out:
                out.append(path)
    return out


def _uri_path(rest: str) -> str:
    if rest.startswith("//"):
        host, sep, tail = rest[2:].partition("/")
        if host.lower() in ("", "localhost", "127.0.0.1"):
            rest = sep + tail
        else:
            return "//" + host + sep + tail  # file://server/share/x: a UNC path
    if rest.startswith("/") and _DRIVE.match(rest[1:]):
        rest = rest[1:]  # file:///C:/x
    if _DRIVE.match(rest) and rest[1] == "|":
        rest = rest[0] + ":" + rest[2:]  # file:///C|/x, the old spelling
    return rest


def _candidates(text: str, hinted: bool) -> list[str]:
    if not text or len(text) > MAX_CHARS or "\n" in text or "\x00" in text:
        return []
    out = []
    for reading in dict.fromkeys((text, text.strip())):
        uris = file_uri_paths(reading)
        if uris:
            out.extend(uris)
        elif reading and (hinted or _absolute(reading)):
            out.append(reading)
    return out


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
            queue.extend((k, "", level + 1) for k in node if isinstance(k, str))
        elif isinstance(node, list):
            queue.extend((v, name, level + 1) for v in node)  # a list inherits its key


_TOO_DEEP = object()


def _home_reading(path: str, home: str | None) -> str | None:
    """``~/x`` as the home folder's ``x``: MCP file servers expand it themselves."""
    if not home or not (path == "~" or path.startswith(("~/", "~\\"))):
        return None
    return home.rstrip("/\\") + "/" + path[2:]


def path_arguments(
    tool_input: dict[str, object], home: str | None = None
) -> tuple[list[str], bool]:
    """(the path arguments in ``tool_input``, in order and each once, ``~/`` also read in
    ``home``; whether the walk saw everything: False when the input is deeper, larger or
    holds more paths than is checked)."""
    out: dict[str, None] = {}
    for n, (node, key, _) in enumerate(_walk(tool_input, "", 0)):
        if n >= MAX_NODES or node is _TOO_DEEP:
            return list(out), False
        if not isinstance(node, str) or _norm(key) in _TEXT_KEYS:
            continue
        for path in _candidates(node, _path_key(key)):
            out[path] = None
            expanded = _home_reading(path, home)
            if expanded is not None:
                out[expanded] = None
            if len(out) > MAX_PATHS:
                return list(out)[:MAX_PATHS], False
    return list(out), True
