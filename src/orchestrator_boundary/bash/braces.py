"""Bash's brace expansion (ADR 0081): it comes before every other expansion and can change how
many words a command has, so `mv f{,.bak}` is `mv f f.bak` and `{mv,a,b}` is `mv a b`."""

from __future__ import annotations

import re
from itertools import pairwise

from orchestrator_boundary.bash.words import _DQ_ESCAPE, _GLOB_CHARS, Word, _unescape_unquoted

MAX_BRACE_WORDS = 64  # more words from one brace expansion: the word is unknown
_NOT_PLAIN = re.compile(r"[\"'\\$`]")
_SEQUENCE = re.compile(r"(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?\Z")


def expand_braces(words: list[Word]) -> list[Word]:
    """Bash's brace expansion, which can change how many words there are: `mv a{,.bak}` is
    `mv a a.bak`, `mv ".claude/x"{,.bak}` is `mv .claude/x .claude/x.bak` (the quoted part is
    text, ADR 0082). A word that brace-expands with an expansion in it (`$`, a backquote, a
    tilde next to quotes), or gives more than MAX_BRACE_WORDS words, is an unknown pattern
    (``brace_unread``)."""
    out: list[Word] = []
    for w in words:
        marked = _marked(w.text) if w.value is not None and _NOT_PLAIN.search(w.text) else None
        if marked is not None:  # quoted parts: the braces bash sees are the unquoted ones
            if not _unescape_unquoted(marked)[2]:
                out.append(w)
                continue
            pieces = _braces(marked)
        elif not (w.glob and _unescape_unquoted(w.text)[2]):
            out.append(w)
            continue
        elif w.value is None:
            out += _with_expansions(w)
            continue
        else:
            pieces = None if _NOT_PLAIN.search(w.text) else _braces(w.value)
        if pieces is None or len(pieces) > MAX_BRACE_WORDS:
            out.append(Word(w.text, None, True))
            continue
        out += [_shown(p) for p in pieces if p]  # `{,}`: none
    return out


# an expansion bash does after brace expansion, read as any text (`*`): `$X`, `${X}`, `$1`,
# `$(cmd)` and a backquoted command without quotes or nesting inside
_EXPANSION = re.compile(
    r"\$\{[^{}'\"$`]*\}|\$\([^()'\"$`]*\)|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]|`[^`'\"$]*`"
)
_MODIFIED = re.compile(r"\$(?:\{[^{}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]):")
_ANY = "\x01"  # stands for an expansion's text while the braces are expanded


def _with_expansions(w: Word) -> list[Word]:
    """A word with expansions that brace-expands (`mv .claude/settings.json$1{,.bak}` moves the
    settings when $1 is empty): the words bash makes, each a pattern where an expansion is
    `*`, so that the count of words is bash's and each names what it may be (ADR 0082). One
    unknown pattern when an expansion is not read here."""
    if "$${" in w.text or _MODIFIED.search(w.text):
        # `${` is never a brace (`$${a,b}` is the pid and `{a,b}`); zsh reads `$F:h` as a
        # modifier of the value
        return [Word(w.text, None, True)]
    marked = _marked(_EXPANSION.sub(_ANY, w.text))
    pieces = None if marked is None else _braces(marked)
    if pieces is None or len(pieces) > MAX_BRACE_WORDS:
        return [Word(w.text, None, True)]
    out = []
    for piece in pieces:
        shown = _show(piece).replace(_ANY, "*")
        if shown:
            out.append(Word(shown, shown, True))
    return out


# a quoted or escaped character stands in the marked text as a private-use character of plane
# 15 (U+F0000 + its code), on which neither brace expansion nor globbing acts: `{'1'..3}` is no
# sequence, as in bash
_PLANE = 0xF0000


def _hide(c: str) -> str:
    return chr(_PLANE + ord(c))


def _show(piece: str) -> str:
    return "".join(chr(ord(c) - _PLANE) if ord(c) >= _PLANE else c for c in piece)


def _marked(text: str) -> str | None:
    """``text`` with its quotes removed, the characters they (or a backslash) quote that brace
    expansion or globbing would act on hidden; None when it holds an expansion (`$`, a
    backquote, `~`) or a form not read here."""
    if any(c in text for c in "$`~") or max(map(ord, text), default=0) > 0xFFFF:
        return None
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            if i + 1 >= n:
                return None
            if text[i + 1] != "\n":
                out.append(_hide(text[i + 1]))
            i += 2
        elif ch in "'\"":
            end = _closing(text, i)
            if end < 0:
                return None
            body = text[i + 1 : end]
            if ch == '"':
                body = _DQ_ESCAPE.sub(r"\1", body)
            out += [_hide(c) for c in body]
            i = end + 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _closing(text: str, at: int) -> int:
    """Where the quote opened at ``at`` closes (-1: it does not); in double quotes a backslash
    escapes the next character."""
    i = at + 1
    while i < len(text):
        if text[i] == text[at]:
            return i
        i += 2 if text[at] == '"' and text[i] == "\\" else 1
    return -1


def _shown(piece: str) -> Word:
    """One word of an expansion: a pattern where an unquoted glob character remains."""
    glob = not _GLOB_CHARS.isdisjoint(piece)
    value = _show(piece)
    if value == piece:
        return Word(piece, piece, glob)
    return Word("'" + value.replace("'", "'\\''") + "'", value, glob)


def brace_unread(words: list[Word]) -> bool:
    """Whether ``expand_braces`` left a word it could not expand."""
    return any(w.value is None and w.glob and _unescape_unquoted(w.text)[2] for w in words)


def _braces(text: str, start: int = 0) -> list[str] | None:
    """``text`` brace-expanded as bash does (None: more than MAX_BRACE_WORDS words)."""
    at = text.find("{", start)
    if at < 0:
        return [text]
    close, items, depth = -1, [], 0
    for i in range(at + 1, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0 and text[i] == ",":
            items.append(i)
        elif depth < 0:
            close = i
            break
    if close < 0:
        return _braces(text, at + 1)  # `{{a,b}`: bash goes on to the next `{`
    alternatives = [text[a + 1 : b] for a, b in pairwise([at, *items, close])]
    if not items:
        alternatives = _sequence(text[at + 1 : close]) or []
    if not alternatives:
        return _braces(text, at + 1)  # `{a}` and `{}` stay as written
    out: list[str] = []
    for alternative in alternatives:
        rest = _braces(alternative + text[close + 1 :])
        if rest is None or len(out) + len(rest) > MAX_BRACE_WORDS:
            return None
        out += [text[:at] + r for r in rest]
    return out


def _sequence(body: str) -> list[str] | None:
    """`1..3`, `01..10..2`, `a..e`: the words of a sequence expression (None: not one; more
    than MAX_BRACE_WORDS of them: that many and one more, empty)."""
    m = _SEQUENCE.match(body)
    if m is None or m.group(1).isalpha() != m.group(2).isalpha():
        return None
    step = abs(int(m.group(3) or 1)) or 1
    if m.group(1).isalpha():
        a, b = ord(m.group(1)), ord(m.group(2))
        return [chr(c) for c in range(a, b + (1 if b >= a else -1), step if b >= a else -step)]
    a, b = int(m.group(1)), int(m.group(2))
    if abs(b - a) // step >= MAX_BRACE_WORDS:
        return [""] * (MAX_BRACE_WORDS + 1)  # too many: the caller gives up
    zero = any(g.lstrip("-").startswith("0") and len(g.lstrip("-")) > 1 for g in m.group(1, 2))
    pad = max(len(m.group(1)), len(m.group(2))) if zero else 0
    numbers = range(a, b + (1 if b >= a else -1), step if b >= a else -step)
    return [str(n).zfill(pad) for n in numbers]
