"""Assignments to variables that make later programs run other code."""

from __future__ import annotations

from orchestrator_boundary.bash.readonly_data import (
    DANGEROUS_ENV,
    DANGEROUS_ENV_PREFIXES,
    TRUSTED_DIRS,
)


def _trusted_path_part(part: str) -> bool:
    return part in ("$PATH", "${PATH}") or (part + "/").startswith(TRUSTED_DIRS)


def dangerous(name: str, value_text: str) -> bool:
    """True when ``name=value`` can change which code later commands run.

    PATH is fine when it only adds system directories (``/opt/homebrew/bin:$PATH``).
    """
    if name.startswith(DANGEROUS_ENV_PREFIXES):
        return True
    if name not in DANGEROUS_ENV:
        return False
    if name == "PATH":
        for part in value_text.strip("\"'").split(":"):
            if part in ("$PATH", "${PATH}"):
                return False  # what follows is only searched after the old PATH
            if not _trusted_path_part(part):
                return True
        return False
    return True


def split_assignment(text: str) -> tuple[str, str] | None:
    """``NAME=value`` as (NAME, value text), or None when ``text`` is no assignment."""
    name, eq, value = text.partition("=")
    if not eq or not name or not (name[0].isalpha() or name[0] == "_"):
        return None
    if not all(c.isalnum() or c == "_" for c in name.removesuffix("+")):
        return None
    return name.removesuffix("+"), value
