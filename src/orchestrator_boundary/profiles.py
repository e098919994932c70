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

from orchestrator_boundary.agent_names import profile_name
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


def profile(agents: Mapping[str, AgentProfile], agent_type: str | None) -> Named | None:
    """The profile for ``agent_type``, and the name it is configured under (``profile_name``)."""
    name = profile_name(agents, agent_type)
    return None if name is None else (name, agents[name])


def main_label(session: Session) -> str:
    """Who a violation of the main agent's rules names: the main agent, or the fork."""
    if session.kind is SessionKind.MAIN:
        return "the main agent"
    return f"{session.label}, {AS_MAIN},"
