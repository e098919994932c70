"""Turn tree-sitter word nodes into literal strings, or None when the shell would expand them."""

from __future__ import annotations

import re
from typing import Any

from orchestrator_boundary.bash.parse import text_in
from orchestrator_boundary.value import value

_GLOB_CHARS = frozenset("*?[")
_LITERAL_NODES = frozenset({"word", "number"})
_DQ_ESCAPE = re.compile(r'\\(?:\n|([$`"\\]))')
_SPECIAL_UNQUOTED = frozenset("\\*?[{")  # what _unescape_unquoted acts on


@value
class Word:
    text: str  # as written
    value: str | None  # after quote removal / tilde expansion; None = unknowable
    glob: bool = False  # unquoted glob or brace expansion: the value is a pattern, not a path

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


def _ansi_c(text: str) -> str | None:
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _ANSI:
            out.append(_ANSI[nxt])
            i += 2
        else:
            return None  # \x, \u, octal, \c: decodable, but rare; stay honest
    return "".join(out)


def _tilde(value: str, home: str | None) -> str | None:
    if not value.startswith("~"):
        return value
    head, sep, rest = value.partition("/")
    if head != "~" or home is None:
        return None  # ~user, ~+, ~- or unknown home
    return home.rstrip("/") + (sep + rest if sep else "")


def _part(node: Any, home: str | None, first: bool, code: str | None) -> Word:
    kind = node.type
    text = text_in(code, node)
    if kind in _LITERAL_NODES:
        value, glob, brace = _unescape_unquoted(text)
        if first and text.startswith("~"):
            expanded = _tilde(value, home)
            return Word(text, expanded, glob or brace)
        return Word(text, value, glob or brace)
    if kind == "raw_string":
        return Word(text, text[1:-1])
    if kind in ("string", "translated_string"):
        # an expansion or substitution inside starts with '$' or '`': without either, every
        # child is string_content, and the children need not be read (a property pins it)
        if "$" in text or "`" in text:
            for child in node.named_children:
                if child.type != "string_content":
                    return unknown(text)
        body = text[2:-1] if kind == "translated_string" else text[1:-1]
        return Word(text, _unescape_dq(body))
    if kind == "ansi_c_string":
        return Word(text, _ansi_c(text[2:-1]))
    if kind == "concatenation":
        parts = [_part(c, home, first and i == 0, code) for i, c in enumerate(node.children)]
        if any(p.value is None for p in parts):
            return unknown(text)
        # brace expansion can span parts: `{a,b}.txt` arrives as `{`, `a,b`, `}`, `.txt`
        skeleton = "".join(text_in(code, c) if c.type == "word" else "_" for c in node.children)
        brace = _unescape_unquoted(skeleton)[2]
        return Word(
            text, "".join(p.value or "" for p in parts), brace or any(p.glob for p in parts)
        )
    if kind == "process_substitution":
        return Word(text, "/dev/fd/63")  # a pipe, not a file
    if kind in ("extglob_pattern", "brace_expression"):
        return Word(text, text, True)
    return unknown(text)  # expansions, substitutions, arithmetic, anything new


def word(node: Any, home: str | None, code: str | None = None) -> Word:
    """The word ``node``; ``code``: the parsed text when it is ASCII (``parse.text_in``)."""
    if node.type in _LITERAL_NODES:  # most words: nothing to unescape, no glob, no tilde
        text = text_in(code, node)
        if _SPECIAL_UNQUOTED.isdisjoint(text) and text[:1] != "~":
            return Word(text, text)
    return _part(node, home, True, code)
