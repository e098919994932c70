"""What opaque inline code still shows: command lines it runs, strings it may write to (ADR 0021).

When inline code is opaque, its effects are not known; it is not read-only either, and where its
text shows a command line (``system("touch p")``, ``execSync('touch p')``, a backtick) or hands
a string to a call the analysis cannot name (``vars(os)['remove']('f')``), those are reported:
the command lines analysed as Bash, the strings as writes. This over-approximates on purpose, so
that the default ``bash.opaque = "allow"`` still stops a write the text spells out.
"""

from __future__ import annotations

import re

_COMMANDS = (
    re.compile(r"""\b(?:system|exec|execSync|qx|popen|check_output|check_call|call|run|spawn)"""
               r"""\s*\(\s*(['"])((?:(?!\1)[^\\\n])+)\1\s*[,)]"""),
    re.compile(r"`([^`$@{}]+)`"),
    re.compile(r"\bqx\s*[{(/]([^})/]+)[})/]"),
)  # fmt: skip
_STRINGS = re.compile(r"""(['"])((?:(?!\1)[^\\\n$@]){1,200})\1""")
# reasons for which the code hides which call writes, not whether it writes
_HIDING = ("as a value", "cannot name", "import *", "computed member", "reaches", "edits files")


def commands_in(code: str) -> list[str]:
    """Literal command lines the code hands to a shell or runs."""
    found: list[str] = []
    for pattern in _COMMANDS:
        for match in pattern.finditer(code):
            found.append(match.group(match.lastindex or 1))
    return found


def strings_in(code: str, reason: str) -> list[str]:
    """The string literals of code made opaque by a hidden call: each may be a path it writes."""
    if not any(part in reason for part in _HIDING):
        return []
    return [m.group(2) for m in _STRINGS.finditer(code) if m.group(2).strip()]
