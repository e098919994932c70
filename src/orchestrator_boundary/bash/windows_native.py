"""Windows' own file programs as Git Bash runs them (``robocopy``, ``xcopy``, ``attrib``,
``icacls``) and cmd.exe's file commands in a ``cmd /c LINE`` (``copy``, ``del``, ``move``,
``ren``, ``md``, ``rd``, ``mklink``): the files their operands name (ADR 0070).

They were ``opaque`` with no effect, so the default ``bash.opaque = "allow"`` let the main
agent's ``robocopy src dst`` or ``cmd /c del x`` through. Switches start with ``/`` (Git Bash
users double it: ``//E``); a word starting with ``/`` is read as a switch, so an absolute
POSIX path there stays unnamed and the command ``opaque``.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, opaque
from orchestrator_boundary.bash.words import Word, lit

W, D, C = EffectKind.WRITE, EffectKind.DELETE, EffectKind.CHANGE
# icacls switches that change the ACL of the file named first (/save writes the file after it)
_ICACLS_CHANGES = ("/grant", "/deny", "/remove", "/reset", "/setowner", "/setintegritylevel")


def _operands(args: list[Word]) -> list[Word]:
    return [a for a in args if a.value is None or not a.value.startswith(("/", "-", "+"))]


def _targets(name: str, ops: list[Word], args: list[Word]) -> list[tuple[EffectKind, Word]]:
    """(kind, word) for each file the command changes."""
    if name in ("del", "erase", "rd", "rmdir"):
        return [(D, w) for w in ops]
    if name in ("md", "mkdir"):
        return [(W, w) for w in ops]
    if name in ("copy", "xcopy"):
        return [(W, ops[-1] if len(ops) > 1 else lit("."))] if ops else []
    if name == "robocopy":
        return [(W, ops[1])] if len(ops) > 1 else []
    if name in ("move", "ren", "rename"):
        return [(W, w) for w in ops]
    if name == "mklink":
        return [(W, ops[0])] if ops else []
    if name == "attrib":
        return [(C, w) for w in ops] if any((a.value or "")[:1] in "+-" for a in args) else []
    if name == "sort":  # sort IN /o OUT
        lowered = [(a.value or "").lower() for a in args]
        return [(W, args[i + 1]) for i, v in enumerate(lowered[:-1]) if v in ("/o", "/output")]
    if name == "certutil" and any((a.value or "").lower() in _CERTUTIL_WRITES for a in args):
        return [(W, ops[-1])] if ops else []
    if name == "icacls":
        lowered = [(a.value or "").lower() for a in args]
        saved = [args[i + 1] for i, v in enumerate(lowered[:-1]) if v == "/save"]
        changed = ops[:1] if any(v in _ICACLS_CHANGES for v in lowered) else []
        return [(W, w) for w in saved] + [(C, w) for w in changed]
    return []


NAMES = frozenset(
    {"del", "erase", "rd", "rmdir", "md", "mkdir", "copy", "xcopy", "robocopy", "move", "ren"}
    | {"rename", "mklink", "attrib", "icacls", "sort", "certutil"}
)
# certutil verbs that write their last operand (`-decode IN OUT`, `-urlcache -f URL OUT`)
_CERTUTIL_WRITES = frozenset(
    {"-decode", "-encode", "-decodehex", "-encodehex", "-urlcache", "/decode", "/encode"}
)
# cmd's words that run the command after them: `for ... do CMD`, `if exist x CMD`, `@CMD`,
# `(CMD)` (ADR 0077: each was opaque with no effect)
_RUNS_AFTER = frozenset({"for", "if", "do", "else"})


def native(prog: str, args: list[Word], env: Env) -> Outcome:
    """``prog ARGS`` as Windows runs it: opaque (switches the analysis does not read), with the
    files its operands name."""
    name = prog.lower().removesuffix(".exe")
    found = _targets(name, _operands(args), args)
    fx: list[Fx] = [env.fx(kind, word, f"{name} (Windows)") for kind, word in found]
    return opaque(prog, f"{name}: a Windows program", fx)


def cmd_line(words: list[str], env: Env) -> list[Fx]:
    """The files a ``cmd /c`` line's commands change (``del x``, ``copy a b``), also after
    ``for ... do``, ``if ...``, ``@`` and ``(``; a word with a ``%VAR%`` or ``!VAR!`` in it
    names a file the text does not fix."""
    names = [w.lower().lstrip("@(").rstrip(")") for w in words]
    if not names or not (names[0] in NAMES or names[0] in _RUNS_AFTER):
        return []
    starts = [i for i, n in enumerate(names) if n in NAMES and (i == 0 or names[0] in _RUNS_AFTER)]
    out: list[Fx] = []
    for i in starts:
        args = [_cmd_word(w.rstrip(")")) for w in words[i + 1 :]]
        out += native(names[i], args, env).fx
    return out


def _cmd_word(text: str) -> Word:
    text = text.strip('"')
    return Word(text, None) if "%" in text or "!" in text else lit(text)
