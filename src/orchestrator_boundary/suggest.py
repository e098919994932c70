"""What to do instead: a concrete Agent call naming a suitable ``subagent_type``."""

from __future__ import annotations

from orchestrator_boundary import scope
from orchestrator_boundary.jsontext import string
from orchestrator_boundary.ruleset import Writer


def suitable_agent(writers: tuple[Writer, ...], path: str | None) -> str:
    """A configured agent type that may write ``path`` (relative to the root), else
    general-purpose."""
    for name, compiled in writers:
        if path is None or compiled is None or scope.covers(compiled, path):
            return name
    return "general-purpose"


def delegate_hint(writers: tuple[Writer, ...], path: str | None, tool: str) -> str:
    agent = suitable_agent(writers, path)
    target = path or "the files involved"
    description = f"Change {target}"[:60]
    prompt = f"In {target}: <what to change and why>. Report back what you changed."
    # json.dumps({"subagent_type": agent, "description": ..., "prompt": ...}), written out
    call = (
        f'{{"subagent_type": {string(agent)}, "description": {string(description)}, '
        f'"prompt": {string(prompt)}}}'
    )
    return (
        f"Delegate the change to a subagent with the Agent tool instead of using {tool} yourself, "
        f"e.g. Agent({call})."
    )
