"""Writes through a link the same command made earlier (ADR 0021).

`ln -s /etc/passwd p && echo x > p` writes /etc/passwd, not ./p. Where a command makes a link
(ln, os.symlink, fs.symlinkSync, ...) and a later effect lands on that link or below it, the
effect is also reported at an unknown location, which the policy treats as outside every scope.
"""

from __future__ import annotations

from dataclasses import replace

from orchestrator_boundary.bash.model import Command, Effect, Status, worst


def _makes_link(effect: Effect) -> bool:
    return effect.source == "ln destination" or "link" in effect.source


def through_links(commands: list[Command]) -> list[Command]:
    links: list[str] = []
    out: list[Command] = []
    for cmd in commands:
        extra = [
            Effect(e.kind, e.path, None, e.command, f"{e.source}, through a link made earlier")
            for e in cmd.effects
            if links
            and e.resolved is not None
            and not _makes_link(e)
            and any(e.resolved == link or e.resolved.startswith(link + "/") for link in links)
        ]
        if extra:
            cmd = replace(
                cmd, status=worst(cmd.status, Status.WRITES), effects=(*cmd.effects, *extra)
            )
        out.append(cmd)
        links += [e.resolved for e in cmd.effects if e.resolved is not None and _makes_link(e)]
    return out
