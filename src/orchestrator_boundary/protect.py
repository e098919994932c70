"""Tamper protection: the files that guard the agents are out of every agent's reach. ADR 0010.

Protected: the settings files that register hooks, ``.claude/boundary.toml`` (or the config
named by ``ORCHESTRATOR_BOUNDARY_CONFIG``), the audit folder, ``.claude/agents/`` definitions,
environment files that could set the bypass for a later session (``.env``, ``.env.*``,
``.envrc``), managed settings, this package's own files, and everything the hook needs to run
(the interpreter, the installation a venv is built on, its standard library, site-packages,
``pyvenv.cfg``, the evaluator's runtime folder). Matching is literal (no glob meaning in user
paths), on resolved paths, for the literal and the symlink-resolved form of each protected
entry.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from orchestrator_boundary.paths import FileSystem, Located, fold

PROJECT_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/boundary.toml",
    ".env",
    ".envrc",
)
# .claude/orchestrator-boundary: the committed launcher every teammate's hooks run (ADR 0023)
PROJECT_DIRS = (
    ".claude/boundary",
    ".claude/agents",
    ".claude/orchestrator-boundary",
    ".claude-plugin",
)
HOME_FILES = (".claude/settings.json", ".claude/settings.local.json", ".claude.json")
HOME_DIRS = (".claude/agents", ".claude/orchestrator-boundary")  # + per-user audit trails
MANAGED_DIRS = (
    "/etc/claude-code",
    "/Library/Application Support/ClaudeCode",
    "C:\\Program Files\\ClaudeCode",
)


@dataclass(frozen=True, slots=True)
class Protected:
    path: str  # absolute
    folder: bool  # everything below it too
    label: str
    prefix: bool = False  # any path starting with it (rotated audit files: audit.jsonl.1, ...)
    unless: tuple[str, ...] = ()  # for a prefix: what may follow it and is not protected


def protected_set(
    root: str,
    *,
    home: str | None,
    config_file: str,
    audit_file: str,
    package_dirs: Iterable[str],
    fs: FileSystem,
    claude_config_dir: str | None = None,
    runtime: Iterable[RuntimePath] = (),
) -> ProtectedSet:
    """The protected set for this project, indexed for the root's file system."""
    entries: list[Protected] = []

    def add(path: str, folder: bool, label: str) -> None:
        entries.append(Protected(path, folder, label))
        try:
            real = fs.realpath(path)
        except (OSError, ValueError):
            return
        if real != path:
            entries.append(Protected(real, folder, label))

    for rel in PROJECT_FILES:
        add(posixpath.join(root, rel), False, rel)
    for rel in PROJECT_DIRS:
        add(posixpath.join(root, rel), True, rel + "/")
    if home:
        for rel in HOME_FILES:
            add(posixpath.join(home, rel), False, "~/" + rel)
        for rel in HOME_DIRS:
            add(posixpath.join(home, rel), True, "~/" + rel + "/")
    if claude_config_dir:  # CLAUDE_CONFIG_DIR moves the user settings out of ~/.claude
        for name in ("settings.json", "settings.local.json", ".claude.json"):
            add(posixpath.join(claude_config_dir, name), False, f"$CLAUDE_CONFIG_DIR/{name}")
        add(posixpath.join(claude_config_dir, "agents"), True, "$CLAUDE_CONFIG_DIR/agents/")
        ours = posixpath.join(claude_config_dir, "orchestrator-boundary")
        add(ours, True, "$CLAUDE_CONFIG_DIR/orchestrator-boundary/")
    for managed in MANAGED_DIRS:
        entries.append(Protected(managed, True, "managed settings"))
    add(config_file, False, "the boundary config")
    add(audit_file, False, "the audit trail")
    entries.append(Protected(audit_file + ".", False, "the audit trail", prefix=True))
    for pkg in package_dirs:
        add(pkg, True, "orchestrator-boundary's own files")
    entries.extend(env_file_entries(root))
    for path, folder, label in kept_runtime(runtime, root, home):
        add(path, folder, label)
    return index(tuple(entries), fs.case_insensitive(root))


# What the hook needs to run, as the shell found it (``setups.runtime_paths``):
# (absolute path, everything below it too, label).
RuntimePath = tuple[str, bool, str]


ENV_TEMPLATES = ("example", "sample", "template")  # .env.dist stays: Symfony loads it


def env_file_entries(root: str) -> list[Protected]:
    """``.env.*`` in the root (``.env.local``, ``.env.production``...): dotenv loaders and
    direnv read them into the environment of a later session, where they can set the bypass.
    ``.env`` and ``.envrc`` themselves are in ``PROJECT_FILES``. The templates committed for
    people to copy (``ENV_TEMPLATES``) are read by no loader and stay ordinary files."""
    return [
        Protected(posixpath.join(root, ".env."), False, ".env.*", prefix=True, unless=ENV_TEMPLATES)
    ]


def _holds(folder: str, path: str) -> bool:
    a, b = _key(folder, True), _key(path, True)  # folded: when unsure, hold
    return b == a or b.startswith(a + "/") or a == ""


def kept_runtime(runtime: Iterable[RuntimePath], root: str, home: str | None) -> list[RuntimePath]:
    """``runtime`` without the folders that hold the project root or the home folder: a
    Python installed at ``/usr`` with the project in ``/usr/src/app`` must not make every
    project file protected. The installation's own parts (interpreter, standard library,
    site-packages) are listed on their own, so they stay protected."""
    anchors = [a for a in (root, home) if a]
    return [r for r in runtime if not (r[1] and any(_holds(r[0], a) for a in anchors))]


@dataclass(frozen=True, slots=True, eq=False)
class ProtectedSet:
    """The protected entries, and the index ``hit`` looks things up in (built with the set)."""

    entries: tuple[Protected, ...]
    insensitive: bool  # the keys below are folded for a case-insensitive file system
    exact: Mapping[str, Protected]  # compared form of each entry's own path
    folders: Mapping[str, Protected]  # entries that cover everything below them
    prefixes: tuple[tuple[str, Protected], ...]  # rotated audit files: audit.jsonl.*
    holders: Mapping[str, Protected]  # every folder above an entry -> the first entry it holds
    below: tuple[str, ...]  # each folder's key + "/": a path starting with none is in none


def _key(path: str, insensitive: bool) -> str:
    return fold(path.replace("\\", "/"), insensitive).rstrip("/")


def index(entries: tuple[Protected, ...], insensitive: bool) -> ProtectedSet:
    """``entries`` with their lookup index, keys compared as the file system compares them."""
    exact: dict[str, Protected] = {}
    folders: dict[str, Protected] = {}
    prefixes: list[tuple[str, Protected]] = []
    holders: dict[str, Protected] = {}
    for entry in entries:
        if entry.prefix:
            prefixes.append((fold(entry.path.replace("\\", "/"), insensitive), entry))
            continue
        key = _key(entry.path, insensitive)
        exact.setdefault(key, entry)
        if entry.folder:
            folders.setdefault(key, entry)
        parent = key
        while "/" in parent:
            parent = parent.rpartition("/")[0]
            holders.setdefault(parent, entry)
    below = tuple(k + "/" for k in folders)
    return ProtectedSet(entries, insensitive, exact, folders, tuple(prefixes), holders, below)


EMPTY = index((), False)


def _above(a: str, anchor: str) -> bool:
    return anchor == a or anchor.startswith(a + "/")


def hit(
    located: Located, protected: ProtectedSet, anchors: tuple[str, ...] = ()
) -> Protected | None:
    """The protected entry a write to ``located`` would change, if any.

    A folder that holds a protected entry counts too: ``rm -rf .claude``, ``mv .claude x`` or
    ``cp -r evil/. .claude`` change the settings without ever naming them. The ``anchors``
    (the project root and the home folder) and the folders above them do not count that way:
    ``tar xf x.tar`` or ``git checkout -- .`` in the root are ordinary work, judged by the
    write rules, not tampering (the policy passes no anchors for deletes).
    """
    insensitive, exact, folders = protected.insensitive, protected.exact, protected.folders
    for absolute in located.absolutes or (located.raw,):
        raw = absolute.replace("\\", "/")
        if insensitive:
            raw = fold(raw, insensitive)
        for prefix, entry in protected.prefixes:
            if raw.startswith(prefix) and raw[len(prefix) :] not in entry.unless:
                return entry
        a = raw.rstrip("/")
        found = exact.get(a)
        if found is not None:
            return found
        if a.startswith(protected.below):  # inside a protected folder: the nearest one
            parent = a
            while "/" in parent:
                parent = parent.rpartition("/")[0]
                if parent in folders:
                    return folders[parent]
        holder = protected.holders.get(a)
        if holder is not None and not any(_above(a, _key(x, insensitive)) for x in anchors):
            return Protected(holder.path, holder.folder, f"a folder holding {holder.label}")
    return None


Names = tuple[tuple[str, bool], ...]  # find's -name (False) / -iname (True) patterns, all apply


def _named(name: str, names: Names) -> bool:
    return all(
        fnmatch.fnmatchcase(name.lower(), p.lower()) if fold else fnmatch.fnmatchcase(name, p)
        for p, fold in names
    )


def _bytecode_only(names: Names) -> bool:
    """Every name the filter lets through is a Python bytecode cache (``*.pyc``, ``*.pyo``,
    ``*.py[co]``, ``__pycache__``): Python writes them again from the source, so deleting them
    cannot change what guards the agents, wherever they are."""
    ends = (".pyc", ".pyo", ".py[co]", ".py[oc]")
    return any(
        "/" not in p and ((p.lower() if fold else p).endswith(ends) or p == "__pycache__")
        for p, fold in names
    )


def hit_named(located: Located, protected: ProtectedSet, names: Names) -> Protected | None:
    """``hit`` for ``find START -name PATTERN -delete``: only entries named by the pattern go.

    A protected entry below the start is hit when the pattern matches its name or the name of
    a folder between the start and it. What a protected folder holds is not known here: any
    pattern may match it, except one that lets through bytecode caches only. So
    ``find . -name '*.pyc' -delete`` is ordinary cleanup, ``find . -name '*.json' -delete``
    reaches .claude/settings.json.
    """
    insensitive = protected.insensitive
    bytecode = _bytecode_only(names)
    for absolute in located.absolutes or (located.raw,):
        a = _key(absolute, insensitive)
        for entry in protected.entries:
            e = _key(entry.path, insensitive)
            if entry.folder and (a == e or a.startswith(e + "/")):  # starts inside it
                if not bytecode:
                    return entry
                continue
            if not e.startswith(a + "/"):
                continue
            parts = e[len(a) + 1 :].split("/")
            if _named(parts[-1], names):
                return entry
            if any(_named(part, names) for part in parts[:-1]):
                return Protected(entry.path, entry.folder, f"a folder holding {entry.label}")
            if (entry.folder or entry.prefix) and not bytecode:
                return entry
    return None


LINK_SCAN_LIMIT = 4096


def linked(located: Located, protected: ProtectedSet, fs: FileSystem) -> Protected | None:
    """The protected file a hard link at ``located`` shares its content with, if any.

    A hard link resolves to itself, so path matching cannot see it: ``ln .claude/settings.json
    src/x`` (inside a subagent's scope) and a later Write to ``src/x`` rewrites the settings.
    Only files with more than one link are compared, so the usual call costs no ``stat`` beyond
    the one its resolution already made.
    """
    wanted = set()
    for absolute in located.absolutes:
        ident = located.identity_of(absolute, fs)
        if ident is not None and ident[2] > 1:
            wanted.add(ident[:2])
    if not wanted:
        return None
    for entry in protected.entries:
        if entry.prefix:
            head = entry.path.rpartition("/")[0]
            candidates = [
                f
                for f in fs.files_below(head, LINK_SCAN_LIMIT)
                if f.startswith(entry.path) and "/" not in f[len(head) + 1 :]
            ]
        elif entry.folder:
            candidates = fs.files_below(entry.path, LINK_SCAN_LIMIT)
        else:
            candidates = [entry.path]
        for candidate in candidates:
            ident = fs.identity(candidate)
            if ident is not None and ident[:2] in wanted:
                return Protected(entry.path, entry.folder, f"a hard link to {entry.label}")
    return None


# ---- targets the command text does not name exactly (issue 12) ----

_DYNAMIC = re.compile(
    r"\$\{[^}]*\}|\$\([^)]*\)?|`[^`]*`?|\$env:[A-Za-z_][A-Za-z0-9_]*|\$[A-Za-z_][A-Za-z0-9_]*"
    r"|\$[0-9@*#?$!-]"
)
_KNOWN = {"HOME": "home", "PWD": "cwd"}  # the variables read as the folder they name
_ANY = ".*"  # a variable, a substitution: anything, slashes included


def _pattern(raw: str, cwd: str | None, home: str | None, windows: bool) -> str | None:
    """``raw`` as a regular expression over absolute paths (None: it needs a working folder
    that is not known). A glob's ``*`` and ``?`` stay within one name and, as bash reads them,
    do not match a leading dot; anything from a variable may be anything."""
    text = raw.replace('"', "").replace("'", "")
    if windows:
        text = text.replace("\\", "/")
    out: list[str] = []
    i, n = 0, len(text)
    if text.startswith("~") and home and (n == 1 or text[1] == "/"):
        out.append(re.escape(home.rstrip("/")))
        i = 1
    while i < n:
        m = _DYNAMIC.match(text, i)
        if m is not None:
            name = m.group().strip("${}")
            folder = {"home": home, "cwd": cwd}.get(_KNOWN.get(name, ""))
            out.append(re.escape(folder.rstrip("/")) if folder else _ANY)
            i = m.end()
            continue
        c = text[i]
        start = i == 0 or text[i - 1] == "/"
        if c == "*":
            if text.startswith("**", i):
                out.append(_ANY)
                i += 2
                continue
            out.append(("(?!\\.)" if start else "") + "[^/]*")
        elif c == "?":
            out.append(("(?!\\.)" if start else "") + "[^/]")
        elif c == "[" and "]" in text[i + 1 :]:
            out.append("[^/]")
            i = text.index("]", i + 1)
        else:
            out.append(re.escape(c))
        i += 1
    pattern = "".join(out)
    if not pattern:
        return None
    if pattern.startswith((_ANY, "/", re.escape("/"))) or re.match(r"[A-Za-z]:/", text):
        return pattern
    if cwd is None:  # relative to a folder that is not known: any folder
        return "(?:.*/)?" + pattern
    return re.escape(cwd.rstrip("/")) + "/" + pattern


def could_name(
    raw: str,
    protected: ProtectedSet,
    *,
    cwd: str | None,
    home: str | None,
    windows: bool,
    anchors: tuple[str, ...] = (),
    literal: bool = False,
) -> Protected | None:
    """The protected entry a path that is not fully known (a glob, a variable, a path after a
    ``cd`` that could not be followed) could name, if any: a protected file or folder, a file
    directly inside a protected folder, or a folder that holds one (not the ``anchors``, as in
    ``hit``). ``literal``: only an entry whose own name is spelled out in ``raw`` counts (for
    text that did not parse, where every word is a guess)."""
    pattern = _pattern(raw, cwd, home, windows)
    if pattern is None:
        return None
    insensitive = protected.insensitive
    compiled = re.compile(pattern, re.IGNORECASE if insensitive else 0)
    spelled = fold(raw.replace("\\", "/"), insensitive)

    def counts(key: str) -> bool:
        return not literal or key.rpartition("/")[2] in spelled

    for key, entry in protected.exact.items():
        if counts(key) and compiled.fullmatch(key):
            return entry
    head = spelled.rpartition("/")[0]
    if head:  # a name directly in a protected folder the text spells out (`$X/agents/a.md`)
        folder = re.compile(_pattern(head, cwd, home, windows) or "", compiled.flags)
        for key, entry in protected.folders.items():
            if key.rpartition("/")[2] in spelled and folder.fullmatch(key):
                return entry
    for prefix, entry in protected.prefixes:
        if counts(prefix.rstrip(".")) and compiled.fullmatch(prefix + "1"):
            return entry
    for key, holder in protected.holders.items():
        if any(_above(key, _key(x, insensitive)) for x in anchors) or not counts(key):
            continue
        if compiled.fullmatch(key):
            return Protected(holder.path, holder.folder, f"a folder holding {holder.label}")
    return None


def protected_reason(display: str, entry: Protected) -> str:
    """One sentence for a TAMPER violation: what ``display`` is to the guard, and that no
    agent may change it. ``entry.label`` is a path (``.claude/agents/``, ``~/.claude.json``)
    or a description (``the audit trail``, ``a folder holding .claude/settings.json``)."""
    label, end = entry.label, "no agent may change it."
    shown = display.replace("\\", "/").rstrip("/")
    if label.startswith(("a folder holding ", "a hard link to ")):
        return f"{display} is {label}, which guards the agents; {end}"
    if label.startswith("protected by "):
        return f"{display} is {label}; {end}"
    if label.startswith((".", "~", "$", "/")):
        if shown.endswith(label.rstrip("/")):
            return f"{display} guards the agents; {end}"
        where = "in " if entry.folder else ""
        return f"{display} is {where}{label}, which guards the agents; {end}"
    return f"{display} is {'part of ' if entry.folder else ''}{label}; {end}"
