"""Wrappers: programs that run another command (sudo, env, timeout, bash -c, xargs, npx ...).

``unwrap`` returns the inner argv (and env, e.g. a new cwd), an Outcome when the wrapper
decides by itself (``bash script.sh`` is opaque), or None when ``prog`` is no wrapper.
"""

from __future__ import annotations

from collections.abc import Callable

from orchestrator_boundary.bash.budget import MAX_UNWRAP, BudgetExhausted
from orchestrator_boundary.bash.envvars import harmless_exported
from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.outcome import (
    Env,
    Outcome,
    opaque,
    read_only,
)
from orchestrator_boundary.bash.paths import resolve
from orchestrator_boundary.bash.unwrap_data import (
    NPX,
    RUNNER,
    SIMPLE,
    TIMEOUT,
    WATCH,
    XARGS,
)
from orchestrator_boundary.bash.unwrap_env import env_wrapper, options, sudo
from orchestrator_boundary.bash.words import Word, lit, may_split, unknown
from orchestrator_boundary.bash.wrappers_more import after_operand, arch, multicall
from orchestrator_boundary.values import replace

Step = tuple[list[Word], Env] | Outcome | None
W = EffectKind.WRITE

_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"})
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh"})
_SHELL_VAL_OPTS = frozenset({"-o", "+o", "-O", "+O"})
# interactive and login shells run rc and profile files, and keep a history file
_SHELL_STARTUP = frozenset({"--login", "--rcfile", "--init-file", "--debugger", "--interactive"})
_RUNNERS = {  # `<tool> <sub> cmd...` that run a command from a package or environment
    ("pnpm", "dlx"),
    ("pnpm", "exec"),
    ("yarn", "dlx"),
    ("yarn", "exec"),
    ("npm", "exec"),
    ("bun", "x"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("bundle", "exec"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("uv", "run"),
    ("rye", "run"),
    ("conda", "run"),
    ("pipx", "run"),
    ("mamba", "run"),
}


# runners that fetch a package or prepare an environment before they run the command: npx and
# `npm exec` keep a debug log (~/.npm/_logs, or an .npmrc's logs-dir) and a package cache,
# `uv run` creates .venv and uv.lock, uvx a tool environment in HOME (ADR 0049)
_PREPARING = frozenset({"npx", "bunx", "uvx", "pnpx"})


# wrappers that run their command on a terminal they make: nohup then writes nohup.out, as it
# never does in the Bash tool (ADR 0082; a pager's program is judged where it is set)
_TERMINAL = frozenset({"unbuffer", "winpty"})
_PREPARES = "writes its own caches or environment, may fetch code"


def prepares(prog: str, args: list[Word]) -> str:
    """Why the command ``prog args`` runs is never better than ``opaque``: a runner that
    prepares an environment for it (``npx X``, ``uv run X``), or gives it a terminal; ""
    otherwise."""
    if prog in _TERMINAL and any(w.value in (None, "nohup") for w in args):
        return f"{prog}: runs nohup on a terminal, which writes nohup.out"
    if prog in _PREPARING:
        return f"{prog}: {_PREPARES}"
    first = args[0].value if args else None
    if first is not None and (prog, first) in _RUNNERS:
        return f"{prog} {first}: {_PREPARES}"
    if prog == "uv" and first == "tool" and len(args) > 1 and args[1].value == "run":
        return f"uv tool run: {_PREPARES}"
    return ""


def _substituted(word: Word) -> bool:
    """A process substitution's file, ``<(...)``: what it reads is that command's output."""
    return word.text.startswith("<(") and word.text.endswith(")")


def run_code(prog: str, code: str, env: Env) -> Outcome:
    if env.depth >= MAX_UNWRAP:
        raise BudgetExhausted("budget exhausted (nested shells)")
    inner = env.nested.shell(code, replace(env, depth=env.depth + 1, stdin=None))
    return Outcome(
        prog, Status.READ_ONLY, note="runs nested shell code (its commands follow)", inner=inner
    )


_SHELL_NAMES = frozenset({"sh", "bash", "dash", "ash", "ksh", "mksh", "zsh", "busybox"})


def run_script(prog: str, operand: Word, env: Env, *, by_path: bool = False) -> Outcome:
    """A script file run by a shell (``sh F``, ``source F``) or by its path (``./F``, then only
    a shell script: no ``#!`` line, or one naming a shell). Always ``opaque``: the file may
    change before it runs. Its path goes into ``Outcome.script``; once the policy has read the
    text (``env.scripts``), the script's commands follow as this command's own, so a write or a
    change of the boundary inside it is seen (ADR 0040)."""
    path = resolve(operand.literal, env.cwd, backslash_sep=env.backslash_sep)
    if path is None:
        return opaque(prog, "runs a script file")
    text = dict(env.scripts).get(path)
    if text is None or env.depth >= MAX_UNWRAP or (by_path and not _shell_text(text)):
        return Outcome(prog, Status.OPAQUE, (), "runs a script file", script=path)
    inner = run_code(prog, text, env).inner
    note = f"runs the script file {operand.text} (its commands follow)"
    return Outcome(prog, Status.OPAQUE, (), note, inner, path)


def _shell_text(text: str) -> bool:
    if not text.startswith("#!"):
        return True  # run by path without a #! line, a shell runs it
    words = text[2:].split("\n", 1)[0].split()
    if words and words[0].rsplit("/", 1)[-1] == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    return bool(words) and words[0].rsplit("/", 1)[-1] in _SHELL_NAMES


def _shell(prog: str, args: list[Word], env: Env) -> Step:
    """`bash -c CODE`, `sh FILE`, `bash <<< CODE`; an interactive or login shell (`-i`, `-l`,
    `--rcfile F`) also runs its startup files and keeps a history file: opaque."""
    startup = ""
    for arg in args:
        value = arg.value
        if value is None or value == "--" or not value.startswith(("-", "+")):
            break
        if value in _SHELL_STARTUP or (
            not value.startswith("--") and ("i" in value[1:] or "l" in value[1:])
        ):
            startup = value
    outcome = _shell_run(prog, args, env)
    if not startup or outcome.status is Status.UNPARSEABLE:
        return outcome
    note = f"{prog} {startup}: runs startup files, keeps a history"
    return Outcome(prog, Status.OPAQUE, outcome.fx, note, outcome.inner, outcome.script)


def _shell_run(prog: str, args: list[Word], env: Env) -> Outcome:
    run_c = False
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or value in ("-", "--") or not value.startswith(("-", "+")):
            if value in ("-", "--"):
                i += 1
            break
        if value in ("--rcfile", "--init-file"):
            i += 2
            continue
        if value in _SHELL_VAL_OPTS:
            if i + 1 < len(args) and args[i + 1].value in (None, "history"):
                return opaque(prog, f"{prog} {value} {args[i + 1].text}: not understood")
            i += 2
            continue
        if not value.startswith("--") and "c" in value[1:]:
            run_c = True
        i += 1
    operands = args[i:]
    if run_c:
        if not operands:
            return opaque(prog, "-c without code")
        code = operands[0].value
        if code is None:
            return opaque(prog, "shell code is not a literal")
        return run_code(prog, code, env)
    if operands and _substituted(operands[0]):  # `bash <(echo ...)`: `echo ... | bash`
        return run_code(prog, f"{operands[0].text[2:-1]} | {prog}", env)
    if operands and not (operands[0].value in _STDIN_FILES and env.stdin is not None):
        return run_script(prog, operands[0], env)
    if env.stdin is not None:
        return run_code(prog, env.stdin, env)
    return opaque(prog, "reads commands from stdin")


# signals whose default action does not dump core (signal(7)); any other one timeout sends
# (SEGV, QUIT, ABRT, ...) may make the program write a core file in its working directory, as
# the inherited `ulimit -c` and the kernel's core_pattern decide: observed, `ulimit -c
# unlimited; timeout -s SEGV 1 sleep 5` created ./core (attack round C)
_NO_CORE = frozenset({"TERM", "KILL", "INT", "HUP", "ALRM", "USR1", "USR2", "PIPE", "CONT"})
_NO_CORE_NUMBERS = frozenset({"1", "2", "9", "14", "15"})


def _timeout(args: list[Word], env: Env) -> Step:
    parsed = options("timeout", args, TIMEOUT)
    if isinstance(parsed, Outcome):
        return parsed
    if parsed.rest and may_split(parsed.rest[0]):  # `timeout $X`, `timeout *`: not one word
        return opaque("timeout", f"timeout: {parsed.rest[0].text} may expand to several words")
    for sent in parsed.values("-s", "--signal"):
        name = (sent.value or "").upper().removeprefix("SIG") if sent is not None else ""
        if name not in _NO_CORE and name not in _NO_CORE_NUMBERS:
            inner = env.nested.dispatch(parsed.rest[1:], env) if parsed.rest[1:] else None
            note = f"timeout -s {name or '?'}: the program may dump core"
            if inner is None:
                return opaque("timeout", note)
            return Outcome(inner.program, Status.OPAQUE, inner.fx, note, inner.inner, inner.script)
    return parsed.rest[1:], env  # skip DURATION


def _xargs(args: list[Word], env: Env) -> Step:
    parsed = options("xargs", args, XARGS)
    if isinstance(parsed, Outcome):
        return parsed
    for slot in parsed.values("--process-slot-var"):
        # the variable goes to the command's environment (`BASH_ENV=0`: bash runs ./0)
        name = slot.value if slot is not None else None
        if name is None or not harmless_exported(name):
            return opaque("xargs", "xargs --process-slot-var: a variable the command receives")
    inner = parsed.rest or [lit("echo")]
    replace_str = parsed.last("-I", "-J", "-i", "--replace")
    if replace_str is None and parsed.has("-i", "--replace"):
        replace_str = lit("{}")
    marker = unknown("<input from xargs>")
    if replace_str is not None and replace_str.value:
        needle = replace_str.value
        return [
            marker if a.value is not None and needle in a.value and i else a
            for i, a in enumerate(inner)
        ], env
    return [*inner, marker], env


def _parallel(args: list[Word], env: Env) -> Step:
    cmd: list[Word] = []
    for i, arg in enumerate(args):
        if arg.value in (":::", "::::", ":::+", "::::+"):
            break
        if not cmd and arg.value is not None and arg.value.startswith("-"):
            continue  # options (values of valued options become the command: opaque below)
        cmd = args[i:]
        cmd = cmd[: next((j for j, a in enumerate(cmd) if a.value in (":::", "::::")), len(cmd))]
        break
    if not cmd or any(a.value is None for a in cmd):
        return opaque("parallel", "command is not literal")
    code = " ".join(a.value or "" for a in cmd)
    code = code.replace("{}", "$PARALLEL_ITEM") if "{}" in code else code + " $PARALLEL_ITEM"
    return run_code("parallel", code, env)


def _npx(args: list[Word], env: Env) -> Step:
    parsed = options("npx", args, NPX)
    if isinstance(parsed, Outcome):
        return parsed
    call = parsed.last("-c", "--call")
    if call is not None:
        return run_code("npx", call.value, env) if call.value else opaque("npx", "-c not literal")
    return parsed.rest, env


def _runner(prog: str, args: list[Word], env: Env) -> Step:
    parsed = options(prog, args, RUNNER)
    if isinstance(parsed, Outcome):
        return parsed
    for name, value in parsed.opts:
        if name in ("--directory", "-C", "--dir", "--cwd"):
            env = replace(env, cwd=resolve(value.literal if value else None, env.cwd))
    if parsed.has("-c", "--call", "--shell-mode"):  # a command line run by a shell
        words = [v for v in parsed.values("-c", "--call") if v is not None] + parsed.rest
        if not words or any(w.value is None for w in words):
            return opaque(prog, f"{prog} -c: the command line is not a literal")
        return run_code(prog, " ".join(w.value or "" for w in words), env)
    return parsed.rest, env


def _watch(args: list[Word], env: Env) -> Step:
    parsed = options("watch", args, WATCH)
    if isinstance(parsed, Outcome):
        return parsed
    if parsed.has("-x", "--exec") or not parsed.rest:
        return parsed.rest, env
    if any(w.value is None for w in parsed.rest):  # the words are joined and run by `sh -c`
        return opaque("watch", "watch command is not a literal")
    return run_code("watch", " ".join(w.value or "" for w in parsed.rest), env)


def _powershell(prog: str, args: list[Word], env: Env) -> Step:
    for i, arg in enumerate(args):
        flag = (arg.value or "").lower()
        if flag in ("-command", "-c", "/command", "/c"):
            rest = args[i + 1 :]
            if not rest or any(a.value is None for a in rest):
                return opaque(prog, "PowerShell command is not a literal")
            code = " ".join(a.value or "" for a in rest)
            if env.depth >= MAX_UNWRAP:
                raise BudgetExhausted("budget exhausted (nested shells)")
            inner = env.nested.powershell(code, env)
            # without -NoProfile (any prefix from -nop) PowerShell first runs the user's profile
            # scripts, code the text does not show, as `bash --login` runs rc files (round C)
            bare = any(len(f) >= 4 and "-noprofile".startswith(f) for f in _lower(args[:i]))
            status, note = (
                (Status.READ_ONLY, "runs PowerShell code (its commands follow)")
                if bare
                else (Status.OPAQUE, "runs the PowerShell profile, then its code (which follows)")
            )
            return Outcome(prog, status, inner=inner, note=note)
        if flag in ("-file", "-f", "-encodedcommand", "-e", "-ec"):
            return opaque(prog, "runs a PowerShell script")
    return opaque(prog, "interactive PowerShell")


def _lower(args: list[Word]) -> list[str]:
    return [(a.value or "").lower().replace("/", "-", 1) for a in args]


_SPECIAL: dict[str, Callable[[list[Word], Env], Step]] = {
    "busybox": lambda args, env: multicall("busybox", args, env),
    "toybox": lambda args, env: multicall("toybox", args, env),
    "arch": arch,
    "chrt": lambda args, env: after_operand("chrt", args, env),
    "taskset": lambda args, env: after_operand("taskset", args, env),
    "env": env_wrapper,
    "sudo": sudo,
    "timeout": _timeout,
    "gtimeout": _timeout,
    "xargs": _xargs,
    "parallel": _parallel,
    "npx": _npx,
    "watch": _watch,
}


# every program name the checks in ``unwrap`` below can match (but PowerShell's, any case)
_WRAPPERS = frozenset(
    {
        *SHELLS,
        "eval",
        "trap",
        "source",
        ".",
        "command",
        "uv",
        *SIMPLE,
        *_SPECIAL,
        *(p for p, _ in _RUNNERS),
    }
)


def unwrap(prog: str, args: list[Word], env: Env) -> Step:
    if prog not in _WRAPPERS:  # most programs: one set look-up instead of the chain below
        return _powershell(prog, args, env) if prog.lower() in ("powershell", "pwsh") else None
    if prog in SHELLS:
        return _shell(prog, args, env)
    if prog in ("source", ".", "eval") and args and args[0].value == "--":
        args = args[1:]  # `eval -- 'cmd'`, `source -- f` (attack round C)
    if prog in ("source", "."):
        if args and _substituted(args[0]):  # `source <(echo ...)`: `echo ... | source ...`
            return run_code(prog, f"{args[0].text[2:-1]} | {prog} /dev/stdin", env)
        if args and args[0].value in _STDIN_FILES and env.stdin is not None:
            return run_code(prog, env.stdin, env)
        return run_script(prog, args[0], env) if args else opaque(prog, "runs a script file")
    if prog == "eval":
        if any(a.value is None for a in args):
            return opaque("eval", "evaluated text is not a literal")
        return run_code("eval", " ".join(a.value or "" for a in args), env)
    if prog == "trap":
        if args and args[0].value == "--":  # `trap -- 'cmd' EXIT` (attack round C)
            args = args[1:]
        if not args or args[0].value in ("-p", "-l") or args[0].value in ("", "-"):
            return read_only("trap", "lists or resets traps")
        code = args[0].value
        return (
            opaque("trap", "trap code is not a literal")
            if code is None
            else run_code("trap", code, env)
        )
    if prog == "command":
        parsed = options(prog, args, SIMPLE[prog])
        if isinstance(parsed, Outcome):
            return parsed
        if parsed.has("-v", "-V"):  # options end at the command's name (`command rm -v f`)
            return read_only("command", "command -v lookup")
        return parsed.rest, env
    if prog in SIMPLE:
        if prog == "ionice" and any(a.value == "-p" for a in args):
            return read_only("ionice", "queries a process")
        parsed = options(prog, args, SIMPLE[prog])
        return parsed if isinstance(parsed, Outcome) else (parsed.rest, env)
    special = _SPECIAL.get(prog)
    if special is not None:
        return special(args, env)
    if args and args[0].value is not None and (prog, args[0].value) in _RUNNERS:
        return _runner(prog, args[1:], env)
    if prog == "uv" and len(args) > 1 and args[0].value == "tool" and args[1].value == "run":
        return _runner(prog, args[2:], env)
    return None
