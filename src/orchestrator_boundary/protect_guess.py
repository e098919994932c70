"""Targets the command text does not name exactly (issue 12): the protected entry a glob, a
variable or a path after a ``cd`` that could not be followed could name. ADR 0010.
"""

from __future__ import annotations

import posixpath
import re

from orchestrator_boundary.paths import MAX_PATH_CHARS, fold
from orchestrator_boundary.protect import Protected, ProtectedSet, above, compared, env_label

_DYNAMIC = re.compile(
    r"\$\{[^}]*\}|\$\([^)]*\)?|`[^`]*`?|\$env:[A-Za-z_][A-Za-z0-9_]*|\$[A-Za-z_][A-Za-z0-9_]*:.*"
    r"|\$[A-Za-z_][A-Za-z0-9_]*"
    r"|\$[0-9@*#?$!-]"
)
_KNOWN = {"HOME": "home", "PWD": "cwd"}  # the variables read as the folder they name
# (`$NAME:...` is zsh's modifiers, `$F:r`, `$PWD:h`, `$F:s/x/y/`: the rest may be anything)
_ANY = ".*"  # a variable, a substitution: anything, slashes included
_UNFIXED = re.compile(r"[$`*?\[]")  # where the text stops fixing a path
_ENV_SAMPLES = (".env", ".envrc", ".env.local")  # names an env glob is tried against


_BRACE = re.compile(r"\{[^}]*(?:,|\.\.)")  # `{a,b}`, `{1..3}`: may be any text


def _pattern(raw: str, cwd: str | None, home: str | None, windows: bool) -> str | None:
    """``raw`` as a regular expression over absolute paths (None: it needs a working folder
    that is not known). A glob's ``*`` and ``?`` stay within one name and, as bash reads them,
    do not match a leading dot; anything from a variable may be anything."""
    text = raw.replace('"', "").replace("'", "")
    if windows:  # the folders too: the protected set's keys are '/'-separated
        text = text.replace("\\", "/")
        cwd = cwd.replace("\\", "/") if cwd else cwd
        home = home.replace("\\", "/") if home else home
    text = _tidy(text)
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
        elif c == "{" and _BRACE.match(text, i):  # brace expansion: any text
            out.append(_ANY)
            close = text.rfind("}", i)  # up to the last brace after it; none: to the end
            i = close if close > i else n - 1
        elif c == "[" and "]" in text[i + 1 :]:
            out.append("[^/]")
            i = text.index("]", i + 1)
        else:
            out.append(re.escape(c))
        i += 1
    pattern = "".join(out)
    if not pattern:
        return None
    if pattern.startswith((_ANY, "/", re.escape("/"))) or re.match(r"[A-Za-z]:/", pattern):
        return pattern
    if cwd is None:  # relative to a folder that is not known: any folder
        return "(?:.*/)?" + pattern
    return re.escape(cwd.rstrip("/")) + "/" + pattern


def _tidy(text: str) -> str:
    """The path's names as the file system reads them: `a//b`, `a/./b` and `a/` are `a/b` and
    `a`, and a `..` undoes a folder the text may not fix (`$D/..`, `*/..`, a link), so what
    comes before the last one may be anything."""
    parts = text.split("/")
    lead = "/" if text.startswith("/") else ""
    if ".." in parts:
        parts = ["$_", *parts[len(parts) - parts[::-1].index("..") :]]
        lead = ""
    kept = [p for p in parts if p not in ("", ".")]
    return (lead + "/".join(kept)) or text


# where a name spelled in a word starts and ends: a separator, a quote, an option's "="
_BEFORE, _AFTER = r"(?:^|[/\"'=])", r"(?:$|[/\"'])"


def _spells(text: str, name: str, prefix: bool = False) -> bool:
    """``text`` spells ``name`` as a whole name (``prefix``: as the start of one): ``fetch``
    does not spell ``etc``, ``.env.local`` starts with ``.env``. The root of a file system
    has no name to spell (a lone ``"$X"`` on Windows named the POSIX root, which holds
    ``/etc/claude-code``)."""
    if not name:
        return False
    end = "" if prefix else _AFTER
    return re.search(_BEFORE + re.escape(name) + end, text) is not None


def could_name(
    raw: str,
    protected: ProtectedSet,
    *,
    cwd: str | None,
    home: str | None,
    windows: bool,
    anchors: tuple[str, ...] = (),
    literal: bool = False,
    deletes: bool = False,
) -> Protected | None:
    """The protected entry a path that is not fully known (a glob, a variable, a path after a
    ``cd`` that could not be followed) could name, if any: a protected file or folder, a file
    directly inside a protected folder, or a folder that holds one (not the ``anchors``, as in
    ``hit``), or an env file below the project root. ``literal``: only an entry whose own name
    is spelled out in ``raw`` counts (for text that did not parse, where every word is a
    guess). A word longer than any path is not searched (``_too_long``). A delete plants
    nothing: ``planted`` entries do not count for it."""
    if len(raw) > MAX_PATH_CHARS:
        return _too_long(raw, protected, literal)
    pattern = _pattern(raw, cwd, home, windows)
    if pattern is None:
        return None
    insensitive = protected.insensitive
    compiled = re.compile(pattern, re.IGNORECASE if insensitive else 0)
    spelled = fold(raw.replace("\\", "/"), insensitive)

    def counts(key: str, prefix: bool = False, run: bool = False) -> bool:
        # a word handed to a program names a script it runs or reads (ADR 0071), as an env file
        return not literal or (not run and _spells(spelled, key.rpartition("/")[2], prefix))

    for key, entry in protected.exact.items():
        if deletes and entry.planted:
            continue
        if counts(key, run=entry.run) and compiled.fullmatch(key):
            return entry
    head = spelled.rpartition("/")[0]
    if head:  # a name directly in a protected folder the text spells out (`$X/agents/a.md`)
        folder = re.compile(_pattern(head, cwd, home, windows) or "", compiled.flags)
        for key, entry in protected.folders.items():
            if _spells(spelled, key.rpartition("/")[2]) and folder.fullmatch(key):
                return entry
    for prefix, entry in protected.prefixes:
        if counts(prefix.rstrip("."), prefix=True) and compiled.fullmatch(prefix + "1"):
            return entry
    for key, holder in protected.holders.items():
        if any(above(key, compared(x, insensitive)) for x in anchors):
            continue
        if not counts(key, run=holder.run):
            continue
        if compiled.fullmatch(key):
            return Protected(holder.path, holder.folder, f"a folder holding {holder.label}")
    return _env_file(spelled, protected, cwd, home, windows)


def _too_long(raw: str, protected: ProtectedSet, literal: bool) -> Protected | None:
    """A word longer than ``MAX_PATH_CHARS``: made into a pattern and matched, it would take
    longer than Claude Code waits for the hook (a one-word megabyte: 11 s). What expands in it
    can still make it a short path (``${X:0:000...0}``), so it is not let go either (ADR 0074):
    a word of text that did not parse counts when it spells a protected name, as every such
    word does; any other such target counts as any protected file."""
    if not literal:
        return Protected(raw[:200], False, f"any file (a path over {MAX_PATH_CHARS} characters)")
    spelled = fold(raw.replace("\\", "/"), protected.insensitive)
    named = [*protected.exact.items(), *protected.folders.items(), *protected.holders.items()]
    for key, entry in named:
        if not entry.run and _spells(spelled, key.rpartition("/")[2]):
            return entry
    for prefix, entry in protected.prefixes:
        if _spells(spelled, prefix.rstrip(".").rpartition("/")[2], prefix=True):
            return entry
    if protected.env_below and _spells(spelled, ".env", prefix=True):
        return Protected(raw[:200], False, "an env file")
    return None


def _env_file(
    spelled: str, protected: ProtectedSet, cwd: str | None, home: str | None, windows: bool
) -> Protected | None:
    """An env file below the project root the text could name (as ``protect.hit`` finds): its
    last name starts with ``.env`` as written (``$D/.env``, ``*/.env.local``, ``.env*``), and
    the folder part, as far as the text fixes it, can be the root or a folder below it."""
    text = spelled.replace('"', "").replace("'", "")
    head, slash, name = text.rpartition("/")
    head = head or slash  # "/.env": the folder is "/"
    if not protected.env_below or not name.startswith(".env"):
        return None
    flags = re.IGNORECASE if protected.insensitive else 0
    shape = re.compile(_pattern(name, "", None, windows) or "", flags)
    names = _ENV_SAMPLES if _UNFIXED.search(name) else (name,)
    label = next((env_label(n) for n in names if env_label(n) and shape.fullmatch("/" + n)), None)
    if label is None:
        return None
    unfixed = _UNFIXED.search(head)
    fixed = head[: unfixed.start()] if unfixed else head
    if fixed.startswith("~"):
        if not home:
            return Protected(text, False, label)
        fixed = home.replace("\\", "/").rstrip("/") + fixed[1:]
    if not (fixed.startswith("/") or re.match(r"[A-Za-z]:/", fixed)):
        if cwd is None:  # relative to a folder that is not known: it may be below the root
            return Protected(text, False, label)
        fixed = cwd.replace("\\", "/").rstrip("/") + "/" + fixed
    folder = compared(posixpath.normpath(fixed), protected.insensitive)
    if any((folder + "/").startswith(r) or r.startswith(folder) for r in protected.env_below):
        return Protected(text, False, label)
    return None
