"""The policy's first stage: what a call touches. ADR 0020.

Pure: from the payload, the compiled config and the Context, the call's session, its tool
class, the Bash analysis, and its targets in the order the tool would touch them, each with
the rules that apply to it. The rules themselves are in ``policy``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from orchestrator_boundary import bash
from orchestrator_boundary.bash.model import BashAnalysis, Effect, EffectKind
from orchestrator_boundary.context import Context
from orchestrator_boundary.paths import Located, locate
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.ruleset import RuleSet
from orchestrator_boundary.session import Session, SessionKind, detect
from orchestrator_boundary.tools import PATH_KEYS, Classification, ToolClass, classify
from orchestrator_boundary.value import value

# Argument names that name a file in tools the policy does not know (MCP servers, plugins).
_PATH_ARGS = frozenset(
    {
        "file_path",
        "filepath",
        "filePath",
        "path",
        "notebook_path",
        "filename",
        "file",
        "target",
        "target_path",
        "destination",
        "dest",
        "source",
        "source_path",
        "new_path",
        "old_path",
        "directory",
        "dir",
        "uri",
    }
)
_PATH_LIST_ARGS = frozenset({"paths", "files", "file_paths", "sources"})


@value
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


@value
class Call:
    """A call as the rules read it."""

    payload: HookPayload
    rules: RuleSet
    context: Context
    session: Session
    classification: Classification
    main: bool  # the orchestrator's own call
    insensitive: bool  # the root's file system compares names case-insensitively
    targets: tuple[Target, ...] = ()
    analysis: BashAnalysis | None = None
    command: str | None = None  # Bash: the command text, when there is one


# A call's targets, its Bash analysis and command text (None for other tools).
Touches = tuple[tuple[Target, ...], BashAnalysis | None, str | None]


def _named_paths(payload: HookPayload) -> list[str] | None:
    key = PATH_KEYS.get(payload.tool_name)
    keys = (key,) if key else ("file_path", "notebook_path", "path")
    for k in keys:
        named = payload.tool_input.get(k)
        if isinstance(named, str) and named:
            return [named]
    return None


def _path_arguments(tool_input: dict[str, object]) -> list[str]:
    out: list[str] = []
    for key, arg in tool_input.items():
        if key in _PATH_ARGS and isinstance(arg, str) and arg:
            out.append(arg.removeprefix("file://"))
        elif key in _PATH_LIST_ARGS and isinstance(arg, list):
            out.extend(v.removeprefix("file://") for v in arg[:64] if isinstance(v, str) and v)
    return out[:64]


def _write_targets(call: Call) -> tuple[Target, ...]:
    raws = _named_paths(call.payload)
    if raws is None:
        missing = Located("", (), (), "the tool input names no file")
        return (Target(missing, "?", tamper=False, named=False),)
    targets = []
    for raw in raws:
        located = locate(raw, call.context.root, call.context.fs, call.insensitive)
        targets.append(Target(located, located.display))
    return tuple(targets)


def _effect_target(call: Call, effect: Effect) -> Target:
    if effect.resolved is None:
        unknown = "the target cannot be determined from the command text"
        located = Located(effect.path, (), (), unknown)
        main = call.main
        shown = effect.path or "?"
        return Target(located, shown, effect.command, tamper=False, config=main, write=main)
    located = locate(effect.resolved, call.context.root, call.context.fs, call.insensitive)
    deletes = effect.kind is EffectKind.DELETE
    return Target(located, located.display, effect.command, deletes)


def _bash_touches(call: Call) -> Touches:
    command = call.payload.tool_input.get("command")
    if not isinstance(command, str):
        missing = Located("", (), (), "no command text")
        return (Target(missing, "?", "?", tamper=False, write=call.main, named=False),), None, None
    analysis = bash.analyze(
        command,
        cwd=call.payload.cwd or call.context.root,
        home=call.context.home,
        read_only_commands=call.rules.read_only,
        shell="powershell" if call.payload.tool_name == "PowerShell" else "bash",
    )
    return tuple(_effect_target(call, e) for e in analysis.effects), analysis, command


def _unknown_targets(call: Call) -> tuple[Target, ...]:
    """An unknown tool (an MCP filesystem server, a plugin) may write: any argument that
    names a file is checked against the protected set."""
    targets = []
    for raw in _path_arguments(call.payload.tool_input):
        located = locate(raw, call.context.root, call.context.fs, call.insensitive)
        targets.append(Target(located, located.display, config=False, write=False))
    return tuple(targets)


def _write_touches(call: Call) -> Touches:
    return _write_targets(call), None, None


def _unknown_touches(call: Call) -> Touches:
    return _unknown_targets(call), None, None


# What each tool class touches: a table over every member (tests/test_enums.py), so a new class
# cannot be forgotten; None: nothing the policy checks.
TOUCHES: Mapping[ToolClass, Callable[[Call], Touches] | None] = {
    ToolClass.WRITE: _write_touches,
    ToolClass.EXECUTE: _bash_touches,
    ToolClass.UNKNOWN: _unknown_touches,  # may write: its path arguments meet the guard
    ToolClass.READ: None,
    ToolClass.SEARCH: None,
    ToolClass.COORDINATE: None,
    ToolClass.DELEGATE: None,
    ToolClass.NETWORK: None,
}


def touched(payload: HookPayload, rules: RuleSet, context: Context) -> Call:
    """The call and everything it touches."""
    session = detect(payload)
    classification = classify(payload.tool_name, rules.config.tools)
    insensitive = context.fs.case_insensitive(context.root)
    main = session.kind is SessionKind.MAIN
    call = Call(payload, rules, context, session, classification, main, insensitive)
    touch = TOUCHES[classification.tool_class] if payload.tool_name else None
    if touch is None:
        return call
    targets, analysis, command = touch(call)
    return Call(
        payload, rules, context, session, classification, main, insensitive,
        targets, analysis, command,
    )  # fmt: skip
