"""Where a Bash glob can write (ADR 0074, 0076): the folder its text fixes, and what it
matches there now.

Bash's ``*`` does not cross a ``/`` and globstar's ``**`` stays below the folder, so every
match of ``src/auth/*.py`` lies below ``src/auth`` when nothing before it in the command moves
the working folder. A match may still be a link: ``tee src/*.json`` writes through
``src/s.json -> ../.claude/settings.json``, so the matches there now are read too.
"""

from __future__ import annotations

import re

from orchestrator_boundary.paths import Located, locate

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from orchestrator_boundary.targets import Call, Target

# a word that moves the working folder: after it, a relative path may be relative to anywhere
MOVES = re.compile(r"(?:^|[\s;&|(`])(?:cd|pushd|popd|chdir|Set-Location|sl)(?:$|[\s;&|)])")
# a glob whose folder the text fixes: a few plain names, then one name with `*` or `?`
_FOLDER_GLOB = re.compile(r"(/?(?:[\w.+@%=,-]+/)*)([\w.+@%=,*?-]*[*?][\w.+@%=,*?-]*)")
MATCH_LIMIT = 1024  # files listed below the folder; more: the matches are not known


def glob_folder(call: Call, target: Target) -> Located | None:
    """The folder all that the glob ``target`` can match lies below (``src/auth/*.py``:
    src/auth), when the text fixes it: plain names, no ``..``, no ``cd`` before it."""
    m = _FOLDER_GLOB.fullmatch(target.located.raw)
    if m is None or ".." in m[1].split("/"):
        return None
    if not m[1].startswith("/") and MOVES.search(call.command or ""):  # relative to where?
        return None
    ctx = call.context
    import ntpath
    import posixpath

    join = ntpath.join if ctx.fs.windows else posixpath.join
    return locate(join(call.payload.cwd or ctx.root, m[1] or "."), ctx.root, ctx.fs)


def glob_matches(call: Call, target: Target, folder: Located) -> list[Located] | None:
    """What the glob matches below ``folder`` now, each resolved (a link to where it points),
    as bash expands it (``*`` skips a leading dot); None when they cannot be listed (more than
    ``MATCH_LIMIT`` files, or Windows, where the listing is not read)."""
    m = _FOLDER_GLOB.fullmatch(target.located.raw)
    ctx = call.context
    if m is None or ctx.fs.windows or not folder.absolutes:
        return None
    base = folder.absolutes[0].rstrip("/")
    files = ctx.fs.files_below(base, MATCH_LIMIT + 1)
    if len(files) > MATCH_LIMIT:
        return None
    import fnmatch

    glob, deep = m[2], "**" in m[2]
    found = []
    for path in files:
        rel = path[len(base) + 1 :]
        name = rel.rpartition("/")[2]
        if ("/" in rel and not deep) or (name.startswith(".") and not glob.startswith(".")):
            continue
        if fnmatch.fnmatchcase(name, glob.replace("**", "*")):
            found.append(locate(path, ctx.root, ctx.fs, call.insensitive))
    return found


_LAST: list[tuple[object, str, tuple[Located | None, list[Located] | None]]] = []


def expanded(call: Call, target: Target) -> tuple[Located | None, list[Located] | None]:
    """(``glob_folder``, ``glob_matches`` there): the tamper rule, the write rules and the
    contract rules each ask of one target in one call, so the folder is listed once."""
    key = target.located.raw
    if _LAST and _LAST[0][0] is call.payload and _LAST[0][1] == key:
        return _LAST[0][2]
    folder = glob_folder(call, target)
    found = (folder, glob_matches(call, target, folder) if folder is not None else None)
    _LAST[:] = [(call.payload, key, found)]
    return found


def stays_in(matches: list[Located], folder: Located, call: Call) -> bool:
    """Does every match stay below ``folder``: no link out of it, no second name (a hard
    link) that could be anywhere?"""
    heads = [a.rstrip("/") + "/" for a in folder.absolutes]
    fs = call.context.fs
    for match in matches:
        for absolute in match.absolutes:
            if not any(absolute.startswith(h) for h in heads):
                return False
            ident = match.identity_of(absolute, fs)
            if ident is not None and ident[2] > 1:
                return False
    return True
