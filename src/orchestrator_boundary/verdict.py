"""From an assessment to Claude Code's answer: the phase is applied here, in one place. ADR 0005.

A call that breaks no rule gets no decision (exit 0, empty stdout): answering ``allow`` would
skip Claude Code's own permission prompts.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping

from orchestrator_boundary.errors import assert_never
from orchestrator_boundary.jsontext import string
from orchestrator_boundary.phase import BYPASS_ENV, Phase
from orchestrator_boundary.values import replace, transient
from orchestrator_boundary.violation import Assessment, Code, Violation

PRE, POST = "PreToolUse", "PostToolUse"


class Decision(enum.StrEnum):
    NONE = "none"
    DENY = "deny"
    ASK = "ask"
    WARN = "warn"


@transient
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


@transient
class HookAnswer:
    exit_code: int
    stdout: str
    stderr: str = ""

    def encoded(self) -> tuple[int, bytes, bytes]:
        """(exit code, stdout bytes, stderr bytes) as the hook process writes them: the JSON
        answer ends with a newline; text that is not UTF-8 is escaped, never an error."""
        out = (self.stdout + "\n").encode("utf-8", "backslashreplace") if self.stdout else b""
        return self.exit_code, out, self.stderr.encode("utf-8", "backslashreplace")


def reason_text(v: Violation, tool: str) -> str:
    """A short explanation for the model, then one line of JSON for programs: the text of
    ``json.dumps({"error": v.code, "reason": ..., "path": v.path[, "command": ...]})``, written
    out (why: ``jsontext``; tests/test_jsontext.py compares the two)."""
    head = f"orchestrator-boundary blocked {tool} ({v.code}): {v.reason}"
    data = (
        f'{{"error": {string(v.code)}, "reason": {string(v.reason)}, '
        f'"suggestion": {string(v.suggestion)}, '
        f'"recoverable": {"true" if v.recoverable else "false"}, "rule": {string(v.rule)}, '
        f'"tool": {string(tool)}, "path": {"null" if v.path is None else string(v.path)}'
        + (f', "command": {string(v.command)}}}' if v.command else "}")
    )
    return f"{head}\nRule: {v.rule}.\nInstead: {v.suggestion}\n{data}"


# For warn: what to do from now on, never a request to make the change again.
_NEXT_TIME = {
    Code.SCOPE_VIOLATION: "Next time, keep your writes inside your write scope, or report back "
    "so the main agent can hand such work to another agent.",
    Code.TOOL_NOT_ALLOWED: "Next time, report back instead, so the main agent can hand such "
    "steps to another agent type.",
    Code.CONFIG_INVALID: "Tell the user the boundary config needs fixing.",
}
_DELEGATE_NEXT_TIME = "Next time, delegate changes like this one to a subagent with the Agent tool."


def warn_text(v: Violation, tool: str) -> str:
    """warn: the call went through; what enforce would do, and guidance for later work only.
    Nothing in it asks for the change again (the boundary let it run)."""
    future = _NEXT_TIME.get(v.code, _DELEGATE_NEXT_TIME)
    return (
        f"orchestrator-boundary (warn phase, nothing blocked): this {tool} call went through. "
        f"In enforce it would be denied ({v.code}, rule {v.rule}): {v.reason}\n"
        f"The boundary did not stop it; do not make it again. {future}"
    )


def ask_text(v: Violation, tool: str) -> str:
    """ask: a short question for the person, in words, without the JSON line."""
    return (
        f"orchestrator-boundary: {_capital(v.reason)} Allow this {tool} call anyway? "
        f"(enforce would deny it: {v.code}, rule {v.rule})"
    )


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def decide(
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
    if v is None:
        return Verdict(
            event, assessment, phase, phase_source, Decision.NONE, False,
            message=assessment.advisory, system_message=note,
        )  # fmt: skip
    if phase is Phase.OFF:  # recorded as a would-be deny, nothing more
        return Verdict(
            event, assessment, phase, phase_source, Decision.NONE, True, system_message=note
        )
    if bypass and (v.code is not Code.TAMPER or bypass_opens_protected):
        bypassed = (
            f"orchestrator-boundary is bypassed ({BYPASS_ENV} is set): "
            f"{assessment.tool_name} would have been denied ({v.code}: {v.reason})"
        )
        return Verdict(
            event, assessment, phase, phase_source, Decision.NONE, True, True,
            system_message=bypassed,
        )  # fmt: skip
    decision, message, post_block = _enforced(event, v, assessment.tool_name, phase)
    return Verdict(
        event, assessment, phase, phase_source, decision, True, False, post_block, message, note
    )


# What a phase that acts on a violation answers before the call: the decision and its text.
# Every phase but ``off``, which ``decide`` answers itself; tests/test_enums.py runs every
# phase through ``decide``, so a new one missing here fails there.
_BEFORE: Mapping[Phase, tuple[Decision, Callable[[Violation, str], str]]] = {
    Phase.WARN: (Decision.WARN, warn_text),
    Phase.ASK: (Decision.ASK, ask_text),
    Phase.ENFORCE: (Decision.DENY, reason_text),
}


def _enforced(event: str, v: Violation, tool: str, phase: Phase) -> tuple[Decision, str, bool]:
    """(decision, message, post_block) for a violation the phase acts on (not off, no bypass).
    TAMPER is denied in every such phase."""
    tamper = v.code is Code.TAMPER
    if event == POST:
        block = tamper or phase is Phase.ENFORCE
        went = f"This {tool} already ran although the boundary does not allow it. "
        return Decision.NONE, went + reason_text(v, tool) if block else "", block
    decision, text = (Decision.DENY, reason_text) if tamper else _BEFORE[phase]
    return decision, text(v, tool), False


# A message for the model or the person is cut past this: a deny naming a 900,000-character
# path five times made a 4.5 MB answer, past the evaluator's reply limit, so the client judged
# the call again and it was recorded twice (attack round D); no one reads that much either.
MAX_MESSAGE_CHARS = 64 * 1024


def _bounded(text: str) -> str:
    if len(text) <= MAX_MESSAGE_CHARS:
        return text
    cut = len(text) - MAX_MESSAGE_CHARS
    return f"{text[:MAX_MESSAGE_CHARS]}... ({cut:,} more characters cut)"


def render(verdict: Verdict) -> HookAnswer:
    """The hook's stdout JSON (or nothing) for Claude Code, each message bounded."""
    if max(len(verdict.message), len(verdict.system_message)) > MAX_MESSAGE_CHARS:
        verdict = replace(
            verdict,
            message=_bounded(verdict.message),
            system_message=_bounded(verdict.system_message),
        )
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
