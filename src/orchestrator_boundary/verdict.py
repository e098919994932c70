"""From an assessment to Claude Code's answer: the phase is applied here, in one place. ADR 0005.

A call that breaks no rule gets no decision (exit 0, empty stdout): answering ``allow`` would
skip Claude Code's own permission prompts.
"""

from __future__ import annotations

import enum
import json
from typing import assert_never

from orchestrator_boundary.jsontext import flat_object
from orchestrator_boundary.phase import BYPASS_ENV, Phase
from orchestrator_boundary.rules import Assessment, Code, Violation
from orchestrator_boundary.value import value

PRE, POST = "PreToolUse", "PostToolUse"


class Decision(enum.StrEnum):
    NONE = "none"
    DENY = "deny"
    ASK = "ask"
    WARN = "warn"


@value
class Verdict:
    event: str
    assessment: Assessment
    phase: Phase
    phase_source: str
    decision: Decision
    would_deny: bool
    bypassed: bool = False
    post_block: bool = False  # PostToolUse: report a write that went through
    message: str = ""  # the reason (deny/ask/block) or warning text for the model
    system_message: str = ""  # shown to the user

    @property
    def violation(self) -> Violation | None:
        return self.assessment.violation


@value
class HookAnswer:
    exit_code: int
    stdout: str
    stderr: str = ""


def reason_text(v: Violation, tool: str) -> str:
    """A short explanation for the model, then one line of JSON for programs."""
    head = f"orchestrator-boundary blocked {tool} ({v.code}): {v.reason}"
    data = {
        "error": v.code.value,
        "reason": v.reason,
        "suggestion": v.suggestion,
        "recoverable": v.recoverable,
        "rule": v.rule,
        "tool": tool,
        "path": v.path,
    }
    if v.command:
        data["command"] = v.command
    return f"{head}\nRule: {v.rule}.\nInstead: {v.suggestion}\n{flat_object(data)}"


def decide_phase(
    event: str,
    assessment: Assessment,
    phase: Phase,
    phase_source: str,
    *,
    bypass: bool,
    bypass_opens_protected: bool,
    config_note: str = "",
) -> Verdict:
    """Apply the phase (and the bypass) to what ``enforce`` would do."""
    v = assessment.violation
    note = f"orchestrator-boundary: {config_note}" if config_note else ""

    def verdict(
        decision: Decision = Decision.NONE, message: str = "", *, post_block: bool = False
    ) -> Verdict:
        # one constructor call per answer (dataclasses.replace() of a base costs three times more)
        return Verdict(
            event,
            assessment,
            phase,
            phase_source,
            decision,
            would_deny=v is not None,
            post_block=post_block,
            message=message,
            system_message=note,
        )

    if v is None:
        return verdict(message=assessment.advisory)
    tool = assessment.tool_name
    tamper = v.code is Code.TAMPER
    if phase is Phase.OFF:
        return verdict()
    if bypass and (not tamper or bypass_opens_protected):
        text = (
            f"orchestrator-boundary is bypassed ({BYPASS_ENV} is set): {tool} would have been "
            f"denied ({v.code}: {v.reason})"
        )
        return Verdict(
            event, assessment, phase, phase_source, Decision.NONE, True, True, system_message=text
        )
    reason = reason_text(v, tool)
    if event == POST:
        block = tamper or phase is Phase.ENFORCE
        went = f"This {tool} already ran although the boundary does not allow it. "
        return verdict(message=went + reason if block else "", post_block=block)
    if tamper:
        return verdict(Decision.DENY, reason)
    match phase:
        case Phase.WARN:
            warning = (
                f"orchestrator-boundary (warn phase, nothing blocked): in enforce this call "
                f"would be denied.\n{reason}"
            )
            return verdict(Decision.WARN, warning)
        case Phase.ASK:
            return verdict(Decision.ASK, reason)
        case Phase.ENFORCE:
            return verdict(Decision.DENY, reason)
        case Phase.OFF:  # handled above; here for exhaustiveness
            return verdict()
        case other:
            assert_never(other)


def render(verdict: Verdict) -> HookAnswer:
    """The hook's stdout JSON (or nothing) for Claude Code."""
    out: dict[str, object] = {}
    specific: dict[str, object] = {"hookEventName": verdict.event}
    if verdict.event == POST:
        if verdict.post_block:
            out = {"decision": "block", "reason": verdict.message}
        elif verdict.message:
            specific["additionalContext"] = verdict.message
            out["hookSpecificOutput"] = specific
    else:
        match verdict.decision:
            case Decision.DENY | Decision.ASK:
                specific["permissionDecision"] = verdict.decision.value
                specific["permissionDecisionReason"] = verdict.message
                out["hookSpecificOutput"] = specific
            case Decision.WARN | Decision.NONE:
                if verdict.message:
                    specific["additionalContext"] = verdict.message
                    out["hookSpecificOutput"] = specific
            case other:
                assert_never(other)
    if verdict.system_message:
        out["systemMessage"] = verdict.system_message
    return HookAnswer(0, json.dumps(out) if out else "")
