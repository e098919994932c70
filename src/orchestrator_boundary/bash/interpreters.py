"""python / node / perl / ruby command lines: inline code is analyzed, scripts are opaque."""

from __future__ import annotations

from collections.abc import Callable

from orchestrator_boundary.bash import boundary_cli
from orchestrator_boundary.bash.inline_hidden import commands_in, strings_in
from orchestrator_boundary.bash.inline_more import analyze_lua, analyze_php
from orchestrator_boundary.bash.inline_python import analyze_python
from orchestrator_boundary.bash.inline_scripts import analyze_js, analyze_perl, analyze_ruby
from orchestrator_boundary.bash.installers import node_pm, pip
from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import (
    Env,
    Fx,
    Outcome,
    opaque,
    read_only,
    runs_code,
    writes,
)
from orchestrator_boundary.bash.py_path import guarded as py_guarded
from orchestrator_boundary.bash.py_path import module_guarded, safe_path_flag, shadowable_imports
from orchestrator_boundary.bash.words import Word, lit

Analyzer = Callable[[str], tuple[list[tuple[EffectKind, str | None, str]], str]]
_PY_VAL = frozenset("WXQ")
_RUBY_SAFE_LIBS = frozenset(
    {
        "json",
        "yaml",
        "fileutils",
        "pathname",
        "set",
        "time",
        "date",
        "pp",
        "securerandom",
        "digest",
        "base64",
        "csv",
        "uri",
        "English",
    }
)


def _inline(
    prog: str, codes: list[str | None], analyzer: Analyzer, env: Env, extra: list[Fx] | None = None
) -> Outcome:
    fx: list[Fx] = list(extra or ())
    for code in codes:
        if code is None:
            return opaque(prog, "inline code is not a literal", fx)
        env.budget.spend_text(code)
        found, reason = analyzer(code)
        for kind, path, source in found:
            if path is not None and path.startswith("~") and env.home is not None:
                path = env.home.rstrip("/") + path[1:] if path.startswith("~/") else None
            fx.append(env.fx(kind, lit(path) if path else None, source))
        if reason:
            hidden = "inline code hides which call writes"
            fx += [env.fx(EffectKind.WRITE, lit(text), hidden) for text in strings_in(code, reason)]
            if "calls exec" in reason or "calls eval" in reason or "calls compile" in reason:
                fx.append(Fx(EffectKind.WRITE, "", None, "runs code the analysis cannot see"))
            shown = commands_in(code)
            return runs_code(prog, "\n".join(shown) if shown else None, env, reason, fx)
    return writes(prog, fx, "" if fx else "inline code without file writes")


def python(prog: str, args: list[Word], env: Env) -> Outcome:
    i, safe = 0, False  # safe: -I or -P, the working folder is not on sys.path
    while i < len(args):
        value = args[i].value
        if value is None:
            return opaque(prog, "argument is not a literal")
        if value in ("-V", "--version", "-h", "--help"):
            return read_only(prog, value)
        if value.startswith("-c"):
            code = value[2:] or (args[i + 1].value if i + 1 < len(args) else None)
            return _python_code(prog, code, env, safe)
        if value.startswith("-m"):
            module = value[2:] or (args[i + 1].value if i + 1 < len(args) else None)
            rest = args[i + (1 if value[2:] else 2) :]
            done = _module(prog, module, rest, env)
            return done if module is None else module_guarded(done, module, safe)
        if value == "-" or not value.startswith("-"):
            if value != "-":
                return _script(prog, value, args[i + 1 :], env)
            break
        safe = safe or safe_path_flag(value)
        if value[1:2] in _PY_VAL and len(value) == 2:
            i += 1
        i += 1
    if env.stdin is not None:
        return _python_code(prog, env.stdin, env, safe)
    return opaque(prog, "reads its program from stdin")


def _python_code(prog: str, code: str | None, env: Env, safe: bool) -> Outcome:
    """Inline python; opaque when it imports a module the working folder could shadow."""
    done = _inline(prog, [code], analyze_python, env)
    return done if safe or code is None else py_guarded(done, shadowable_imports(code))


def _script(prog: str, path: str, rest: list[Word], env: Env) -> Outcome:
    """``python FILE``: opaque, but a file of this package (``.../orchestrator_boundary/cli.py
    phase off``) is the product's CLI, and a change of the boundary through it counts."""
    found = opaque(prog, "runs a script file")
    if boundary_cli.package_script(path):
        outcome = boundary_cli.boundary(prog, rest, env)
        if boundary_cli.changes(outcome):
            return outcome
    return found


def _module(prog: str, module: str | None, rest: list[Word], env: Env) -> Outcome:
    if module is not None and module.split(".")[0] == boundary_cli.MODULE:
        return boundary_cli.boundary(prog, rest, env)
    if module == "pip":
        return pip("pip", rest, env)
    if module == "json.tool":
        operands = [a for a in rest if a.value is None or not a.value.startswith("-")]
        if len(operands) < 2:
            return read_only(prog, "json.tool prints to stdout")
        return writes(prog, env.fx_many(EffectKind.WRITE, operands[1:2], "json.tool output"))
    if module == "venv":
        targets = [a for a in rest if a.value is None or not a.value.startswith("-")]
        return writes(prog, env.fx_many(EffectKind.WRITE, targets, "python -m venv directory"))
    return opaque(prog, f"python -m {module}: runs a module")


def node(prog: str, args: list[Word], env: Env) -> Outcome:
    codes: list[str | None] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None:
            return opaque(prog, "argument is not a literal")
        if value in ("-e", "--eval", "-p", "--print"):
            codes.append(args[i + 1].value if i + 1 < len(args) else None)
            i += 2
            break
        if value in ("-c", "--check"):
            return read_only(prog, "node --check only parses")
        name = value.partition("=")[0]
        if name in ("-r", "--require", "--import", "--loader", "--experimental-loader") or (
            name.startswith("--") and ("loader" in name or "preload" in name or "policy" in name)
        ):
            return opaque(prog, "node preloads a module")
        if value == "-" or not value.startswith("-"):
            if value != "-":
                return opaque(prog, "runs a script file")
            break
        i += 1
    if not codes:
        if env.stdin is None:
            return opaque(prog, "reads its program from stdin")
        codes = [env.stdin]
    return _inline(prog, codes, analyze_js, env)


def perl_like(prog: str, args: list[Word], env: Env) -> Outcome:
    """perl and ruby: -e code (repeatable), -i[ext] in-place editing of the operands."""
    codes: list[str | None] = []
    in_place = False
    operands: list[Word] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or value == "-" or not value.startswith("-") or operands:
            operands.append(args[i])
            i += 1
            continue
        if value == "--":
            operands.extend(args[i + 1 :])
            break
        for j in range(1, len(value)):
            letter, rest = value[j], value[j + 1 :]
            if letter in "eE":
                if not rest and i + 1 < len(args):
                    i += 1
                    codes.append(args[i].value)
                else:
                    codes.append(rest)
                break
            if letter == "i":
                in_place = True
                break
            if letter in "IxdC" or (letter in "Mm" and prog == "perl"):
                # modules or code from outside the text, a script cut from input, a debugger,
                # another working folder
                return opaque(prog, f"{prog} -{letter}: code or paths the analysis cannot see")
            if letter in "Fl0":
                break  # the rest of the cluster is this option's value
            if letter == "r" and prog == "ruby":
                lib = rest or (args[i + 1].value if i + 1 < len(args) else None)
                if lib not in _RUBY_SAFE_LIBS:
                    return opaque(prog, f"ruby requires {lib}")
                if not rest:
                    i += 1
                break
            if letter == "c":
                return read_only(prog, "syntax check only")
        i += 1
    if not codes:
        if operands:
            return opaque(prog, "runs a script file")
        if env.stdin is None:
            return opaque(prog, "reads its program from stdin")
        codes = [env.stdin]
    if any(code is not None and "$^I" in code for code in codes):
        if not operands:
            why = "perl $^I edits files the code names"
            named = [t for code in codes for t in strings_in(code or "", why)]
            return opaque(prog, why, env.fx_many(EffectKind.WRITE, [lit(t) for t in named], why))
        in_place = True
    extra = env.fx_many(EffectKind.WRITE, operands, f"{prog} -i target") if in_place else []
    analyzer = analyze_perl if prog == "perl" else analyze_ruby
    return _inline(prog, codes, analyzer, env, extra)


HANDLERS: dict[str, Callable[[str, list[Word], Env], Outcome]] = {
    "python": python,
    "node": node,
    "perl": perl_like,
    "ruby": perl_like,
}


def _code_option(args: list[Word], options: tuple[str, ...]) -> tuple[bool, str | None]:
    """(found, code) of the first ``-e CODE``-style option in ``args``."""
    for i, arg in enumerate(args):
        if arg.value in options:
            return True, args[i + 1].value if i + 1 < len(args) else None
        if arg.value is None or not arg.value.startswith("-"):
            break
    return False, None


def php(prog: str, args: list[Word], env: Env) -> Outcome:
    if args and args[0].value in ("-v", "--version", "-m", "-i", "-l", "--info"):
        return read_only(prog, f"php {args[0].value}")
    found, code = _code_option(args, ("-r", "--run"))
    if found:
        return _inline(prog, [code], analyze_php, env)
    return opaque(prog, "runs a script file")


def lua(prog: str, args: list[Word], env: Env) -> Outcome:
    found, code = _code_option(args, ("-e",))
    if found and len([a for a in args if a.value == "-e"]) == len(
        [a for a in args if (a.value or "").startswith("-")]
    ):
        return _inline(prog, [code], analyze_lua, env)
    return opaque(prog, "runs a script file or loads a library")


def deno(prog: str, args: list[Word], env: Env) -> Outcome:
    if args and args[0].value == "eval":
        rest = [a for a in args[1:] if a.value is None or not a.value.startswith("-")]
        return _inline(prog, [rest[0].value if rest else None], analyze_js, env)
    return opaque(prog, f"deno {args[0].value if args else ''}: runs code".strip())


def bun(prog: str, args: list[Word], env: Env) -> Outcome:
    found, code = _code_option(args, ("-e", "--eval", "-p", "--print"))
    if found:
        return _inline(prog, [code], analyze_js, env)
    return node_pm(prog, args, env)


HANDLERS.update({"php": php, "lua": lua, "deno": deno, "bun": bun})
