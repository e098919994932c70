"""The Bash command's own rules, for the main agent when no target broke a rule:
BASH_UNPARSEABLE > BASH_DENIED_COMMAND > BASH_OPAQUE, as ``[bash]`` configures them. ADR 0021.
"""

from __future__ import annotations

from orchestrator_boundary.profiles import main_label
from orchestrator_boundary.suggest import delegate_hint
from orchestrator_boundary.targets import Call
from orchestrator_boundary.violation import Code, Violation


def bash_mode(call: Call, code: Code, command: str, why: str) -> tuple[Violation | None, str]:
    """(violation, advisory) for bash.unparseable / bash.opaque as configured."""
    unparseable = code is Code.BASH_UNPARSEABLE
    mode = call.rules.config.bash.unparseable if unparseable else call.rules.config.bash.opaque
    rule = "bash.unparseable" if unparseable else "bash.opaque"
    text = f"`{command[:200]}`: {why}"
    if mode == "allow":
        return None, ""
    if mode == "warn":
        return None, f"orchestrator-boundary ({rule} = warn): {text}. Prefer delegating."
    hint = delegate_hint(call.rules.writers, None, call.payload.tool_name, call.context.agent_types)
    return Violation(
        code, rule, f"{main_label(call.session)} may not run {text}.", hint, None, command[:200]
    ), ""


CODE_MODE = "Code Mode JavaScript; each tool it calls is judged on its own"


def bash_findings(call: Call) -> tuple[Violation | None, str]:
    """BASH_UNPARSEABLE, else BASH_DENIED_COMMAND, else BASH_OPAQUE; and the advisory."""
    analysis, command = call.analysis, call.command
    if not call.main or analysis is None or command is None:
        return None, ""
    if analysis.unread:
        return bash_mode(call, Code.BASH_UNPARSEABLE, command, analysis.error)
    deny = call.rules.config.bash.deny_commands
    for cmd in analysis.commands:
        if cmd.program and cmd.program in deny:
            return Violation(
                Code.BASH_DENIED_COMMAND,
                "bash.deny_commands",
                f"{main_label(call.session)} may not run {cmd.program} (`{cmd.text}`).",
                delegate_hint(
                    call.rules.writers, None, call.payload.tool_name, call.context.agent_types
                ),
                command=cmd.text,
            ), ""
    if analysis.unseen:
        parts = "; ".join(c.text for c in analysis.opaque[:3]) or command
        return bash_mode(call, Code.BASH_OPAQUE, parts, "its effects cannot be known")
    return None, ""
