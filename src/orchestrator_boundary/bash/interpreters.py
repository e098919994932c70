"""python / node / perl / ruby command lines: inline code is analyzed, scripts are opaque."""

from __future__ import annotations

from collections.abc import Callable

from orchestrator_boundary.bash import boundary_cli
from orchestrator_boundary.bash.inline_hidden import commands_in, strings_in
from orchestrator_boundary.bash.inline_python import analyze_python
from orchestrator_boundary.bash.inline_scripts import analyze_js, analyze_perl, analyze_ruby
from orchestrator_boundary.bash.installers import pip
from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.outcome import (
    Env,
    Fx,
    Outcome,
    checked,
    opaque,
    read_only,
    runs_code,
    with_effects,
    writes,
)
from orchestrator_boundary.bash.paths import resolve
from orchestrator_boundary.bash.perl_argv import opened
from orchestrator_boundary.bash.py_compiled import compileall_module, py_compile_module
from orchestrator_boundary.bash.py_modules import writing_module
from orchestrator_boundary.bash.py_path import guarded as py_guarded
from orchestrator_boundary.bash.py_path import module_guarded, safe_path_flag, shadowable_imports
from orchestrator_boundary.bash.readonly_data import names
from orchestrator_boundary.bash.words import Word, lit

Analyzer = Callable[[str], tuple[list[tuple[EffectKind, str | None, str]], str]]
_PY_VAL = frozenset("WX")
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


def inline(
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
    """python's own switches come before -c, -m or the script; ``-X pycache_prefix=DIR``
    writes the imported modules' bytecode under DIR."""
    prefixes: list[Word] = []
    for i, arg in enumerate(args):
        value = arg.value or ""
        if value == "-c" or value.startswith(("-c", "-m")) or not value.startswith("-"):
            break
        given = value[2:] if value.startswith("-X") else ""
        given = given or (args[i + 1].value or "" if value == "-X" and i + 1 < len(args) else "")
        if given.startswith("pycache_prefix="):
            prefixes.append(lit(given.partition("=")[2]))
    done = _python_run(prog, args, env)
    fx = env.fx_many(EffectKind.WRITE, prefixes, "python -X pycache_prefix")
    return with_effects(fx, done) if fx else done


def _python_run(prog: str, args: list[Word], env: Env) -> Outcome:
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
        refused = _python_switch(value, args[i + 1].value if i + 1 < len(args) else None)
        if refused:
            return opaque(prog, refused)
        safe = safe or safe_path_flag(value)
        if value[1:2] in _PY_VAL and len(value) == 2:
            i += 1
        i += 1
    if env.stdin is not None:
        return _python_code(prog, env.stdin, env, safe)
    return opaque(prog, "reads its program from stdin")


_PY_HARMLESS = frozenset("bBdEIOPqsSuvR")
# -X options that neither load code nor write (perf writes /tmp/perf-PID.map); pycache_prefix
# writes under its value, which python() reports
_PY_X_HARMLESS = names(
    """utf8 dev importtime tracemalloc warn_default_encoding no_debug_ranges frozen_modules
    int_max_str_digits showrefcount faulthandler pycache_prefix"""
)


def _python_switch(value: str, following: str | None) -> str:
    """Why the switch cluster ``value`` makes python opaque ("" when it does not): -i reads
    more code from stdin, -x skips a line of a script, some -X options write."""
    if value.startswith("--"):
        return f"python option {value} is not known"
    for j, letter in enumerate(value[1:], 1):
        if letter in _PY_VAL:
            given = value[j + 1 :] or following or ""
            name = given.partition("=")[0]
            if letter == "X" and name not in _PY_X_HARMLESS:
                return f"python -X {name}: it may write or load code"
            return ""
        if letter not in _PY_HARMLESS:
            return f"python -{letter}: code or files the analysis cannot see"
    return ""


def _python_code(prog: str, code: str | None, env: Env, safe: bool) -> Outcome:
    """Inline python; opaque when it imports a module the working folder could shadow."""
    done = inline(prog, [code], analyze_python, env)
    return done if safe or code is None else py_guarded(done, shadowable_imports(code))


def _script(prog: str, path: str, rest: list[Word], env: Env) -> Outcome:
    """``python FILE``: opaque, but a file of this package (``.../orchestrator_boundary/cli.py
    phase off``), or one whose text runs the CLI (a copy of its console script, read by the
    policy through ``Outcome.script``), is the product's CLI, and a change of the boundary
    through it counts."""
    where = resolve(path, env.cwd, backslash_sep=env.backslash_sep) or ""
    found = Outcome(prog, Status.OPAQUE, (), "runs a script file", script=where)
    if boundary_cli.script_is_cli(path, where, env):
        outcome = boundary_cli.boundary(prog, rest, env)
        if boundary_cli.changes(outcome):
            return outcome
    return found


_JSON_TOOL = spec(
    "h", "", "sort-keys no-ensure-ascii json-lines indent= tab no-indent compact help"
)


def _module(prog: str, module: str | None, rest: list[Word], env: Env) -> Outcome:
    if module is not None and module.split(".")[0] == boundary_cli.MODULE:
        return boundary_cli.boundary(prog, rest, env)
    if module == "pip":
        return pip("pip", rest, env)
    if module in ("py_compile", "compileall"):
        compiler = py_compile_module if module == "py_compile" else compileall_module
        return compiler(prog, rest, env)
    if module == "json.tool":
        parsed = parse(rest, _JSON_TOOL)
        out = env.fx_many(EffectKind.WRITE, parsed.pos[1:2], "json.tool output")
        return checked(prog, parsed.unknown, writes(prog, out, "json.tool prints to stdout"))
    if module == "venv":
        targets = [a for a in rest if a.value is None or not a.value.startswith("-")]
        return writes(prog, env.fx_many(EffectKind.WRITE, targets, "python -m venv directory"))
    found = writing_module(prog, module, rest, env)  # zipfile -c, gzip, pydoc -w, ...
    return found or opaque(prog, f"python -m {module}: runs a module")


# node options that change neither what runs nor where anything is written (a loader, a
# preload, an --env-file that may set NODE_OPTIONS, --prof or --redirect-warnings are not)
_NODE_HARMLESS = names(
    """--no-warnings --no-deprecation --trace-warnings --trace-deprecation --throw-deprecation
    --pending-deprecation --input-type --stack-size --max-old-space-size --enable-source-maps
    --use-strict --unhandled-rejections --title --preserve-symlinks --preserve-symlinks-main
    --no-experimental-fetch --experimental-strip-types --no-experimental-strip-types
    --experimental-vm-modules --experimental-default-type --disable-warning --no-addons
    --experimental-detect-module --no-experimental-detect-module"""
)
_NODE_INFO = frozenset({"-v", "--version", "-h", "--help"})
# options that write: the file or folder named by their value, or a file in the working folder
_NODE_WRITES_VALUE = names("--redirect-warnings --cpu-prof-dir --heap-prof-dir --diagnostic-dir")
_NODE_WRITES_HERE = names("--prof --cpu-prof --heap-prof --trace-events-enabled")


def node(prog: str, args: list[Word], env: Env) -> Outcome:
    """Options are node's up to the first operand, after ``-e CODE`` too (``node -e 1 --prof``
    writes a profile); an option outside the harmless table makes the command opaque."""
    codes: list[str | None] = []
    if len(args) == 1 and args[0].value in _NODE_INFO:
        return read_only(prog, f"node {args[0].value}")
    checking = False
    fx: list[Fx] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None:
            return opaque(prog, "argument is not a literal", fx)
        if value in ("-e", "--eval", "-p", "--print"):
            codes.append(args[i + 1].value if i + 1 < len(args) else None)
            i += 2
            continue
        if value in ("-c", "--check"):
            checking, i = True, i + 1
            continue
        name, eq, attached = value.partition("=")
        if value == "--" or not value.startswith("-"):
            if checking:
                break
            if not codes and value not in ("-", "--"):
                return opaque(prog, "runs a script file", fx)
            break  # the rest is the program's own arguments
        if name in _NODE_WRITES_HERE:
            fx.append(env.fx(EffectKind.WRITE, lit("."), f"node {name} writes a log here"))
        elif name in _NODE_WRITES_VALUE:
            target = lit(attached) if eq else (args[i + 1] if i + 1 < len(args) else None)
            fx.append(env.fx(EffectKind.WRITE, target, f"node {name}"))
            i += 0 if eq else 1
        elif name not in _NODE_HARMLESS:
            return opaque(prog, f"node option {name} may load code or write files", fx)
        else:
            i += 1 if eq or not _takes_value(name) else 2
            continue
        i += 1
    if checking:
        return writes(prog, fx, "node --check only parses")
    if not codes:
        if env.stdin is None:
            return opaque(prog, "reads its program from stdin", fx)
        codes = [env.stdin]
    return inline(prog, codes, analyze_js, env, fx)


def _takes_value(name: str) -> bool:
    return name in ("--input-type", "--unhandled-rejections", "--title", "--disable-warning")


_HARMLESS_LETTERS = {"perl": "nawsTtWXUpg", "ruby": "nawspvTS"}
_RUBY_LONG: tuple[str, ...] = (
    "--verbose",
    "--disable-gems",
    "--disable=",
    "--enable=",
    "--yjit",
    "--jit",
)
_RUBY_LONG += ("--encoding=", "--external-encoding=", "--internal-encoding=")
_PERL_INFO = frozenset({"-v", "-V", "--version", "-h", "--help"})


class _Switches:
    """What the switches of a perl or ruby command line asked for."""

    def __init__(self) -> None:
        self.codes: list[str | None] = []
        self.in_place = False
        self.compile_only = False
        self.refused = ""  # why the command is opaque, "" when it is not


def _cluster(prog: str, args: list[Word], i: int, found: _Switches) -> int:
    """Read the switch cluster ``args[i]``; the index of its last word."""
    value = args[i].value or ""
    if value.startswith("--"):
        if not (prog == "ruby" and value.startswith(_RUBY_LONG)):
            found.refused = f"{prog} option {value} is not known"
        return i
    j = 0
    while j + 1 < len(value):
        j += 1
        letter, rest = value[j], value[j + 1 :]
        if letter in "l0" and prog == "perl":  # -l[octal], -0[hex or octal digits]
            allowed = "01234567" if letter == "l" else "0123456789abcdefABCDEFx"
            j += len(rest) - len(rest.lstrip(allowed))
            continue
        if letter in "eE":
            if not rest and i + 1 < len(args):
                i += 1
                found.codes.append(args[i].value)
            else:
                found.codes.append(rest)
            return i
        if letter == "i":
            found.in_place = True
            return i
        if letter in "Fl0" or (letter == "W" and prog == "ruby"):
            return i  # the rest of the cluster is this option's value
        if letter == "r" and prog == "ruby":
            lib = rest or (args[i + 1].value if i + 1 < len(args) else None)
            if lib not in _RUBY_SAFE_LIBS:
                found.refused = f"ruby requires {lib}"
            return i if rest else i + 1
        if letter == "c":
            found.compile_only = True
        elif letter not in _HARMLESS_LETTERS[prog]:
            # -I/-M/-m: modules or code from outside the text, -x: a script cut from input,
            # -d: a debugger, -C: another working folder, -u: a core dump, ...
            found.refused = f"{prog} -{letter}: code, paths or files the analysis cannot see"
            return i
    return i


def perl_like(prog: str, args: list[Word], env: Env) -> Outcome:
    """perl and ruby: -e code (repeatable), -i[ext] in-place editing of the operands; every
    other switch from a harmless table. perl -c runs BEGIN blocks and use: code is analysed."""
    if len(args) == 1 and args[0].value in _PERL_INFO:
        return read_only(prog, f"{prog} {args[0].value}")
    found = _Switches()
    operands: list[Word] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or value == "-" or not value.startswith("-") or operands:
            operands.append(args[i])
        elif value == "--":
            operands.extend(args[i + 1 :])
            break
        else:
            refused = found.refused
            i = _cluster(prog, args, i, found)
            found.refused = refused or found.refused  # the first reason; -i still read (0077)
        i += 1
    if found.refused:
        edited = operands if found.in_place else []
        where = f"{prog} -i target"
        return opaque(prog, found.refused, env.fx_many(EffectKind.WRITE, edited, where))
    codes = found.codes
    if found.compile_only and prog == "ruby":
        return read_only(prog, "syntax check only")
    if not codes:
        if operands:
            return opaque(prog, "runs a script file")
        if env.stdin is None:
            return opaque(prog, "reads its program from stdin")
        codes = [env.stdin]
    in_place = found.in_place
    if any(code is not None and "$^I" in code for code in codes):
        if not operands:
            why = "perl $^I edits files the code names"
            named = [t for code in codes for t in strings_in(code or "", why)]
            return opaque(prog, why, env.fx_many(EffectKind.WRITE, [lit(t) for t in named], why))
        in_place = True
    extra = env.fx_many(EffectKind.WRITE, operands, f"{prog} -i target") if in_place else []
    if prog == "ruby":
        return inline(prog, codes, analyze_ruby, env, extra)
    return opened(operands, env, inline(prog, codes, analyze_perl, env, extra))


HANDLERS: dict[str, Callable[[str, list[Word], Env], Outcome]] = {
    "python": python,
    "node": node,
    "perl": perl_like,
    "ruby": perl_like,
}
