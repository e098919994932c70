"""What ``install`` writes into a project besides the settings: a commented starter
``.claude/boundary.toml`` and the ``.gitignore`` line that keeps the audit trail out of git.
Pure text; ``cmd_install`` plans and writes the files."""

from __future__ import annotations

GITIGNORE_LINE = ".claude/boundary/"
_GITIGNORE_SAME = {
    ".claude/boundary/",
    "/.claude/boundary/",
    ".claude/boundary",
    "/.claude/boundary",
}


STARTER_CONFIG = """# orchestrator-boundary configuration (docs/cli-setup.md).
# Unknown keys and wrong types are errors: a broken file blocks writes until it is fixed.

# Rollout phase: "off" (record nothing), "warn" (record and tell, never block),
# "ask" (ask the human), "enforce" (deny). Only a person changes it, from a terminal
# (docs/cli-setup.md); an agent that tries is denied.
# The environment variable ORCHESTRATOR_BOUNDARY_PHASE overrides this line.
phase = "@PHASE@"

[orchestrator]
# Files the main agent may still change itself (gitignore-style patterns, relative to the project).
write_allow = []
# Tools the main agent may use although they would count as writes (e.g. "mcp__notes__*").
allow_tools = []

[subagents]
# Absolute patterns outside the project that subagents may write to (e.g. "/tmp/**").
write_outside_root = []

[bash]
# Commands whose effect cannot be known (eval, interpreters): "allow", "warn" or "deny".
opaque = "allow"
# Commands that cannot be parsed at all: "allow", "warn" or "deny".
unparseable = "deny"
# Paths the main agent's shell commands may write to anyway (patterns).
allow_write = []
# Extra programs to treat as read-only.
read_only_commands = []
# Programs nobody may run through Bash.
deny_commands = []

[audit]
# The audit trail (one JSON line per hook call), relative to the project or absolute.
path = ".claude/boundary/audit.jsonl"
# Rotate the trail past this size in bytes (0 = never rotate).
max_bytes = 67108864
# How many rotated files to keep.
keep = 20

[protect]
# More files no agent may change (patterns), besides settings, this file and the audit trail.
paths = []
# Whether AMPLIFIER_BYPASS_BOUNDARY also opens those protected files.
bypass_opens = false

[report]
# When a rollout report calls the data sufficient to move to the next phase:
# at least this many days of audit data,
min_days = 14
# at least this many tool calls,
min_tool_uses = 50
# at most this share of hook calls ending in an error,
max_hook_error_rate = 0.01
# and at most this share of sessions running with the bypass.
max_bypass_session_share = 0.1

# Per agent type limits, e.g.:
# [agents.docs-writer]
# tools = ["Read", "Write", "Edit"]   # tool names or classes; leave out for every tool
# write_scope = ["docs/**"]          # leave out for anywhere inside the project

# Reclassify tools by exact name or "*" pattern, e.g.:
# [tools]
# "mcp__github__get_*" = "read"
"""


def starter_config(phase: str) -> str:
    """A commented ``.claude/boundary.toml``: every key, its default, what it does."""
    return STARTER_CONFIG.replace("@PHASE@", phase)


def gitignore_with(text: str | None) -> str | None:
    """The .gitignore text with our line added; None when it is already there."""
    current = text or ""
    if any(line.strip() in _GITIGNORE_SAME for line in current.splitlines()):
        return None
    sep = "" if not current or current.endswith("\n") else "\n"
    return f"{current}{sep}# orchestrator-boundary audit trail\n{GITIGNORE_LINE}\n"
