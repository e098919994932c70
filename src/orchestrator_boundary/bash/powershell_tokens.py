"""PowerShell tokens: one linear pass, no regexes (see powershell.py)."""

from __future__ import annotations

Tok = tuple[str, str, str | None]  # (kind: word/sep/redir/block, text, literal value or None)
_BREAK = frozenset(" \t\r\n;|(){}")


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


def tokenize(code: str) -> list[Tok]:
    out: list[Tok] = []
    i = 0
    n = len(code)
    while i < n:
        ch = code[i]
        if ch in " \t\r":
            i += 1
        elif ch in "\n;" or code.startswith(("&&", "||"), i):
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
            out.append(("word", code[i : j + 1], None if ch == '"' and "$" in body else body))
            i = j + 1
        else:
            j = i
            while (
                j < n
                and code[j] not in _BREAK
                and not (code[j] in "'\"" and j > i and code[j - 1] in ",=")
            ):
                j += 2 if code[j] == "`" else 1
            raw = code[i:j]
            kind = "redir" if ">" in raw and raw.lstrip("*123456").startswith(">") else "word"
            value = None if "$" in raw or "`" in raw else raw
            out.append((kind, raw, value))
            i = max(j, i + 1)
    return out
