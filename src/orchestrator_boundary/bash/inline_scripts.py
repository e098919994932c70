"""node -e, perl -e, ruby -e: a linear token scan for file-writing and command-running calls."""

from __future__ import annotations

import re

from orchestrator_boundary.bash.inline_data import (
    JS_CALLS,
    JS_MOVES,
    JS_OPAQUE,
    JS_OPEN,
    NODE_BUILTINS,
    PERL_CALLS,
    PERL_MOVES,
    PERL_OPAQUE,
    PERL_OPAQUE_TEXT,
    PERL_SAFE_MODULES,
    RUBY_CALLS,
    RUBY_LOADS,
    RUBY_LOADS_ALSO,
    RUBY_MOVES,
    RUBY_OPAQUE,
    RUBY_OPEN,
)
from orchestrator_boundary.bash.inline_ruby import unknown_use
from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.scan import Tok, call_args, literal, tokenize

Found = tuple[EffectKind, str | None, str]
W, D = EffectKind.WRITE, EffectKind.DELETE


def _arg(args: list[list[Tok]], index: int) -> list[Tok] | None:
    return args[index] if len(args) > index else None


def _mode_writes(args: list[list[Tok]], index: int) -> bool:
    arg = _arg(args, index)
    if arg is None:
        return False
    value = literal(arg)
    return value is None or any(c in value for c in "wa+")


_JS_WRITERS = frozenset({*JS_CALLS, *JS_MOVES, *JS_OPEN})
_JS_ESCAPES = frozenset(
    {"Reflect", "globalThis", "global", "Proxy", "binding", "dlopen", "chdir", "report"}
)
_JS_NEVER_VALUES = frozenset({"eval", "Function", "require"})
_JS_ESCAPES_ANYWHERE = frozenset({"constructor", "__proto__", "mainModule", "prototype"})


def _js_escape(toks: list[Tok], k: int) -> str:
    """Why the token at ``k`` hands a callable to code the scan cannot follow, or ""."""
    tok = toks[k]
    if tok.kind == "op" and tok.text == "]" and k + 1 < len(toks) and toks[k + 1].text == "(":
        return "node calls a computed member"
    if tok.kind != "id":
        return ""
    parts = tok.text.split(".")
    if (
        parts[0] in _JS_ESCAPES
        or _JS_ESCAPES_ANYWHERE.intersection(parts)
        or (_JS_ESCAPES.intersection(parts[1:]))
    ):
        return f"node reaches {tok.text}: calls the analysis cannot follow"
    is_call = k + 1 < len(toks) and toks[k + 1].text == "("
    if parts[-1] in _JS_NEVER_VALUES and not is_call:  # `(0, eval)(..)`, `const r = require`
        return f"node uses {tok.text} as a value: its calls cannot be followed"
    if _JS_WRITERS.intersection(parts[:-1]) or (parts[-1] in _JS_WRITERS and not is_call):
        return f"node uses {tok.text} as a value: its calls cannot be followed"
    return ""


_JS_WRITERS = frozenset(JS_CALLS) | JS_MOVES | (JS_OPEN - {"open"})


def analyze_js(code: str) -> tuple[list[Found], str]:
    toks = tokenize(code, "js")
    found: list[Found] = []
    for k, tok in enumerate(toks):
        reason = _js_escape(toks, k)
        if reason:
            return found, reason
        if tok.kind == "tick":
            return found, "node template literals nested too deep to read"
        if tok.kind != "id":
            continue
        name = tok.text.rsplit(".", 1)[-1]
        is_call = k + 1 < len(toks) and toks[k + 1].text == "("
        if tok.text == "Bun.write" and is_call:
            found.append((W, literal(_arg(call_args(toks, k)[0], 0)), "bun Bun.write()"))
            continue
        if name in ("require", "import") and is_call:
            spec = literal(_arg(call_args(toks, k)[0], 0))
            # a `.json` spec is JSON only while it names a file: a folder `x.json/` with an
            # index.js runs that (observed, attack round C)
            if spec is None or spec.removeprefix("node:") not in NODE_BUILTINS:
                return found, f"node loads module {spec or '(computed)'}: not analyzed"
            if spec.removeprefix("node:") == "child_process":
                return found, "node uses child_process"
            continue
        if tok.text in ("import", "from") and k + 1 < len(toks) and toks[k + 1].kind == "str":
            spec = toks[k + 1].value or ""
            if spec.removeprefix("node:") not in NODE_BUILTINS:
                return found, f"node imports {spec}: not analyzed"
        if name in JS_OPAQUE and (is_call or name == "child_process"):
            return found, f"node calls {tok.text}: runs other code"
        if not is_call:
            # `const {writeFileSync: w} = require('fs'); w('x')`, `const w = fs.writeFile`:
            # a writer named but not called here may be called by another name (ADR 0077)
            if any(part in _JS_WRITERS for part in re.split(r"[.:]", tok.text)):
                return found, f"node names {tok.text} without calling it"
            continue
        args = call_args(toks, k)[0]
        if name in JS_CALLS:
            kind, index = JS_CALLS[name]
            found.append((kind, literal(_arg(args, index)), f"node {tok.text}()"))
        elif name in JS_MOVES:
            found.append((D, literal(_arg(args, 0)), f"node {tok.text}() source"))
            found.append((W, literal(_arg(args, 1)), f"node {tok.text}() target"))
        elif name in JS_OPEN and _mode_writes(args, 1):
            found.append((W, literal(_arg(args, 0)), f"node {tok.text}()"))
    return found, ""


def _perl_open(args: list[list[Tok]]) -> tuple[bool, str | None, str]:
    """(writes, path, opaque reason) for perl's open(FH, MODE, PATH) / open(FH, ">PATH")."""
    if len(args) >= 3:
        mode = literal(args[1])
        if mode is None:
            return True, None, ""
        if "|" in mode:
            return False, None, "perl open pipes to a command"
        return mode.lstrip().startswith((">", "+")), literal(args[2]), ""
    if len(args) == 2:
        spec = literal(args[1])
        raw = args[1][0].text if args[1] and args[1][0].kind == "str" else ""
        if "|" in (spec or raw):
            return False, None, "perl open pipes to a command"
        text = (spec or raw).lstrip()
        if text.startswith((">", "+")):
            path = text.lstrip(">+<").strip()  # `+<f` reads and writes f
            return True, (path if spec is not None and path else None), ""
        return spec is None and not raw, None, ""
    return False, None, ""


def _scan_calls(toks: list[Tok], lang: str) -> tuple[list[Found], str]:
    calls, moves, opaque = (
        (PERL_CALLS, PERL_MOVES, PERL_OPAQUE)
        if lang == "perl"
        else (RUBY_CALLS, RUBY_MOVES, RUBY_OPAQUE)
    )
    found: list[Found] = []
    for k, tok in enumerate(toks):
        if tok.kind == "tick":
            return found, f"{lang} runs a command in backticks"
        if tok.kind != "id":
            continue
        name = (
            tok.text.removeprefix("CORE::").removeprefix("Kernel.")
            if lang == "ruby"
            else tok.text.rsplit("::", 1)[-1]
        )
        if name == "use" and k + 1 < len(toks) and toks[k + 1].text in PERL_SAFE_MODULES:
            continue
        if name in opaque or tok.text in opaque:
            return found, f"{lang} calls {tok.text}: runs other code"
        if name in calls:
            kind, index = calls[name]
            args = call_args(toks, k)[0]
            if lang == "perl" and kind != W and index:
                index = len(args) - 1  # chmod MODE, FILES: the last operand
            found.append((kind, literal(_arg(args, index)), f"{lang} {tok.text}"))
        elif name in moves:
            args = call_args(toks, k)[0]
            found.append((D, literal(_arg(args, 0)), f"{lang} {tok.text} source"))
            found.append((W, literal(_arg(args, 1)), f"{lang} {tok.text} target"))
        elif lang == "perl" and name == "open":
            writes, path, reason = _perl_open(call_args(toks, k)[0])
            if reason:
                return found, reason
            if writes:
                found.append((W, path, "perl open for writing"))
        elif lang == "ruby" and (name in RUBY_LOADS or tok.text in RUBY_LOADS_ALSO):
            first = literal(_arg(call_args(toks, k)[0], 0))
            if first is None or first.startswith(("|", ".", "/", "~")):
                return found, f"ruby {tok.text} of a file or a command"
        elif lang == "ruby" and name in RUBY_OPEN:
            args = call_args(toks, k)[0]
            first = literal(_arg(args, 0))
            if first is not None and first.startswith("|"):
                return found, "ruby open of a command"
            if _mode_writes(args, 1):
                found.append((W, first, f"ruby {tok.text}"))
    return found, ""


_IO_FILE = re.compile(
    r"IO::File\s*->\s*new\s*\(\s*(\"[^\"$@]*\"|'[^']*')\s*(?:,\s*(\"[^\"$@]*\"|'[^']*'))?\s*\)"
)


def _io_files(code: str) -> tuple[list[Found], str]:
    """IO::File->new(PATH, MODE) / IO::File->new(">PATH"): literal forms only."""
    found: list[Found] = []
    calls = code.count("IO::File")
    matches = list(_IO_FILE.finditer(code))
    if len(matches) < code.count("IO::File->new") or calls > code.count(
        "IO::File->new"
    ) + code.count("use IO::File"):
        return found, "perl IO::File with arguments that are not literal"
    for match in matches:
        path, mode = match.group(1)[1:-1], (match.group(2) or "''")[1:-1]
        spec = mode or path
        if any(c in spec for c in "wa>+") or mode.startswith(("O_", "w")):
            found.append((W, path.lstrip(">+< ").strip() if not mode else path, "perl IO::File"))
    return found, ""


def analyze_perl(code: str) -> tuple[list[Found], str]:
    for text in PERL_OPAQUE_TEXT:
        if text in code:
            return [], f"perl uses {text}: writes the analysis cannot follow"
    files, reason = _io_files(code)
    if reason:
        return files, reason
    found, reason = _scan_calls(tokenize(code, "perl"), "perl")
    return files + found, reason


def analyze_ruby(code: str) -> tuple[list[Found], str]:
    if "%x" in code:
        return [], "ruby %x runs a command"
    toks = tokenize(code, "ruby")
    found, reason = _scan_calls(toks, "ruby")
    return found, reason or unknown_use(toks)
