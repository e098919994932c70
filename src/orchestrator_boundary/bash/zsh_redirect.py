"""zsh's clobbering redirects, read as Bash reads them too (ADR 0070).

zsh (the shell macOS runs the Bash tool in) reads ``>!``, ``>>!``, ``&>!``, ``&>>!`` and
``>&!`` as ``>|``: write even when ``noclobber`` is set. ``echo x >! f`` and ``echo x >!f``
write ``f`` there; Bash writes a file named ``!`` (with ``f`` an argument) or ``!f``. The
grammar reads Bash, so the redirect's first destination is ``!``: the file zsh writes is named
as well, so that both shells' targets are judged (observed, zsh 5.9 and Bash 5.2).
"""

from __future__ import annotations

from typing import Any

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.outcome import Fx, runs_code
from orchestrator_boundary.bash.parse import decode, text_in
from orchestrator_boundary.bash.paths import is_device, resolve
from orchestrator_boundary.bash.words import word


def clobbered(w: Any, dests: list[Any], cwd: str | None) -> Fx | None:
    """The file zsh writes for a redirect whose destination words are ``dests`` (in the
    walker ``w``), when the first starts with an unquoted ``!``; None otherwise."""
    code, env = w.code, w.env
    first = text_in(code, dests[0])
    if not first.startswith("!") or (first == "!" and len(dests) < 2):
        return None
    if first == "!":
        target = word(dests[1], env.home, code, cwd, w.known)
        literal, text = target.literal, target.text
    else:
        target = word(dests[0], env.home, code, cwd, w.known)
        value, text = target.literal, first[1:]
        literal = value[1:] if value and value.startswith("!") else None
        if literal is not None and literal[:1] == "~":
            # `>!~/x`: zsh expands the tilde after the `!`; the word as Bash reads it does not
            home = literal == "~" or literal.startswith("~/")
            literal = env.home + literal[1:] if home and env.home else None
    resolved = resolve(literal, cwd, backslash_sep=env.backslash_sep)
    if is_device(resolved, literal or "", windows=env.windows):
        return None
    return Fx(EffectKind.WRITE, literal or text, resolved, "zsh redirect '>!'")


def prefixed(
    w: Any, redirects: list[Any], name: Any, node: Any, env: Any
) -> tuple[list[Fx], list[Any]]:
    """A command that starts with ``>! F`` (the `!` alone): zsh writes F, the word Bash runs
    as the program, and runs the words after it (``>! out ls`` runs ``ls`` into out; with
    none, zsh's NULLCMD, cat). The file, and the commands of the rest as zsh runs them."""
    first = next((r for r in redirects if r.type == "file_redirect"), None)
    if first is None or name is None or first.start_byte > name.start_byte:
        return [], []
    dests = first.children_by_field_name("destination")
    if len(dests) != 1 or text_in(w.code, dests[0]) != "!":
        return [], []
    target = word(name, env.home, w.code, env.cwd, w.known)
    literal = target.literal
    fx = Fx(
        EffectKind.WRITE, literal or target.text, resolve(literal, env.cwd), "zsh redirect '>!'"
    )
    rest = decode(node.text[name.end_byte - node.start_byte :]).strip()
    note = "zsh: `>! FILE CMD` runs CMD"
    return [fx], list(runs_code("", rest, env, note).inner) if rest else []
