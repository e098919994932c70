"""awk/gawk: `print > "file"`, pipes to commands, system(), and gawk's -i inplace."""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.opts import split
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque, runs_code, writes
from orchestrator_boundary.bash.words import Word

W = EffectKind.WRITE
_OPERAND_END = frozenset(')]"')


def _tokens(code: str) -> list[tuple[str, str]]:
    """Linear tokenizer: ('str', value) / ('id', name) / ('op', char(s)) / ('nl', '')."""
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
        elif ch == "/" and (
            not out or (out[-1][0] in ("nl", "op") and out[-1][1] not in _OPERAND_END)
        ):
            j = i + 1
            while j < n and code[j] not in "/\n":
                j += 2 if code[j] == "\\" else 1
            out.append(("re", ""))
            i = j + 1
        elif ch.isalnum() or ch == "_" or ch == "$":
            j = i
            while j < n and (code[j].isalnum() or code[j] in "_$"):
                j += 1
            out.append(("id", code[i:j]))
            i = j
        elif ch == ">" and code[i + 1 : i + 2] == ">":
            out.append(("op", ">>"))
            i += 2
        else:
            out.append(("op", ch))
            i += 1
    return out


def scan_program(code: str) -> tuple[list[str | None], str, list[str | None]]:
    """Files written by print/printf redirection (None = computed name), an opaque reason, and
    the command lines it runs (system("..."), print | "...", "..." | getline; None = computed)."""
    written: list[str | None] = []
    commands: list[str | None] = []
    reason = ""
    toks = _tokens(code)
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
        elif kind == "op" and value == "|":
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


def awk(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = split(
        args,
        "FvfiEl",
        frozenset(
            {"--field-separator", "--assign", "--file", "--include", "--exec", "--source", "--load"}
        ),
    )
    operands = list(parsed.pos)
    in_place = any(
        v is not None and v.value in ("inplace", "inplace.awk")
        for v in parsed.values("-i", "--include")
    )
    if parsed.has("-l", "--load") or any("@load" in (v.value or "@load") for v in parsed.pos[:1]):
        return opaque(prog, "awk loads an extension")
    if parsed.has("-f", "--file", "-E", "--exec"):
        return opaque(prog, "awk program file not analyzed")
    sources = [v for v in parsed.values("--source") if v]
    if not sources:
        if not operands:
            return writes(prog, [])
        sources, operands = [operands[0]], operands[1:]
    files = [o for o in operands if not (o.value and "=" in o.value and o.value[0].isalpha())]
    fx: list[Fx] = env.fx_many(W, files, "awk -i inplace target") if in_place else []
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
