"""Path resolution by string math (bash/paths.py)."""

from __future__ import annotations

import itertools
import posixpath

from orchestrator_boundary.bash.paths import _drive, _norm


def _norm_plain(path: str) -> str:
    """paths._norm without its already-normal shortcut (kept: normpath is Python code on 3.11)."""
    if _drive(path):
        rest = posixpath.normpath("/" + path[3:].replace("\\", "/"))
        return path[0].upper() + ":" + ("/" if rest == "/" else rest)
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/") if out.startswith("//") else out


def test_norm_shortcut_matches_normpath() -> None:
    for length in range(8):
        for chars in itertools.product("/.a", repeat=length):
            for path in ("".join(chars), "/" + "".join(chars), "C:/" + "".join(chars)):
                assert _norm(path) == _norm_plain(path), path
