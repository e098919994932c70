"""Tool classification: every tool name maps to one class; unknown names are ``unknown``.

The policy treats ``unknown`` like a write (fail-safe). Users reclassify tools in the config
(``[tools]``) by exact name or by an anchored ``*`` pattern such as ``mcp__github__get_*``;
an exact name wins over a pattern, a longer pattern over a shorter one.
"""

from __future__ import annotations

import enum
import fnmatch
from collections.abc import Mapping

from orchestrator_boundary.value import value


class ToolClass(enum.StrEnum):
    READ = "read"
    SEARCH = "search"
    COORDINATE = "coordinate"
    DELEGATE = "delegate"
    WRITE = "write"
    EXECUTE = "execute"
    NETWORK = "network"
    UNKNOWN = "unknown"


BUILTIN: Mapping[str, ToolClass] = {
    # read
    "Read": ToolClass.READ,
    "LS": ToolClass.READ,
    "NotebookRead": ToolClass.READ,
    "BashOutput": ToolClass.READ,
    "TaskOutput": ToolClass.READ,
    "ListMcpResourcesTool": ToolClass.READ,
    "ReadMcpResourceTool": ToolClass.READ,
    # search
    "Glob": ToolClass.SEARCH,
    "Grep": ToolClass.SEARCH,
    "ToolSearch": ToolClass.SEARCH,
    # coordinate
    "TodoWrite": ToolClass.COORDINATE,
    "TaskCreate": ToolClass.COORDINATE,
    "TaskUpdate": ToolClass.COORDINATE,
    "TaskGet": ToolClass.COORDINATE,
    "TaskList": ToolClass.COORDINATE,
    "TaskStop": ToolClass.COORDINATE,
    "KillShell": ToolClass.COORDINATE,
    "KillBash": ToolClass.COORDINATE,
    "AskUserQuestion": ToolClass.COORDINATE,
    "ExitPlanMode": ToolClass.COORDINATE,
    "EnterPlanMode": ToolClass.COORDINATE,
    "Skill": ToolClass.COORDINATE,
    "SlashCommand": ToolClass.COORDINATE,
    # delegate
    "Agent": ToolClass.DELEGATE,
    "Task": ToolClass.DELEGATE,
    # write
    "Write": ToolClass.WRITE,
    "Edit": ToolClass.WRITE,
    "MultiEdit": ToolClass.WRITE,
    "NotebookEdit": ToolClass.WRITE,
    # execute
    "Bash": ToolClass.EXECUTE,
    "PowerShell": ToolClass.EXECUTE,
    # network
    "WebFetch": ToolClass.NETWORK,
    "WebSearch": ToolClass.NETWORK,
}

# The input key that names the file a write-class tool changes.
PATH_KEYS: Mapping[str, str] = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}


@value
class Classification:
    tool_class: ToolClass
    source: str  # "builtin", "config: tools.NAME", "default: unknown"


def classify(name: str, overrides: Mapping[str, ToolClass] | None = None) -> Classification:
    if overrides:
        if name in overrides:
            return Classification(overrides[name], f"config: tools.{name}")
        patterns = [p for p in overrides if "*" in p or "?" in p or "[" in p]
        for pattern in sorted(patterns, key=len, reverse=True):
            if fnmatch.fnmatchcase(name, pattern):
                return Classification(overrides[pattern], f"config: tools.{pattern}")
    if name in BUILTIN:
        return Classification(BUILTIN[name], "builtin")
    return Classification(ToolClass.UNKNOWN, "default: unknown")
