"""Tool classification: every tool name maps to one class; unknown names are ``unknown``.

The classes, and how the policy judges each (``policy.assess``):

``read``
    Reads files or state, changes nothing (Read, TaskOutput, the MCP resource readers).
    Allowed to every agent.
``search``
    Finds files or symbols, changes nothing (Glob, Grep, LSP, ToolSearch). Allowed to every agent.
``coordinate``
    Steers the work and the session without changing a project file: task lists (TaskCreate,
    TaskUpdate...), messages to agents and the user (SendMessage, AskUserQuestion,
    PushNotification), schedules (CronCreate, ScheduleWakeup), plan mode, skills, worktrees.
    Allowed to every agent: the orchestrator's own job.
``delegate``
    Hands work to other agents (Agent, Workflow, RemoteTrigger). Allowed to every agent; the
    agents it starts are judged as subagents.
``write``
    Changes the file named in its input (Write, Edit, NotebookEdit: ``PATH_KEYS``). The
    orchestrator only inside ``orchestrator.write_allow``, a subagent inside its write scope.
``execute``
    Runs a command whose effects are read from its text (Bash, PowerShell, Monitor: the command
    in ``COMMAND_KEYS``), or code that cannot be read as a shell command (REPL, Code Mode:
    judged like an opaque command, and each tool its code calls fires its own hooks).
``network``
    Talks to the outside world and changes no project file (WebFetch, WebSearch, Artifact,
    Projects). Allowed to every agent.
``unknown``
    Anything else: MCP tools, plugin tools, names newer than this table. Treated like a write:
    denied to the orchestrator unless ``[orchestrator] allow_tools`` names it, and any argument
    that names a file is checked against the protected files.

Users reclassify tools in the config (``[tools]``) by exact name or by an anchored ``*``
pattern such as ``mcp__github__get_*``; an exact name wins over a pattern, a longer pattern
over a shorter one. Profiles (``[agents.NAME] tools``) list tool names, patterns or class
names; a name Claude Code has since renamed or split covers its successors
(``expand_profile_names``), and a name no tool has is reported with a suggestion
(``unknown_tool_names``).
"""

from __future__ import annotations

import enum
import fnmatch
from collections.abc import Iterable, Mapping

from orchestrator_boundary.values import transient


class ToolClass(enum.StrEnum):
    READ = "read"
    SEARCH = "search"
    COORDINATE = "coordinate"
    DELEGATE = "delegate"
    WRITE = "write"
    EXECUTE = "execute"
    NETWORK = "network"
    UNKNOWN = "unknown"


_R, _S, _C, _D = ToolClass.READ, ToolClass.SEARCH, ToolClass.COORDINATE, ToolClass.DELEGATE
_W, _X, _N = ToolClass.WRITE, ToolClass.EXECUTE, ToolClass.NETWORK

# Every tool Claude Code 2.1.330 has (its tool list, its deferred tools, its input schemas and
# its own table of names), and the older names still found in payloads. tests/e2e/
# test_cli_tools.py fails when the pinned CLI offers a name that is not here.
BUILTIN: Mapping[str, ToolClass] = {
    # read: changes nothing
    "Read": _R,
    "TaskOutput": _R,  # a background task's output
    "ListMcpResourcesTool": _R,
    "ReadMcpResourceTool": _R,
    "ReadMcpResourceDirTool": _R,
    "ReadNotifications": _R,
    # the IDE's own MCP server (VS Code, JetBrains): the problems the editor shows for a file
    "mcp__ide__getDiagnostics": _R,
    # search: changes nothing
    "Glob": _S,
    "Grep": _S,
    "LSP": _S,  # definitions, references, symbols, call hierarchy: read-only operations only
    "ToolSearch": _S,  # loads the schemas of deferred tools
    # coordinate: steers the work, changes no project file
    "TaskCreate": _C,
    "TaskGet": _C,
    "TaskList": _C,
    "TaskUpdate": _C,
    "TaskStop": _C,  # stops a background task or agent
    "SendMessage": _C,  # to a running agent; the Agent result tells the model to use it
    "ListAgents": _C,
    "SendUserMessage": _C,
    "SendUserFile": _C,  # sends a file to the user; changes none
    "PushNotification": _C,
    "AskUserQuestion": _C,
    "EnterPlanMode": _C,
    "ExitPlanMode": _C,
    "Skill": _C,  # loads instructions; what they lead to is judged call by call
    "ScheduleWakeup": _C,
    "CronCreate": _C,  # durable jobs go to the CLI's own .claude/scheduled_tasks.json
    "CronDelete": _C,
    "CronList": _C,
    # A worktree is a separate checkout on its own branch: entering one creates it (the Agent
    # tool's isolation "worktree" does the same) and moves the session there; no file of the
    # working tree changes. ExitWorktree "remove" deletes that checkout, and refuses to drop
    # uncommitted work unless discard_changes is set after the user confirmed.
    "EnterWorktree": _C,
    "ExitWorktree": _C,
    "RefreshMcpTools": _C,
    "WaitForMcpServers": _C,
    "SetGoal": _C,
    "EndConversation": _C,
    "SubagentHandback": _C,
    "ReportFindings": _C,  # review findings for the UI
    "propose_skills": _C,
    "ProposeSkills": _C,
    "ShowOnboardingRolePicker": _C,
    "ShareOnboardingGuide": _C,
    "OfferChromeSetup": _C,
    "DeferredToolPlaceholder": _C,  # offered so deferred loading stays on; never called
    # delegate: hands work to agents
    "Agent": _D,
    "Workflow": _D,  # a script of agent() calls; its agents are subagents
    "RemoteTrigger": _D,  # creates and runs remote agent sessions (not on this machine)
    # write: PATH_KEYS names the file
    "Write": _W,
    "Edit": _W,
    "NotebookEdit": _W,
    # execute: COMMAND_KEYS names the command
    "Bash": _X,
    "PowerShell": _X,
    "Monitor": _X,  # runs a shell command and streams its lines (or watches a WebSocket)
    "REPL": _X,  # Code Mode: JavaScript that calls tools; each call fires its own hooks
    "JavaScript": _X,  # listed by the CLI beside REPL among its built-in tool names
    # network: talks to the outside world, changes no project file
    "WebFetch": _N,
    "WebSearch": _N,
    # Publishes an .html file to claude.ai (reading it) and manages published artifacts;
    # read_asset alone saves a file, by default to the CLI's scratchpad outside the project.
    "Artifact": _N,
    "ArtifactComments": _N,
    "ArtifactData": _N,
    "ArtifactCheck": _N,
    "Projects": _N,  # a claude.ai project's documents (project_write uploads, never writes here)
    "ClaudeDesign": _N,
    "SendFeedback": _N,
    # older names, still in payloads of older versions (LEGACY names their successors)
    "Task": _D,
    "TodoWrite": _C,
    "KillShell": _C,
    "KillBash": _C,
    "BashOutput": _R,
    "LS": _R,
    "NotebookRead": _R,
    "MultiEdit": _W,
    "SlashCommand": _C,
    "ListPeers": _C,
    "Brief": _C,
    "ListMcpResources": _R,
    "ReadMcpResource": _R,
    "ReadMcpResourceDir": _R,
    "ProposeGoal": _C,
    "Eval": _X,
}

# The input key that names the file a write-class tool changes.
PATH_KEYS: Mapping[str, str] = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}

# The input key that holds what an execute-class tool runs, and the language of it: a shell
# the Bash analysis reads, or "code" (JavaScript, judged like an opaque command). The CLI's
# own permission rules read the same keys. Monitor may watch a WebSocket (``ws``) instead:
# then it runs nothing here.
COMMAND_KEYS: Mapping[str, tuple[str, str]] = {
    "Bash": ("command", "bash"),
    "PowerShell": ("command", "powershell"),
    "Monitor": ("command", "bash"),
    "REPL": ("code", "code"),
    "Eval": ("code", "code"),
    "JavaScript": ("code", "code"),
}

# Names Claude Code has retired, and the tools that took over what they did. A profile that
# names the old tool covers these (``expand_profile_names``). The CLI's own alias table
# (Task, KillShell, KillBash, ListPeers, Brief, the MCP resource tools, ProposeGoal, Eval),
# plus the tools that replaced TodoWrite's list, BashOutput, LS, NotebookRead, MultiEdit and
# SlashCommand with no more power than they had. TaskStop is not a TodoWrite successor: it
# stops running tasks and agents, which the todo list never could.
LEGACY: Mapping[str, frozenset[str]] = {
    "TodoWrite": frozenset({"TaskCreate", "TaskGet", "TaskList", "TaskUpdate"}),
    "Task": frozenset({"Agent"}),
    "KillShell": frozenset({"TaskStop"}),
    "KillBash": frozenset({"TaskStop"}),
    "BashOutput": frozenset({"TaskOutput"}),
    "LS": frozenset({"Glob"}),
    "NotebookRead": frozenset({"Read"}),
    "MultiEdit": frozenset({"Edit"}),
    "SlashCommand": frozenset({"Skill"}),
    "ListPeers": frozenset({"ListAgents"}),
    "Brief": frozenset({"SendUserMessage"}),
    "ListMcpResources": frozenset({"ListMcpResourcesTool"}),
    "ReadMcpResource": frozenset({"ReadMcpResourceTool"}),
    "ReadMcpResourceDir": frozenset({"ReadMcpResourceDirTool"}),
    "ProposeGoal": frozenset({"SetGoal"}),
    "Eval": frozenset({"REPL"}),
}

_CLASS_NAMES = frozenset(c.value for c in ToolClass)

# Words of an MCP tool's own name that say it changes files or runs something (write_file,
# editFile, move-file): a config pattern that calls it ``read`` keeps its input under the
# tamper guard (ADR 0066).
_CHANGES = frozenset({
    "write", "edit", "create", "delete", "remove", "move", "rename", "copy", "patch", "apply",
    "replace", "insert", "append", "update", "set", "put", "save", "upload", "mkdir", "rm", "mv",
    "cp", "touch", "truncate", "chmod", "link", "commit", "push", "exec", "execute", "run",
    "shell", "command", "install", "overwrite", "modify", "upsert", "store", "rewrite",
    "download", "export", "dump", "extract", "unzip", "clone", "checkout", "merge", "revert",
    "reset", "restore", "sync", "generate", "format", "fix", "refactor", "persist", "symlink",
})  # fmt: skip


# Words that say a tool only reads: a name with none of them may change files too (ADR 0071:
# ``overwriteFile``, ``upsert_doc``, ``download_to`` said no word of ``_CHANGES``).
_READS = frozenset({
    "read", "get", "list", "search", "find", "query", "view", "show", "describe", "stat",
    "lookup", "fetch", "browse", "inspect", "count", "diff", "log", "status", "cat", "head",
    "tail", "grep", "glob", "ls", "tree", "info", "retrieve", "select", "explain", "preview",
    # a language server's and a code navigator's questions (``mcp__pyright__hover``): a
    # scoped subagent asked them of a file outside its scope, a false alarm (ADR 0081)
    "hover", "definition", "definitions", "declaration", "implementation", "references",
    "reference", "diagnostics", "diagnostic", "symbol", "symbols", "outline", "completion",
    "completions", "signature", "highlight", "overview", "check", "validate", "think",
})  # fmt: skip


def says_it_changes(name: str) -> bool:
    """``name``'s last part (after ``mcp__server__``) holds a word of ``_CHANGES``, or no word
    that says it reads (``_READS``): it may change files."""
    import re  # only for a tool a config pattern reclassified

    words = [
        w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name.rpartition("__")[2])
    ]
    return any(w in _CHANGES for w in words) or not any(w in _READS for w in words)


def _is_pattern(entry: str) -> bool:
    return any(c in entry for c in "*?[")


def expand_profile_names(names: Iterable[str]) -> frozenset[str]:
    """The entries of a tool list, plus today's successors of every retired name in it.

    ``["Read", "TodoWrite"]`` -> ``{"Read", "TodoWrite", "TaskCreate", "TaskGet", "TaskList",
    "TaskUpdate"}``. Entries are kept as they are (class names and patterns too): a retired name
    still matches payloads of older Claude Code versions. Exact names only: a pattern is not
    expanded (``Todo*`` means what it says).
    """
    out = set(names)
    for name in list(out):
        out |= LEGACY.get(name, frozenset())
    return frozenset(out)


def _suggest(name: str) -> str | None:
    """The known name ``name`` most likely meant: the same letters in another case, else the
    closest known tool or class name. A tool name wins over the class spelled alike
    (``READ`` -> ``Read``): it allows less. The cutoff keeps ``exec`` -> ``execute`` and drops
    look-alikes such as ``Frobnicate`` -> ``CronCreate`` (0.70)."""
    folded = {k.casefold(): k for k in (*sorted(_CLASS_NAMES), *BUILTIN)}
    if name.casefold() in folded:
        return folded[name.casefold()]
    import difflib  # only for a config that names an unknown tool

    close = difflib.get_close_matches(name.casefold(), list(folded), 1, 0.72)
    return folded[close[0]] if close else None


def unknown_tool_names(names: Iterable[str]) -> list[tuple[str, str | None]]:
    """The entries of a tool list that name no tool and no class, each with the known name it
    most likely meant (or None), in the order given.

    Known: every name in ``BUILTIN`` (retired ones too: they still match older payloads), the
    class names, MCP tools (``mcp__...``, named by the user's servers) and patterns (``*``,
    ``?``, ``[``). Case matters to Claude Code, so ``bash`` is unknown and suggests ``Bash``.
    """
    out: list[tuple[str, str | None]] = []
    for name in dict.fromkeys(names):
        if name in BUILTIN or name in _CLASS_NAMES or name.startswith("mcp__"):
            continue
        if _is_pattern(name):
            continue
        out.append((name, _suggest(name)))
    return out


def _listing(names: Iterable[str]) -> str:
    items = sorted(names)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def tool_list_notes(where: str, names: Iterable[str]) -> list[str]:
    """Sentences for ``doctor`` and config checks about one tool list (``where`` is its key,
    e.g. ``agents.coder.tools``): each name no tool or class has, with what it likely meant,
    then each retired name with what it now covers."""
    given = list(names)
    notes = []
    for name, guess in unknown_tool_names(given):
        hint = f"; did you mean {guess!r}?" if guess else "."
        notes.append(f"{where}: no Claude Code tool or tool class is named {name!r}{hint}")
    for name in dict.fromkeys(given):
        if name in LEGACY:
            notes.append(f"{where}: {name} is a retired name; it covers {_listing(LEGACY[name])}.")
    return notes


@transient
class Classification:
    tool_class: ToolClass
    source: str  # "builtin", "config: tools.NAME", "default: unknown"


# Built-in tools whose class decides which part of their input the guard reads: the file a
# write tool names, the command an execute tool runs, the commands a skill runs (``skills``),
# the folder Artifact saves into (``targets.OUT_DIR_TOOLS``), the delegation contract an Agent
# call must meet (``contract_rules.AGENT_TOOLS``). ``[tools]`` does not move them:
# ``"Write" = "read"`` or a pattern such as ``"Notebook*" = "read"`` would stop every check of
# what they change, the protected files too (ADR 0071).
FIXED_CLASS = frozenset({
    *PATH_KEYS, *COMMAND_KEYS, "Skill", "SlashCommand", "Artifact", "ArtifactData", "Agent", "Task",
})  # fmt: skip


def fixed_class_names(names: Iterable[str]) -> list[str]:
    """The ``[tools]`` entries that name a built-in tool of ``FIXED_CLASS``, in the order given."""
    return [name for name in dict.fromkeys(names) if name in FIXED_CLASS]


def classify(name: str, overrides: Mapping[str, ToolClass] | None = None) -> Classification:
    if overrides and name not in FIXED_CLASS:
        if name in overrides:
            return Classification(overrides[name], f"config: tools.{name}")
        patterns = [p for p in overrides if "*" in p or "?" in p or "[" in p]
        for pattern in sorted(patterns, key=len, reverse=True):
            if fnmatch.fnmatchcase(name, pattern):
                return Classification(overrides[pattern], f"config: tools.{pattern}")
    if name in BUILTIN:
        return Classification(BUILTIN[name], "builtin")
    return Classification(ToolClass.UNKNOWN, "default: unknown")
