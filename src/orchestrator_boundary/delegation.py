"""Delegation contracts: what an Agent call says its subagent may change. ADR 0027.

Pure. An Agent call's directive lines (``Intent:``, ``Scope:``) are ``directives``'s grammar.

The effective scope is a list of pattern sets that must all cover a path: the agent type's
``write_scope``, the intent's ``owned_scope``, the ``Scope:`` line and, for a nested
delegation, every set of its parent's. A delegation can therefore only narrow.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from orchestrator_boundary.directives import NO_DIRECTIVES as NO_DIRECTIVES
from orchestrator_boundary.directives import DirectiveError as DirectiveError
from orchestrator_boundary.directives import Directives as Directives
from orchestrator_boundary.directives import parse_directives as parse_directives
from orchestrator_boundary.paths import Located, fold
from orchestrator_boundary.values import transient

SCOPE_LINE: Final = "Scope: line"

BUILT_IN_TYPES = ("claude", "Explore", "general-purpose", "Plan", "statusline-setup", "fork")
DEFAULT_TYPE = "general-purpose"  # what the CLI starts when subagent_type is omitted


def type_key(name: str) -> str:
    """An agent type name as the CLI compares them: NFKC, case-insensitive, without
    whitespace, dashes and underscores (``General_Purpose`` is ``general-purpose``)."""
    folded = unicodedata.normalize("NFKC", name).lower()
    return "".join(c for c in folded if not (c.isspace() or c in "-_\u2010\u2011\u2013\u2014"))


def resolve_type(requested: str | None, configured: Sequence[str]) -> str:
    """The agent type an Agent call's raw ``subagent_type`` starts: a configured name, a
    built-in one, or the raw text (which the CLI will refuse)."""
    if not requested:
        return DEFAULT_TYPE
    key = type_key(requested)
    for name in (*configured, *BUILT_IN_TYPES):
        if type_key(name) == key:
            return name
    return requested


@transient
class ScopeSet:
    source: str  # where it comes from: 'intents."login-fix".owned_scope', "Scope: line", ...
    patterns: tuple[str, ...]

    def read(self) -> tuple[str, ...]:
        """As matched: a Scope: line's bare ``src/billing`` also holds what is below it, as
        ``src/billing/`` does (ADR 0085)."""
        if self.source != SCOPE_LINE:
            return self.patterns
        bare = (p for p in self.patterns if not any(c in p for c in "*?[") and p[-1:] != "/")
        return (*self.patterns, *(f"{p}/**" for p in bare))


@transient
class EffectiveScope:
    """Pattern sets that must all cover a path; no set: the delegation does not narrow."""

    sets: tuple[ScopeSet, ...] = ()

    def narrowed(self, *more: ScopeSet) -> EffectiveScope:
        return EffectiveScope((*self.sets, *(s for s in more if s not in self.sets)))

    def describe(self) -> str:
        if not self.sets:
            return "no narrowing"
        return " AND ".join(f"{s.source} ({', '.join(s.patterns)})" for s in self.sets)


UNNARROWED = EffectiveScope()


@transient
class ScopeMiss:
    source: str  # the set that does not cover the path
    patterns: tuple[str, ...]
    why: str


def within(located: Located, effective: EffectiveScope, insensitive: bool) -> ScopeMiss | None:
    """None when every set covers ``located`` (exclusions winning), else the first that does
    not. A file in a worktree Claude Code made (``.claude/worktrees/NAME/``: an Agent call
    with ``isolation: "worktree"``) is also read relative to that worktree, as the write
    rules read it (ADR 0053, 0065): the delegation's patterns name the project's files."""
    from orchestrator_boundary import scope  # a write's question only

    for s in effective.sets:
        match = scope.check_in_worktree(located, s.read(), insensitive)
        if match.allowed:
            continue
        if match.excluded_by:
            why = f"excluded by {match.excluded_by!r}"
        else:
            why = located.problem or "no pattern covers it"
        return ScopeMiss(s.source, s.patterns, why)
    return None


@transient
class Delegation:
    """The Agent call that started a subagent, and the contract it set."""

    agent_id: str
    tool_use_id: str
    description: str
    agent_type: str
    intent: str | None
    scope: EffectiveScope
    depth: int  # 1: started by the main agent
    parent: str | None  # the agent id of the subagent that delegated; None: the main agent
    linked: bool = True  # False: found from its meta.json alone, not yet pinned (ADR 0050)
    run: tuple[str, ...] | None = None  # the opaque commands it may run (ADR 0080)

    def audit(self) -> dict[str, object]:
        return {
            "tool_use_id": self.tool_use_id,
            "description": self.description,
            "intent": self.intent,
            "scope": [[s.source, list(s.patterns)] for s in self.scope.sets],
            "depth": self.depth,
            "parent": self.parent,
            **({"run": list(self.run)} if self.run is not None else {}),
        }


@transient
class UnknownDelegation:
    """A subagent whose Agent call could not be found: said so, never guessed."""

    agent_id: str
    reason: str
    contested: bool = False  # another subagent holds its Agent call: a record rewritten

    def audit(self) -> dict[str, object]:
        return {"unknown": self.reason, **({"contested": True} if self.contested else {})}


Record = Delegation | UnknownDelegation


def leads_into(located: Located, effective: EffectiveScope, insensitive: bool) -> bool:
    """Does every set cover the folder ``located``, or lead into it (``folder_leads_into``)?
    Making such a folder (``mkdir -p src/auth``) changes no file a scope guards (0065)."""
    from orchestrator_boundary.scope import check_in_worktree

    return all(
        check_in_worktree(located, s.read(), insensitive).allowed
        or folder_leads_into(located, s.read(), insensitive)
        for s in effective.sets
    )


def holds_all_below(folder: Located, effective: EffectiveScope, insensitive: bool) -> bool:
    """Does every set cover every file at any depth below the folder ``folder`` (where all
    that a glob like ``src/auth/*.py`` can match lies)? Only when the set has no exclusion
    and an inclusion ``G/**`` (or ``**``) with a literal ``G`` that is the folder or above it,
    for every reading of it in the project (ADR 0074)."""
    if not folder.inside or not folder.relatives:
        return False

    def holds(patterns: Sequence[str], rel: str) -> bool:
        if any(p.startswith("!") for p in patterns):
            return False
        for p in patterns:
            text = p.removeprefix("./")
            head = "" if text in ("**", "**/*") else text[:-3] if text.endswith("/**") else None
            if head is None or head.startswith("/") or any(c in head for c in "*?[\\"):
                continue
            head = fold(head.strip("/"), insensitive)
            if not head or rel == head or rel.startswith(head + "/"):
                return True
        return False

    rels = [fold(r.strip("/"), insensitive) for r in folder.relatives]
    return all(holds(s.read(), r) for s in effective.sets for r in rels)


def folder_leads_into(located: Located, patterns: Sequence[str], insensitive: bool) -> bool:
    """Is the folder ``located`` the literal folder of one of ``patterns``' inclusions, or a
    folder above it (``src`` and ``src/auth`` for ``src/auth/**``), every reading of it, in the
    project or in a Claude Code worktree?"""
    from orchestrator_boundary.scope import in_worktree

    if not located.inside:
        return False
    worktree = in_worktree(located, insensitive)
    pairs = list(zip(located.relatives, (worktree or located).relatives, strict=True))

    def on_the_way(rel: str) -> bool:
        folder = rel.rstrip("/").casefold() if insensitive else rel.rstrip("/")
        for p in patterns:
            absolute, head = literal_head(p)
            head = head.casefold() if insensitive else head
            if not p.startswith("!") and not absolute and (head + "/").startswith(folder + "/"):
                return True
        return False

    return all(on_the_way(rel) or on_the_way(tree) for rel, tree in pairs)


def literal_head(pattern: str) -> tuple[bool, str]:
    """(absolute?, the pattern's folders before its first wildcard) of an inclusion."""
    body = pattern.lstrip("/")
    head: list[str] = []
    for part in body.split("/"):
        if not part or any(c in part for c in "*?[\\"):
            break
        head.append(part)
    return pattern.startswith("/"), "/".join(head)


def _overlaps(a: str, b: str) -> bool:
    """Could inclusions ``a`` and ``b`` cover a common path? True unless their literal heads
    (the folders before any wildcard) are provably apart; exact for literal paths."""
    (abs_a, head_a), (abs_b, head_b) = literal_head(a), literal_head(b)
    head_a, head_b = head_a.casefold(), head_b.casefold()  # never apart by case alone
    if abs_a != abs_b:
        return False
    if not head_a or not head_b:
        return True
    return head_a == head_b or head_a.startswith(head_b + "/") or head_b.startswith(head_a + "/")


def disjoint(patterns: Sequence[str], outer: Sequence[str]) -> list[str]:
    """The inclusions of ``patterns`` that provably cover nothing ``outer`` covers (compared
    by literal heads, so a pattern with a wildcard near the root is never reported)."""
    outer_in = [p for p in outer if not p.startswith("!")]
    return [
        p for p in patterns if not p.startswith("!") and not any(_overlaps(p, q) for q in outer_in)
    ]


# Paths no exclusion names by chance: a list that covers them all covers every file.
_ANYWHERE = ("zq9", ".zq9", "zq9/zq9/zq9.zq9", ".zq9/.zq9/zq9.zq9", "zq9 zq9/zq9")


def covers_everything(patterns: Sequence[str]) -> bool:
    """Do ``patterns`` (no exclusion among them) cover every path of the project (``**``,
    ``**/*``, ``/``, ``*, */**``)? A Scope: line like that narrows nothing (ADR 0065)."""
    if any(p.startswith("!") for p in patterns):
        return False
    from orchestrator_boundary import scope  # a launch's question only

    compiled = scope.compiled(patterns)
    return all(scope.covers(compiled, path) for path in _ANYWHERE)


def scope_from_json(data: object) -> EffectiveScope:
    """An effective scope as ``launch_json`` stored it."""
    if not isinstance(data, list):
        raise ValueError("scope: not a list")
    sets = []
    for item in data:
        source, patterns = item
        if not isinstance(source, str) or not all(isinstance(p, str) for p in patterns):
            raise ValueError("scope: not [source, [pattern, ...]]")
        sets.append(ScopeSet(source, tuple(patterns)))
    return EffectiveScope(tuple(sets))


def resolve(
    agent_id: str,
    agent_type: str | None,
    linked: str | None,
    meta: Mapping[str, object] | None,
    launch: Mapping[str, object] | None,
    holder: str | None = None,
) -> Record:
    """A subagent's record from what Claude Code's own records say, whatever order its hooks
    fired in. ``linked``: the Agent call's ``tool_use_id`` its PostToolUse named for this
    agent (``tool_response.agentId``); ``meta``: ``agent-<id>.meta.json``; ``launch``: what
    the Agent call's PreToolUse stored for that ``tool_use_id``. A link, once there, is the
    record: the meta.json (a file the subagent may rewrite) is no longer read (ADR 0050).
    Where they disagree otherwise, or nothing names the Agent call, the record is unknown
    with the reason: never a guess. ``holder``: another subagent linked to the same Agent
    call; one call starts one subagent, so a meta.json was rewritten (by a sibling, before
    this subagent's first call): contested, unless the Agent call's PostToolUse named this
    subagent (``launch["agent"]``, which no file can move): ADR 0059."""
    if linked:
        meta = None
    meta_id = meta.get("toolUseId") if meta is not None else None
    if meta is not None and not isinstance(meta_id, str):
        return UnknownDelegation(agent_id, "its meta.json names no toolUseId")
    tool_use_id = linked or (meta_id if isinstance(meta_id, str) else None)
    if not tool_use_id:
        return UnknownDelegation(agent_id, "no Agent call names it and its meta.json was not found")
    if launch is None:
        return UnknownDelegation(
            agent_id, f"no PreToolUse of the Agent call {tool_use_id} was recorded"
        )
    problem = _disagreement(agent_id, agent_type, tool_use_id, launch, holder)
    if problem is not None:
        return problem
    recorded_type = str(launch.get("agent_type") or "")
    parent = launch.get("parent")
    meta_parent = (meta or {}).get("parentAgentId", parent)  # 2.1.330 names none (0073)
    if (meta_parent or None) != (parent or None):
        return UnknownDelegation(
            agent_id, f"its meta.json names parent {meta_parent!r}, the Agent call {parent!r}"
        )
    depth = launch.get("depth")
    meta_depth = meta.get("spawnDepth") if meta is not None else None
    if isinstance(meta_depth, int) and not isinstance(meta_depth, bool):
        depth = meta_depth
    try:
        scope_sets = scope_from_json(launch.get("scope"))
    except (TypeError, ValueError) as exc:
        return UnknownDelegation(agent_id, f"the stored contract is damaged ({exc})")
    intent, run = launch.get("intent"), launch.get("run")
    return Delegation(
        agent_id, tool_use_id, str(launch.get("description") or ""), agent_type or recorded_type,
        intent if isinstance(intent, str) else None, scope_sets,
        depth if isinstance(depth, int) else 0, parent if isinstance(parent, str) else None,
        bool(linked), tuple(str(c) for c in run) if isinstance(run, list) else None,
    )  # fmt: skip


def _disagreement(
    agent_id: str,
    agent_type: str | None,
    tool_use_id: str,
    launch: Mapping[str, object],
    holder: str | None,
) -> UnknownDelegation | None:
    """Why the Agent call ``launch`` is not this subagent's: it started another one (its
    PostToolUse said so, or another subagent claims it: contested), it was refused, it asked
    for another agent type."""
    first = launch.get("agent")  # its PostToolUse's word
    other = (first if first != agent_id else None) if first else holder
    if other:
        why = f"its Agent call {tool_use_id} started subagent {other} (a meta.json rewritten?)"
        return UnknownDelegation(agent_id, why, contested=True)
    refused = launch.get("refused")
    if refused:
        return UnknownDelegation(agent_id, f"its Agent call {tool_use_id} was refused ({refused})")
    recorded_type = str(launch.get("agent_type") or "")
    if agent_type and recorded_type and type_key(agent_type) != type_key(recorded_type):
        return UnknownDelegation(
            agent_id, f"the Agent call {tool_use_id} asked for {recorded_type}, not {agent_type}"
        )
    return None


# ---- what the contract rules ask of the state the shell keeps ----


class Unavailable:
    """The state store could not be reached: a deliberate answer, never an exception."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNAVAILABLE"

    def __bool__(self) -> bool:
        return False


UNAVAILABLE: Final = Unavailable()


@transient
class Seen:
    """What an agent last read or wrote at a path: its SHA-256 (None: it was gone)."""

    sha256: str | None
    wrote: bool


@transient
class Lease:
    agent_id: str
    description: str
    session: str = ""  # another Claude Code session's, which holds it (ADR 0085)


class Ledger(Protocol):
    """What the contract rules ask of the state the shell keeps (``state``, ``ledger``)."""

    def record(self) -> Record | None: ...  # the calling subagent's; None: the main agent

    def seen(self, located: Located) -> Seen | Unavailable | None: ...  # None: never

    def current(self, located: Located) -> str | None: ...  # its SHA-256; None: gone

    def last_writer(self, located: Located) -> str: ...  # as a label; "": unknown

    def unseen_write(self, located: Located) -> str:
        """Another agent's write there (or in it), unread by this one since and still there,
        as "subagent X wrote src/a.py"; "": none."""

    def lease(self, located: Located) -> Lease | Unavailable | None:
        """The running subagent that holds it (or a file in it); asking claims (ADR 0050)."""
