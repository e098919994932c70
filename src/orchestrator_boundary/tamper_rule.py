"""The tamper rule: no agent may change what guards the agents (TAMPER). ADR 0010, 0020.

The first target rule. A target is checked against the protected set (``protect``) on every
reading of it: as resolved, against the payload's cwd and the root when it is relative, through
a hard link (``protect_links``), under ``[protect] paths``; a find ``-delete`` by its name
filter (``protect_named``); a target the text does not fix by what it could name
(``protect_guess``). Running this product's own CLI to change the boundary is TAMPER too.
"""

from __future__ import annotations

import ntpath
import posixpath
import re

from orchestrator_boundary import scope
from orchestrator_boundary.glob_places import MOVES, expanded
from orchestrator_boundary.paths import Located, locate
from orchestrator_boundary.protect import Protected, env_label, hit, protected_reason
from orchestrator_boundary.protect_git import LABEL as GIT_LABEL
from orchestrator_boundary.protect_git import git_code, gits_own
from orchestrator_boundary.protect_guess import could_name
from orchestrator_boundary.protect_links import linked
from orchestrator_boundary.protect_named import hit_named
from orchestrator_boundary.protect_short import has_short, long_readings, vocabulary
from orchestrator_boundary.targets import Call, Target, home_expanded
from orchestrator_boundary.violation import Code, Violation


def _more_readings(call: Call, located: Located) -> list[Located]:
    """A relative path is never inside a scope, but for the guard it is read against the
    payload's cwd and the root: the tool may well resolve it there. A Windows short name is
    also read as the long names it may stand for."""
    raw, ctx = located.raw, call.context
    mod = ntpath if ctx.fs.windows else posixpath
    if located.absolutes or not raw or "\x00" in raw or mod.isabs(raw):
        return _short_readings(call, [located])
    bases = dict.fromkeys(b for b in (call.payload.cwd, ctx.root) if b and mod.isabs(b))
    readings = [mod.join(base, raw) for base in bases]
    expanded = home_expanded(raw, ctx)  # a tool (an MCP server) may expand ~ as a shell does
    if expanded != raw:
        readings.append(expanded)
    found = [locate(reading, ctx.root, ctx.fs, call.insensitive) for reading in readings]
    return found + _short_readings(call, found)


def _short_readings(call: Call, located: list[Located]) -> list[Located]:
    """On Windows, each 8.3 short name (``SETTIN~1.JSO``) also read as each name the
    protected set spells that it may stand for (ADR 0078)."""
    ctx = call.context
    paths = [a for r in located for a in r.absolutes or (r.raw,) if has_short(a)]
    if not ctx.fs.windows or not paths:
        return []
    p = ctx.protected
    words = vocabulary([*p.exact, *p.holders, *call.rules.config.protect.paths])
    longs = dict.fromkeys(long for path in paths for long in long_readings(path, words))
    return [locate(long, ctx.root, ctx.fs, call.insensitive) for long in longs]


def _configured(call: Call, located: Located) -> Protected | None:
    """``[protect] paths``: more files no agent may change, matched on any reading."""
    patterns = call.rules.config.protect.paths
    for reading in (located, *_more_readings(call, located)):
        rels: tuple[str | None, ...] = reading.relatives if reading.inside else (None,)
        for absolute in reading.absolutes:
            for rel in rels:
                problem = "" if rel else "outside the project root"
                single = Located(reading.raw, (absolute,), (rel,) if rel else (), problem)
                match = scope.check(single, patterns, call.insensitive)
                if match.allowed:
                    label = f"protected by [protect] paths ({match.pattern})"
                    return Protected(absolute, False, label)
    # a folder that holds what a pattern names: deleting or moving it (`rm -rf infra` for
    # `infra/prod/**`) changes those files without naming them; only a pattern's literal head
    # can be compared so (ADR 0074), as for a scope's exclusions
    heads = ["!" + p for p in patterns if not p.startswith("!")]
    held = scope.exclusion_within(located, heads, call.insensitive)
    if held is not None and located.absolutes:
        label = f"a folder holding what [protect] paths names ({held[1:]})"
        return Protected(located.absolutes[0], True, label)
    return None


def _guarded(call: Call, located: Located, target: Target) -> Protected | None:
    # Writing into the root (tar x, git checkout -- .) is ordinary work; deleting it
    # (rm -rf ., find . -delete) takes .claude/ with it, unless find's -name filter shows
    # that no protected entry can be among what it deletes (protect_named.hit_named).
    ctx = call.context
    protected = ctx.protected
    anchors = () if target.deletes else ((ctx.root, ctx.home) if ctx.home else (ctx.root,))
    names = target.names  # find -name ... -delete: only the entries its filter can reach
    readings = (located, *_more_readings(call, located))
    for reading in readings:
        entry = (
            hit_named(reading, protected, names, ctx.fs)
            if names
            else hit(reading, protected, anchors, target.deletes)
        )
        if entry is not None:
            return entry
    for reading in readings:  # a hard link, also one named by a relative path (an MCP tool's)
        entry = linked(reading, protected, ctx.fs)
        if entry is not None:
            return entry
    entry = _git_code(call, readings, target)
    if entry is not None:
        return entry
    return _configured(call, located) if call.rules.config.protect.paths else None


def _git_code(call: Call, readings: tuple[Located, ...], target: Target) -> Protected | None:
    """A git hook or a git config file: code git runs with no hook asked (ADR 0078)."""
    ctx = call.context
    for reading in readings:
        for absolute in reading.absolutes:
            if git_code(absolute, ctx.root, ctx.home, call.insensitive):
                from orchestrator_boundary.contract_rules import program_of  # git's own?

                if target.command and gits_own(program_of(target), target.command):
                    return None
                return Protected(absolute, False, GIT_LABEL)
    return None


def _control(target: Target) -> Violation:
    """Running this product's own CLI to change the phase or the hooks, or Claude Code's to
    change its plugins or settings (issue 13)."""
    rule, what = (
        "protected: the boundary's phase and hooks",
        ("changes the boundary itself (its phase or its hooks)"),
    )
    if target.shown.startswith("claude "):  # bash/claude_cli.py: the effect is its command
        rule, what = (
            "protected: Claude Code's plugins and settings",
            (
                "changes Claude Code's plugins or settings, whose hooks and mods can answer a "
                "tool call before the boundary does"
            ),
        )
    return Violation(
        Code.TAMPER,
        rule,
        f"`{target.command[:200]}` {what}; no agent may do that, only a person.",
        "Do not retry it in another form. If the change is wanted, ask the user to run the "
        "command themselves, in their own terminal.",
        None,
        target.command[:200],
        recoverable=False,
    )


_WORDS = re.compile(r"[^\s;&|<>()]+")
# a path glued to an option: --out=PATH, KEY=PATH, -oPATH; on Windows also /out:PATH
_GLUED = re.compile(r"^[^=\"'$`]*=(.+)|^-[A-Za-z0-9](.+)|^/[A-Za-z]+:(.+)")


# text that did not parse: its words split further at quotes and the marks a shell or zsh
# glues a path to (`*(e:'REPLY=.claude/settings.json':)`, `{a,.claude/settings.json}`)
_PIECES = re.compile(r"[^\s;&|<>()'\"`=:,{}]+")
_PIECES_WINDOWS = re.compile(r"[^\s;&|<>()'\"`=,{}]+")  # `C:\...` keeps its drive
_BRACED = re.compile(r"[^\s;&|<>(){},]+")  # a parsed word's brace expansion: `{a,F}` hands F


def _words(raw: str, windows: bool, unread: bool = False) -> list[str]:
    """The words of ``raw`` (the first 256), each followed by the path glued to it, if any:
    ``--out=.claude/settings.json`` hands the program that file as surely as a word of its own
    (ADR 0066). ``unread``: text that did not parse, whose pieces are words too."""
    out = []
    for word in _WORDS.findall(raw)[:256]:
        out.append(word)
        glued = _GLUED.match(word)
        if glued is not None and (windows or glued.group(3) is None):
            out.append(next(g for g in glued.groups() if g))
    if unread:
        out += (_PIECES_WINDOWS if windows else _PIECES).findall(raw)[:256]
    elif "{" in raw:
        out += [piece for word in out if "{" in word for piece in _BRACED.findall(word)][:256]
    return out


def _could_name(call: Call, target: Target) -> Protected | None:
    """A target the text does not fix (a glob, a variable, after a ``cd`` not followed, a word
    of text that did not parse): the protected entry it could name, for any agent."""
    ctx, command = call.context, call.command or ""
    cwd = None if MOVES.search(command) else (call.payload.cwd or ctx.root)
    anchors = () if target.deletes else ((ctx.root, ctx.home) if ctx.home else (ctx.root,))
    raw = target.located.raw
    unread = target.words and not target.opaque
    for word in _words(raw, ctx.fs.windows, unread) if target.words else (raw,):
        entry = could_name(
            word,
            ctx.protected,
            cwd=cwd,
            home=ctx.home,
            windows=ctx.fs.windows,
            anchors=anchors,
            literal=target.words,
            deletes=target.deletes,
        )
        if entry is not None and not (target.opaque and env_label(entry.label) is not None):
            return entry
    return None if target.words else _through_matches(call, target)


def _through_matches(call: Call, target: Target) -> Protected | None:
    """A glob's matches now, resolved: ``tee src/*.json`` writes through a link
    ``src/s.json -> ../.claude/settings.json`` (a symbolic or a hard one) (ADR 0076)."""
    for match in expanded(call, target)[1] or ():
        entry = _guarded(call, match, target)
        if entry is not None:
            return entry
    return None


def _unchecked(call: Call, target: Target) -> Violation:
    """An input past the scan bounds (``tool_args``): what was not looked at could name any
    protected file, so it counts as one, for every agent (issue 13 points 7, 8)."""
    return Violation(
        Code.TAMPER,
        "protected: an input too large to check",
        f"this {call.payload.tool_name} call could change a file that guards the agents: "
        f"{target.located.problem}, and what is not checked could name a protected file, which "
        "no agent may change.",
        "Split the work into smaller calls that each name their files plainly, so that every "
        "path can be checked.",
        None,
        recoverable=False,
    )


def tamper(call: Call, target: Target) -> Violation | None:
    if target.control:
        return _control(target)
    if not target.tamper:
        return None
    if target.unchecked:
        return _unchecked(call, target) if call.context.protected.entries else None
    located = target.located
    entry = _could_name(call, target) if target.guessed else _guarded(call, located, target)
    if entry is None:
        return None
    if target.guessed:
        return Violation(
            Code.TAMPER,
            f"protected: {entry.label}",
            f"`{target.command[:200]}` could change {entry.label}, which guards the agents: "
            f"{located.raw[:200] if not target.words else 'the text'} is not fixed by the "
            "command text (a variable, a glob, a cd that cannot be followed), and no agent may "
            "change it.",
            "Name the files you mean literally, with a path that does not depend on a variable "
            "or an earlier cd; if the protected file must change, ask the user to do it.",
            target.shown or None,
            target.command,
            recoverable=False,
        )
    return Violation(
        Code.TAMPER,
        f"protected: {entry.label}",
        protected_reason(located.display, entry),
        how_a_person_changes(entry.label),
        located.display,
        target.command,
        recoverable=False,
    )


_OUTSIDE = "outside Claude Code, in an editor or their own terminal"


def how_a_person_changes(label: str) -> str:
    """The suggestion of a TAMPER on a protected file: a person makes the change, and how
    (issue 13: the deny says plainly that a person must, and how)."""
    named = label.removeprefix("a folder holding ").removeprefix("a hard link to ")
    if named.endswith("boundary.toml"):
        return (
            f"Ask the user to make this change themselves, {_OUTSIDE}: "
            "`orchestrator-boundary phase PHASE` changes the phase, and any other setting is "
            f"edited in {named}."
        )
    if "settings" in named:
        return (
            f"Ask the user to make this change themselves, {_OUTSIDE}; "
            "`orchestrator-boundary install` and `uninstall` change the boundary's own hooks."
        )
    if named == "the audit trail":
        return (
            "Leave the audit trail to the hooks; to keep it elsewhere, ask the user to set "
            "`[audit] path` in .claude/boundary.toml."
        )
    return f"Ask the user to make this change themselves, {_OUTSIDE}."
