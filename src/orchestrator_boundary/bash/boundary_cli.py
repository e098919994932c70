"""This product's own command line: which uses change the boundary itself (ADR 0021).

`orchestrator-boundary phase off`, `install` and `uninstall` change the phase or the hooks; run
by an agent, that is tampering with the boundary, whatever the path or wrapper it comes
through (a full path, `python -m orchestrator_boundary`, `uv run`, `uvx`, `pipx run`). They are
reported as a ``CONTROL`` effect, which the policy treats as TAMPER. The uses that only read
(`phase` without a value, `report`, `doctor`, `check`, `replay`, `demo`, `--dry-run`) stay
read_only.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome, read_only, writes
from orchestrator_boundary.bash.words import Word

PROGRAM = "orchestrator-boundary"
MODULE = "orchestrator_boundary"
_READS = frozenset({"report", "doctor", "check", "replay", "demo"})
_VALUED = frozenset({"--project", "--settings", "--scope", "--config", "--phase", "--since"})


def control(text: str) -> Fx:
    return Fx(EffectKind.CONTROL, text, None, "changes the boundary itself (phase, hooks)")


def boundary(prog: str, args: list[Word], env: Env) -> Outcome:
    values = [a.value for a in args]
    if any(v is None for v in values):
        return writes(PROGRAM, [control(f"{PROGRAM} (arguments that are not literal)")])
    words = [v or "" for v in values]
    if not words or any(w in ("-h", "--help", "--version") for w in words):
        return read_only(PROGRAM, "help or version")
    positional: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in _VALUED
        else:
            positional.append(word)
    sub = positional[0] if positional else ""
    if sub in _READS:
        html = [args[i + 1] for i, w in enumerate(words[:-1]) if w == "--html"]
        html += [Word(w, w.partition("=")[2]) for w in words if w.startswith("--html=")]
        return writes(PROGRAM, env.fx_many(EffectKind.WRITE, html, "report --html"), sub)
    if sub == "phase" and len(positional) == 1:
        return read_only(PROGRAM, "shows the phase")
    if sub in ("install", "uninstall") and any(
        "--dry-run".startswith(w) and len(w) > 4 for w in words
    ):
        return read_only(PROGRAM, f"{sub} --dry-run")
    return writes(PROGRAM, [control(" ".join([PROGRAM, *words]))])
