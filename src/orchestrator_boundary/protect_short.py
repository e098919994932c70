"""Windows short (8.3) names: ``SETTIN~1.JSO`` may be any name it starts. ADR 0078.

Windows gives a file with a long name a second, short one: ``settings.json`` is also
``SETTIN~1.JSO``, ``.claude`` ``CLAUDE~1`` (or ``.CLAUD~1`` on some volumes), ``Program Files``
``PROGRA~1``. On Windows itself the hook resolves a path through the file system, which spells
it long; a payload recorded there and judged here (``check``, ``replay``) cannot be resolved,
and a short name is a name the text does not fix. So:

- a relative path with a short component is placed nowhere: no scope covers it, no exclusion
  can be shown not to (``paths.locate``, as for a write the text does not place, ADR 0075);
- for the protected set, each short component is also read as each name it may stand for
  among the names the protected set and ``[protect] paths`` spell (``long_readings``), so
  ``C:\\proj\\.CLAUD~1\\SETTIN~1.JSO`` is the settings. Only where the file system is Windows':
  on POSIX ``a~1`` is a name like any other.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

# NAME~N or NAME~N.EXT: up to 8 characters, a tilde and digits, an extension of up to three
SHORT = re.compile(r"(?:^|[/\\])[^~/\\]{0,7}~\d{1,6}(?:\.[^./\\]{0,3})?(?=$|[/\\])")
_PART = re.compile(r"^([^~]{0,7})~\d{1,6}(?:\.([^.]{0,3}))?$")
MAX_READINGS = 64  # long readings of one path
# names a short one may stand for that the protected set does not spell in full: env files
# (``.env.local`` is ``ENV~1.LOC``), the nested .claude folders' files
NAMES = (".env", ".envrc", ".claude", ".mcp.json", "settings.json", "settings.local.json")


def has_short(path: str) -> bool:
    return "~" in path and SHORT.search(path) is not None


def _squeezed(text: str) -> str:
    """As an 8.3 name's stem is made: no dots, no spaces."""
    return text.replace(".", "").replace(" ", "")


def stands_for(short: str, long: str) -> bool:
    """``short`` (folded) may be the 8.3 name of ``long`` (folded)."""
    m = _PART.match(short)
    if m is None:
        return False
    stem, ext = _squeezed(m[1]), m[2] or ""
    splits = [(long, "")]  # `.claude`: all stem, no extension
    if "." in long.lstrip("."):
        head, _, tail = long.rpartition(".")
        splits.append((head, tail))
    return any(_squeezed(s).startswith(stem) and e.startswith(ext) for s, e in splits)


def vocabulary(paths: Iterable[str]) -> frozenset[str]:
    """Every component of ``paths`` (folded), and ``NAMES``."""
    words = set(NAMES)
    for path in paths:
        words.update(p.lower() for p in re.split(r"[/\\]", path) if p and "*" not in p)
    return frozenset(words)


def _options(part: str, words: frozenset[str]) -> list[str]:
    low = part.lower()
    m = _PART.match(low)
    if m is None:
        return [part]
    out = sorted(w for w in words if stands_for(low, w))
    if m[2] and _squeezed(m[1]) == "env":
        out.append(f".env.{m[2]}_")  # .env.<anything>, not a template: ADR 0010
    return [*out, part]


def long_readings(path: str, words: frozenset[str]) -> list[str]:
    """``path`` with each short component read as each of ``words`` it may stand for (at
    most ``MAX_READINGS``); empty when it has none."""
    if not has_short(path):
        return []
    pieces = re.split(r"([/\\])", path)
    options = [_options(p, words) if p not in "/\\" else [p] for p in pieces]
    out = ["".join(c) for c in itertools.islice(itertools.product(*options), MAX_READINGS + 1)]
    return [p for p in out if p != path][:MAX_READINGS]
