"""A linear tokenizer for JavaScript / Perl / Ruby one-liners (no regexes, no backtracking)."""

from __future__ import annotations

from orchestrator_boundary.values import transient


@transient
class Tok:
    kind: str  # "id" (dotted name), "str", "op", "tick" (backtick / command string; too deep)
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
        return quote == '"' and "#{" in body
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
    if _nests(quote, lang):
        end = _skip_quoted(code, i, lang, 0)
        body = code[i + 1 : end - 1]
        if _OPENERS[lang] in body:  # its code may hold quotes: the string ends after it
            return Tok("str", body, None), end
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


_OPENERS = {"js": "${", "ruby": "#{"}


def _nests(quote: str, lang: str) -> bool:
    """Whether a string with this quote holds code in braces (`${..}`, `#{..}`) that may itself
    hold quotes: JS template literals, Ruby double quotes."""
    return (lang == "js" and quote == "`") or (lang == "ruby" and quote == '"')


def _skip_quoted(text: str, j: int, lang: str, depth: int) -> int:
    """The index after the string that starts at ``text[j]``, its interpolations included."""
    quote = text[j]
    opener = _OPENERS.get(lang, "") if _nests(quote, lang) else ""
    n = len(text)
    k = j + 1
    while k < n and text[k] != quote:
        if text[k] == "\\":
            k += 2
        elif opener and text.startswith(opener, k):
            k = _braced_end(text, k + 2, lang, depth + 1)
        else:
            k += 1
    return k + 1


def _braced_end(text: str, j: int, lang: str, depth: int) -> int:
    """The index after the `}` that closes the brace opened just before ``j``."""
    n = len(text)
    if depth > 8:
        return n
    level = 1
    while j < n:
        ch = text[j]
        if ch in "'\"`":
            j = _skip_quoted(text, j, lang, depth)
            continue
        if ch == "{":
            level += 1
        elif ch == "}":
            level -= 1
            if level == 0:
                return j + 1
        j += 1
    return n


def _parts(body: str, lang: str) -> list[str]:
    """The code of each `${..}` / `#{..}` of an interpolated string's body."""
    opener = _OPENERS[lang]
    parts: list[str] = []
    i = body.find(opener)
    while i >= 0:
        end = _braced_end(body, i + 2, lang, 1)
        parts.append(body[i + 2 : end - 1])
        i = body.find(opener, end)
    return parts


def _interpolations(tok: Tok, quote: str, lang: str) -> list[str]:
    """The code inside an interpolated string: a JS template's `${..}` parts, and for Perl
    (`"@{[ system .. ]}"`) and Ruby (`"#{system ..}"`) the whole text, read as code (an
    over-approximation: its words may look like calls)."""
    if tok.kind != "str" or tok.value is not None or not _interpolated(tok.text, quote, lang):
        return []
    if lang in _OPENERS:
        return _parts(tok.text, lang) if _nests(quote, lang) else []
    if not ("@{" in tok.text or "${" in tok.text):  # perl: `"@{[ system .. ]}"`
        return []
    return [tok.text]


def tokenize(code: str, lang: str, depth: int = 0) -> list[Tok]:
    """Tokens of ``code``; ``lang`` is "js", "perl" or "ruby". One pass; the code inside an
    interpolated string follows the string's token (at most 8 strings deep)."""
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
            start = i
            tok, i = _string(code, i, lang)
            out.append(tok)
            inner = _interpolations(tok, code[start], lang)
            if inner and depth >= 8:
                out.append(Tok("tick", tok.text))  # too deep to read: as if it ran a command
            for part in inner if depth < 8 else []:
                out.extend(tokenize(part, lang, depth + 1))
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
