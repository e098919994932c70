"""The policy: who may change what. ADR 0002, 0005, 0010, 0020.

Pure: it takes the parsed payload, the compiled config and the ``Context`` the shell gathered,
and returns frozen values, in two stages. First ``targets.touched`` works out what the call
touches. Then the target rules judge each target in order, tamper > broken config > the write
rules, and the first target that breaks one is the call's target finding. Last, the call's
rules in ``RULES``, in precedence order, first hit wins:

    TAMPER > CONFIG_INVALID > TOOL_NOT_ALLOWED > DELEGATION_INVALID (an Agent call) > the
    target's write rule (ORCHESTRATOR_WRITE / BASH_WRITE / SCOPE_VIOLATION, then the
    delegation's DELEGATION_SCOPE / FILE_LEASED / STALE_FILE, ADR 27) > the Bash command's
    rules (BASH_UNPARSEABLE / BASH_DENIED_COMMAND / BASH_OPAQUE) > UNKNOWN_TOOL.

Within a scope an exclusion beats an inclusion (``scope``).
"""

from __future__ import annotations

import fnmatch
import ntpath
import posixpath
import re
from collections.abc import Callable, Mapping, Sequence

from orchestrator_boundary import scope
from orchestrator_boundary.bash.model import Status
from orchestrator_boundary.config import AgentProfile
from orchestrator_boundary.context import Context
from orchestrator_boundary.contract_rules import (
    agent_contract,
    delegation_scope,
    file_leased,
    stale_file,
)
from orchestrator_boundary.paths import ROOT_ITSELF, Located, locate
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.protect import (
    Protected,
    ProtectedSet,
    could_name,
    hit,
    hit_named,
    linked,
    protected_reason,
)
from orchestrator_boundary.ruleset import RuleSet
from orchestrator_boundary.suggest import delegate_hint
from orchestrator_boundary.targets import Call, Target, touched
from orchestrator_boundary.tools import ToolClass
from orchestrator_boundary.transient import transient
from orchestrator_boundary.violation import Assessment, Code, Violation


@transient
class Findings:
    """What the target rules and the Bash command's rules found, before the call's ladder."""

    target: Violation | None  # the first target that breaks a rule, by the target rules
    by: TargetRule | None  # which target rule that was
    bash: Violation | None = None  # the Bash command's own rules, when no target broke one


def _profile(call: Call) -> tuple[str, AgentProfile] | None:
    agents, agent_type = call.rules.config.agents, call.session.agent_type
    if agent_type and agent_type in agents:
        return agent_type, agents[agent_type]
    if "*" in agents:
        return "*", agents["*"]
    return None


def _tool_listed(name: str, tool_class: ToolClass, entries: Sequence[str]) -> bool:
    return any(e == name or e == tool_class.value or fnmatch.fnmatchcase(name, e) for e in entries)


# ---- the target rules ----


def _relative_readings(call: Call, located: Located) -> list[Located]:
    """A relative path is never inside a scope, but for the guard it is read against the
    payload's cwd and the root: the tool may well resolve it there."""
    raw, ctx = located.raw, call.context
    mod = ntpath if ctx.fs.windows else posixpath
    if located.absolutes or not raw or "\x00" in raw or mod.isabs(raw):
        return []
    bases = dict.fromkeys(b for b in (call.payload.cwd, ctx.root) if b and mod.isabs(b))
    return [locate(mod.join(base, raw), ctx.root, ctx.fs, call.insensitive) for base in bases]


def _configured(call: Call, located: Located) -> Protected | None:
    """``[protect] paths``: more files no agent may change, matched on any reading."""
    patterns = call.rules.config.protect.paths
    for reading in (located, *_relative_readings(call, located)):
        rels: tuple[str | None, ...] = reading.relatives if reading.inside else (None,)
        for absolute in reading.absolutes:
            for rel in rels:
                problem = "" if rel else "outside the project root"
                single = Located(reading.raw, (absolute,), (rel,) if rel else (), problem)
                match = scope.check(single, patterns, call.insensitive)
                if match.allowed:
                    label = f"protected by [protect] paths ({match.pattern})"
                    return Protected(absolute, False, label)
    return None


def _guarded(call: Call, located: Located, target: Target) -> Protected | None:
    # Writing into the root (tar x, git checkout -- .) is ordinary work; deleting it
    # (rm -rf ., find . -delete) takes .claude/ with it, unless find's -name filter shows
    # that no protected entry can be among what it deletes (protect.hit_named).
    ctx = call.context
    anchors = () if target.deletes else ((ctx.root, ctx.home) if ctx.home else (ctx.root,))

    def hit_one(
        reading: Located, protected: ProtectedSet, anchors: tuple[str, ...]
    ) -> Protected | None:
        if target.names:
            return hit_named(reading, protected, target.names)
        return hit(reading, protected, anchors)

    entry = hit_one(located, ctx.protected, anchors)
    if entry is None and not located.absolutes:  # else it has no relative readings
        for reading in _relative_readings(call, located):
            entry = hit_one(reading, ctx.protected, anchors)
            if entry is not None:
                break
    entry = entry or linked(located, ctx.protected, ctx.fs)
    if entry is None and call.rules.config.protect.paths:
        entry = _configured(call, located)
    return entry


def _control(target: Target) -> Violation:
    """Running this product's own CLI to change the phase or the hooks (issue 13)."""
    return Violation(
        Code.TAMPER,
        "protected: the boundary's phase and hooks",
        f"`{target.command[:200]}` changes the boundary itself (its phase or its hooks); "
        "no agent may do that, only a person.",
        "Do not retry it in another form. If the change is wanted, ask the user to run the "
        "command themselves, in their own terminal.",
        None,
        target.command[:200],
        recoverable=False,
    )


# a word that moves the working folder: after it, a relative path may be relative to anywhere
_MOVES = re.compile(r"(?:^|[\s;&|(`])(?:cd|pushd|popd|chdir|Set-Location|sl)(?:$|[\s;&|)])")
_WORDS = re.compile(r"[^\s;&|<>()]+")


def _could_name(call: Call, target: Target) -> Protected | None:
    """A target the text does not fix (a glob, a variable, after a ``cd`` not followed, a word
    of text that did not parse): the protected entry it could name, for any agent."""
    ctx, command = call.context, call.command or ""
    cwd = None if _MOVES.search(command) else (call.payload.cwd or ctx.root)
    anchors = () if target.deletes else ((ctx.root, ctx.home) if ctx.home else (ctx.root,))
    raw = target.located.raw
    for word in _WORDS.findall(raw)[:256] if target.words else (raw,):
        entry = could_name(
            word,
            ctx.protected,
            cwd=cwd,
            home=ctx.home,
            windows=ctx.fs.windows,
            anchors=anchors,
            literal=target.words,
        )
        if entry is not None:
            return entry
    return None


def tamper(call: Call, target: Target) -> Violation | None:
    if target.control:
        return _control(target)
    if not target.tamper:
        return None
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
        "Ask the user to make this change themselves.",
        located.display,
        target.command,
        recoverable=False,
    )


def _broken_config(call: Call, path: str | None, command: str = "") -> Violation | None:
    problem = call.context.config_problem
    if problem is None:
        return None
    return Violation(
        Code.CONFIG_INVALID,
        f"config: {problem.file}",
        f"the boundary config is broken ({problem}); writes stay blocked until it is fixed.",
        f"Ask the user to fix {problem.file}"
        + (f" (key {problem.key!r})" if problem.key else "")
        + ", then retry.",
        path,
        command,
    )


def broken_config(call: Call, target: Target) -> Violation | None:
    if not target.config:
        return None
    if not target.named:
        return _broken_config(call, None)
    return _broken_config(call, target.located.display, target.command)


def _orchestrator_write(call: Call, located: Located, command: str) -> Violation | None:
    allow = call.rules.allow_bash if command else call.rules.allow
    insensitive = call.insensitive
    if scope.check(located, allow, insensitive).allowed and not scope.exclusion_within(
        located, allow, insensitive
    ):
        return None
    rule = "orchestrator.write_allow" + (" + bash.allow_write" if command else "")
    shown = located.display
    where = shown + ("" if located.inside else f" ({located.problem})")
    tool = call.payload.tool_name
    what = f"`{command}` writes {where}" if command else f"this {tool} changes {where}"
    return Violation(
        Code.BASH_WRITE if command else Code.ORCHESTRATOR_WRITE,
        rule,
        f"the main agent may not change files itself: {what}, which is not in {rule}.",
        delegate_hint(call.rules.writers, shown, tool, call.context.agent_types),
        shown,
        command,
    )


def _subagent_write(call: Call, located: Located, command: str) -> Violation | None:
    named = _profile(call)
    if named is not None and named[1].write_scope is not None:
        rule = f"agents.{named[0]}.write_scope"
        patterns = call.rules.scopes[named[0]]
    else:
        rule = "project root + subagents.write_outside_root"
        # a Bash effect on the root folder itself (tar x, git checkout -- .) is inside it
        if located.inside or (command and located.problem == ROOT_ITSELF):
            return None
        patterns = call.rules.outside
    match = scope.check(located, patterns, call.insensitive)
    if match.allowed:
        holds = scope.exclusion_within(located, patterns, call.insensitive)
        if holds is None:
            return None
        match = scope.ScopeMatch(False, match.pattern, holds)
    why = (
        f"excluded by {match.excluded_by!r}"
        if match.excluded_by
        else (located.problem or "no pattern covers it")
    )
    what = f"`{command}` writes" if command else f"this {call.payload.tool_name} changes"
    return Violation(
        Code.SCOPE_VIOLATION,
        rule,
        f"{call.session.label}: {what} {located.display}, which is outside its write scope "
        f"({why}).",
        "Write only inside your scope ("
        + (", ".join(patterns) or "the project root")
        + "). If the change belongs elsewhere, report back to the main agent so it can "
        "reassign the work.",
        located.display,
        command,
    )


def write_rule(call: Call, target: Target) -> Violation | None:
    """The write rules for one target: the main agent's allow list, a subagent's scope."""
    if not target.write:
        return None
    judge = _orchestrator_write if call.main else _subagent_write
    return judge(call, target.located, target.command)


TargetRule = Callable[[Call, Target], Violation | None]
# Each target is judged by these, in this order; the first target that breaks one decides.
TARGET_RULES: tuple[TargetRule, ...] = (
    tamper,
    broken_config,
    write_rule,
    delegation_scope,  # the delegation contract (ADR 27): only narrows what write_rule allows
    file_leased,
    stale_file,
)


def _first_target_finding(call: Call) -> tuple[Violation | None, TargetRule | None, int]:
    """The first target's violation, the target rule that found it, how many were judged."""
    for n, target in enumerate(call.targets, 1):
        for rule in TARGET_RULES:
            found = rule(call, target)
            if found is not None:
                return found, rule, n
    return None, None, len(call.targets)


NOTHING_FOUND = Findings(None, None)


# ---- the Bash command's own rules (main agent, when no target broke a rule) ----


def _bash_mode(call: Call, code: Code, command: str, why: str) -> tuple[Violation | None, str]:
    """(violation, advisory) for bash.unparseable / bash.opaque as configured."""
    unparseable = code is Code.BASH_UNPARSEABLE
    mode = call.rules.config.bash.unparseable if unparseable else call.rules.config.bash.opaque
    rule = "bash.unparseable" if unparseable else "bash.opaque"
    text = f"`{command[:200]}`: {why}"
    if mode == "allow":
        return None, ""
    if mode == "warn":
        return None, f"orchestrator-boundary ({rule} = warn): {text}. Prefer delegating."
    hint = delegate_hint(call.rules.writers, None, "Bash", call.context.agent_types)
    return Violation(
        code, rule, f"the main agent may not run {text}.", hint, None, command[:200]
    ), ""


CODE_MODE = "Code Mode JavaScript; each tool it calls is judged on its own"


def _bash_findings(call: Call) -> tuple[Violation | None, str]:
    """BASH_UNPARSEABLE, else BASH_DENIED_COMMAND, else BASH_OPAQUE; and the advisory."""
    analysis, command = call.analysis, call.command
    if not call.main or analysis is None or command is None:
        return None, ""
    if analysis.status is Status.UNPARSEABLE or analysis.exhausted:  # text not (all) read
        return _bash_mode(call, Code.BASH_UNPARSEABLE, command, analysis.error)
    deny = call.rules.config.bash.deny_commands
    for cmd in analysis.commands:
        if cmd.program and cmd.program in deny:
            return Violation(
                Code.BASH_DENIED_COMMAND,
                "bash.deny_commands",
                f"the main agent may not run {cmd.program} (`{cmd.text}`).",
                delegate_hint(call.rules.writers, None, "Bash", call.context.agent_types),
                command=cmd.text,
            ), ""
    if analysis.status is Status.OPAQUE:
        parts = "; ".join(c.text for c in analysis.opaque[:3]) or command
        return _bash_mode(call, Code.BASH_OPAQUE, parts, "its effects cannot be known")
    return None, ""


# ---- the call's rules, in precedence order: the first that finds a violation decides ----


def target_tamper(call: Call, found: Findings) -> Violation | None:
    return found.target if found.by is tamper else None


def config_invalid(call: Call, found: Findings) -> Violation | None:
    return found.target if found.by is broken_config else None


def unknown_tool_config(call: Call, found: Findings) -> Violation | None:
    """An unknown tool may write: the main agent's is blocked while the config is broken."""
    return _broken_config(call, None) if call.main else None


def tool_not_allowed(call: Call, found: Findings) -> Violation | None:
    named = None if call.main else _profile(call)
    if named is None or named[1].tools is None:
        return None
    name, profile = named
    cls, tool = call.classification.tool_class, call.payload.tool_name
    listed = call.rules.tools[name]  # with the heirs of retired names (TodoWrite: TaskCreate..)
    # the exact entries first (a set lookup); the patterns as _tool_listed reads them
    if tool in listed or cls.value in listed or _tool_listed(tool, cls, profile.tools or ()):
        return None
    return Violation(
        Code.TOOL_NOT_ALLOWED,
        f"agents.{name}.tools",
        f"{call.session.label} may not use {tool} ({cls.value}).",
        "Allowed for this agent type: "
        + (", ".join(profile.tools or ()) or "nothing")
        + ". Report back to the main agent so it can hand this step to another agent type.",
    )


def target_write(call: Call, found: Findings) -> Violation | None:
    return found.target if found.by is write_rule else None


_CONTRACT_TARGET_RULES = (delegation_scope, file_leased, stale_file)


def target_contract(call: Call, found: Findings) -> Violation | None:
    """A target's delegation-contract finding (ADR 27), after the write rules."""
    return found.target if found.by in _CONTRACT_TARGET_RULES else None


def bash_command(call: Call, found: Findings) -> Violation | None:
    return found.bash


def unknown_tool(call: Call, found: Findings) -> Violation | None:
    name = call.payload.tool_name
    if not call.main or _tool_listed(name, ToolClass.UNKNOWN, call.rules.allow_tools):
        return None
    return Violation(
        Code.UNKNOWN_TOOL,
        "tools (unknown class is treated as a write)",
        f"the main agent may not use {name}: it is not a known read-only tool, so it is "
        "treated like a write.",
        f"Delegate it to a subagent, or ask the user to classify it in .claude/boundary.toml "
        f'([tools] "{name}" = "read") or allow it ([orchestrator] allow_tools).',
    )


Rule = Callable[[Call, Findings], Violation | None]
_TARGETED = frozenset({ToolClass.WRITE, ToolClass.EXECUTE, ToolClass.UNKNOWN})
_EVERY = frozenset(ToolClass)

# The call's rules in precedence order, each with the tool classes it concerns; first hit wins.
RULES: tuple[tuple[Rule, frozenset[ToolClass]], ...] = (
    (target_tamper, _TARGETED),
    (config_invalid, _TARGETED),
    (unknown_tool_config, frozenset({ToolClass.UNKNOWN})),
    (tool_not_allowed, _EVERY),
    (agent_contract, frozenset({ToolClass.DELEGATE})),
    (target_write, _TARGETED),
    (target_contract, _TARGETED),
    (bash_command, frozenset({ToolClass.EXECUTE})),
    (unknown_tool, frozenset({ToolClass.UNKNOWN})),
)
# RULES as each tool class reads them (the same order, without the rules that cannot apply).
LADDERS: Mapping[ToolClass, tuple[Rule, ...]] = {
    cls: tuple(rule for rule, classes in RULES if cls in classes) for cls in ToolClass
}


def assess(payload: HookPayload, rules: RuleSet, context: Context) -> Assessment:
    """What the call would be in ``enforce``: the violation, if any, and what was looked at."""
    call = touched(payload, rules, context)
    if not payload.tool_name:
        return Assessment(call.session, payload.tool_name, call.classification)
    target, by, decided_at = _first_target_finding(call) if call.targets else (None, None, 0)
    bash_found, advisory = None, ""
    if target is None and call.analysis is not None:
        bash_found, advisory = _bash_findings(call)
    elif target is None and call.main and call.command is not None:  # Code Mode's code
        bash_found, advisory = _bash_mode(call, Code.BASH_OPAQUE, call.command, CODE_MODE)
    found = Findings(target, by, bash_found) if target or bash_found else NOTHING_FOUND
    violation = None
    for rule in LADDERS[call.classification.tool_class]:
        violation = rule(call, found)
        if violation is not None:
            break
    # the targets judged until one decided (all of them when none did), each listed once
    paths = (
        tuple(dict.fromkeys([t.shown for t in call.targets[:decided_at] if t.shown]))
        if decided_at
        else ()
    )
    return Assessment(
        call.session,
        payload.tool_name,
        call.classification,
        paths,
        violation,
        advisory,
        call.analysis,
    )
