"""sed: -i targets and the `w FILE` / `s///w FILE` commands inside the script."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Outcome, opaque, writes
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE
_SIMPLE_CMDS = frozenset("=dDgGhHlnNpPxzF")


def _skip_delimited(script: str, i: int, delim: str) -> int:
    """Index just after the next unescaped ``delim`` from ``i``."""
    n = len(script)
    while i < n:
        ch = script[i]
        if ch == "\\":
            i += 2
            continue
        if ch == delim or (ch == "\n" and delim != "\n"):
            return i + 1
        i += 1
    return n


def _to_eol(script: str, i: int) -> tuple[str, int]:
    end = script.find("\n", i)
    end = len(script) if end < 0 else end
    return script[i:end].strip(), end


def scan_script(script: str) -> tuple[list[str], bool]:
    """Files the script writes with w/W/s///w, and whether it executes commands (e/s///e)."""
    written: list[str] = []
    executes = False
    i = 0
    n = len(script)
    while i < n:
        ch = script[i]
        if ch in " \t\n;{}!,0123456789$~+":
            i += 1
        elif ch == "/":
            i = _skip_delimited(script, i + 1, "/")
        elif ch == "\\" and i + 1 < n:
            i = _skip_delimited(script, i + 2, script[i + 1])
        elif ch == "#":
            i = _to_eol(script, i)[1]
        elif ch in "sy" and i + 1 < n:
            delim = script[i + 1]
            i = _skip_delimited(script, i + 2, delim)
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
            i = _to_eol(script, i + 1)[1]
        elif ch in "aicrR:":
            i = _to_eol(script, i + 1)[1]
        elif ch in "btTqQlL":
            i += 1
            while i < n and script[i] not in ";\n}":
                i += 1
        else:
            i += 1  # p, d, n, ... and anything unknown
    return written, executes


def sed(prog: str, args: list[Word], env: Env) -> Outcome:
    scripts: list[Word] = []
    operands: list[Word] = []
    in_place = script_file = False
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or value == "-" or not value.startswith("-"):
            operands.append(args[i])
        elif value == "--":
            operands.extend(args[i + 1 :])
            break
        elif value.startswith("--"):
            name, eq, attached = value.partition("=")
            if name == "--in-place":
                in_place = True
            elif name == "--expression":
                if not eq and i + 1 < len(args):
                    i += 1
                scripts.append(Word(attached, attached) if eq else args[i])
            elif name == "--file":
                script_file = True
            elif name == "--line-length" and not eq:
                i += 1
        else:
            for j in range(1, len(value)):
                letter, rest = value[j], value[j + 1 :]
                if letter == "i":
                    in_place = True
                    if not rest and i + 1 < len(args) and args[i + 1].value == "":
                        i += 1  # BSD: sed -i '' ...
                    break
                if letter in "efl":
                    if not rest and i + 1 < len(args):
                        i += 1
                        attached_word = args[i]
                    else:
                        attached_word = lit(rest)
                    if letter == "e":
                        scripts.append(attached_word)
                    script_file = script_file or letter == "f"
                    break
        i += 1
    if not scripts and not script_file and operands:
        scripts, operands = [operands[0]], operands[1:]
    fx = env.fx_many(W, operands, "sed -i target") if in_place else []
    if script_file:
        return opaque(prog, "sed -f: script file not analyzed", fx)
    for script in scripts:
        if script.value is None:
            return opaque(prog, "sed script is not a literal", fx)
        env.budget.spend_text(script.value)
        written, executes = scan_script(script.value)
        fx += env.fx_many(W, [lit(name) for name in written], "sed w command")
        if executes:
            return opaque(prog, "sed e command runs shell commands", fx)
    return writes(prog, fx, "" if fx else "sed prints to stdout")
