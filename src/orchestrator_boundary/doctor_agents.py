"""``doctor``'s check that every agent profile in the config names an agent type that exists.

A profile (``[agents.coder]``) whose agent type has no definition in ``.claude/agents/*.md``
(project or user) and is not a built-in never applies, and the deny hint does not name it:
the model would get "Agent type 'coder' not found" (issue 14 point 4). A profile applies
to the types the write rules give it: other spellings, and a wildcard name's matches (0074).
"""

from __future__ import annotations

from orchestrator_boundary import wire
from orchestrator_boundary.agent_defs import agent_folders, defined_agents
from orchestrator_boundary.agent_names import profile_name
from orchestrator_boundary.config import ConfigProblem, config_path, load_config
from orchestrator_boundary.doctor_context import OK, WARN, Check, Context
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.suggest import BUILT_IN_AGENTS


def check_agent_definitions(ctx: Context) -> Check:
    loaded = load_config(config_path(ctx.root, ctx.environ), ctx.home)
    if isinstance(loaded, ConfigProblem):
        return Check("agent types", OK, "not checked: the config is broken (see config)")
    config_dir = ctx.environ.get(wire.CLAUDE_CONFIG_DIR_ENV) or None
    defined = defined_agents(agent_folders(ctx.root, ctx.home, config_dir), RealFileSystem())
    profiles = [name for name in loaded.agents if name != "*"]
    types = [*defined, *BUILT_IN_AGENTS]  # a profile applies to a type as the rules pick it
    missing = [n for n in profiles if not any(profile_name([n], t) == n for t in types)]
    if not missing:
        return Check("agent types", OK, f"{len(profiles)} profile(s), each with a definition")
    listed = ", ".join(missing)
    return Check(
        "agent types",
        WARN,
        f"no agent definition for the profile(s) {listed}: they never apply, and deny hints "
        "do not name them",
        f"add .claude/agents/{missing[0]}.md with 'name: {missing[0]}' in its front matter "
        "(or in ~/.claude/agents/), or remove the profile",
    )
