"""The agent types defined for Claude Code in ``.claude/agents/*.md``: shell side (reads files).

Claude Code reads subagent definitions from the project's ``.claude/agents/`` and the user's
``~/.claude/agents/`` (``$CLAUDE_CONFIG_DIR/agents/`` when that is set); the agent type is the
``name:`` in the file's front matter. The deny hint names only these and the built-ins, and
``doctor`` flags a profile in the config that none of them defines.
"""

from __future__ import annotations

import os

from orchestrator_boundary.paths import FileSystem

DEFINITION_LIMIT = 256  # files read per folder at most
_HEAD = 8192  # the front matter is at the start of the file


def agent_folders(root: str, home: str | None, config_dir: str | None) -> tuple[str, ...]:
    """Where Claude Code looks for definitions: the project's, then the user's."""
    user = os.path.join(config_dir, "agents") if config_dir else None
    if user is None and home:
        user = os.path.join(home, ".claude", "agents")
    return tuple(d for d in (os.path.join(root, ".claude", "agents"), user) if d)


def front_matter_name(text: str) -> str | None:
    """The ``name:`` of a definition's YAML front matter (between the first two ``---``)."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    for line in lines[1:]:
        if line.strip() == "---":
            return None
        key, sep, rest = line.partition(":")
        if sep and key.strip() == "name" and not line[:1].isspace():
            name = rest.split(" #", 1)[0].strip().strip("\"'").strip()
            return name or None
    return None


def defined_agents(folders: tuple[str, ...], fs: FileSystem) -> frozenset[str]:
    """The agent types the definitions in ``folders`` (and their subfolders) name; unreadable
    files are skipped."""
    names: set[str] = set()
    for folder in folders:
        for path in sorted(fs.files_below(folder, DEFINITION_LIMIT)):
            if not path.endswith(".md"):
                continue
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    name = front_matter_name(f.read(_HEAD))
            except OSError:
                continue
            if name:
                names.add(name)
    return frozenset(names)
