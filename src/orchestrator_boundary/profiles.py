"""Which rules judge a caller: the main agent's, or a subagent's profile. ADR 0002, 0032.

A subagent is judged by ``[agents.TYPE]`` for its agent type, else ``[agents."*"]``, else no
profile (every tool; writes anywhere inside the project root). ``TYPE`` matches as Claude Code
matches a ``subagent_type`` to a definition (ADR 0053): the exact name first, else the same
name ignoring case, whitespace, dashes and underscores (``[agents.Coder]`` judges the agent
type ``coder``, ``[agents.general_purpose]`` judges ``general-purpose``); a profile that only
differed in spelling would otherwise be skipped, and the subagent would get every tool. A
name with a wildcard (``[agents."*-reviewer"]``) is a pattern, tried after those, in the
config's order (ADR 0071).

A fork of the main agent (``agent_type`` "fork": the main agent's whole conversation and every
tool) is a subagent like any other by default; ``[subagents] fork = "orchestrator"`` judges it
by the main agent's rules instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator_boundary.config import AgentProfile
from orchestrator_boundary.ruleset import RuleSet
from orchestrator_boundary.session import Session, SessionKind

FORK = "fork"  # the agent_type Claude Code gives a fork of the main agent (2.1.330)
AS_MAIN = 'judged by the main agent\'s rules ([subagents] fork = "orchestrator")'

# (the profile's name in [agents], the profile)
Named = tuple[str, AgentProfile]


def judged_as_main(session: Session, rules: RuleSet) -> bool:
    """The main agent's own call, or a fork's when forks are judged as the main agent."""
    if session.kind is SessionKind.MAIN:
        return True
    return rules.fork_as_main and session.agent_type == FORK


def agent_key(name: str) -> str:
    """``name`` as Claude Code 2.1.330 compares agent types: NFKC, lower case, without
    whitespace, dashes (any dash punctuation) and underscores."""
    import unicodedata  # only for a profile named otherwise than the agent type

    folded = unicodedata.normalize("NFKC", name).lower()
    return "".join(
        c for c in folded if not (c.isspace() or c == "_" or unicodedata.category(c) == "Pd")
    )


def profile(agents: Mapping[str, AgentProfile], agent_type: str | None) -> Named | None:
    """The profile for ``agent_type``, and the name it is configured under: the exact name,
    else the first (in the config's order) that Claude Code would take for the same type."""
    if agent_type and agent_type in agents:
        return agent_type, agents[agent_type]
    if agent_type and agent_key(agent_type):
        key = agent_key(agent_type)
        for name, found in agents.items():
            if name != "*" and agent_key(name) == key:
                return name, found
        # a name with a wildcard (``[agents."*-reviewer"]``) is a pattern: no agent type has
        # one, so read literally it judged none, and the agent got no profile (ADR 0071)
        for name, found in agents.items():
            if name != "*" and _matches(name, agent_type, key):
                return name, found
    if "*" in agents:
        return "*", agents["*"]
    return None


def _matches(name: str, agent_type: str, key: str) -> bool:
    if not any(c in name for c in "*?["):
        return False
    import fnmatch  # only for a profile named by a pattern

    return fnmatch.fnmatchcase(agent_type, name) or fnmatch.fnmatchcase(key, agent_key(name))


def main_label(session: Session) -> str:
    """Who a violation of the main agent's rules names: the main agent, or the fork."""
    if session.kind is SessionKind.MAIN:
        return "the main agent"
    return f"{session.label}, {AS_MAIN},"
