"""A command that writes in an existing folder (``ruff format src/auth``, ``find src/auth
-name '*.pyc' -delete``, ``cp -r x/. src/auth``) changes what lies below it, when nothing in it
links out. A delegation's scope (ADR 0080) and an agent type's ``write_scope`` (ADR 0081) that
hold everything below such a folder hold the write. Whether anything in it links out is the
caller's to ask: the ledger's file system for a delegation, ``paths.FileSystem`` for the write
rules."""

from __future__ import annotations

import fnmatch
import re

from orchestrator_boundary.ledger_files import PROGRAM, unpacks

TYPE_CHECKING = False
if TYPE_CHECKING:
    from orchestrator_boundary.paths import Located
    from orchestrator_boundary.targets import Target

# programs that change the entry they are given, a folder's own times, mode or owner
_ON_ENTRY = re.compile(
    r"\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:\S*/)?(?:touch|chmod|chown|chgrp|chattr|setfacl|xattr)"
    r"(?:\.exe)?(?:\s|$)"
)
MAX_ENTRIES = 1024  # a bigger folder is not taken as holding only what is below it


def folder_place(target: Target) -> Located | None:
    """The folder a Bash write works in, when what it changes lies below it. Not a delete of
    the folder itself, nor ``mkdir``, ``touch`` or ``chmod`` (they change the folder's own
    entry), nor an archive tool's or ``patch``'s write: their members may name ``../`` or
    absolute paths (``tar -xP``)."""
    located = target.located
    if located.absolute is None or not target.command or unpacks(target.command):
        return None
    found = PROGRAM.match(target.command)
    if (found and found.group(1) == "mkdir" and not target.deletes) or _ON_ENTRY.match(
        target.command
    ):
        return None
    if target.deletes:
        name, low = located.absolute.rstrip("/").rpartition("/")[2], str.casefold
        hit = (
            fnmatch.fnmatchcase(*((low(name), low(n)) if i else (name, n))) for n, i in target.names
        )
        if not target.names or any(hit):
            return None
    return located
