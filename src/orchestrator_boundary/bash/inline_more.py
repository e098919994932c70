"""php -r and lua -e: a token scan for file-writing and command-running calls (ADR 0021)."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.readonly_data import names
from orchestrator_boundary.bash.scan import Tok, call_args, literal, tokenize

Found = tuple[EffectKind, str | None, str]
W, D, C = EffectKind.WRITE, EffectKind.DELETE, EffectKind.CHANGE

# called name -> (kind, index of the path argument)
PHP_CALLS = {
    **dict.fromkeys(("file_put_contents", "mkdir", "touch", "tempnam"), (W, 0)),
    **dict.fromkeys(("unlink", "rmdir"), (D, 0)),
    **dict.fromkeys(("copy", "move_uploaded_file"), (W, 1)),
    **dict.fromkeys(("chmod", "chown", "chgrp", "lchown", "lchgrp"), (C, 0)),
    **dict.fromkeys(("symlink", "link"), (C, 1)),
    "rename": (W, 1),
}
PHP_OPEN = frozenset({"fopen", "gzopen", "SplFileObject", "bzopen", "dio_open"})
PHP_OPAQUE = names(
    """system exec shell_exec passthru popen proc_open eval assert include include_once require
    require_once pcntl_exec call_user_func call_user_func_array create_function chdir mail putenv
    dl ini_set extract tmpfile"""
)
LUA_CALLS = {"os.remove": (D, 0), "os.rename": (W, 1), "io.output": (W, 0), "os.tmpname": (W, 9)}
LUA_OPEN = frozenset({"io.open"})
LUA_OPAQUE = names(
    """os.execute io.popen load loadstring dofile loadfile require package.loadlib
    debug.sethook setfenv"""
)


def _mode_writes(args: list[list[Tok]], index: int) -> bool:
    mode = literal(args[index]) if len(args) > index else "r"
    return mode is None or any(c in mode for c in "wax+c")


def _scan(
    toks: list[Tok],
    lang: str,
    calls: dict[str, tuple[EffectKind, int]],
    opens: frozenset[str],
    opaque: frozenset[str],
) -> tuple[list[Found], str]:
    found: list[Found] = []
    for k, tok in enumerate(toks):
        is_call = k + 1 < len(toks) and toks[k + 1].text == "("
        if tok.kind == "tick":
            return found, f"{lang} runs a command in backticks"
        if tok.kind != "id":
            continue
        if tok.text.startswith("$") and is_call:
            return found, f"{lang} calls a function named by a variable"
        name = tok.text.rsplit("\\", 1)[-1]
        if name in opaque:
            return found, f"{lang} calls {name}: runs other code"
        if name in calls or name in opens:
            if not is_call:
                return found, f"{lang} uses {name} as a value: its calls cannot be followed"
            args = call_args(toks, k)[0]
            if name in opens:
                if _mode_writes(args, 1):
                    found.append((W, literal(args[0]) if args else None, f"{lang} {name}"))
                continue
            kind, index = calls[name]
            if name == "rename" or name == "os.rename":
                found.append((D, literal(args[0]) if args else None, f"{lang} {name} source"))
            target = literal(args[index]) if len(args) > index else None
            found.append((kind, target, f"{lang} {name}"))
    return found, ""


def analyze_php(code: str) -> tuple[list[Found], str]:
    return _scan(tokenize(code, "perl"), "php", PHP_CALLS, PHP_OPEN, PHP_OPAQUE)


def analyze_lua(code: str) -> tuple[list[Found], str]:
    return _scan(tokenize(code, "ruby"), "lua", LUA_CALLS, LUA_OPEN, LUA_OPAQUE)
