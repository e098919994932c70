"""A linear tokenizer for JavaScript / Perl / Ruby one-liners (no regexes, no backtracking)."""

from __future__ import annotations

from orchestrator_boundary.value import value


@value
class Tok:
    kind: str  # "id" (dotted name), "str", "op", "tick" (backtick / command string)
    text: str
    value: str | None = None  # for "str": the literal value, None when interpolated


def _ident_char(ch: str) -> bool:
    return ch.isalnum() or ch in "_$"


def _interpolated(body: str, quote: str, lang: str) -> bool:
    if quote == "'":
        return False
    if lang == "js":
        return quote == "`" and "${" in body
    if lang == "ruby":
        return "#{" in body
    return "$" in body or "@" in body  # perl double quotes


def tokenize(code: str, lang: str) -> list[Tok]:
    """Tokens of ``code``; ``lang`` is "js", "perl" or "ruby".

    One pass, character by character where it must be; string bodies are cut at the next
    quote or backslash with ``str.find`` (tests/test_bash_fast_paths.py pins it against the
    plain character loop).
    """
    out: list[Tok] = []
    js = lang == "js"
    i = 0
    n = len(code)
    while i < n:
        ch = code[i]
        if ch in " \t\r\n":
            i += 1
        elif js and ch == "/" and code.startswith("//", i):
            end = code.find("\n", i)
            i = n if end < 0 else end
        elif js and ch == "/" and code.startswith("/*", i):
            end = code.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif not js and ch == "#" and (i == 0 or code[i - 1] in " \t\n;"):
            end = code.find("\n", i)
            i = n if end < 0 else end
        elif ch in "'\"`":
            j = i + 1
            buf: list[str] = []
            close = code.find(ch, j)
            while True:
                if 0 <= close < j:  # an escaped quote: find the next one (each found once)
                    close = code.find(ch, j)
                stop = n if close < 0 else close
                slash = code.find("\\", j, stop)
                if slash < 0 or slash + 1 >= n:  # no escape before the quote (or the end)
                    buf.append(code[j:stop])
                    j = stop
                    break
                buf.append(code[j:slash])
                escaped = code[slash + 1]
                buf.append(
                    code[slash : slash + 2] if ch != "'" or escaped not in "'\\" else escaped
                )
                j = slash + 2
            body = "".join(buf)
            if ch == "`" and not js:
                out.append(Tok("tick", body))
            else:
                value = None if _interpolated(body, ch, lang) or "\\" in body else body
                out.append(Tok("str", body, value))
            i = j + 1
        elif (ch.isalnum() or ch in "_$") or (
            ch == "." and i + 1 < n and _ident_char(code[i + 1]) and not code[i + 1].isdigit()
        ):
            j = i + 1
            while j < n:  # _ident_char written out for the current character: it runs per one
                c = code[j]
                if not (
                    c.isalnum()
                    or c in "_$"
                    or (c in ".:" and j + 1 < n and _ident_char(code[j + 1]))
                ):
                    break
                j += 1
            out.append(Tok("id", code[i:j]))
            i = j
        else:
            out.append(Tok("op", ch))
            i += 1
    return out


def call_args(toks: list[Tok], start: int) -> tuple[list[list[Tok]], int]:
    """Arguments of the call whose name is at ``start``: with or without parentheses."""
    i = start + 1
    parens = i < len(toks) and toks[i].text == "("
    if parens:
        i += 1
    args: list[list[Tok]] = [[]]
    depth = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "op" and tok.text in "([{":
            depth += 1
        elif tok.kind == "op" and tok.text in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif tok.kind == "op" and tok.text == ";" and depth == 0:
            break
        elif tok.kind == "op" and tok.text == "," and depth == 0:
            args.append([])
            i += 1
            continue
        args[-1].append(tok)
        i += 1
    return [a for a in args if a], i


def literal(arg: list[Tok] | None) -> str | None:
    if arg and len(arg) == 1 and arg[0].kind == "str":
        return arg[0].value
    return None
