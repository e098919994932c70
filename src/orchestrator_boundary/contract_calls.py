"""The delegation-contract rules of a whole call, not of one target (ADR 27): an Agent or
Workflow call's contract (DELEGATION_INVALID, after TOOL_NOT_ALLOWED), and a narrowed
subagent's tool whose writes the guard cannot see (DELEGATION_SCOPE, after the target rules;
ADR 0085). Pure, as ``contract_rules``."""

from __future__ import annotations

from orchestrator_boundary.targets import Call
from orchestrator_boundary.tools import COMMAND_KEYS, ToolClass
from orchestrator_boundary.violation import Code, Violation

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy (a hook does not import typing)
if TYPE_CHECKING:
    from orchestrator_boundary.contracts import Breach
    from orchestrator_boundary.delegation import Ledger

PRE = "PreToolUse"
AGENT_TOOLS = frozenset({"Agent", "Task"})


def _violation(found: Breach, command: str = "") -> Violation:
    return Violation(
        Code(found.code),
        found.rule,
        found.reason,
        found.suggestion,
        found.path,
        command or found.command,
    )


def narrowing(call: Call, ledger: Ledger) -> tuple[str, tuple[str, ...] | None, bool] | None:
    """(its scope, its Run: line, whether the Run: rule binds without one) for a subagent's
    PreToolUse under a delegation that narrows, or an unknown one under ``require``."""
    from orchestrator_boundary.delegation import Delegation, UnknownDelegation

    record = None if call.main or call.payload.hook_event_name != PRE else ledger.record()
    require = call.rules.contracts.require
    if isinstance(record, UnknownDelegation) and (require or record.contested):
        return f"a delegation not known ({record.reason})", None, True  # as its writes
    if isinstance(record, Delegation) and record.scope.sets:
        return record.scope.describe(), record.run, require
    return None


# Code Mode (REPL, JavaScript, the older Eval): code no analysis reads
CODE_TOOLS = frozenset(name for name, (_, language) in COMMAND_KEYS.items() if language == "code")


def tool_contract(call: Call, found: object) -> Violation | None:
    """A narrowed subagent's tool whose writes the guard cannot see: Code Mode, or an unknown
    (MCP) tool whose input names no file and no command (``mcp__db__migrate {}``). An opaque
    command by another name: under ``require`` or a ``Run:`` line, refused unless that line
    names the tool (``Run: mcp__db__migrate``). ADR 0085."""
    cls, tool, ledger = call.classification.tool_class, call.payload.tool_name, call.context.ledger
    # a tool the config calls "execute" with no command the analysis reads runs unseen too
    runs = cls is ToolClass.EXECUTE and tool not in COMMAND_KEYS
    if call.main or ledger is None or not (tool in CODE_TOOLS or cls is ToolClass.UNKNOWN or runs):
        return None
    if (tool not in CODE_TOOLS and _places(call)) or (narrowed := narrowing(call, ledger)) is None:
        return None
    from orchestrator_boundary.directives import unlisted_tool

    return unlisted_tool(narrowed[1], narrowed[0], tool, require=narrowed[2])


def agent_contract(call: Call, found: object) -> Violation | None:
    """An Agent call whose contract cannot be accepted (main agent or delegating subagent)."""
    payload = call.payload
    if payload.tool_name not in (*AGENT_TOOLS, "Workflow") or payload.hook_event_name != PRE:
        return None
    import orchestrator_boundary.contracts as contracts

    ledger = call.context.ledger
    caller = ledger.record() if ledger is not None and not call.main else None
    if payload.tool_name == "Workflow":
        return _workflow(call, caller)
    prompt = payload.tool_input.get("prompt")
    requested = payload.tool_input.get("subagent_type")
    got = contracts.check_launch(
        call.rules.contracts,
        prompt if isinstance(prompt, str) else "",
        requested if isinstance(requested, str) else None,
        caller,
    )
    return _violation(got) if isinstance(got, contracts.Breach) else None


def _workflow(call: Call, caller: object) -> Violation | None:
    """A Workflow call: ``directives.workflow_refusal`` (ADR 0080)."""
    from orchestrator_boundary.delegation import Delegation
    from orchestrator_boundary.directives import workflow_refusal

    narrowed = isinstance(caller, Delegation) and bool(caller.scope.sets)
    return workflow_refusal(narrowed, call.rules.contracts.require)


def _places(call: Call) -> bool:
    """Does an unknown tool's name say it only reads (``mcp__docs__lookup``,
    ``mcp__pyright__hover``: ``tools.says_it_changes``), or its input name where it writes (a
    path, a command, a pattern the scope judges as a glob), all of it read? Then it is not
    this rule's: the target rules judged what it names."""
    from orchestrator_boundary.tool_args import arguments
    from orchestrator_boundary.tools import says_it_changes

    payload = call.payload
    if not (changes := says_it_changes(payload.tool_name)):
        return True
    found = arguments(payload.tool_input, call.context.home, changes)
    named = found.paths or found.commands or any(t.guessed for t in call.targets)
    return found.complete and bool(named)
