"""Which profile judges a subagent: ``[agents.TYPE]`` for its agent type, else
``[agents."*"]``, else none (every tool; writes anywhere inside the project root). ADR 0002.
"""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator_boundary.config import AgentProfile

# (the profile's name in [agents], the profile)
Named = tuple[str, AgentProfile]


def profile(agents: Mapping[str, AgentProfile], agent_type: str | None) -> Named | None:
    """The profile for ``agent_type``, and the name it is configured under."""
    if agent_type and agent_type in agents:
        return agent_type, agents[agent_type]
    if "*" in agents:
        return "*", agents["*"]
    return None
