"""What to do instead: a concrete Agent call naming a suitable ``subagent_type``."""

from __future__ import annotations

from orchestrator_boundary import scope
from orchestrator_boundary.config import Config
from orchestrator_boundary.jsontext import flat_object
from orchestrator_boundary.paths import Located

_WRITERS = frozenset({"Write", "Edit", "write"})


def suitable_agent(config: Config, path: str | None) -> str:
    """A configured agent type that may write ``path`` (relative to the root), else
    general-purpose."""
    for name, profile in config.agents.items():
        if name == "*":
            continue
        if profile.tools is not None and _WRITERS.isdisjoint(profile.tools):
            continue
        if path is None or profile.write_scope is None:
            return name
        probe = Located(path, ("/" + path,), (path,), "")
        if scope.check(probe, profile.write_scope, False).allowed:
            return name
    return "general-purpose"


def delegate_hint(config: Config, path: str | None, tool: str) -> str:
    agent = suitable_agent(config, path)
    target = path or "the files involved"
    call = {
        "subagent_type": agent,
        "description": f"Change {target}"[:60],
        "prompt": f"In {target}: <what to change and why>. Report back what you changed.",
    }
    return (
        f"Delegate the change to a subagent with the Agent tool instead of using {tool} yourself, "
        f"e.g. Agent({flat_object(call)})."
    )
