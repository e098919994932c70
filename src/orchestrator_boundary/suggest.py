"""What to do instead: a concrete Agent call naming a suitable ``subagent_type``.

Only an agent type that exists is named (issue 14 point 4): a built-in of Claude Code 2.1.330
that can write, or one defined in ``.claude/agents/*.md`` (project or user) that the shell
found (``Context.agent_types``). A profile in the config with no definition is never named:
the model would get "Agent type '...' not found".
"""

from __future__ import annotations

from orchestrator_boundary import scope
from orchestrator_boundary.jsontext import string
from orchestrator_boundary.ruleset import Writer

# Claude Code 2.1.330's built-in agent types; Explore and Plan cannot write.
BUILT_IN_AGENTS = frozenset({"general-purpose", "Explore", "Plan", "claude", "statusline-setup"})
READ_ONLY_AGENTS = frozenset({"Explore", "Plan"})
FALLBACK = "general-purpose"


def suitable_agent(
    writers: tuple[Writer, ...], path: str | None, defined: frozenset[str] = frozenset()
) -> str:
    """A configured agent type that exists (a built-in, or one of the ``defined`` ones) and may
    write ``path`` (relative to the root), else general-purpose."""
    for name, patterns in writers:
        if name in READ_ONLY_AGENTS or not (name in defined or name in BUILT_IN_AGENTS):
            continue
        if path is None or patterns is None or scope.covers(scope.compiled(patterns), path):
            return name
    return FALLBACK


def delegate_hint(
    writers: tuple[Writer, ...], path: str | None, tool: str, defined: frozenset[str] = frozenset()
) -> str:
    agent = suitable_agent(writers, path, defined)
    target = path or "the files involved"
    description = f"Change {target}"[:60]
    prompt = f"In {target}: <what to change and why>. Report back what you changed."
    if path is not None and (path == ".git" or path.startswith(".git/")):
        # git's own folder: a commit, a branch, a pull; the step, not the folder, is delegated
        description = "Run the git step"
        prompt = "Run <the git command> in this repository. Report back what it changed."
    # json.dumps({"subagent_type": agent, "description": ..., "prompt": ...}), written out
    call = (
        f'{{"subagent_type": {string(agent)}, "description": {string(description)}, '
        f'"prompt": {string(prompt)}}}'
    )
    return (
        f"Delegate the change to a subagent with the Agent tool instead of using {tool} yourself, "
        f"e.g. Agent({call})."
    )
