"""What to do instead: a concrete Agent call naming a suitable ``subagent_type``."""

from __future__ import annotations

from orchestrator_boundary import scope
from orchestrator_boundary.config import Config
from orchestrator_boundary.jsontext import string

_WRITERS = frozenset({"Write", "Edit", "write"})

# The agent types that may write, with their compiled write scopes (None: anywhere), per
# config: a config is loaded once and never changed, so it is looked up by identity.
_Candidates = tuple[tuple[str, tuple[scope.Compiled, ...] | None], ...]
_CANDIDATES: list[tuple[Config, _Candidates]] = []


def _candidates(config: Config) -> _Candidates:
    for cached, found in reversed(_CANDIDATES):  # newest first
        if cached is config:
            return found
    found = tuple(
        (name, None if p.write_scope is None else scope.compiled(p.write_scope))
        for name, p in config.agents.items()
        if name != "*" and (p.tools is None or not _WRITERS.isdisjoint(p.tools))
    )
    _CANDIDATES[:] = [*_CANDIDATES[-7:], (config, found)]
    return found


def suitable_agent(config: Config, path: str | None) -> str:
    """A configured agent type that may write ``path`` (relative to the root), else
    general-purpose."""
    for name, compiled in _candidates(config):
        if path is None or compiled is None or scope.covers(compiled, path):
            return name
    return "general-purpose"


def delegate_hint(config: Config, path: str | None, tool: str) -> str:
    agent = suitable_agent(config, path)
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
