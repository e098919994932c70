"""sed: -i targets and the `w FILE` / `s///w FILE` commands inside the script."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.outcome import Env, Outcome, checked, opaque, runs_code, writes
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE
_SIMPLE_CMDS = frozenset("=dDgGhHlnNpPxzF")


def _skip_delimited(script: str, i: int, delim: str, brackets: bool = False) -> int:
    """Index just after the next unescaped ``delim`` from ``i``; with ``brackets``, a delimiter
    inside a bracket expression (`/[/]/`) does not end the regex, as in GNU sed."""
    n = len(script)
    while i < n:
        ch = script[i]
        if ch == "\\":
            i += 2
            continue
        if brackets and ch == "[":
            i = _skip_bracket(script, i + 1)
            continue
        if ch == delim or (ch == "\n" and delim != "\n"):
            return i + 1
        i += 1
    return n


def _skip_bracket(script: str, i: int) -> int:
    """Index just after the bracket expression whose ``[`` is at ``i - 1``."""
    n = len(script)
    if i < n and script[i] == "^":
        i += 1
    if i < n and script[i] == "]":
        i += 1
    while i < n and script[i] != "]":
        if script[i] == "[" and i + 1 < n and script[i + 1] in ":.=":
            close = script.find(script[i + 1] + "]", i + 2)
            i = close + 2 if close >= 0 else n
            continue
        if script[i] == "\n":
            return i
        i += 1
    return i + 1


def _to_eol(script: str, i: int) -> tuple[str, int]:
    end = script.find("\n", i)
    end = len(script) if end < 0 else end
    return script[i:end].strip(), end


def scan_script(script: str) -> tuple[list[str], bool, list[str]]:
    """Files the script writes with w/W/s///w, whether it executes commands (e/s///e), and the
    command lines of its ``e COMMAND`` commands. A script with a bracket expression is read
    both ways (a delimiter inside brackets ending the regex, or not) and the findings joined:
    seds differ there."""
    written, executes, commands = _scan(script, False)
    if "[" in script:
        more = _scan(script, True)
        written += [w for w in more[0] if w not in written]
        executes = executes or more[1]
        commands += [c for c in more[2] if c not in commands]
    return written, executes, commands


def _label(script: str, i: int) -> int:
    """Index where a label (`:a`, `b a`) ends: GNU sed ends it at `;` or a blank; another sed
    reads to the end of the line, which then holds no command this reading would miss."""
    n = len(script)
    while i < n and script[i] in " \t":
        i += 1
    while i < n and script[i] not in ";\n \t}":
        i += 1
    return i


def _scan(script: str, brackets: bool) -> tuple[list[str], bool, list[str]]:
    written: list[str] = []
    executes = False
    commands: list[str] = []
    i = 0
    n = len(script)
    while i < n:
        ch = script[i]
        if ch in " \t\n;{}!,0123456789$~+":
            i += 1
        elif ch == "/":
            i = _skip_delimited(script, i + 1, "/", brackets)
        elif ch == "\\" and i + 1 < n:
            i = _skip_delimited(script, i + 2, script[i + 1], brackets)
        elif ch == "#":
            i = _to_eol(script, i)[1]
        elif ch in "sy" and i + 1 < n:
            delim = script[i + 1]
            i = _skip_delimited(script, i + 2, delim, brackets)
            i = _skip_delimited(script, i, delim)
            while i < n and script[i] not in ";\n}":
                flag = script[i]
                if flag in "wW" and ch == "s":
                    name, i = _to_eol(script, i + 1)
                    written.append(name)
                    break
                if flag == "e" and ch == "s":
                    executes = True
                i += 1
        elif ch in "wW":
            name, i = _to_eol(script, i + 1)
            written.append(name)
        elif ch == "e":
            executes = True
            command, i = _to_eol(script, i + 1)
            commands.append(command)
        elif ch in "aicrR":
            i = _to_eol(script, i + 1)[1]
        elif ch in ":btT":
            i = _label(script, i + 1)
        elif ch in "qQlL":
            i += 1
            while i < n and script[i] not in ";\n}":
                i += 1
        else:
            i += 1  # p, d, n, ... and anything unknown
    return written, executes, commands


_SED = spec(
    "nrsuzEba",
    "efl",
    """expression= file= in-place[=] line-length= null-data zero-terminated quiet silent
    regexp-extended separate unbuffered binary debug posix sandbox follow-symlinks help
    version""",
    optional="iI",
)


def sed(prog: str, args: list[Word], env: Env) -> Outcome:
    for i in range(len(args) - 1):
        if args[i].value == "-i" and args[i + 1].value == "":
            args = [*args[: i + 1], *args[i + 2 :]]  # BSD: sed -i '' ...
            break
    p = parse(args, _SED)
    scripts = [v for v in p.values("-e", "--expression") if v is not None]
    script_file = p.has("-f", "--file")
    operands = list(p.pos)
    if not scripts and not script_file and operands:
        scripts, operands = [operands[0]], operands[1:]
    in_place = p.has("-i", "-I", "--in-place")
    fx = env.fx_many(W, operands, "sed -i target") if in_place else []
    if script_file:
        return opaque(prog, "sed -f: script file not analyzed", fx)
    codes: list[str] | None = []  # every script is read: a `w` after an `e` writes too (0077)
    for script in scripts:
        if script.value is None:
            return opaque(prog, "sed script is not a literal", fx)
        env.budget.spend_text(script.value)
        written, executes, commands = scan_script(script.value)
        fx += env.fx_many(W, [lit(name) for name in written], "sed w command")
        if executes:
            # `e COMMAND` runs COMMAND; `e` alone and s///e run text from the input: unknown
            known = commands and all(commands) and codes is not None
            codes = [*codes, *commands] if known and codes is not None else None
    if codes is None or codes:
        code = "\n".join(codes) if codes else None
        return runs_code(prog, code, env, "sed e command runs shell commands", fx)
    return checked(prog, p.unknown, writes(prog, fx, "" if fx else "sed prints to stdout"))
