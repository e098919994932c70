"""Where git writes its repository: the `.git` it finds above the folder it runs in (ADR 0070).

git looks for the repository from the folder it runs in (after ``cd``, ``-C``) upwards, so
``cd src && git config core.hooksPath h`` and ``git -C src commit`` write the ``.git`` of the
folder the command started in when ``src`` has none of its own. The handlers name ``.git`` in
the folder git runs in; each such write is named as well in every folder above it up to the
one the whole command starts in (the project, as Claude Code runs a command), and no higher,
so that a repository above the project is not guessed. ``git init`` and ``git clone`` make
their repository where they say.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from orchestrator_boundary.bash.outcome import Env, Fx, Outcome
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.values import replace

Handler = Callable[[str, list[Word], Env], Outcome]

_OWN_PLACE = ("init", "clone")


def in_repository(handler: Handler) -> Handler:
    """``handler`` (git's), with each write to a ``.git`` also named in the folders above."""

    def run(prog: str, args: list[Word], env: Env) -> Outcome:
        outcome = handler(prog, args, env)
        above = [f for fx in outcome.fx for f in _above(fx, env.start)]
        return replace(outcome, fx=(*outcome.fx, *above)) if above else outcome

    return run


def _above(fx: Fx, start: str | None) -> list[Fx]:
    resolved = fx.resolved
    if start is None or resolved is None or any(w in fx.source for w in _OWN_PLACE):
        return []
    at = resolved.find("/.git/")
    at = at if at >= 0 else (len(resolved) - 5 if resolved.endswith("/.git") else -1)
    top = start.rstrip("/")
    folder, rest = resolved[:at], resolved[at:]
    if at < 0 or not folder.startswith(top + "/"):
        return []
    out: list[Fx] = []
    while folder != top and folder.startswith(top):
        folder = posixpath.dirname(folder)
        out.append(Fx(fx.kind, fx.path, folder + rest, f"{fx.source} (the repository above)"))
    return out
