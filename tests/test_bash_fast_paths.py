"""The Bash analysis's speed-only forms return what the plain forms they replaced return."""

from __future__ import annotations

import itertools
import posixpath

from orchestrator_boundary.bash.paths import _drive, _norm
from orchestrator_boundary.bash.words import _unescape_dq


def _norm_plain(path: str) -> str:
    """paths._norm without the already-normal shortcut."""
    if _drive(path):
        rest = posixpath.normpath("/" + path[3:].replace("\\", "/"))
        return path[0].upper() + ":" + ("/" if rest == "/" else rest)
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/") if out.startswith("//") else out


def _unescape_dq_plain(text: str) -> str:
    """words._unescape_dq as the character loop it was."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def test_norm_shortcut_matches_normpath() -> None:
    for length in range(8):
        for chars in itertools.product("/.a", repeat=length):
            for path in ("".join(chars), "/" + "".join(chars), "C:/" + "".join(chars)):
                assert _norm(path) == _norm_plain(path), path


def test_unescape_dq_matches_the_character_loop() -> None:
    for length in range(7):
        for chars in itertools.product(["\\", "$", "`", '"', "\n", "a", "\r"], repeat=length):
            text = "".join(chars)
            assert _unescape_dq(text) == _unescape_dq_plain(text), repr(text)
