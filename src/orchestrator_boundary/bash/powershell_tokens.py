"""PowerShell tokens: one linear pass, no regexes (see powershell.py)."""

from __future__ import annotations

Tok = tuple[str, str, str | None]  # (kind: word/sep/redir/block, text, literal value or None)
_BREAK = frozenset(" \t\r\n;|(){}\x0b\x0c\x00")
# PowerShell reads the typographic quotes as quotes (U+2018 to U+201B end a '...' string, U+201C
# to U+201E a "..." one), any Unicode space as a blank, a lone CR as a line end and U+2013 to
# U+2015 as a dash (its tokenizer's IsSingleQuote, IsDoubleQuote, IsWhitespace, IsDash); attack
# round C
_QUOTES = str.maketrans(
    dict.fromkeys("\u2018\u2019\u201a\u201b", "'") | dict.fromkeys("\u201c\u201d\u201e", '"')
)
_DASHES = frozenset("\u2013\u2014\u2015")


def _blank(ch: str) -> bool:
    return ch in " \t\x0b\x0c\x00" or (ch > "\x7f" and ch.isspace())


def _breaks(ch: str) -> bool:
    return ch in _BREAK or (ch > "\x7f" and ch.isspace())


def _closing(code: str, i: int, open_ch: str, close_ch: str) -> int:
    depth = 0
    n = len(code)
    while i < n:
        ch = code[i]
        if ch in "'\"":
            end = code.find(ch, i + 1)
            i = n if end < 0 else end
        elif ch == open_ch:
            depth += 1
        elif ch == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def subexpressions(raw: str) -> list[str]:
    """The code of each `$( ... )` in an expandable string's text (`"a $(ni x)"`): it runs when
    the string is expanded; a backtick escapes the `$`."""
    found: list[str] = []
    i = 0
    while i < len(raw):
        if raw[i] == "`":
            i += 2
        elif raw.startswith("$(", i):
            end = _closing(raw, i + 1, "(", ")")
            found.append(raw[i + 2 : end - 1])
            i = end
        else:
            i += 1
    return found


def _here_string(code: str, i: int) -> tuple[Tok, int] | None:
    """`@"` or `@'`, blanks, a line end: a here-string up to a line that starts with `"@` or
    `'@`; None when the text at ``i`` is not one."""
    quote = code[i + 1 : i + 2]
    line_end = code.find("\n", i)
    if quote not in ("'", '"') or line_end < 0 or code[i + 2 : line_end].strip(" \t\r"):
        return None
    close = code.find("\n" + quote + "@", line_end)
    end = len(code) if close < 0 else close + 3
    body = code[line_end + 1 : close if close >= 0 else len(code)]
    value = None if quote == '"' and "$" in body else body
    return ("word", code[i:end], value), end


def _quoted(code: str, i: int) -> tuple[Tok, int]:
    """The string that starts with the quote at ``i``, and the index after it."""
    ch = code[i]
    n = len(code)
    j = i + 1
    buf: list[str] = []
    while j < n:
        if code[j] == ch and code[j + 1 : j + 2] == ch:
            buf.append(ch)
            j += 2
            continue
        if code[j] == ch:
            break
        if ch == '"' and code[j] == "`" and j + 1 < n:
            buf.append(code[j + 1])
            j += 2
            continue
        buf.append(code[j])
        j += 1
    body = "".join(buf)
    return ("word", code[i : j + 1], None if ch == '"' and "$" in body else body), j + 1


def tokenize(code: str) -> list[Tok]:
    code = code.translate(_QUOTES)
    out: list[Tok] = []
    i = 0
    n = len(code)
    while i < n:
        ch = code[i]
        here = _here_string(code, i) if ch == "@" else None
        if here is not None:
            out.append(here[0])
            i = here[1]
        elif _blank(ch):
            i += 1
        elif ch in "\r\n;" or code.startswith(("&&", "||"), i):
            out.append(("sep", ch, None))
            i += 2 if code.startswith(("&&", "||"), i) else 1
        elif ch == "|":
            out.append(("pipe", ch, None))
            i += 1
        elif ch == "#":
            end = code.find("\n", i)
            i = n if end < 0 else end
        elif code.startswith("<#", i):
            end = code.find("#>", i)
            i = n if end < 0 else end + 2
        elif ch in "{(" or code.startswith(("$(", "@("), i):
            start = i + (1 if ch in "$@" else 0)
            end = _closing(code, start, code[start], "}" if code[start] == "{" else ")")
            out.append(("block", code[start + 1 : end - 1], None))
            i = end
        elif ch == "'" or ch == '"':
            tok, i = _quoted(code, i)
            out.append(tok)
        else:
            j = i
            while (
                j < n
                and not _breaks(code[j])
                and not (code[j] in "'\"" and j > i and code[j - 1] in ",=")
            ):
                j += 2 if code[j] == "`" else 1
            raw = code[i:j]
            kind = "redir" if ">" in raw and raw.lstrip("*123456").startswith(">") else "word"
            # `@name` splats a table of parameters: what it names is not in the text
            splat = raw[:1] == "@" and (raw[1:2].isalnum() or raw[1:2] == "_")
            value = None if "$" in raw or "`" in raw or splat else raw
            if value is not None and value[:1] in _DASHES:
                value = "-" + value[1:]
            out.append((kind, raw, value))
            i = max(j, i + 1)
    return out
