"""php -r, lua -e, deno eval and bun -e: inline code is analysed, other forms are opaque."""

from __future__ import annotations

from collections.abc import Callable

from orchestrator_boundary.bash.inline_more import analyze_lua, analyze_php
from orchestrator_boundary.bash.inline_scripts import analyze_js
from orchestrator_boundary.bash.installers import node_pm
from orchestrator_boundary.bash.interpreters import inline
from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, read_only
from orchestrator_boundary.bash.readonly_data import names
from orchestrator_boundary.bash.words import Word


def _code_option(args: list[Word], options: tuple[str, ...]) -> tuple[bool, str | None]:
    """(found, code) of the first ``-e CODE``-style option in ``args``."""
    for i, arg in enumerate(args):
        if arg.value in options:
            return True, args[i + 1].value if i + 1 < len(args) else None
        if arg.value is None or not arg.value.startswith("-"):
            break
    return False, None


def php(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value for a in args]
    if values[:1] and values[0] in ("-v", "--version", "-m", "-i", "-l", "--info"):
        return read_only(prog, f"php {values[0]}")
    found, code = _code_option(args, ("-r", "--run"))
    if not found:
        return opaque(prog, "runs a script file")
    before = values[: next(i for i, v in enumerate(values) if v in ("-r", "--run"))]
    if not all(v in ("-n", "-q", "-H") for v in before):
        # -d auto_prepend_file=..., -c php.ini, -B/-R/-E: code from elsewhere
        return opaque(prog, "php options before -r may run other code")
    return inline(prog, [code], analyze_php, env)


def lua(prog: str, args: list[Word], env: Env) -> Outcome:
    found, code = _code_option(args, ("-e",))
    if found and len([a for a in args if a.value == "-e"]) == len(
        [a for a in args if (a.value or "").startswith("-")]
    ):
        return inline(prog, [code], analyze_lua, env)
    return opaque(prog, "runs a script file or loads a library")


_DENO_EVAL = names("-q --quiet -p --print --check --no-check --no-remote --cached-only")
_DENO_EVAL |= names("--no-config --no-npm --ext --seed")


def deno(prog: str, args: list[Word], env: Env) -> Outcome:
    if args and args[0].value == "eval":
        options = [a.value for a in args[1:] if a.value is None or a.value.startswith("-")]
        named = [(v or "?").partition("=")[0] for v in options]
        if not all(name in _DENO_EVAL for name in named):
            # --v8-flags=--prof writes, --import-map and --preload bring other code
            return opaque(prog, "deno eval: an option the analysis does not know")
        valued = {"--ext", "--seed"}
        rest = [
            a
            for i, a in enumerate(args[1:], 1)
            if not (a.value or "-").startswith("-") and not (args[i - 1].value in valued and i > 1)
        ]
        return inline(prog, [rest[0].value if rest else None], analyze_js, env)
    return opaque(prog, f"deno {args[0].value if args else ''}: runs code".strip())


def bun(prog: str, args: list[Word], env: Env) -> Outcome:
    """bun -e CODE as its first words (a --preload before it runs other code)."""
    if args and args[0].value in ("-e", "--eval", "-p", "--print"):
        return inline(prog, [args[1].value if len(args) > 1 else None], analyze_js, env)
    if any(a.value in ("-e", "--eval", "-p", "--print") for a in args):
        return opaque(prog, "bun options before -e may load other code")
    return node_pm(prog, args, env)


HANDLERS: dict[str, Callable[[str, list[Word], Env], Outcome]] = {
    "php": php,
    "lua": lua,
    "deno": deno,
    "bun": bun,
}
