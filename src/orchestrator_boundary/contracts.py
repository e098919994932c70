"""The rules of delegation contracts. ADR 0027.

Pure: each takes plain values (the config's tables, the delegation record, the facts the shell
gathered from the state store) and returns a ``Breach`` or None.

- ``check_launch``: an Agent call, before it runs (main agent and delegating subagents).
- ``delegation_scope``: a subagent's write outside its delegation's effective scope.
- ``stale_file``: an agent's write to a file changed since it last read or wrote it.
- ``file_leased``: a subagent's write to a file another running subagent wrote.
"""

from __future__ import annotations

import re

# the compiled tables the rules read, kept apart so that a call no rule reaches does not load
# the rules (``contract_tables``); named here too, where the rules' callers find them
from orchestrator_boundary.contract_tables import Contracts as Contracts
from orchestrator_boundary.contract_tables import Profile as Profile
from orchestrator_boundary.contract_tables import compile_contracts as compile_contracts
from orchestrator_boundary.contract_tables import profile_of as profile_of
from orchestrator_boundary.contracts_config import Intent
from orchestrator_boundary.delegation import (
    DEFAULT_TYPE,
    UNNARROWED,
    Delegation,
    Directives,
    EffectiveScope,
    Lease,
    Record,
    ScopeSet,
    UnknownDelegation,
    covers_everything,
    disjoint,
    holds_all_below,
    leads_into,
    parse_directives,
    resolve_type,
    type_key,
    within,
)
from orchestrator_boundary.directives import narrowed_run
from orchestrator_boundary.paths import Located
from orchestrator_boundary.tools import ToolClass, classify
from orchestrator_boundary.values import replace, transient

DELEGATION_SCOPE = "DELEGATION_SCOPE"
DELEGATION_INVALID = "DELEGATION_INVALID"  # an Agent call whose contract cannot be accepted
STALE_FILE = "STALE_FILE"
FILE_LEASED = "FILE_LEASED"
REPORT_BACK = (
    "Stop here and report back to the main agent what is left, so that it can delegate the "
    "rest under an intent that owns it."
)


@transient
class Breach:
    """A violation of a contract, in the fields of ``Violation``."""

    code: str
    rule: str
    reason: str
    suggestion: str
    path: str | None = None
    command: str = ""


@transient
class Launch:
    """An accepted Agent call: the contract its subagent will run under."""

    agent_type: str
    intent: str | None
    scope: EffectiveScope
    depth: int
    parent: str | None
    run: tuple[str, ...] | None = None  # the opaque commands it may run (ADR 0080)


def can_write(profile: Profile | None) -> bool:
    """Could an agent of this profile change a file? Unknown: yes (narrow by default)."""
    if profile is None or profile.tools is None:
        return True
    classes = {c.value for c in ToolClass}
    writing = {ToolClass.WRITE, ToolClass.EXECUTE, ToolClass.UNKNOWN}
    for entry in profile.tools:
        if any(c in entry for c in "*?["):
            return True
        cls = ToolClass(entry) if entry in classes else classify(entry).tool_class
        if cls in writing:
            return True
    return False


def _for_type(intent: Intent, agent_type: str) -> bool:
    allowed = intent.agent_types
    return allowed is None or type_key(agent_type) in {type_key(t) for t in allowed}


def _active(contracts: Contracts, agent_type: str | None = None) -> list[str]:
    return [
        name
        for name, intent in contracts.intents.items()
        if intent.active and (agent_type is None or _for_type(intent, agent_type))
    ]


def _sets(
    contracts: Contracts, agent_type: str, d: Directives, parent: Delegation | None
) -> tuple[EffectiveScope, str | None]:
    """(the effective scope, what makes it empty) of a launch with valid directives."""
    base = parent.scope if parent is not None else UNNARROWED
    own: list[ScopeSet] = []
    named = profile_of(contracts, agent_type)
    if named is not None and named[1].write_scope is not None:
        own.append(ScopeSet(f"agents.{named[0]}.write_scope", named[1].write_scope))
    if d.intent is not None:
        owned = tuple(contracts.intents[d.intent].owned_scope)
        own.append(ScopeSet(f'intents."{d.intent}".owned_scope', owned))
    if d.scope is not None:
        own.append(ScopeSet("Scope: line", d.scope))
    # each new set must share files with every set before it (the profile, the parent's).
    # A Scope: line, written for this call, may name nothing its agent cannot write; an
    # intent, which people own and split between roles (code to a coder, tests to a tester),
    # only has to share some files with it: the intersection is what this agent gets (0065).
    for i, s in enumerate(own):
        for before in (*base.sets, *own[:i]):
            apart = disjoint(s.patterns, before.patterns)
            included = [p for p in s.patterns if not p.startswith("!")]
            if apart and (s.source == "Scope: line" or len(apart) == len(included)):
                return UNNARROWED, f"{s.source} ({', '.join(apart)}) lies outside {before.source}"
    widened = tuple(ScopeSet(s.source, (*s.patterns, *contracts.outside)) for s in own)
    return base.narrowed(*widened), None


def _problem(
    contracts: Contracts, agent_type: str, d: Directives, caller: Record | None
) -> tuple[str, str] | Launch:
    """(rule, problem) of a launch that cannot be accepted, else the Launch."""
    if d.error is not None:
        return "delegation.scope_line" if d.error.key == "Scope" else "delegation.intent_line", (
            f"its {d.error}"
        )
    if d.intent is not None:
        intent = contracts.intents.get(d.intent)
        if intent is None:
            return "intents", f"it names intent {d.intent!r}, which is not in [intents]"
        if not intent.active:
            return "intents", f"intent {d.intent!r} is {intent.status}, not active"
        if not _for_type(intent, agent_type):
            return f'intents."{d.intent}".agent_types', (
                f"intent {d.intent!r} is for {', '.join(intent.agent_types or ())}, "
                f"not {agent_type}"
            )
    parent = caller if isinstance(caller, Delegation) else None
    if isinstance(caller, UnknownDelegation) and contracts.require:
        return (
            "delegation.require",
            f"the delegating subagent's own contract is unknown ({caller.reason})",
        )
    named = profile_of(contracts, agent_type)
    unnamed = d.intent is None and d.scope is None
    if contracts.require and unnamed and can_write(named[1] if named else None):
        return (
            "delegation.require",
            f"{agent_type} can change files, and the prompt names no intent or scope",
        )
    if contracts.require and d.intent is None and d.scope and covers_everything(d.scope):
        return (  # `Scope: **` names no file: it would meet `require` and narrow nothing (0065)
            "delegation.require",
            f"its Scope: line ({', '.join(d.scope)}) covers every file, so it narrows "
            "nothing; name the files or folders this agent may change",
        )
    effective, empty = _sets(contracts, agent_type, d, parent)
    if empty is not None:
        return "delegation.scope", empty
    # 0: the delegating subagent's own depth is not known (its meta.json will say)
    depth = parent.depth + 1 if parent is not None else (1 if caller is None else 0)
    # a narrowed parent under `require` with no Run: line may run no opaque command, and
    # hands on none (ADR 0080)
    held = parent is not None and parent.run is None and contracts.require and parent.scope.sets
    run = narrowed_run(d.run, () if held else parent.run if parent is not None else None)
    return Launch(agent_type, d.intent, effective, depth, caller.agent_id if caller else None, run)


def _examples(contracts: Contracts, agent_type: str, caller: Record | None) -> list[str]:
    """Lines to try, best first: each active intent, then a Scope: line in the caller's scope."""
    out = [f"Intent: {name}" for name in _active(contracts, agent_type)]
    candidates: list[str] = []
    if isinstance(caller, Delegation):
        for s in reversed(caller.scope.sets):
            candidates.extend(p for p in s.patterns if not p.startswith(("!", "/")))
    named = profile_of(contracts, agent_type)
    if named is not None and named[1].write_scope:
        candidates.extend(p for p in named[1].write_scope if not p.startswith(("!", "/")))
    out.extend(f"Scope: {p}" for p in dict.fromkeys([*candidates, "src/**"]))
    return out


def example_call(contracts: Contracts, agent_type: str, caller: Record | None) -> str | None:
    """An Agent call ``check_launch`` accepts for this agent type and caller, if one exists."""
    for lines in _examples(contracts, agent_type, caller):
        prompt = f"<what to do>\n{lines}"
        if isinstance(_problem(contracts, agent_type, parse_directives(prompt), caller), Launch):
            return (
                f'Agent(subagent_type="{agent_type}", description="<short>", '
                f'prompt="<what to do>\\n{lines}")'
            )
    return None


def check_launch(
    contracts: Contracts,
    prompt: str,
    requested_type: str | None,
    caller: Record | None,
) -> Launch | Breach:
    """An Agent call's contract, or why it is refused. ``caller``: None for the main agent,
    else the delegating subagent's own record."""
    agent_type = resolve_type(requested_type or DEFAULT_TYPE, list(contracts.profiles))
    found = _problem(contracts, agent_type, parse_directives(prompt), caller)
    if isinstance(found, Launch):
        return found
    rule, problem = found
    active = _active(contracts)
    listed = ", ".join(
        f"{n} ({contracts.intents[n].description or 'no description'}: "
        f"{', '.join(contracts.intents[n].owned_scope)})"
        for n in active
    )
    example = example_call(contracts, agent_type, caller)
    return Breach(
        DELEGATION_INVALID,
        rule,
        f"this Agent call cannot be accepted: {problem}. Active intents: {listed or 'none'}.",
        (f"For example: {example}." if example else "No Agent call of this type can be accepted")
        + " Put `Intent: ID` and `Scope: pattern, pattern` each on a line of its own.",
    )


_INTENT_SET = re.compile(r'intents\."([^"]+)"\.owned_scope')


def live_scope(record: Delegation, contracts: Contracts) -> EffectiveScope | tuple[str, str]:
    """The record's scope with each intent's and agent type's set as the config says now, or
    (rule, why) it no longer holds. People narrow or close an intent, or change a profile,
    while its subagents run, and expect that to hold from the next call, as every other
    change of the config does (ADR 0065)."""
    sets: list[ScopeSet] = []
    for s in record.scope.sets:
        m = _INTENT_SET.fullmatch(s.source)
        if m is None:
            sets.extend(_live_profile(s, contracts))
            continue
        intent = contracts.intents.get(m.group(1))
        if intent is None:
            return "intents", f"intent {m.group(1)!r} is no longer in [intents]"
        if not intent.active:
            return f'intents."{m.group(1)}".status', f"intent {m.group(1)!r} is now {intent.status}"
        if not _for_type(intent, record.agent_type):
            return f'intents."{m.group(1)}".agent_types', (
                f"intent {m.group(1)!r} is no longer for {record.agent_type}"
            )
        sets.append(ScopeSet(s.source, (*intent.owned_scope, *contracts.outside)))
    return EffectiveScope(tuple(sets))


def _live_profile(s: ScopeSet, contracts: Contracts) -> tuple[ScopeSet, ...]:
    """A set from an agent type's ``write_scope`` as the config says now (none when the type
    no longer has one: the write rules read the profile themselves); any other set as it is."""
    if not (s.source.startswith("agents.") and s.source.endswith(".write_scope")):
        return (s,)
    profile = contracts.profiles.get(s.source[len("agents.") : -len(".write_scope")])
    if profile is None or profile.write_scope is None:
        return ()
    return (ScopeSet(s.source, (*profile.write_scope, *contracts.outside)),)


def delegation_scope(
    record: Record | None,
    located: Located,
    insensitive: bool,
    *,
    require: bool,
    what: str,
    contracts: Contracts | None = None,
    makes_folder: bool = False,
    below: Located | None = None,
) -> Breach | None:
    """A subagent's write outside its delegation's effective scope (its intents read as
    ``contracts`` says now). ``what``: "Write of" or "`cmd` writes". ``makes_folder``: the
    write only makes the folder (``mkdir``), which may be one on the way to the scope.
    ``below``: the write is somewhere below that folder (a glob's, ADR 0074)."""
    if record is None:
        return None
    if isinstance(record, Delegation) and contracts is not None:
        now = live_scope(record, contracts)
        if isinstance(now, tuple):
            return Breach(
                DELEGATION_SCOPE,
                now[0],
                f"{what} {located.display}: this subagent was delegated under an intent that "
                f"no longer holds ({now[1]}).",
                REPORT_BACK,
                located.display,
            )
        record = replace(record, scope=now)
    if isinstance(record, UnknownDelegation):
        if not (require or record.contested):  # a contested record is never wider (0059)
            return None
        return Breach(
            DELEGATION_SCOPE,
            "delegation.contested" if record.contested else "delegation.require",
            f"{what} {located.display}: the Agent call that started this subagent is not "
            f"known ({record.reason})"
            + ("" if record.contested else ", and [delegation] require = true")
            + ".",
            REPORT_BACK,
            located.display,
        )
    if below is not None and holds_all_below(below, record.scope, insensitive):
        return None
    miss = within(located, record.scope, insensitive)
    if miss is None or (makes_folder and leads_into(located, record.scope, insensitive)):
        return None
    intent = f"intent {record.intent!r}" if record.intent else "its delegation"
    return Breach(
        DELEGATION_SCOPE,
        miss.source,
        f"{what} {located.display} is outside the scope of {intent} "
        f"({record.description!r}: {record.scope.describe()}); {miss.source} does not cover "
        f"it ({miss.why}).",
        REPORT_BACK,
        located.display,
    )


def other_names(record: Delegation, path: str, names: int, what: str) -> Breach | None:
    """A delegation's write to a file with ``names`` > 1 hard links: the other names may lie
    outside its scope, and the write changes the file under all of them (ADR 0059)."""
    if names < 2:
        return None
    intent = f"intent {record.intent!r}" if record.intent else "its delegation"
    return Breach(
        DELEGATION_SCOPE,
        "delegation.hard_link",
        f"{what} {path}: the file has {names} names (hard links), and a write changes it under "
        f"every one; the scope of {intent} ({record.scope.describe()}) can place only this one.",
        REPORT_BACK,
        path,
    )


def stale_file(path: str, known: str | None, current: str | None, by: str = "") -> Breach | None:
    """A write to a file whose content is no longer what this agent last read or wrote.
    ``known``: the SHA-256 it saw (None: it never did, nothing to compare); ``current``: the
    file's now (None: gone)."""
    if known is None or known == current:
        return None
    now = "deleted" if current is None else f"now {current[:12]}"
    who = f" by {by}" if by else " by another agent, the main agent or the user"
    return Breach(
        STALE_FILE,
        "delegation.stale",
        f"{path} changed since this agent last read or wrote it{who} (it saw "
        f"{known[:12]}, {now}); this write would overwrite that change.",
        f"Read it again ({path}) and make the change on its current content.",
        path,
    )


def unseen_change(path: str, written: str) -> Breach:
    """A write to a file (or a folder holding it) another agent wrote, unread by this agent
    since: a blind overwrite (ADR 0050, 0085). ``written``: "subagent X wrote src/a.py"."""
    return Breach(
        STALE_FILE,
        "delegation.stale",
        f"{written}, and this agent has not read it since: this write to "
        f"{path} would overwrite that change unseen.",
        f"Read it again ({written.rpartition(' wrote ')[2].split(' (')[0]}) and make the "
        "change on its current content.",
        path,
    )


def file_leased(path: str, holder: Lease | None, me: str, mode: str) -> tuple[Breach | None, str]:
    """(a breach in ``enforce``, an advisory in ``warn``) when another running subagent holds
    ``path``: of another Claude Code session, that session is named (ADR 0085)."""
    if mode == "off" or holder is None or holder.agent_id == me:
        return None, ""
    of = f" of the Claude Code session {holder.session} (until it stops, that session ends, "
    of = f"{of}or 30 minutes after its last write)" if holder.session else ""
    text = (
        f"{path} is leased to the running subagent {holder.description!r} ({holder.agent_id})"
        f"{of}, which changed it; two subagents writing one file overwrite each other."
    )
    if mode == "warn":
        return None, f"orchestrator-boundary (delegation.leases = warn): {text}"
    return Breach(FILE_LEASED, "delegation.leases", text, REPORT_BACK, path), ""
