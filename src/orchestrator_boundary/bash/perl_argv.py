"""perl's operands are opened with a two-argument open.

``<>`` (and so ``-n``, ``-p`` and ``-i``) opens each element of ``@ARGV`` as ``open(ARGV, $name)``:
after leading and trailing blanks are trimmed, ``|cmd`` and ``cmd|`` run ``cmd`` through the
shell, ``>f``, ``>>f`` and ``+<f`` write ``f``. So ``perl -ne print '|touch x'`` runs
``touch x``, whatever the code is, and an operand is only harmless when the analysis can see
that it is a plain name: a literal, or a pattern whose first and last characters are literal
(``./*.py`` expands to names starting with ``./``; ``*.py`` may expand to ``|cmd;.py``).
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, runs_code, with_effects
from orchestrator_boundary.bash.words import Word

_PATTERN = "*?[]{}"
_BLANKS = " \t\n\r\f\v"
SOURCE = "perl opens an operand with a two-argument open"


def _unseen(word: Word) -> bool:
    """True when what ``word`` expands to is not known to be a plain name."""
    if word.value is None:
        return True
    if not word.glob:
        return False
    pattern = word.value
    return (
        not pattern
        or pattern != pattern.strip(_BLANKS)
        or pattern[0] in _PATTERN + "<>|+"
        or pattern[-1] in _PATTERN + "|"
    )


def opened(operands: list[Word], env: Env, done: Outcome) -> Outcome:
    """``done`` (the code's own outcome) with what opening ``operands`` does."""
    fx: list[Fx] = []
    commands: list[str] = []
    unseen: list[str] = []
    for word in operands:
        if _unseen(word):
            unseen.append(word.text)
            continue
        name = (word.value or "").strip(_BLANKS)
        if name.endswith("|"):
            commands.append(name[:-1])
        elif name.startswith("|"):
            commands.append(name[1:])
        elif name.startswith((">", "+")):
            target = name.lstrip("+<>").strip(_BLANKS)
            if not target.startswith("&"):  # >&2, >&STDOUT: a handle already open
                fx.append(env.fx(EffectKind.WRITE, target or None, SOURCE))
    if not (commands or unseen):
        return with_effects(fx, done) if fx else done
    shown = unseen[0] if unseen else commands[0]
    note = f"{SOURCE}: {shown}" + (" is not known before it runs" if unseen else " runs")
    code = "\n".join(commands) or None  # analysed even beside an operand it cannot see
    ran = runs_code(done.program, code, env, note, [*done.fx, *fx])
    return Outcome(done.program, Status.OPAQUE, ran.fx, note, (*done.inner, *ran.inner))
