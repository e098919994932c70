"""Writes through a link the same command made earlier (ADR 0021).

`ln -s /etc/passwd p && echo x > p` writes /etc/passwd, not ./p. Where a command makes a link
(ln, link, cp -s / -l, os.symlink, fs.symlinkSync, ...) and a later effect lands on that link or
below it, the effect is also reported at the link's target: its resolved path when the link was
made with a literal target (ln), else an unknown location, which the policy treats as outside
every scope.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from orchestrator_boundary.bash.model import Command, Effect, Status, worst
from orchestrator_boundary.values import replace

# ``ln link to T; as a folder's entry, to T2`` (fileutils): where a link made in a folder points
IN_FOLDER = "; as a folder's entry, to "


def _makes_link(effect: Effect) -> bool:
    return effect.source == "ln destination" or "link" in effect.source


def _points_to(effect: Effect) -> tuple[str | None, str | None]:
    """Where a link points, when fileutils could tell (``ln link to /w/p/a``), and where it
    points when its destination is a folder and the link is made in it (``ln -s ../a src``:
    ``src/a``, whose relative text is read from ``src``)."""
    _, sep, target = effect.source.partition(" link to ")  # `ln link to`, `cp link to`
    text, _, folder = target.partition(IN_FOLDER)
    found = text if sep and text.startswith("/") else None
    return found, (folder if folder.startswith("/") else found)


def through_links(commands: list[Command]) -> list[Command]:
    if not any(_makes_link(e) for cmd in commands if cmd.effects for e in cmd.effects):
        return commands  # no link made: nothing to follow
    links: dict[str, str | None] = {}
    out: list[Command] = []
    for cmd in commands:
        extra = [
            Effect(
                e.kind,
                e.path,
                _through(e.resolved, links),
                e.command,
                f"{e.source}, via link",
                e.names,
            )
            for e in cmd.effects
            if links
            and e.resolved is not None
            and not _makes_link(e)
            and _linked(e.resolved, links)
        ]
        extra += [
            Effect(e.kind, path, where, e.command, f"{e.source}, via link {ln}", e.names)
            for e in cmd.effects
            if links and e.resolved is None and not _makes_link(e)
            for ln, path, where in _globbed(e.path, links)
        ]
        if extra:
            cmd = replace(
                cmd, status=worst(cmd.status, Status.WRITES), effects=(*cmd.effects, *extra)
            )
        out.append(cmd)
        for e in cmd.effects:
            if e.resolved is not None and _makes_link(e):
                target, folder = _points_to(e)
                links[e.resolved] = target
                if folder is not None:
                    # `ln .claude/settings.json src/` (or src a folder): the link is
                    # src/settings.json (observed: a later `echo {} > src/settings.json` wrote
                    # the settings)
                    links[e.resolved.rstrip("/") + "/" + folder.rsplit("/", 1)[-1]] = folder
    return out


def _linked(path: str | None, links: dict[str, str | None]) -> bool:
    return path is not None and any(path == ln or path.startswith(ln + "/") for ln in links)


def _through(path: str | None, links: dict[str, str | None]) -> str | None:
    """``path`` with the longest link it starts with replaced by the link's target (None:
    unknown)."""
    if path is None:
        return None
    found = [ln for ln in links if path == ln or path.startswith(ln + "/")]
    if not found:
        return None
    link = max(found, key=len)
    target = links[link]
    return None if target is None else target + path[len(link) :]


def _globbed(pattern: str, links: dict[str, str | None]) -> list[tuple[str, str, str | None]]:
    """The links made earlier that the glob ``pattern`` may match or pass through, each with
    where the write then lands (None: unknown): ``ln -s ../.claude/settings.json src/x &&
    echo {} > src/*`` writes the settings, and the glob check (ADR 0076) lists the folder
    before the link exists (ADR 0077). A relative pattern (a redirect's) is matched against
    the end of each link's path. Each is (link, the path written, its resolved form): a
    pattern left below the link's target is that glob, read there (``src/d/*`` with ``src/d
    -> ../.claude`` is ``/p/.claude/*``, which the glob check lists)."""
    if not any(c in pattern for c in "*?[") or "$" in pattern or "`" in pattern:
        return []
    parts = pattern.split("/")
    out: list[tuple[str, str, str | None]] = []
    for ln, target in links.items():
        names = ln.split("/")
        for cut in range(1, len(parts) + 1):  # the link is the pattern's first `cut` names
            head, rest = parts[:cut], parts[cut:]
            mine = names if pattern.startswith("/") else names[-cut:]
            if len(mine) == cut and all(map(fnmatchcase, mine, head)):
                there = "/".join([target, *rest]) if target is not None else pattern
                globbed = any(c in "/".join(rest) for c in "*?[")
                out.append((ln, there, None if target is None or globbed else there))
                break
    return out
