"""The write rules: where the main agent and each subagent may write, and no write while the
config is broken. ADR 0002, 0004, 0005.

The main agent writes only what ``[orchestrator] write_allow`` (and for Bash
``[bash] allow_write``) covers, and with its file tools the files Claude Code keeps for the
session and tells it to write there: the plan file in plan mode, the project's auto-memory and
the Workflow tool's script (``claude_session_file``, ADR 0053). A subagent writes only inside
its profile's ``write_scope``, else inside the project root, plus ``[subagents]
write_outside_root`` either way. Within a scope an exclusion beats an inclusion (``scope``).

A file in a worktree Claude Code made (``.claude/worktrees/NAME/``: EnterWorktree, an Agent
with ``isolation: "worktree"``) is the same project file on another branch: the patterns also
read it relative to that worktree, and an exclusion on either reading still wins (ADR 0053).
"""

from __future__ import annotations

import ntpath
import posixpath
import re
from collections.abc import Sequence

from orchestrator_boundary import scope
from orchestrator_boundary.paths import ROOT_ITSELF, Located, locate
from orchestrator_boundary.profiles import main_label
from orchestrator_boundary.skills import skill_call
from orchestrator_boundary.suggest import delegate_hint
from orchestrator_boundary.targets import SKILL_CLASS, Call, Target
from orchestrator_boundary.tools import ToolClass, says_it_changes
from orchestrator_boundary.violation import Code, Violation


def config_blocks(call: Call, path: str | None, command: str = "") -> Violation | None:
    problem = call.context.config_problem
    if problem is None:
        return None
    return Violation(
        Code.CONFIG_INVALID,
        f"config: {problem.file}",
        f"the boundary config is broken ({problem}); writes stay blocked until it is fixed.",
        f"Ask the user to fix {problem.file}"
        + (f" (key {problem.key!r})" if problem.key else "")
        + ", then retry.",
        path,
        command,
    )


def broken_config(call: Call, target: Target) -> Violation | None:
    if not target.config or call.context.config_problem is None:
        return None
    if not target.named:
        return config_blocks(call, None)
    return config_blocks(call, target.located.display, target.command)


def session_folders(
    transcript_path: str, session_id: str, windows: bool
) -> tuple[tuple[str, str], ...]:
    """The folders Claude Code 2.1.330 keeps for the session and tells the main agent to write
    with its file tools, each with the suffix of the files it holds there, found from the
    payload's ``transcript_path`` (``CONFIG/projects/PROJECT/SESSION.jsonl``):

    - ``CONFIG/plans``, ``.md``: plan mode, "Write your final plan to the plan file (the only
      file you can edit)";
    - ``CONFIG/projects/PROJECT/memory``, ``.md``: auto-memory, "write to it directly with the
      Write tool";
    - ``CONFIG/projects/PROJECT/SESSION/workflows/scripts``, ``.js``: the Workflow tool's
      persisted script, "Edit this file with Write/Edit and re-invoke Workflow".

    Empty when the path is not shaped so."""
    mod = ntpath if windows else posixpath
    if not transcript_path or "\x00" in transcript_path or not mod.isabs(transcript_path):
        return ()
    project = mod.dirname(mod.normpath(transcript_path))
    projects = mod.dirname(project)
    if mod.basename(projects) != "projects" or not mod.basename(project):
        return ()
    out: tuple[tuple[str, str], ...] = (
        (mod.join(mod.dirname(projects), "plans"), ".md"),
        (mod.join(project, "memory"), ".md"),
    )
    if session_id and session_id.strip(". ") and not any(c in session_id for c in "/\\\x00:"):
        out += ((mod.join(project, session_id, "workflows", "scripts"), ".js"),)
    return out


def claude_session_file(call: Call, located: Located) -> bool:
    """``located`` is a file of the right kind directly in one of the session's folders, on
    every reading, as resolved: the folder is not a link into the project (or to a folder of
    another name), and the file is not a link out of it."""
    if located.inside or not located.absolutes:
        return False
    windows = call.context.fs.windows
    mod = ntpath if windows else posixpath
    payload = call.payload
    for folder, suffix in session_folders(payload.transcript_path, payload.session_id, windows):
        try:
            real = call.context.fs.realpath(folder)
        except (OSError, ValueError):
            continue
        if mod.basename(real) != mod.basename(folder):  # a link to a folder named otherwise
            continue
        if all(
            mod.dirname(a) == real and a.lower().endswith(suffix) and mod.basename(a) != suffix
            for a in located.absolutes
        ):
            return True
    return False


def _ran(call: Call, command: str) -> str:
    """How a message names the command that writes: as it is, or as a skill's line (the model
    sent no command: the skill it loaded runs it, ADR 0053)."""
    if call.classification is SKILL_CLASS:
        name = skill_call(call.payload)[0]
        return f"the skill {name!r} runs `{command}`; that"
    return f"`{command}`"


def _orchestrator_write(
    call: Call, located: Located, command: str, makes_folder: bool
) -> Violation | None:
    if not command and claude_session_file(call, located):
        return None
    allow = call.rules.allow_bash if command else call.rules.allow
    if scope.check_in_worktree(located, allow, call.insensitive).allowed:
        return None
    if makes_folder and _on_the_way(located, allow, call.insensitive):
        return None
    rule = "orchestrator.write_allow" + (" + bash.allow_write" if command else "")
    shown = located.display
    where = shown + ("" if located.inside else f" ({located.problem})")
    tool = call.payload.tool_name
    what = f"{_ran(call, command)} writes {where}" if command else f"this {tool} changes {where}"
    return Violation(
        Code.BASH_WRITE if command else Code.ORCHESTRATOR_WRITE,
        rule,
        f"{main_label(call.session)} may not change files itself: {what}, which is not in {rule}.",
        delegate_hint(call.rules.writers, shown, tool, call.context.agent_types),
        shown,
        command,
    )


def _subagent_write(
    call: Call, located: Located, command: str, makes_folder: bool
) -> Violation | None:
    named = call.profile
    if named is not None and named[1].write_scope is not None:
        rule = f"agents.{named[0]}.write_scope"
        patterns = call.rules.scopes[named[0]]
    else:
        rule = "project root + subagents.write_outside_root"
        # a Bash effect on the root folder itself (tar x, git checkout -- .) is inside it
        if located.inside or (command and located.problem == ROOT_ITSELF):
            return None
        patterns = call.rules.outside
    match = scope.check_in_worktree(located, patterns, call.insensitive)
    if match.allowed or (makes_folder and _on_the_way(located, patterns, call.insensitive)):
        return None
    why = (
        f"excluded by {match.excluded_by!r}"
        if match.excluded_by
        else (located.problem or "no pattern covers it" + _backslash_note(patterns))
    )
    what = f"{_ran(call, command)} writes" if command else f"this {call.payload.tool_name} changes"
    return Violation(
        Code.SCOPE_VIOLATION,
        rule,
        f"{call.session.label}: {what} {located.display}, which is outside its write scope "
        f"({why}).",
        "Write only inside your scope ("
        + (", ".join(patterns) or "the project root")
        + "). If the change belongs elsewhere, report back to the main agent so it can "
        "reassign the work.",
        located.display,
        command,
    )


def _backslash_note(patterns: Sequence[str]) -> str:
    """A hint for a scope written with Windows separators: an inclusion names exactly what
    it says, and ``\\`` is no separator in it (ADR 0071), so ``src\\**`` covers nothing."""
    for text in patterns:
        if "\\" in text and not text.startswith("!") and not ntpath.splitdrive(text)[0]:
            meant = text.replace("\\", "/")
            return f"; a backslash in a pattern is not a separator: write {meant!r}"
    return ""


def _program(target: Target) -> str:
    from orchestrator_boundary.contract_rules import program_of  # a Bash write's question

    return program_of(target)


def _on_the_way(located: Located, patterns: Sequence[str], insensitive: bool) -> bool:
    from orchestrator_boundary.delegation import folder_leads_into  # loaded for mkdir only

    return folder_leads_into(located, patterns, insensitive)


def write_rule(call: Call, target: Target) -> Violation | None:
    """The write rules for one target: the main agent's allow list, a subagent's scope."""
    if not target.write:
        argument = _path_argument(call, target)
        if argument is not None and _held_folder_argument(call, argument):
            return None
        if argument is not None:  # an MCP tool's path argument meets the write_scope, ADR 0078
            return _subagent_write(call, argument, "", False)
        return _unplaced(call, target)
    if not call.main and target.command and _held_folder(call, target):
        return None
    judge = _orchestrator_write if call.main else _subagent_write
    # `mkdir -p src` for `src/**`: a folder on the way to where the agent may write (0068)
    makes_folder = bool(target.command) and _program(target) == "mkdir"
    return judge(call, target.located, target.command, makes_folder)


_ARGS: list[tuple[object, frozenset[str]]] = []  # the last unknown-tool call's path arguments


def _path_argument(call: Call, target: Target) -> Located | None:
    """An unknown tool's (an MCP server's) path argument, placed (a relative one in the
    call's cwd, where Claude Code starts the servers), when the subagent's agent type has a
    ``write_scope``: the tool may write there, so the scope judges it, as a delegation's does
    (ADR 0050, 0059). Only a tool whose name does not say it only reads; its loose strings
    stay the guard's only; a tool the config calls ``read`` has no targets at all. Each
    reading the guard made of it (a ``file:`` URI's, the home ``~`` names) is judged, a place
    outside the project too, and a variable the guard cannot read places it nowhere: a write
    to an unknown place is outside the scope (ADR 0083)."""
    named = call.profile
    if call.main or named is None or named[1].write_scope is None or target.guessed:
        return None
    if call.classification.tool_class is not ToolClass.UNKNOWN or target.unchecked:
        return None
    if not says_it_changes(call.payload.tool_name):  # mcp__fs__read_file: a read, ADR 0071
        return None
    from orchestrator_boundary.ledger_files import placed
    from orchestrator_boundary.tool_args import arguments  # only an unknown tool's

    raw = target.located.raw
    if not _ARGS or _ARGS[0][0] is not call.payload:  # once per call, not per target
        found = arguments(call.payload.tool_input, call.context.home, changes=True)
        _ARGS[:] = [(call.payload, frozenset(found.paths))]
    if raw not in _ARGS[0][1]:
        return None
    spelt = _known_variables(raw, call)
    if spelt is None:
        return Located(raw, (), (), "spelt with a variable the guard cannot read")
    located = target.located if spelt == raw else None
    if located is None or not located.absolutes:
        full = placed(spelt, call.payload.cwd or "")
        if not full:
            return Located(raw, (), (), "a relative path with no folder to place it in")
        located = locate(full, call.context.root, call.context.fs, call.insensitive)
    return located


# the variables a server (or its client) may expand in a path: VS Code's, the project's, the
# cwd's, the home's (POSIX, PowerShell, cmd); any other places the path nowhere (ADR 0083)
_VARIABLE = re.compile(
    r"\$\{(?:env:)?(\w+)\}|\$(?:env:)?([A-Za-z_]\w*)|%(\w+)%|^(~)(?=[/\\]|$)", re.I
)
_ROOT_NAMES = frozenset({"workspacefolder", "workspaceroot", "claude_project_dir"})
_HOME_NAMES = frozenset({"home", "userprofile", "~"})


def _known_variables(raw: str, call: Call) -> str | None:
    """``raw`` with the variables it is spelt with put in; None when one is unknown."""
    unknown = False

    def put(m: re.Match[str]) -> str:
        nonlocal unknown
        name = (m[1] or m[2] or m[3] or m[4] or "").lower()
        value = {"pwd": call.payload.cwd, "cd": call.payload.cwd}.get(name)
        if name in _ROOT_NAMES:
            value = call.context.root
        elif name in _HOME_NAMES:
            value = call.context.home
        unknown = unknown or not value
        return value or ""

    spelt = _VARIABLE.sub(put, raw)
    return None if unknown else spelt


def _unplaced(call: Call, target: Target) -> Violation | None:
    """A subagent's Bash write at a place the text does not fix (``cp a "$D/x"``, ``xargs
    rm``, ``patch -p0``), when its agent type has a ``write_scope``: outside it, unless it is
    a glob whose folder the scope holds entirely (``sed -i ... src/*.py`` for ``src/**``), as
    a delegation reads it (ADR 0073, 0075). Without a ``write_scope`` it may write anywhere in
    the project, and the protected set is what guards such a target."""
    named = call.profile
    if call.main or named is None or named[1].write_scope is None:
        return None
    from orchestrator_boundary.contract_rules import held_glob_folder, unplaced

    if not unplaced(call, target):
        return None
    from orchestrator_boundary.delegation import EffectiveScope, ScopeSet, holds_all_below

    rule, patterns = f"agents.{named[0]}.write_scope", named[1].write_scope
    if _anywhere(patterns):  # `**` and `/**`: no place is outside it
        return None
    folder = held_glob_folder(call, target)
    held = EffectiveScope((ScopeSet(rule, tuple(patterns)),))
    if folder is not None and holds_all_below(folder, held, call.insensitive):
        return None
    return Violation(
        Code.SCOPE_VIOLATION,
        rule,
        f"{call.session.label}: {_ran(call, target.command)} writes {target.shown}, a place the "
        "command text does not fix (a variable, a glob, a cd that cannot be followed), so it "
        "may be outside its write scope.",
        "Name each file the command changes in its text, inside your scope ("
        + ", ".join(patterns)
        + "), or change them with Edit. If the change belongs elsewhere, report back to the "
        "main agent so it can reassign the work.",
        None,
        target.command,
    )


def _held_folder(call: Call, target: Target) -> bool:
    """``ruff format src/auth`` by a subagent whose ``write_scope`` holds everything below
    ``src/auth`` (``src/auth/**``): it changes only what lies below the folder when nothing in
    it links out, as a delegation reads it (ADR 0080, 0081)."""
    named = call.profile
    if named is None or named[1].write_scope is None:
        return False
    from orchestrator_boundary.delegation import EffectiveScope, ScopeSet, holds_all_below
    from orchestrator_boundary.folder_writes import MAX_ENTRIES, folder_place
    from orchestrator_boundary.glob_places import stays_in

    folder, fs = folder_place(target), call.context.fs
    rule, patterns = f"agents.{named[0]}.write_scope", tuple(named[1].write_scope)
    held = EffectiveScope((ScopeSet(rule, patterns),))
    if folder is None or fs.windows or not folder.absolutes:
        return False
    if not holds_all_below(folder, held, call.insensitive):
        return False
    below = fs.files_below(folder.absolutes[0], MAX_ENTRIES + 1)  # links to folders too
    places = [locate(p, call.context.root, fs, call.insensitive) for p in below]
    return len(below) <= MAX_ENTRIES and stays_in(places, folder, call)


_REMOVES = frozenset(
    {"delete", "remove", "rm", "move", "rename", "mv", "unlink", "rmdir", "trash", "purge"}
    | {"wipe", "destroy", "drop", "erase", "del"}
)


def _held_folder_argument(call: Call, located: Located) -> bool:
    """An MCP tool's folder argument (``{"directory": "src"}``, a search and replace over
    ``src``) whose every file the ``write_scope`` holds, as ``_held_folder`` reads ``ruff
    format src``: not for a tool whose name says it removes or moves (the folder's own entry
    changes), nor a folder with a link out of it (ADR 0083)."""
    named, fs = call.profile, call.context.fs
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", call.payload.tool_name.rpartition("__")[2])
    if named is None or named[1].write_scope is None or fs.windows or not located.inside:
        return False
    if _REMOVES & {w.lower() for w in words} or fs.identity(located.absolutes[0]) is not None:
        return False
    from orchestrator_boundary.delegation import EffectiveScope, ScopeSet, holds_all_below
    from orchestrator_boundary.folder_writes import MAX_ENTRIES
    from orchestrator_boundary.glob_places import stays_in

    rule, patterns = f"agents.{named[0]}.write_scope", tuple(named[1].write_scope)
    if not holds_all_below(located, EffectiveScope((ScopeSet(rule, patterns),)), call.insensitive):
        return False
    below = fs.files_below(located.absolutes[0], MAX_ENTRIES + 1)  # links to folders too
    places = [locate(p, call.context.root, fs, call.insensitive) for p in below]
    return 0 < len(below) <= MAX_ENTRIES and stays_in(places, located, call)


def _anywhere(patterns: Sequence[str]) -> bool:
    """A scope that holds every path: everything in the project and everything outside it,
    with no exclusion (``["**", "/**"]``)."""
    if any(p.startswith("!") for p in patterns):
        return False
    return any(p in ("**", "**/*") for p in patterns) and any(
        p in ("/**", "/**/*") for p in patterns
    )
