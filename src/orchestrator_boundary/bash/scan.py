"""A linear tokenizer for JavaScript / Perl / Ruby one-liners (no regexes, no backtracking)."""

from __future__ import annotations

from orchestrator_boundary.values import transient


@transient
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


def _comment_end(code: str, i: int, js: bool) -> int:
    """The index after the comment that starts at ``i``, or ``i`` when none starts there."""
    line_comment = (
        code.startswith("//", i) if js else code[i] == "#" and (i == 0 or code[i - 1] in " \t\n;")
    )
    if line_comment:
        end = code.find("\n", i)
        return len(code) if end < 0 else end
    if js and code.startswith("/*", i):
        end = code.find("*/", i + 2)
        return len(code) if end < 0 else end + 2
    return i


def _string(code: str, i: int, lang: str) -> tuple[Tok, int]:
    """The quoted string (or perl/ruby backtick command) that starts at ``i``; the next index."""
    quote = code[i]
    n = len(code)
    j = i + 1
    buf: list[str] = []
    while j < n and code[j] != quote:
        if code[j] == "\\" and j + 1 < n:
            escaped = code[j + 1]
            buf.append(code[j : j + 2] if quote != "'" or escaped not in "'\\" else escaped)
            j += 2
            continue
        buf.append(code[j])
        j += 1
    body = "".join(buf)
    if quote == "`" and lang != "js":
        return Tok("tick", body), j + 1
    value = None if _interpolated(body, quote, lang) or "\\" in body else body
    return Tok("str", body, value), j + 1


def _name_end(code: str, i: int) -> int:
    """The end of the dotted name (``fs.promises.writeFile``, ``File::Copy``) at ``i``."""
    n = len(code)
    j = i + 1
    while j < n and (
        _ident_char(code[j]) or (code[j] in ".:" and j + 1 < n and _ident_char(code[j + 1]))
    ):
        j += 1
    return j


def tokenize(code: str, lang: str) -> list[Tok]:
    """Tokens of ``code``; ``lang`` is "js", "perl" or "ruby". One pass."""
    out: list[Tok] = []
    js = lang == "js"
    i = 0
    n = len(code)
    while i < n:
        ch = code[i]
        if ch in " \t\r\n":
            i += 1
            continue
        skipped = _comment_end(code, i, js)
        if skipped != i:
            i = skipped
        elif ch in "'\"`":
            tok, i = _string(code, i, lang)
            out.append(tok)
        elif _ident_char(ch) or (
            ch == "." and i + 1 < n and _ident_char(code[i + 1]) and not code[i + 1].isdigit()
        ):
            j = _name_end(code, i)
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
