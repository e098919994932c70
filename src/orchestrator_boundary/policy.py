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

The rules live beside their concept: ``tamper_rule``, ``write_rules`` (with the broken config),
``contract_rules``, ``bash_rules``; ``profiles`` says which profile judges a subagent. Within a
scope an exclusion beats an inclusion (``scope``).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping, Sequence

from orchestrator_boundary.bash_rules import CODE_MODE, bash_findings, bash_mode
from orchestrator_boundary.context import Context
from orchestrator_boundary.contract_rules import agent_contract, delegation_contract, tool_contract
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.profiles import main_label
from orchestrator_boundary.ruleset import RuleSet
from orchestrator_boundary.suggest import delegate_hint
from orchestrator_boundary.tamper_rule import tamper
from orchestrator_boundary.targets import Call, Target, touched
from orchestrator_boundary.tools import ToolClass
from orchestrator_boundary.values import transient
from orchestrator_boundary.violation import Assessment, Code, Violation
from orchestrator_boundary.write_rules import broken_config, config_blocks, write_rule


@transient
class Findings:
    """What the target rules and the Bash command's rules found, before the call's ladder."""

    target: Violation | None  # the first target that breaks a rule, by the target rules
    by: TargetRule | None  # which target rule that was
    bash: Violation | None = None  # the Bash command's own rules, when no target broke one


def _tool_listed(name: str, tool_class: ToolClass, entries: Sequence[str]) -> bool:
    return any(e == name or e == tool_class.value or fnmatch.fnmatchcase(name, e) for e in entries)


# ---- the target rules: tamper_rule, write_rules, contract_rules ----

TargetRule = Callable[[Call, Target], Violation | None]
# Each target is judged by these, in this order; the first target that breaks one decides.
TARGET_RULES: tuple[TargetRule, ...] = (
    tamper,
    broken_config,
    write_rule,
    # the delegation contract (ADR 27): DELEGATION_SCOPE > FILE_LEASED > STALE_FILE; it only
    # narrows what write_rule allows
    delegation_contract,
)


def _first_target_finding(
    call: Call,
) -> tuple[Violation | None, TargetRule | None, tuple[str, ...]]:
    """The first target's violation, the target rule that found it, and the targets judged
    until then (all of them when none broke a rule), as shown, each listed once."""
    judged: dict[str, None] = {}
    # tamper first, over every target: an ordinary write before a protected file must not
    # hide it (`touch a .claude/settings.json` was BASH_WRITE, so warn let it through)
    for rules in ((tamper,), TARGET_RULES[1:]):
        judged = {}
        for target in call.targets:
            if target.shown:
                judged[target.shown] = None
            for rule in rules:
                found = rule(call, target)
                if found is not None:
                    return found, rule, tuple(judged)
    return None, None, tuple(judged)


NOTHING_FOUND = Findings(None, None)


# ---- the call's rules, in precedence order: the first that finds a violation decides ----


def target_tamper(call: Call, found: Findings) -> Violation | None:
    return found.target if found.by is tamper else None


def config_invalid(call: Call, found: Findings) -> Violation | None:
    return found.target if found.by is broken_config else None


def unknown_tool_config(call: Call, found: Findings) -> Violation | None:
    """An unknown tool may write: the main agent's is blocked while the config is broken."""
    return config_blocks(call, None) if call.main else None


# Tools every profile allows: ToolSearch only loads the schemas of Claude Code's deferred
# tools (NotebookEdit, WebFetch, SendMessage... for a subagent with the default tool set), so a
# profile that lists one of those could not use it without ToolSearch; it changes nothing.
ALWAYS_ALLOWED = frozenset({"ToolSearch"})


def tool_not_allowed(call: Call, found: Findings) -> Violation | None:
    named = call.profile
    if named is None or named[1].tools is None or call.payload.tool_name in ALWAYS_ALLOWED:
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


def target_contract(call: Call, found: Findings) -> Violation | None:
    """A target's delegation-contract finding (ADR 27), after the write rules."""
    return found.target if found.by is delegation_contract else None


def bash_command(call: Call, found: Findings) -> Violation | None:
    return found.bash


def unknown_tool(call: Call, found: Findings) -> Violation | None:
    name = call.payload.tool_name
    if not call.main or _tool_listed(name, ToolClass.UNKNOWN, call.rules.allow_tools):
        return None
    return Violation(
        Code.UNKNOWN_TOOL,
        "tools (unknown class is treated as a write)",
        f"{main_label(call.session)} may not use {name}: it is not a known read-only tool, so "
        "it is treated like a write.",
        delegate_hint(call.rules.writers, None, name, call.context.agent_types)
        + f" If {name} only reads, ask the user to classify it in .claude/boundary.toml "
        f'([tools] "{name}" = "read") or to allow it ([orchestrator] allow_tools).',
    )


Rule = Callable[[Call, Findings], Violation | None]
# the classes whose calls can have targets (network: Artifact's out_dir, targets.OUT_DIR_TOOLS)
_TARGETED = frozenset({ToolClass.WRITE, ToolClass.EXECUTE, ToolClass.UNKNOWN, ToolClass.NETWORK})
_EVERY = frozenset(ToolClass)

# The call's rules in precedence order, each with the tool classes it concerns; first hit wins.
RULES: tuple[tuple[Rule, frozenset[ToolClass]], ...] = (
    (target_tamper, _EVERY),  # an MCP tool a pattern calls read may name one (ADR 0066)
    (config_invalid, _TARGETED),
    (unknown_tool_config, frozenset({ToolClass.UNKNOWN})),
    (tool_not_allowed, _EVERY),
    (agent_contract, frozenset({ToolClass.DELEGATE})),
    (target_write, _TARGETED),
    (target_contract, _TARGETED),
    (tool_contract, frozenset({ToolClass.UNKNOWN, ToolClass.EXECUTE})),  # unseen writes, ADR 85
    (bash_command, frozenset({ToolClass.EXECUTE})),
    (unknown_tool, frozenset({ToolClass.UNKNOWN})),
)
# RULES as each tool class reads them (the same order, without the rules that cannot apply).
LADDERS: Mapping[ToolClass, tuple[Rule, ...]] = {
    cls: tuple(rule for rule, classes in RULES if cls in classes) for cls in ToolClass
}
# The rules that only report what the target rules or the Bash rules found: when they found
# nothing (most calls), these cannot fire, and the call reads its ladder without them.
REPORTERS = frozenset({target_tamper, config_invalid, target_write, target_contract, bash_command})
QUIET_LADDERS: Mapping[ToolClass, tuple[Rule, ...]] = {
    cls: tuple(rule for rule in ladder if rule not in REPORTERS) for cls, ladder in LADDERS.items()
}


def assess(payload: HookPayload, rules: RuleSet, context: Context) -> Assessment:
    """What the call would be in ``enforce``: the violation, if any, and what was looked at."""
    call = touched(payload, rules, context)
    if not payload.tool_name:
        return Assessment(call.session, payload.tool_name, call.classification)
    target, by, paths = _first_target_finding(call) if call.targets else (None, None, ())
    bash_found, advisory = None, ""
    if target is None and call.analysis is not None:
        bash_found, advisory = bash_findings(call)
    elif target is None and call.main and call.command is not None:  # Code Mode's code
        bash_found, advisory = bash_mode(call, Code.BASH_OPAQUE, call.command, CODE_MODE)
    if target or bash_found:
        found, ladder = Findings(target, by, bash_found), LADDERS[call.classification.tool_class]
    else:
        found, ladder = NOTHING_FOUND, QUIET_LADDERS[call.classification.tool_class]
    violation = None
    for rule in ladder:
        violation = rule(call, found)
        if violation is not None:
            break
    return Assessment(
        call.session,
        payload.tool_name,
        call.classification,
        paths,
        violation,
        advisory,
        call.analysis,
    )
