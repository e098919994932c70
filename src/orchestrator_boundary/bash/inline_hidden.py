"""What opaque inline code still shows: command lines it runs, strings it may write to (ADR 0021).

When inline code is opaque, its effects are not known; it is not read-only either, and where its
text shows a command line (``system("touch p")``, ``execSync('touch p')``, a backtick) or hands
a string to a call the analysis cannot name (``vars(os)['remove']('f')``), those are reported:
the command lines analysed as Bash, the strings as writes. This over-approximates on purpose, so
that the default ``bash.opaque = "allow"`` still stops a write the text spells out.
"""

from __future__ import annotations

import re
import shlex

_COMMANDS = (
    re.compile(r"""\b(?:system|exec|execSync|qx|popen|check_output|check_call|call|run|spawn)"""
               r"""\s*\(\s*(['"])((?:(?!\1)[^\\\n])+)\1\s*[,)]"""),
    re.compile(r"`([^`$@{}]+)`"),
    re.compile(r"\bqx\s*[{(/]([^})/]+)[})/]"),
)  # fmt: skip
_STRINGS = re.compile(r"""(['"])((?:(?!\1)[^\\\n$@]){1,200})\1""")
# reasons for which the code hides which call writes, not whether it writes
_HIDING = (
    *("as a value", "cannot name", "import *", "computed member", "reaches", "edits files"),
    "not modelled",  # `gzip.GzipFile(..)`, `_io.FileIO(..)`: a writer the tables do not name
)


# a call that runs a program from a list of words: `subprocess.run(['git', 'status'])`,
# `execFileSync('git', ['status'])`, perl's `system('git', 'status')`, `os.execvp(...)`
_ARGV_CALL = re.compile(
    r"\b(?:system|exec[A-Za-z]*|spawn[A-Za-z]*|popen|Popen|check_output|check_call|call|run)\s*\("
)
_ARGV_WORD = re.compile(r"""\s*\[?\s*(['"])((?:(?!\1)[^\\\n])*)\1\s*\]?\s*([,)])""")


def commands_in(code: str) -> list[str]:
    """Literal command lines the code hands to a shell or runs: a string given to a shell, or
    the words of a program and its arguments, given as literals (joined, each quoted)."""
    found: list[str] = []
    for pattern in _COMMANDS:
        for match in pattern.finditer(code):
            found.append(match.group(match.lastindex or 1))
    for call in _ARGV_CALL.finditer(code):
        words: list[str] = []
        at = call.end()
        while (word := _ARGV_WORD.match(code, at)) is not None:
            words.append(word.group(2))
            at = word.end()
            if word.group(3) == ")":
                break
        if len(words) > 1:
            found.append(" ".join(shlex.quote(w) for w in words))
    return found


def strings_in(code: str, reason: str) -> list[str]:
    """The string literals of code made opaque by a hidden call: each may be a path it writes."""
    if not any(part in reason for part in _HIDING):
        return []
    return [m.group(2) for m in _STRINGS.finditer(code) if m.group(2).strip()]
