"""The programs git runs for a transport, named on its command line (ADR 0082).

``git fetch --upload-pack='CMD' .``, ``git clone -u 'CMD' . z``, ``git push --receive-pack='CMD'
. HEAD:x``: with a local (or ssh) remote git runs CMD through the shell, here (observed with
git 2.39: each created its file). The subcommands that write judged their own writes but not
CMD's, so ``--upload-pack='touch .claude/settings.json; git-upload-pack'`` was a write of
``.git`` only. git accepts any unambiguous prefix of a long option (``--upload=CMD``), and a
value in the next word. A remote ``ext::CMD ARGS`` runs CMD with ARGS (no shell; ``% `` is a
blank in an argument) once ``protocol.ext.allow`` or ``GIT_ALLOW_PROTOCOL`` lets it (observed).
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, runs_code
from orchestrator_boundary.bash.words import Word

_PROGRAMS = ("--upload-pack", "--receive-pack", "--exec")
_SHORT = {"clone": "-u"}  # clone -u is --upload-pack (fetch -u, push -u mean other things)
_TRANSPORT = frozenset(
    {"clone", "fetch", "pull", "push", "ls-remote", "archive", "fetch-pack", "send-pack"}
)


def transport(sub: str, args: list[Word], env: Env, outcome: Outcome) -> Outcome:
    """``outcome`` of ``git SUB ARGS``, opaque with what the transport programs it names run."""
    if sub not in _TRANSPORT:
        return outcome
    codes = _programs(sub, args)
    if not codes:
        return outcome
    note = f"git {sub}: a transport program"
    unknown = Fx(EffectKind.WRITE, "", None, f"{note} the text does not show")
    ran = [runs_code("git", code, env, note, [] if code else [unknown]) for code in codes]
    fx = [f for o in (outcome, *ran) for f in o.fx]
    inner = [c for o in (outcome, *ran) for c in o.inner]
    status = Status.UNPARSEABLE if outcome.status is Status.UNPARSEABLE else Status.OPAQUE
    return Outcome("git", status, fx, ran[0].note, inner, outcome.script)


def _programs(sub: str, args: list[Word]) -> list[str | None]:
    """The command lines (None: not literal) the options of ``args`` name."""
    found: list[str | None] = []
    short = _SHORT.get(sub)
    for i, word in enumerate(args):
        value = word.value
        after = args[i + 1].value if i + 1 < len(args) else None
        if value == "--":
            break
        if value is None:  # `--upload-pack="$P"`, `"ext::$C"`: a program the text does not show
            text = word.text.lstrip("\"'")
            if text.startswith(("--up", "--rec", "--ex", "ext::")):
                found.append(None)
            continue
        if value.startswith("ext::"):
            found.append(_ext(value[5:]))
            continue
        name, eq, attached = value.partition("=")
        if len(name) > 3 and any(p.startswith(name) for p in _PROGRAMS):
            found.append(attached if eq else after)
        elif short is not None and value.startswith(short) and not value.startswith("--"):
            found.append(value[len(short) :] or after)
    return found


_EXT_ESCAPES = {" ": " ", "%": "%", "s": "git-upload-pack", "S": "upload-pack", "G": ""}


def _ext(text: str) -> str | None:
    """The command line (shell-quoted) ``ext::TEXT`` runs; None for an escape not read here."""
    args, current, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "%":
            escaped = _EXT_ESCAPES.get(text[i + 1 : i + 2])
            if escaped is None:
                return None
            current.append(escaped)
            i += 2
            continue
        if ch == " ":
            args.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    args.append("".join(current))
    return " ".join("'" + a.replace("'", "'\\''") + "'" for a in args if a)
