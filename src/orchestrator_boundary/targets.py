"""The policy's first stage: what a call touches. ADR 0020.

Pure: from the payload, the compiled config and the Context, the call's session, its tool
class, the Bash analysis, and its targets in the order the tool would touch them, each with
the rules that apply to it. The rules themselves are in ``policy``.
"""

from __future__ import annotations

import functools
import ntpath
import posixpath
from collections.abc import Callable, Mapping

from orchestrator_boundary.context import Context
from orchestrator_boundary.paths import Located, locate
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.profiles import Named, judged_as_main, profile
from orchestrator_boundary.protect import hit
from orchestrator_boundary.ruleset import RuleSet
from orchestrator_boundary.session import Session, detect
from orchestrator_boundary.skills import SKILL_TOOLS, loaded_commands
from orchestrator_boundary.tools import (
    BUILTIN,
    COMMAND_KEYS,
    PATH_KEYS,
    Classification,
    ToolClass,
    classify,
    says_it_changes,
)
from orchestrator_boundary.values import replace, transient

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:  # the Bash analysis is imported by the calls that have a command (a Read
    # never does)
    from orchestrator_boundary.bash.model import BashAnalysis, Effect


@transient
class Target:
    """One thing the call changes, and which target rules apply to it."""

    located: Located
    shown: str  # how the assessment lists it ("?" when nothing could be named)
    command: str = ""  # for Bash: the command part that has the effect
    deletes: bool = False  # a Bash delete: the root itself is no anchor then
    tamper: bool = True  # checked against the protected set
    config: bool = True  # blocked while the config is broken
    write: bool = True  # checked against the write rules
    named: bool = True  # a broken-config violation names this target (else no path)
    control: bool = False  # runs this product's CLI to change the boundary itself (TAMPER)
    # the text does not fix the target (a glob, a variable, after a cd that was not followed):
    # checked for the protected files it could name. ``words``: text that did not parse, each
    # word of it a guess
    guessed: bool = False
    words: bool = False
    # the words of a command the analysis does not know (opaque): a program handed a protected
    # file by name may write it; env files excepted, which loaders and `source` read
    opaque: bool = False
    names: tuple[tuple[str, bool], ...] = ()  # find -delete: only entries with these names
    unchecked: bool = False  # the part of an input past the scan bounds: it could name anything


@transient
class Call:
    """A call as the rules read it."""

    payload: HookPayload
    rules: RuleSet
    context: Context
    session: Session
    classification: Classification
    main: bool  # judged by the main agent's rules: its own call (or a fork's, ADR 0032)
    insensitive: bool  # the root's file system compares names case-insensitively
    profile: Named | None  # a subagent's profile (None: the main agent, or no profile)
    targets: tuple[Target, ...] = ()
    analysis: BashAnalysis | None = None
    command: str | None = None  # Bash: the command text, when there is one; Code Mode: its code


# A call's targets, its Bash analysis and command text (None for other tools).
Touches = tuple[tuple[Target, ...], "BashAnalysis | None", str | None]
# What works out a call's touches reads: the payload, the compiled config, the Context, whether
# the main agent's rules apply, whether the root folds case (so the Call is built once).
Touch = Callable[[HookPayload, RuleSet, Context, bool, bool], Touches]


def _named_path(payload: HookPayload) -> str | None:
    key = PATH_KEYS.get(payload.tool_name)
    for k in (key,) if key else ("file_path", "notebook_path", "path"):
        named = payload.tool_input.get(k)
        if isinstance(named, str) and named:
            return named
    return None


def _write_touches(
    payload: HookPayload, rules: RuleSet, context: Context, main: bool, insensitive: bool
) -> Touches:
    raw = _named_path(payload)
    if raw is None:
        missing = Located("", (), (), "the tool input names no file")
        return (Target(missing, "?", tamper=False, named=False),), None, None
    located = locate(home_expanded(raw, context), context.root, context.fs, insensitive)
    return (Target(located, located.display),), None, None


def home_expanded(raw: str, context: Context) -> str:
    """``raw`` as Claude Code's file tools read it: ``~`` and ``~/...`` (``~\\`` on Windows)
    are in the home folder."""
    seps = ("/", "\\") if context.fs.windows else ("/",)
    if context.home and raw[:1] == "~" and (len(raw) == 1 or raw[1] in seps):
        return context.home.rstrip("/\\") + raw[1:]
    return raw


def _effect_target(context: Context, main: bool, insensitive: bool, effect: Effect) -> Target:
    if effect.changes_boundary:  # `orchestrator-boundary phase off`, by any route
        located = Located(effect.path, (), (), "changes the boundary itself")
        shown = effect.path or "orchestrator-boundary"
        return Target(located, shown, effect.command, control=True, write=False, named=False)
    deletes = effect.deletes
    if effect.resolved is None:
        unknown = "the target cannot be determined from the command text"
        # no text of the target kept (PowerShell's `-Path "$env:X\\..."`): the words of its
        # command are the guess (ADR 0066)
        words = not effect.path and bool(effect.command)
        located = Located(effect.path or effect.command, (), (), unknown)
        shown = effect.path or "?"
        return Target(
            located, shown, effect.command, deletes, config=main, write=main, guessed=True,
            words=words,
        )  # fmt: skip
    located = locate(effect.resolved, context.root, context.fs, insensitive)
    return Target(located, located.display, effect.command, deletes, names=effect.names)


SCRIPT_MAX_BYTES = 64 * 1024  # a longer script stays opaque, unread
SCRIPT_ROUNDS = 3  # scripts that run scripts: this many levels are read


def analysed(
    command: str, cwd: str, rules: RuleSet, context: Context, shell: str = "bash"
) -> BashAnalysis:
    """The Bash analysis of ``command``, with the text of every script file it runs (``sh F``,
    ``source F``, ``./F``) read through the file system and analysed with it, up to
    SCRIPT_ROUNDS levels (ADR 0040). A script stays ``opaque`` (it may change before it runs);
    its writes and changes of the boundary count as the command's own."""
    analyze = _analyze()
    analysis = analyze(
        command, cwd=cwd, home=context.home, read_only_commands=rules.read_only, shell=shell
    )
    if not analysis.scripts:  # most commands run no script file
        return analysis
    read: dict[str, str | None] = {}
    for _ in range(SCRIPT_ROUNDS):
        wanted = [path for path in analysis.scripts if path not in read]
        if not wanted:
            break
        for path in wanted:
            read[path] = context.fs.script_text(path, SCRIPT_MAX_BYTES)
        texts = {path: text for path, text in read.items() if text is not None}
        if not texts:
            break
        analysis = analyze(
            command,
            cwd=cwd,
            home=context.home,
            read_only_commands=rules.read_only,
            shell=shell,
            scripts=texts,
        )
    return analysis


@functools.cache
def _analyze() -> Callable[..., BashAnalysis]:
    """``bash.analyze``, imported by the first call with a command (a Read never loads the
    analysis; an import statement run on every call costs half of a remembered analysis)."""
    import orchestrator_boundary.bash as bash

    return bash.analyze


def _bash_touches(
    payload: HookPayload, rules: RuleSet, context: Context, main: bool, insensitive: bool
) -> Touches:
    tool_input = payload.tool_input
    key, language = COMMAND_KEYS.get(payload.tool_name, ("command", "bash"))
    command = tool_input.get(key)
    if language == "code":  # Code Mode: no shell text; the policy judges it as opaque
        return (), None, command if isinstance(command, str) else ""
    if command is None and "ws" in tool_input and payload.tool_name == "Monitor":
        return (), None, None  # Monitor watching a WebSocket runs nothing
    if not isinstance(command, str):
        missing = Located("", (), (), "no command text")
        return (Target(missing, "?", "?", tamper=False, write=main, named=False),), None, None
    shell = "powershell" if language == "powershell" else "bash"
    return _shell_touches(command, payload, rules, context, main, insensitive, shell)


def _shell_touches(
    command: str,
    payload: HookPayload,
    rules: RuleSet,
    context: Context,
    main: bool,
    insensitive: bool,
    shell: str = "bash",
) -> Touches:
    """What a shell command touches: the Bash analysis's effects, and its words when the text
    does not parse, else the words of its opaque commands (ADR 0055)."""
    analysis = analysed(command, payload.cwd or context.root, rules, context, shell)
    targets = tuple(_effect_target(context, main, insensitive, e) for e in analysis.effects)
    return targets + _word_targets(command, analysis), analysis, command


def _word_targets(command: str, analysis: BashAnalysis) -> tuple[Target, ...]:
    """The words of a command that did not parse, else those of its opaque commands (a
    program handed a protected file by name, ADR 0055), each checked for the protected
    entry it could name."""
    if analysis.unread:  # its words may name a protected file
        text = Located(command, (), (), analysis.error or "the command text does not parse")
        return (
            Target(text, "", command[:200], True, config=False, write=False, named=False,
                   guessed=True, words=True),
        )  # fmt: skip
    return tuple(
        Target(Located(_arguments_of(cmd.text, cmd.program), (), (), "an opaque command's words"),
               "", cmd.text[:200], config=False, write=False, named=False, guessed=True,
               words=True, opaque=True)
        for cmd in analysis.opaque[:32]
    )  # fmt: skip


def _arguments_of(text: str, program: str) -> str:
    """``text`` without the word that names the program it runs: running the interpreter
    (``.venv/bin/python -m pytest``) or a script does not change it (ADR 0066)."""
    words, name = text.split(" "), _name_of(program)
    at = next((i for i, w in enumerate(words) if name and _name_of(w) == name), None)
    return text if at is None else " ".join(words[:at] + words[at + 1 :])


def _name_of(word: str) -> str:
    return word.strip("\"'").replace("\\", "/").rpartition("/")[2]


SKILL_CLASS = Classification(ToolClass.EXECUTE, "builtin: Skill runs the file's ! commands")


def _skill_touches(
    payload: HookPayload, rules: RuleSet, context: Context, main: bool, insensitive: bool
) -> Touches:
    """The commands of the skill or command file the call loads, as one Bash command; nothing
    when no file is found (a built-in or plugin skill) or it runs no command."""
    commands = loaded_commands(payload, context)
    if not commands:
        return (), None, None
    command = "\n".join(commands)
    return _shell_touches(command, payload, rules, context, main, insensitive)


def _names_protected(raw: str, payload: HookPayload, context: Context) -> bool:
    """``raw``, read as a path (as it is, against the payload's cwd, against the root), names
    a protected entry: a cheap test on the text, without the file system (the tamper rule then
    checks the target in full)."""
    mod = ntpath if context.fs.windows else posixpath
    if mod.isabs(raw):
        readings = [mod.normpath(raw)]
    else:
        bases = dict.fromkeys(b for b in (payload.cwd, context.root) if b and mod.isabs(b))
        readings = [mod.normpath(mod.join(base, raw)) for base in bases]
    anchors = (context.root, context.home) if context.home else (context.root,)
    return any(
        hit(Located(raw, (reading,), (), ""), context.protected, anchors) is not None
        for reading in readings
    )


def _command_targets(
    command: str, payload: HookPayload, rules: RuleSet, context: Context, insensitive: bool,
    words: bool = True,
) -> list[Target]:  # fmt: skip
    """A command line an unknown tool runs (an MCP shell tool): the Bash analysis's effects,
    each checked by the tamper rule only (running the product's CLI, a protected file)."""
    analysis = analysed(command, payload.cwd or context.root, rules, context)
    targets = [
        replace(_effect_target(context, False, insensitive, e), config=False, write=False)
        for e in analysis.effects
    ]
    # its words too, as a Bash command's (ADR 0066): `frob .claude/settings.json` by MCP
    if words or analysis.unread:
        targets += _word_targets(command, analysis)
    return targets


LOOSE_LOCATED = 256  # loose strings of an unknown tool's input looked up in the file system


def _unknown_touches(
    payload: HookPayload, rules: RuleSet, context: Context, main: bool, insensitive: bool
) -> Touches:
    """An unknown tool (an MCP server, a plugin) may write: any argument that names a file,
    any other string that names a protected entry, and a glob when its name says it changes
    files, meet the protected set; a command line it runs is analysed as Bash (issue 13)."""
    from orchestrator_boundary.tool_args import OVERFLOW, arguments  # only an unknown tool's

    found = arguments(payload.tool_input, context.home, says_it_changes(payload.tool_name))
    # a loose string is read through the file system too (a symlinked folder, a hard link:
    # ``cl/settings.json`` under a key named ``name``); past the first few, by its text only
    loose = found.loose[:LOOSE_LOCATED]
    raws = found.paths + loose
    raws += [r for r in found.loose[LOOSE_LOCATED:] if _names_protected(r, payload, context)]
    targets = []
    for raw in raws:
        located = locate(raw, context.root, context.fs, insensitive)
        targets.append(Target(located, located.display, config=False, write=False))
        if any(c in raw for c in "*?[") and says_it_changes(payload.tool_name):  # ADR 0074
            glob = Located(raw, (), (), "a glob the tool expands")  # as a Bash glob is read
            targets.append(Target(glob, raw, config=False, write=False, guessed=True))
    for command in found.commands:
        words = command not in found.code  # code is read as code (its reads stay allowed)
        targets += _command_targets(command, payload, rules, context, insensitive, words)
    if not found.complete:  # what was not looked at could name a protected file; fails closed
        unchecked = Located("", (), (), OVERFLOW)
        targets.append(Target(unchecked, "?", config=False, named=False, unchecked=True))
    return tuple(targets), None, None


# Tools of another class that save files where their input says: Artifact's read_file saves
# "<out_dir>/<published path>", read_db with out_dir JSON files (2.1.330). The folder is the
# target: a write into it, TAMPER when it is or holds a protected entry (as ``tar -C DIR x``).
OUT_DIR_TOOLS = frozenset({"Artifact", "ArtifactData"})


def _out_dir_touches(
    payload: HookPayload, rules: RuleSet, context: Context, main: bool, insensitive: bool
) -> Touches:
    out_dir = payload.tool_input.get("out_dir")
    if not isinstance(out_dir, str) or not out_dir:
        return (), None, None
    located = locate(out_dir, context.root, context.fs, insensitive)
    return (Target(located, located.display),), None, None


# What each tool class touches: a table over every member (tests/test_enums.py), so a new class
# cannot be forgotten; None: nothing the policy checks.
TOUCHES: Mapping[ToolClass, Touch | None] = {
    ToolClass.WRITE: _write_touches,
    ToolClass.EXECUTE: _bash_touches,
    ToolClass.UNKNOWN: _unknown_touches,  # may write: its path arguments meet the guard
    ToolClass.READ: None,
    ToolClass.SEARCH: None,
    ToolClass.COORDINATE: None,
    ToolClass.DELEGATE: None,
    ToolClass.NETWORK: None,
}


def _reclassified(tool: str, classification: Classification) -> bool:
    """A tool the config calls ``write`` or ``execute`` that Claude Code does not have (an MCP
    tool), or one a config pattern calls anything else while its name says it changes files
    (ADR 0066): its input may name a protected file anywhere, so the guard still reads all of
    it, as an unknown tool's (issue 13 point 7). A class says what it does, not where."""
    source, cls = classification.source, classification.tool_class
    if not source.startswith("config:") or tool in BUILTIN:
        return False
    pattern = any(c in source for c in "*?[")
    return cls in (ToolClass.WRITE, ToolClass.EXECUTE) or (pattern and says_it_changes(tool))


def touched(payload: HookPayload, rules: RuleSet, context: Context) -> Call:
    """The call and everything it touches."""
    session = detect(payload)
    classification = classify(payload.tool_name, rules.config.tools)
    insensitive = context.fs.case_insensitive(context.root)
    main = judged_as_main(session, rules)
    named = None if main else profile(rules.config.agents, session.agent_type)
    touch = TOUCHES[classification.tool_class] if payload.tool_name else None
    builtin = classification.source == "builtin"
    if touch is None and builtin and payload.tool_name in OUT_DIR_TOOLS:
        touch = _out_dir_touches
    if builtin and payload.tool_name in SKILL_TOOLS:  # ADR 0053
        targets, analysis, command = _skill_touches(payload, rules, context, main, insensitive)
        if command is not None:  # it runs commands: judged as Bash is
            return Call(
                payload, rules, context, session, SKILL_CLASS, main, insensitive, named,
                targets, analysis, command,
            )  # fmt: skip
    args = (payload, rules, context, main, insensitive)
    if touch is None and (builtin or not _reclassified(payload.tool_name, classification)):
        return Call(payload, rules, context, session, classification, main, insensitive, named)
    targets, analysis, command = touch(*args) if touch else ((), None, None)
    if _reclassified(payload.tool_name, classification):  # checked first: TAMPER wins
        targets = _unknown_touches(payload, rules, context, main, insensitive)[0] + targets
    return Call(
        payload, rules, context, session, classification, main, insensitive, named,
        targets, analysis, command,
    )  # fmt: skip
