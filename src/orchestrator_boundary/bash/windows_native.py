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
    if name == "icacls":
        lowered = [(a.value or "").lower() for a in args]
        saved = [args[i + 1] for i, v in enumerate(lowered[:-1]) if v == "/save"]
        changed = ops[:1] if any(v in _ICACLS_CHANGES for v in lowered) else []
        return [(W, w) for w in saved] + [(C, w) for w in changed]
    return []


NAMES = frozenset(
    {"del", "erase", "rd", "rmdir", "md", "mkdir", "copy", "xcopy", "robocopy", "move", "ren"}
    | {"rename", "mklink", "attrib", "icacls"}
)


def native(prog: str, args: list[Word], env: Env) -> Outcome:
    """``prog ARGS`` as Windows runs it: opaque (switches the analysis does not read), with the
    files its operands name."""
    name = prog.lower().removesuffix(".exe")
    found = _targets(name, _operands(args), args)
    fx: list[Fx] = [env.fx(kind, word, f"{name} (Windows)") for kind, word in found]
    return opaque(prog, f"{name}: a Windows program", fx)


def cmd_line(words: list[str], env: Env) -> list[Fx]:
    """The files a ``cmd /c`` line's own command changes (``del x``, ``copy a b``)."""
    if not words or words[0].lower() not in NAMES:
        return []
    return list(native(words[0], [lit(w.strip('"')) for w in words[1:]], env).fx)
