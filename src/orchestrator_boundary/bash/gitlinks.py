"""A file named ``.git`` is where git looks for a repository (ADR 0082).

``echo 'gitdir: ../elsewhere' > sub/.git`` (or ``mv repo.git sub/.git``, ``ln -s x sub/.git``)
makes every later git command in ``sub`` read the config and run the hooks of ``elsewhere``,
which the agent may have filled with ``core.fsmonitor = ./x.sh``: ``cd sub && git status``
then runs x.sh with no hook asked. So a write of a ``.git`` by any program but git itself also
writes, as far as git can tell, ``sub/.git/config``: the place the tamper rule protects as the
code git runs (ADR 0078). Deleting a ``.git`` (``rm -rf vendor/x/.git``) points git nowhere
new, and git's own writes (``git init``, ``git worktree add``) are judged by their text.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import Command, Effect, EffectKind


def _points_git(e: Effect) -> bool:
    made = e.kind is EffectKind.WRITE or (e.kind is EffectKind.CHANGE and "link" in e.source)
    return made and e.resolved is not None and _name(e.resolved) == ".git"


def _name(resolved: str) -> str:
    """The last name of ``resolved`` as a case-insensitive disk (macOS, Windows) reads it, with
    the trailing dots and blanks Windows drops (``.GIT.``)."""
    return resolved.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].rstrip(". ").lower()


def gitlinks(commands: list[Command]) -> list[Command]:
    out: list[Command] = []
    for cmd in commands:
        extra = [
            Effect(
                EffectKind.WRITE,
                f"{e.path.rstrip('/')}/config",
                _config(e.resolved or ""),
                e.command,
                f"{e.source}: git reads this folder's repository from it",
            )
            for e in cmd.effects
            if cmd.program != "git" and _points_git(e)
        ]
        out.append(cmd if not extra else _with(cmd, extra))
    return out


def _config(resolved: str) -> str:
    """``DIR/.git/config`` for a ``DIR/.git`` however spelt (``DIR/.GIT.`` on Windows)."""
    return resolved.replace("\\", "/").rstrip("/").rsplit("/", 1)[0] + "/.git/config"


def _with(cmd: Command, extra: list[Effect]) -> Command:
    return Command(cmd.text, cmd.program, cmd.status, (*cmd.effects, *extra), cmd.note, cmd.script)
