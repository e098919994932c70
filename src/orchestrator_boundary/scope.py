"""Scope patterns: gitignore glob syntax, anchored, exclusions win. ADR 0007.

Every pattern is anchored: ``STATE.md`` is the root's ``STATE.md`` only, ``**/STATE.md`` any
depth, ``src/*`` one folder level, ``src/**`` everything below ``src``. A pattern names exactly
what it reads: ``STATE.md`` does not cover ``STATE.md/x`` (only a trailing ``/`` or ``/**``
covers a folder's contents). An exclusion is read as widely as it is meant (ADR 0071): it
covers what is below what it names (``!src/secrets``), and one with no ``/`` but a trailing
one is at any depth, as in gitignore (``!*.pem``, ``!secrets/``), unless it starts with ``./``
(``!./Makefile``: the root's). A leading ``./`` is dropped. Patterns starting with ``/`` or
``~/`` (expanded by the config loader) are absolute filesystem patterns, for lists that may
name places outside the root (``/tmp/**``). ``!pattern`` excludes, and an exclusion always
wins over an inclusion, whatever the order. Relative patterns never match a path outside the
root.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from orchestrator_boundary.paths import Located, fold
from orchestrator_boundary.values import field, frozen, transient

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy
if TYPE_CHECKING:
    import re


class PatternError(ValueError):
    pass


@frozen
class Compiled:
    """A pattern checked, anchored and translated. Made when a pattern is first matched or
    validated (``_compile``), never by loading a config: a Read matches nothing."""

    text: str
    exclude: bool
    absolute: bool
    folder: bool  # covers everything below (trailing '/' or '/**')
    glob: str  # anchored (``/`` + the pattern) and folded: what pathspec translates
    regex: re.Pattern[str] = field(compare=False, repr=False)  # pathspec's translation of glob


# Translations kept with a compiled config (``translations``, ``known``): glob -> the regular
# expression pathspec made of it. A hook process that loads the compiled config matches its
# patterns without importing pathspec (ADR 0043). Only ever filled with pathspec's own output.
_KNOWN: dict[str, str] = {}
_PLAIN_FLAGS = 32  # re.UNICODE: the flags of a str pattern compiled without any


def _regex(glob: str, text: str) -> re.Pattern[str]:
    """pathspec's gitignore translation of ``glob``. pathspec (tens of ms of imports) is
    imported here, when a pattern is first matched or validated, not by every hook call (ADR
    0030), and not at all for a pattern whose translation the compiled config kept."""
    known = _KNOWN.get(glob)
    if known is not None:
        import re

        with contextlib.suppress(re.error):  # a broken entry: translate afresh
            return re.compile(known)
    import pathspec

    found = pathspec.util.lookup_pattern("gitignore")(glob)
    regex: re.Pattern[str] | None = getattr(found, "regex", None)
    if regex is None:
        raise PatternError(f"{text!r}: not a usable glob pattern")
    return regex


def _dotless(body: str) -> str:
    """``body`` without its leading ``./`` (``./src/**`` is the root's ``src/**``, ADR 0071)."""
    while body.startswith("./"):
        body = body[2:].lstrip("/") or "."
    return body


@lru_cache(maxsize=1024)
def _compile(text: str, insensitive: bool) -> Compiled:
    body = text[1:] if text.startswith("!") else text
    if not body or body.strip() != body:
        raise PatternError(f"{text!r}: empty pattern or surrounding spaces")
    if "\x00" in body or any(part == ".." for part in body.replace("\\", "/").split("/")):
        raise PatternError(f"{text!r}: '..' segments and NUL bytes are not allowed")
    drive = re.match(r"[A-Za-z]:[/\\]", body) is not None  # Windows: C:/Temp/**, C:\\Temp\\**
    if drive:
        body = body.replace("\\", "/")
    here, body = body.startswith("./"), _dotless(body)  # ``./name``: the root's name only
    absolute = drive or body.startswith("/")
    exclude = text.startswith("!")
    # An exclusion is read as widely as a person means it (ADR 0071): as gitignore reads it,
    # one with no '/' but a trailing one is at any depth (``!*.pem``, ``!secrets/``), and
    # every exclusion covers what is below what it names (``!src/secrets``)
    anchored = "/" + body.lstrip("/")
    if exclude and not (absolute or here) and "/" not in body.rstrip("/"):
        anchored = "/**" + anchored
    # ``**/*`` is every path: pathspec translates it to ``.``, which matches a path's first
    # character only, so it is read as a folder pattern (everything below the root, ADR 0065)
    folder = exclude or anchored.endswith(("/", "/**")) or anchored == "/**/*"
    glob = fold(anchored, insensitive)
    return Compiled(text, exclude, absolute, folder, glob, _regex(glob, text))


def translations(patterns: Iterable[str]) -> dict[str, str]:
    """The regular expression of each of ``patterns``, read case-sensitively and folded (for
    the compiled config to keep); patterns that cannot be used are left out."""
    out: dict[str, str] = {}
    for text in (r for p in patterns for r in _readings(p)):
        for insensitive in (False, True):
            try:
                c = _compile(text, insensitive)
            except PatternError:
                continue
            if c.regex.flags == _PLAIN_FLAGS:  # what ``re.compile(source)`` gives back
                out[c.glob] = c.regex.pattern
    return out


def known(translated: Mapping[str, str]) -> None:
    """Take the translations a compiled config kept (``translations``)."""
    _KNOWN.update(translated)


def validate(patterns: Sequence[str]) -> None:
    """Raise PatternError for the first pattern that cannot be used (translated here)."""
    for text in (r for p in patterns for r in _readings(p)):
        _compile(text, False)


@transient
class ScopeMatch:
    allowed: bool
    pattern: str | None  # the inclusion that matched
    excluded_by: str | None  # the exclusion that matched, if any


def _match(
    absolute: str, relative: str | None, compiled: Sequence[Compiled], insensitive: bool
) -> tuple[str | None, str | None]:
    """(the first inclusion that covers one reading, the exclusion that does)."""
    rel = fold(relative, insensitive) if insensitive and relative is not None else relative
    abs_subject: str | None = None  # only absolute patterns read it
    include: str | None = None
    for c in compiled:
        if c.absolute:
            if abs_subject is None:
                abs_subject = fold(absolute.replace("\\", "/").lstrip("/"), insensitive)
            subject: str | None = abs_subject
        else:
            subject = rel
        if subject is None:
            continue
        m = c.regex.match(subject)
        if m is None or not (c.folder or m.end() == len(subject)):  # a folder covers below
            continue
        if c.exclude:
            return include, c.text
        include = include or c.text
    return include, None


@lru_cache(maxsize=256)
def _compiled(patterns: tuple[str, ...], insensitive: bool) -> tuple[Compiled, ...]:
    """A list's patterns compiled, exclusions first so that they win whatever their order."""
    every = (_compile(r, insensitive) for p in patterns for r in _readings(p))
    return tuple(sorted(every, key=lambda c: not c.exclude))


def _readings(text: str) -> tuple[str, ...]:
    """``text``, and for an exclusion with a backslash, also read with it as a separator:
    ``!src\\secrets\\**`` written on Windows excludes ``src/secrets/**`` (in gitignore a
    backslash escapes, and it excluded nothing). Only an exclusion: it fails closed (ADR 0071)."""
    if text.startswith("!") and "\\" in text:
        return text, text.replace("\\", "/")
    return (text,)


def widened(patterns: Sequence[str]) -> list[str]:
    """A list of what no agent may change (``[protect] paths``) read as widely as it is meant,
    as an exclusion is (ADR 0071): each entry also with backslashes as separators, a name with
    no ``/`` at any depth, a folder for itself and what is below it. Its own exclusions (files
    it leaves unprotected) stay as they are: read narrowly, they protect more."""
    out = dict.fromkeys(patterns)
    for text in patterns:
        if text.startswith("!"):
            continue
        body = _dotless(text.replace("\\", "/"))
        here = text.startswith((".\\", "./"))  # ``./name``: the root's name only
        if not (here or body.startswith("/")) and "/" not in body.rstrip("/"):
            body = "**/" + body
        stem = body[:-3] if body.endswith("/**") else body.rstrip("/")
        out.update(dict.fromkeys(p for p in (body, stem, stem + "/**") if p.strip("/*")))
    return list(out)


def compiled(patterns: Sequence[str], insensitive: bool = False) -> tuple[Compiled, ...]:
    """A list compiled once, for callers that check many paths against it (``covers``)."""
    return _compiled(tuple(patterns), insensitive)


def covers(compiled: Sequence[Compiled], relative: str) -> bool:
    """``check`` of a path relative to the root, case-sensitive, against a compiled list; an
    absolute pattern is read with the root as ``/`` (the path is not resolved)."""
    include, excluded = _match("/" + relative, relative, compiled, False)
    return include is not None and excluded is None


def check(located: Located, patterns: Sequence[str], insensitive: bool) -> ScopeMatch:
    """Is every reading of ``located`` covered by ``patterns`` (with exclusions winning)?"""
    if not located.absolutes or not patterns:
        return ScopeMatch(False, None, None)
    compiled = _compiled(tuple(patterns), insensitive)
    rels: Sequence[str | None] = located.relatives if located.inside else [None]
    include: str | None = None
    for absolute in located.absolutes:
        if absolute in located.aliases:  # read by the protected set only (ADR 0051)
            continue
        for rel in rels:
            include, excluded = _match(absolute, rel, compiled, insensitive)
            if include is None or excluded is not None:
                return ScopeMatch(False, include, excluded)
    return ScopeMatch(include is not None, include, None)


@lru_cache(maxsize=256)
def _exclusion_heads(
    patterns: tuple[str, ...], insensitive: bool
) -> tuple[tuple[str, bool, str], ...]:
    """(exclusion, absolute?, its literal head folded) for each exclusion that has a head."""
    out = []
    for text in (r for p in patterns for r in _readings(p)):
        if not text.startswith("!"):
            continue
        body = _dotless(text[1:])
        head: list[str] = []
        for part in body.strip("/").split("/"):
            if not part or any(c in part for c in "*?[\\"):
                break
            head.append(part)
        if head:
            out.append((text, body.startswith("/"), fold("/".join(head), insensitive)))
    return tuple(out)


def exclusion_within(located: Located, patterns: Sequence[str], insensitive: bool) -> str | None:
    """An exclusion whose literal folder is the target or lies below it.

    ``!src/secrets/**`` excludes what is inside ``src/secrets``; changing the folder itself or
    one above it (``rm -rf src/secrets``, ``mv src old``, swapping it for a link) changes the
    excluded files without naming them. Only the literal head of an exclusion can be compared
    this way (``!**/*.key`` has none).
    """
    for text, absolute, prefix in _exclusion_heads(tuple(patterns), insensitive):
        if absolute:
            subjects = [a.replace("\\", "/").lstrip("/") for a in located.absolutes]
        else:
            subjects = list(located.relatives) if located.inside else []
        for subject in subjects:
            folded = fold(subject, insensitive).rstrip("/")
            if folded and (prefix == folded or prefix.startswith(folded + "/")):
                return text
    return None


WORKTREES = (".claude", "worktrees")  # where Claude Code 2.1.330 makes its worktrees


def in_worktree(located: Located, insensitive: bool) -> Located | None:
    """``located`` read relative to the Claude Code worktree that holds it (every reading in
    one: ``.claude/worktrees/NAME/src/a.py`` -> ``src/a.py``), or None. The write rules'
    reading (ADR 0053), for the delegation contracts (ADR 0065)."""
    if not located.inside:
        return None
    rels = []
    for rel in located.relatives:
        parts = rel.split("/", 3)
        head = tuple(p.casefold() if insensitive else p for p in parts[:2])
        if len(parts) < 4 or head != WORKTREES or not parts[2] or not parts[3]:
            return None
        rels.append(parts[3])
    return Located(located.raw, located.absolutes, tuple(rels), located.problem)


def check_in_worktree(located: Located, patterns: Sequence[str], insensitive: bool) -> ScopeMatch:
    """``check`` on the path as it is and, in a worktree, as the worktree's file: allowed
    when a reading is covered, unless an exclusion matches a reading or lies within it."""
    worktree = in_worktree(located, insensitive)
    readings = (located,) if worktree is None else (located, worktree)
    matches = [(reading, check(reading, patterns, insensitive)) for reading in readings]
    allowed = None
    for reading, match in matches:
        if match.excluded_by:
            return match
        if match.allowed:
            holds = exclusion_within(reading, patterns, insensitive)
            if holds is not None:
                return ScopeMatch(False, match.pattern, holds)
            allowed = allowed or match
    return allowed or matches[0][1]
