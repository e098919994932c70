"""awk/gawk: `print > "file"`, pipes to commands, system(), and gawk's -i inplace.

Options are read with the option model: one not known makes awk ``opaque``; gawk's
``--dump-variables``, ``--pretty-print`` and ``--profile`` write their files.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.opts import Parsed
from orchestrator_boundary.bash.outcome import (
    Env,
    Fx,
    Outcome,
    checked,
    opaque,
    runs_code,
    writes,
)
from orchestrator_boundary.bash.words import Word, lit

W = EffectKind.WRITE
_OPERAND_END = frozenset(')]"')


# after these words an operand is expected, so a `/` starts a regex (`print /"/`), as after an
# operator; after any other name it divides
_REGEX_AFTER = frozenset({"print", "printf", "return", "else", "do", "case", "exit", "in"})


def _regex_here(out: list[tuple[str, str]]) -> bool:
    if not out:
        return True
    kind, value = out[-1]
    if kind == "id":
        return value in _REGEX_AFTER
    return kind in ("nl", "op") and value not in _OPERAND_END


def _regex_end(code: str, j: int, brackets: bool) -> int:
    """Index of the `/` that ends a regex begun before ``j`` (or of the line's end)."""
    n = len(code)
    while j < n and code[j] not in "/\n":
        if code[j] == "\\":
            j += 2
        elif brackets and code[j] == "[":
            j += 2 if code[j + 1 : j + 2] == "]" else 1
            while j < n and code[j] not in "]\n":
                j += 1
            j += 1
        else:
            j += 1
    return j


def _tokens(code: str, brackets: bool = False) -> list[tuple[str, str]]:
    """Linear tokenizer: ('str', value) / ('id', name) / ('op', char(s)) / ('nl', '').
    ``brackets``: a `/` inside a bracket expression of a regex (`/[/]/`) does not end it."""
    out: list[tuple[str, str]] = []
    i = 0
    n = len(code)
    while i < n:
        ch = code[i]
        if ch == "#":
            while i < n and code[i] != "\n":
                i += 1
        elif ch == "\n" or ch == ";":
            out.append(("nl", ch))
            i += 1
        elif ch in " \t\\":
            i += 1
        elif ch == '"':
            j = i + 1
            buf: list[str] = []
            while j < n and code[j] != '"':
                if code[j] == "\\" and j + 1 < n:
                    buf.append(code[j + 1])
                    j += 2
                    continue
                buf.append(code[j])
                j += 1
            out.append(("str", "".join(buf)))
            i = j + 1
        elif ch == "/" and _regex_here(out):
            out.append(("re", ""))
            i = _regex_end(code, i + 1, brackets) + 1
        elif ch.isalnum() or ch == "_" or ch == "$":
            j = i
            while j < n and (code[j].isalnum() or code[j] in "_$"):
                j += 1
            out.append(("id", code[i:j]))
            i = j
        elif code[i : i + 2] in (">>", "|&"):  # `|&`: gawk's two-way pipe to a command
            out.append(("op", code[i : i + 2]))
            i += 2
        else:
            out.append(("op", ch))
            i += 1
    return out


def scan_program(code: str) -> tuple[list[str | None], str, list[str | None]]:
    """Files written by print/printf redirection (None = computed name), an opaque reason, and
    the command lines it runs (system("..."), print | "...", "..." | getline; None = computed).
    A program with a bracket expression is read both ways (awks differ on `/[/]/`) and the
    findings joined."""
    written, reason, commands = _scan(_tokens(code))
    if "[" in code:
        more = _scan(_tokens(code, brackets=True))
        written += more[0]
        reason = reason or more[1]
        commands += more[2]
    return written, reason, commands


def _scan(toks: list[tuple[str, str]]) -> tuple[list[str | None], str, list[str | None]]:
    written: list[str | None] = []
    commands: list[str | None] = []
    reason = ""
    in_print = False
    depth = 0
    for k, (kind, value) in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else ("nl", "")
        if kind == "id" and value in ("print", "printf"):
            in_print, depth = True, 0
        elif kind == "id" and value == "system" and nxt == ("op", "("):
            after = toks[k + 2] if k + 2 < len(toks) else ("nl", "")
            closes = toks[k + 3] if k + 3 < len(toks) else ("nl", "")
            literal = after[0] == "str" and closes == ("op", ")")
            commands.append(after[1] if literal else None)
            reason = "awk system() runs commands"
        elif kind == "nl" or (kind == "op" and value in "{}"):
            in_print = False
        elif kind == "op" and value in "([":
            depth += 1
        elif kind == "op" and value in ")]":
            depth = max(0, depth - 1)
        elif kind == "op" and value in ("|", "|&"):
            if nxt == ("op", "|"):
                continue
            if in_print and depth == 0:
                commands.append(nxt[1] if nxt[0] == "str" else None)
                reason = "awk pipes to / from a command"
            elif nxt == ("id", "getline"):
                before = toks[k - 1] if k else ("nl", "")
                commands.append(before[1] if before[0] == "str" else None)
                reason = "awk pipes to / from a command"
        elif kind == "op" and value in (">", ">>") and in_print and depth == 0:
            written.append(nxt[1] if nxt[0] == "str" else None)
    return written, reason, commands


# gawk 5, mawk and BSD awk (issue 12, point 1): an option not here makes awk opaque
_AWK = spec(
    "bcCghIkMNnOPrsStV",
    "fFvEilWe",
    """field-separator= assign= file= exec= source= include= load= characters-as-bytes
    traditional copyright dump-variables[=] debug[=] gen-pot help trace csv bignum
    use-lc-numeric non-decimal-data pretty-print[=] optimize profile[=] posix re-interval
    no-optimize sandbox lint-old version lint[=] compat""",
    optional="dDopL",
)
# files gawk writes: --dump-variables, --pretty-print (which also stops it running), --profile
_AWK_FILES = {"-d": "awkvars.out", "--dump-variables": "awkvars.out"} | dict.fromkeys(
    ("-o", "--pretty-print", "-p", "--profile"), "awkprof.out"
)
_AWK_OPAQUE = ("-f", "--file", "-E", "--exec", "-l", "--load", "-D", "--debug")
# mawk -W settings that change nothing outside (-W exec FILE reads the program from a file)
_MAWK_W = ("version", "dump", "interactive", "posix_space", "sprintf", "random", "usage", "help")


def _mawk_settings(parsed: Parsed) -> list[str]:
    """The -W settings that are not known to be harmless."""
    bad = []
    for value in parsed.values("-W"):
        name = (value.value if value is not None else None) or "?"
        if not any(known.startswith(name.partition("=")[0]) for known in _MAWK_W):
            bad.append(f"-W {name}")
    return bad


def awk(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _AWK)
    parsed.unknown += _mawk_settings(parsed)
    # gawk's `@include "f"` runs the awk code of f (observed, attack round C), `@load` an
    # extension; in the program operand or in an -e / --source text
    texts = [*parsed.pos[:1], *(v for v in parsed.values("--source", "-e") if v is not None)]
    if parsed.has(*_AWK_OPAQUE) or any(
        "@load" in (v.value or "@load") or "@include" in (v.value or "") for v in texts
    ):
        return opaque(prog, "awk loads a program file, an extension or a debugger script")
    includes = [v.value if v is not None else None for v in parsed.values("-i", "--include")]
    if any(name not in ("inplace", "inplace.awk") for name in includes):
        return opaque(prog, "awk -i loads a library file")
    dumps = [
        env.fx(W, value or lit(_AWK_FILES[name]), f"awk {name} file")
        for name, value in parsed.opts
        if name in _AWK_FILES and (value is None or value.value not in ("-", "/dev/stdout"))
    ]
    operands = list(parsed.pos)
    sources = [v for v in parsed.values("--source", "-e") if v]
    if not sources:
        if not operands:
            return checked(prog, parsed.unknown, writes(prog, dumps))
        sources, operands = [operands[0]], operands[1:]
    files = [o for o in operands if not (o.value and "=" in o.value and o.value[0].isalpha())]
    fx = dumps + (env.fx_many(W, files, "awk -i inplace target") if includes else [])
    return checked(prog, parsed.unknown, _program(prog, sources, fx, env))


def _program(prog: str, sources: list[Word], fx: list[Fx], env: Env) -> Outcome:
    """What the awk program texts ``sources`` write or run, besides ``fx``."""
    for src in sources:
        if src.value is None:
            return opaque(prog, "awk program is not a literal", fx)
        env.budget.spend_text(src.value)
        written, reason, commands = scan_program(src.value)
        for name in written:
            fx.append(
                env.fx(W, name, "awk print redirection")
                if name is not None
                else env.fx(W, None, "awk print redirection to a computed name")
            )
        fx = [f for f in fx if f.path not in ("/dev/stdout", "/dev/stderr", "/dev/null")]
        if reason:
            code = "\n".join(c for c in commands if c) if all(commands) else None
            return runs_code(prog, code or None, env, reason, fx)
    return writes(prog, fx, "" if fx else "awk prints to stdout")
