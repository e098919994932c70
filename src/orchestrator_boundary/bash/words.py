"""Turn tree-sitter word nodes into literal strings, or None when the shell would expand them."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

from orchestrator_boundary.bash.parse import text_in
from orchestrator_boundary.values import transient

_GLOB_CHARS = frozenset("*?[")
_LITERAL_NODES = frozenset({"word", "number"})
_BRACE_PARTS = frozenset({"word", "brace_expression"})  # parts whose braces bash expands
_DQ_ESCAPE = re.compile(r'\\(?:\n|([$`"\\]))')
_SPECIAL_UNQUOTED = frozenset("\\*?[{")  # what _unescape_unquoted acts on
_SAFE_UNQUOTED = re.compile(r"[A-Za-z0-9_./:@%+,=-]+\Z")


@transient
class Word:
    text: str  # as written
    value: str | None  # after quote removal / tilde expansion; None = unknowable
    glob: bool = False  # unquoted glob or brace expansion: the value is a pattern, not a path
    dashless: bool = False  # unknown, but never starts with "-" (a path find found under ".")

    @property
    def literal(self) -> str | None:
        """The value when it names exactly one string (no glob)."""
        return None if self.glob else self.value


def unknown(text: str) -> Word:
    return Word(text, None)


def lit(value: str) -> Word:
    return Word(value, value)


def _unescape_unquoted(text: str) -> tuple[str, bool, bool]:
    """Remove backslashes; report whether an unescaped glob or brace expansion remains."""
    if _SPECIAL_UNQUOTED.isdisjoint(text):
        return text, False, False
    out: list[str] = []
    glob = False
    brace = 0
    brace_expands = False
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        if ch in _GLOB_CHARS:
            glob = True
        elif ch == "{":
            brace += 1
        elif ch == "}" and brace:
            brace -= 1
        elif brace and (ch == "," or (ch == "." and text[i + 1 : i + 2] == ".")):
            brace_expands = True
        out.append(ch)
        i += 1
    return "".join(out), glob, brace_expands


def _unescape_dq(text: str) -> str:
    """Inside double quotes a backslash escapes only $ ` " \\ and a newline (which it removes).

    One left-to-right regex pass (a character loop before: same matches, same order).
    """
    if "\\" not in text:  # nothing escaped: the text is the value
        return text
    return _DQ_ESCAPE.sub(r"\1", text)  # \1 is "" for the escaped newline


_ANSI = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "v": "\v",
    "?": "?",
}


_ANSI_NUMERIC = {"x": (16, 2), "u": (16, 4), "U": (16, 8)}  # \\xHH, \\uHHHH, \\UHHHHHHHH


def _ansi_escape(text: str, i: int) -> tuple[str, int] | None:
    """The character the escape at ``text[i]`` (a backslash) stands for, and the next index;
    None for an escape Bash does not decode the same way everywhere."""
    nxt = text[i + 1]
    if nxt in _ANSI:
        return _ANSI[nxt], i + 2
    if nxt in _ANSI_NUMERIC or nxt in "01234567":
        base, most = _ANSI_NUMERIC.get(nxt, (8, 3))
        start = i + 2 if nxt in _ANSI_NUMERIC else i + 1
        digits = "0123456789abcdefABCDEF" if base == 16 else "01234567"
        end = start
        while end < len(text) and end - start < most and text[end] in digits:
            end += 1
        if end == start:
            return None
        code = int(text[start:end], base)
        if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None  # NUL ends the word; surrogates are no characters
        return chr(code), end
    if nxt == "c" and i + 2 < len(text) and text[i + 2].isascii() and text[i + 2].isalpha():
        return chr(ord(text[i + 2].upper()) & 0x1F), i + 3
    return None


def _ansi_c(text: str) -> str | None:
    """The value of ``$'...'``: C escapes decoded, as Bash does (``$'\\x74ouch'`` is ``touch``)."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        decoded = _ansi_escape(text, i)
        if decoded is None:
            return None
        out.append(decoded[0])
        i = decoded[1]
    return "".join(out)


def _tilde(value: str, home: str | None) -> str | None:
    if not value.startswith("~"):
        return value
    head, sep, rest = value.partition("/")
    if head != "~" or home is None:
        return None  # ~user, ~+, ~- or unknown home
    return home.rstrip("/") + (sep + rest if sep else "")


_PWD = frozenset({"$PWD", "${PWD}"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _assignment_tilde(text: str, value: str, home: str | None, whole: bool) -> str | None:
    """A word shaped like an assignment (`of=~/x`, `PATH=a:~/bin`): Bash expands a ``~`` right
    after the first ``=`` or after a ``:`` there, even in a program's arguments. The value with
    them expanded; None when one cannot be (``~user``, an unknown home, escapes)."""
    name, _, rest = text.partition("=")
    pieces = rest.split(":")
    if not any(p.startswith("~") for p in pieces):
        return value
    if "\\" in text or home is None:
        return None
    out: list[str] = []
    for i, piece in enumerate(pieces):
        if piece.startswith("~"):
            head, sep, tail = piece.partition("/")
            if not sep and i == len(pieces) - 1 and not whole:
                return None  # the tilde-prefix runs on into a quoted part: not expanded
            if head != "~":
                return None  # ~user, ~+, ~-
            piece = home.rstrip("/") + sep + tail
        out.append(piece)
    return name + "=" + ":".join(out)


Known = dict[str, str]  # variables the walk knows the value of (known_vars, ADR 0067)


def safe_unquoted(value: str) -> bool:
    """Whether an unquoted expansion of ``value`` is that one word: nothing to split or glob."""
    return bool(_SAFE_UNQUOTED.match(value))


def _known(text: str, known: Known | None) -> str | None:
    """The value of ``$NAME`` or ``${NAME}`` when the walk knows it."""
    if not known:
        return None
    name = text[2:-1] if text.startswith("${") and text.endswith("}") else text[1:]
    return known.get(name)


def _part(
    node: Any,
    home: str | None,
    first: bool,
    code: str | None,
    pwd: str | None = None,
    whole: bool = True,
    known: Known | None = None,
) -> Word:
    kind = node.type
    text = text_in(code, node)
    if pwd is not None and text in _PWD:
        return Word(text, pwd)  # the working directory, where the walk knows it (ADR 0021)
    if kind in ("simple_expansion", "expansion"):
        value = _known(text, known)  # unquoted: only a value splitting and globbing leave be
        return Word(text, value) if value is not None and safe_unquoted(value) else unknown(text)
    if kind in _LITERAL_NODES:
        value, glob, brace = _unescape_unquoted(text)
        if first and text.startswith("~"):
            expanded = _tilde(value, home)
            return Word(text, expanded, glob or brace)
        if first and "~" in text and _ASSIGNMENT.match(text):
            return Word(text, _assignment_tilde(text, value, home, whole), glob or brace)
        return Word(text, value, glob or brace)
    if kind == "raw_string":
        return Word(text, text[1:-1])
    if kind in ("string", "translated_string"):
        # an expansion or substitution inside starts with '$' or '`': without either, every
        # child is string_content, and the children need not be read (a property pins it)
        if "$" in text or "`" in text:
            return _quoted(node, text, code, pwd, known)
        body = text[2:-1] if kind == "translated_string" else text[1:-1]
        return Word(text, _unescape_dq(body))
    if kind == "ansi_c_string":
        return Word(text, _ansi_c(text[2:-1]))
    if kind == "concatenation":
        if _modified(node.children, code):  # still brace-expands (`a{,b}$1:`): ADR 0082
            return Word(text, None, _brace_skeleton(node, code))
        parts = [
            _part(c, home, first and i == 0, code, pwd, False, known)
            for i, c in enumerate(node.children)
        ]
        brace = _brace_skeleton(node, code)
        if any(p.value is None for p in parts):
            # an unknown word that still brace-expands into several (`f$1{,.bak}`): ADR 0082
            return Word(text, None, brace)
        return Word(
            text, "".join(p.value or "" for p in parts), brace or any(p.glob for p in parts)
        )
    if kind == "process_substitution":
        return Word(text, "/dev/fd/63")  # a pipe, not a file
    if kind in ("extglob_pattern", "brace_expression"):
        return Word(text, text, True)
    return unknown(text)  # expansions, substitutions, arithmetic, anything new


def _brace_skeleton(node: Any, code: str | None) -> bool:
    """Whether a concatenation brace-expands: brace expansion can span parts (`{a,b}.txt`
    arrives as `{`, `a,b`, `}`, `.txt`); the other parts are opaque to it."""
    skeleton = "".join(text_in(code, c) if c.type in _BRACE_PARTS else "_" for c in node.children)
    return _unescape_unquoted(skeleton)[2]


def _quoted(node: Any, text: str, code: str | None, pwd: str | None, known: Known | None) -> Word:
    """A double-quoted string with expansions: known when each is `$PWD` where the walk knows
    the working directory, or a variable the walk knows the value of."""
    parts: list[str] = []
    if _modified(node.named_children, code):
        return unknown(text)
    for child in node.named_children:
        inner = text_in(code, child)
        if child.type == "string_content":
            parts.append(_unescape_dq(inner))
            continue
        value = pwd if pwd is not None and inner in _PWD else None
        if value is None and child.type in ("simple_expansion", "expansion"):
            value = _known(inner, known)
        if value is None:
            return unknown(text)
        parts.append(value)
    return Word(text, "".join(parts))


def _modified(children: list[Any], code: str | None) -> bool:
    """Whether a `$NAME` is followed by `:`: zsh reads `$F:r`, `"$F:h"`, `$PWD:h` as modifiers
    of the value (the root, the head), where bash appends the text."""
    return any(
        a.type == "simple_expansion"
        and b.start_byte == a.end_byte
        and text_in(code, b).startswith(":")
        for a, b in pairwise(children)
    )


_NOT_AN_OPTION = frozenset("_./+,:=@%^")


# special parameters that expand to one word without a blank: `$?`, `$#`, `$$`, `$!`
_ONE_WORD = frozenset({"$?", "$#", "$$", "$!", "${?}", "${#}", "${$}", "${!}"})


def may_split(found: Word) -> bool:
    """Whether the word may expand to no word or to several: a pattern (`*` is every file in
    the folder), an unquoted `$X` or `$(cmd)`, `"$@"`. A path find hands over is one word."""
    if found.glob:
        return True
    if found.value is not None or found.text in _ONE_WORD or found.dashless:
        return False
    text = found.text
    whole = text.startswith('"') and text.endswith('"') and text.count('"') == 2
    return not whole or "@" in text or "[*]" in text or "$*" in text


def may_be_option(found: Word) -> bool:
    """Whether the word could turn out to be an option: it is not a literal (an expansion, a
    substitution) or it is a pattern (``*`` matches a file named ``-oFILE``), and nothing fixed
    at its start rules out a leading ``-`` (``./$x``, ``src/*.py`` and ``"v$n"`` cannot be one)."""
    if found.dashless or (found.value is not None and not found.glob):
        return False
    head = found.value if found.value is not None else found.text.lstrip("\"'")
    first = head[:1]
    return not (first.isalnum() or first in _NOT_AN_OPTION)


def word(
    node: Any,
    home: str | None,
    code: str | None = None,
    pwd: str | None = None,
    known: Known | None = None,
) -> Word:
    """The word ``node``; ``code``: the parsed text when it is ASCII (``parse.text_in``);
    ``pwd``: the working directory when it is known (``$PWD`` expands to it); ``known``: the
    variables whose values the walk knows."""
    if node.type in _LITERAL_NODES:  # most words: nothing to unescape, no glob, no tilde
        text = text_in(code, node)
        if _SPECIAL_UNQUOTED.isdisjoint(text) and "~" not in text:
            return Word(text, text)
    return _part(node, home, True, code, pwd, known=known)


# `$(which NAME)`, `` `command -v NAME` ``, `"$(type -P NAME)"`: the path of the program NAME
# names, found as running NAME finds it (the lookup itself is walked as a command of its own)
_LOOKUP = re.compile(
    r"""^"?(?:\$\(|`)\s*(?:which|command\s+-v|type\s+-[pP]|hash\s+-t)\s+"""
    r"""(['"]?)([A-Za-z0-9_][A-Za-z0-9_.+-]*)\1\s*(?:\)|`)"?$"""
)


def program_word(found: Word) -> Word:
    """The program word, with a lookup of a program by name read as that name."""
    if found.value is None and ("$" in found.text or "`" in found.text):
        looked = _LOOKUP.match(found.text)
        if looked is not None:
            return Word(found.text, looked.group(2))
    return found
