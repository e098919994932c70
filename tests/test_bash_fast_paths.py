"""The Bash analysis's speed-only forms return what the plain forms they replaced return."""

from __future__ import annotations

import ast
import itertools
import posixpath
import random
from pathlib import Path

from orchestrator_boundary.bash.inline_python import _nodes
from orchestrator_boundary.bash.paths import _DEVICES, _drive, _norm, is_device
from orchestrator_boundary.bash.scan import Tok, _ident_char, _interpolated, tokenize
from orchestrator_boundary.bash.words import _unescape_dq


def _norm_plain(path: str) -> str:
    """paths._norm without the already-normal shortcut."""
    if _drive(path):
        rest = posixpath.normpath("/" + path[3:].replace("\\", "/"))
        return path[0].upper() + ":" + ("/" if rest == "/" else rest)
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/") if out.startswith("//") else out


def _unescape_dq_plain(text: str) -> str:
    """words._unescape_dq as the character loop it was."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def test_norm_shortcut_matches_normpath() -> None:
    for length in range(8):
        for chars in itertools.product("/.a", repeat=length):
            for path in ("".join(chars), "/" + "".join(chars), "C:/" + "".join(chars)):
                assert _norm(path) == _norm_plain(path), path


def test_unescape_dq_matches_the_character_loop() -> None:
    for length in range(7):
        for chars in itertools.product(["\\", "$", "`", '"', "\n", "a", "\r"], repeat=length):
            text = "".join(chars)
            assert _unescape_dq(text) == _unescape_dq_plain(text), repr(text)


def _drive_plain(path: str) -> bool:
    return len(path) >= 3 and path[0].isalpha() and path[1] == ":" and path[2] in "/\\"


def test_drive_matches_the_plain_test() -> None:
    for length in range(5):
        for chars in itertools.product("C:/\\a", repeat=length):
            path = "".join(chars)
            assert _drive(path) == _drive_plain(path), path


def _tokenize_plain(code: str, lang: str) -> list[Tok]:
    """scan.tokenize as the character loop it was."""
    out: list[Tok] = []
    i = 0
    n = len(code)
    while i < n:
        ch = code[i]
        if ch in " \t\r\n":
            i += 1
        elif lang == "js" and code.startswith("//", i):
            end = code.find("\n", i)
            i = n if end < 0 else end
        elif lang == "js" and code.startswith("/*", i):
            end = code.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif lang != "js" and ch == "#" and (i == 0 or code[i - 1] in " \t\n;"):
            end = code.find("\n", i)
            i = n if end < 0 else end
        elif ch in "'\"`":
            j = i + 1
            buf: list[str] = []
            while j < n and code[j] != ch:
                if code[j] == "\\" and j + 1 < n:
                    buf.append(
                        code[j : j + 2] if ch != "'" or code[j + 1] not in "'\\" else code[j + 1]
                    )
                    j += 2
                    continue
                buf.append(code[j])
                j += 1
            body = "".join(buf)
            if ch == "`" and lang != "js":
                out.append(Tok("tick", body))
            else:
                value = None if _interpolated(body, ch, lang) or "\\" in body else body
                out.append(Tok("str", body, value))
            i = j + 1
        elif _ident_char(ch) or (
            ch == "." and i + 1 < n and _ident_char(code[i + 1]) and not code[i + 1].isdigit()
        ):
            j = i + 1
            while j < n and (
                _ident_char(code[j]) or (code[j] in ".:" and j + 1 < n and _ident_char(code[j + 1]))
            ):
                j += 1
            out.append(Tok("id", code[i:j]))
            i = j
        else:
            out.append(Tok("op", ch))
            i += 1
    return out


def test_tokenize_matches_the_character_loop() -> None:
    alphabet = ["'", '"', "`", "\\", "/", "*", "#", " ", "\n", "a", ".", "$", "{"]
    every_short = (
        "".join(chars) for n in range(5) for chars in itertools.product(alphabet, repeat=n)
    )
    rng = random.Random(17)  # noqa: S311 - test inputs, not secrets
    longer = ("".join(rng.choices(alphabet, k=rng.randint(5, 16))) for _ in range(20_000))
    for code in itertools.chain(every_short, longer):
        for lang in ("js", "perl", "ruby"):
            assert tokenize(code, lang) == _tokenize_plain(code, lang), (code, lang)


def test_inline_python_nodes_are_ast_walk_in_order() -> None:
    sources = Path(__file__).resolve().parents[1] / "src" / "orchestrator_boundary"
    for path in sorted(sources.rglob("*.py")):
        tree = ast.parse(path.read_text())
        walked = list(ast.walk(tree))
        nodes = _nodes(tree)
        assert len(nodes) == len(walked), path
        assert all(a is b for a, b in zip(nodes, walked, strict=True)), path


def test_encode_character_classes_match_the_comparisons() -> None:
    from orchestrator_boundary.bash.analysis import _ABOVE_PARSER_MAX, _SURROGATE

    edges = [0, 0x7F, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x1FFFF, 0x20000]
    for cp in [*edges, 0x10FFFF, *range(0, 0x110000, 97)]:
        ch = chr(cp)
        assert bool(_ABOVE_PARSER_MAX.search(ch)) == (ch > chr(0x1FFFF)), hex(cp)
        assert bool(_SURROGATE.search(ch)) == ("\ud800" <= ch <= "\udfff"), hex(cp)


def _is_device_plain(resolved: str | None, path: str) -> bool:
    """paths.is_device without its '/dev/' and length tests."""
    for p in (resolved, path):
        if p is None:
            continue
        if p in _DEVICES or (p.startswith("/dev/fd/") and p[8:].isdigit()):
            return True
        if p.lower() in ("nul", "nul:"):
            return True
    return False


def test_is_device_matches_the_plain_test() -> None:
    pieces = ["/dev/", "fd/", "null", "stdout", "tty", "0", "12", "nul", "NuL", ":", "x", "\u0130"]
    for count in range(4):
        for parts in itertools.product(pieces, repeat=count):
            path = "".join(parts)
            for resolved in (None, path, "/w/" + path):
                assert is_device(resolved, path) == _is_device_plain(resolved, path), path
