"""Every member of every enum the decision branches on is handled, and every ``match`` on one
ends in ``assert_never`` (so mypy fails when a member is added and not handled)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from orchestrator_boundary.bash.model import Status
from orchestrator_boundary.config_schema import validate
from orchestrator_boundary.config_values import Config
from orchestrator_boundary.context import Context
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.payload import HookPayload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.policy import LADDERS, NOTHING_FOUND, QUIET_LADDERS, REPORTERS, assess
from orchestrator_boundary.ruleset import compile_config
from orchestrator_boundary.session import detect
from orchestrator_boundary.targets import TOUCHES, touched
from orchestrator_boundary.tools import ToolClass, classify
from orchestrator_boundary.verdict import POST, PRE, Decision, Verdict, decide, reason_text, render
from orchestrator_boundary.violation import Assessment, Code, Violation

PKG = Path(__file__).resolve().parents[1] / "src" / "orchestrator_boundary"


def _payload(root: Path, tool: str, tool_input: dict[str, object], event: str = PRE) -> HookPayload:
    return HookPayload(
        hook_event_name=event, session_id="s", cwd=str(root), tool_name=tool, tool_input=tool_input
    )


@pytest.mark.parametrize("cls", list(ToolClass), ids=str)
def test_every_tool_class_has_its_targets_and_its_rules(cls: ToolClass, tmp_path: Path) -> None:
    assert cls in TOUCHES and cls in LADDERS and cls in QUIET_LADDERS
    config = validate({"tools": {"probe": cls.value}})
    payload = _payload(tmp_path, "probe", {"file_path": str(tmp_path / "x")})
    a = assess(payload, compile_config(config), Context(str(tmp_path), RealFileSystem()))
    assert a.classification.tool_class is cls
    # the main agent may do what reads or coordinates; what may write is judged
    writes = cls in (ToolClass.WRITE, ToolClass.EXECUTE, ToolClass.UNKNOWN)
    assert (a.violation is not None) == writes, a


def test_the_rules_a_quiet_ladder_leaves_out_find_nothing_when_nothing_was_found(
    tmp_path: Path,
) -> None:
    """A call whose targets and Bash command broke no rule reads its ladder without the rules
    that only report such findings: each of them returns None on NOTHING_FOUND."""
    payload = _payload(tmp_path, "Write", {"file_path": str(tmp_path / "x")})
    context = Context(str(tmp_path), RealFileSystem())
    call = touched(payload, compile_config(Config()), context)
    for cls, ladder in LADDERS.items():
        assert QUIET_LADDERS[cls] == tuple(r for r in ladder if r not in REPORTERS)
    for rule in REPORTERS:
        assert rule(call, NOTHING_FOUND) is None, rule


def _violation(code: Code) -> Violation:
    return Violation(code, f"rule for {code}", "a reason", "a suggestion", "a/path", "cmd")


@pytest.mark.parametrize("event", [PRE, POST])
@pytest.mark.parametrize("phase", list(Phase), ids=str)
@pytest.mark.parametrize("code", list(Code), ids=str)
def test_every_code_in_every_phase_gets_a_deliberate_answer(
    code: Code, phase: Phase, event: str
) -> None:
    payload = HookPayload(hook_event_name=event, session_id="s", cwd="/p", tool_name="Write")
    a = Assessment(detect(payload), "Write", classify("Write"), ("a/path",), _violation(code))
    v = decide(event, a, phase, "test", bypass=False, bypass_opens_protected=False)
    assert v.would_deny
    if phase is Phase.OFF:
        assert (v.decision, v.message, v.post_block) == (Decision.NONE, "", False)
    elif event == POST:
        assert v.decision is Decision.NONE
        assert v.post_block == (code is Code.TAMPER or phase is Phase.ENFORCE)
    else:
        expected = {Phase.WARN: Decision.WARN, Phase.ASK: Decision.ASK}.get(phase, Decision.DENY)
        assert v.decision is (Decision.DENY if code is Code.TAMPER else expected)
    data = json.loads(reason_text(a.violation, "Write").rpartition("\n")[2])  # type: ignore[arg-type]
    assert data["error"] == code.value


@pytest.mark.parametrize("decision", list(Decision), ids=str)
def test_every_decision_renders_to_the_protocol(decision: Decision) -> None:
    payload = HookPayload(hook_event_name=PRE, session_id="s", cwd="/p", tool_name="Write")
    a = Assessment(detect(payload), "Write", classify("Write"))
    answer = render(Verdict(PRE, a, Phase.ENFORCE, "test", decision, False, message="why"))
    out = json.loads(answer.stdout)["hookSpecificOutput"]
    if decision in (Decision.DENY, Decision.ASK):
        assert out["permissionDecision"] == decision.value
    else:
        assert out == {"hookEventName": PRE, "additionalContext": "why"}


STATUS_COMMANDS = {
    Status.READ_ONLY: ("ls -la", None),
    Status.WRITES: ("echo hi > out.txt", Code.BASH_WRITE),
    Status.OPAQUE: ('eval "$X"', Code.BASH_OPAQUE),
    Status.UNPARSEABLE: ("if then fi ((", Code.BASH_UNPARSEABLE),
}


@pytest.mark.parametrize("status", list(Status), ids=str)
def test_every_bash_status_is_judged(status: Status, tmp_path: Path) -> None:
    command, code = STATUS_COMMANDS[status]
    rules = compile_config(validate({"bash": {"opaque": "deny"}}))
    payload = _payload(tmp_path, "Bash", {"command": command})
    a = assess(payload, rules, Context(str(tmp_path.resolve()), RealFileSystem()))
    assert a.bash is not None and a.bash.status is status
    assert (a.violation.code if a.violation else None) is code


def _matches() -> list[tuple[str, ast.Match]]:
    found = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Match):
                found.append((f"{path.relative_to(PKG)}:{node.lineno}", node))
    return found


def _ends_in_assert_never(match: ast.Match) -> bool:
    last = match.cases[-1]
    if not (isinstance(last.pattern, ast.MatchAs) and last.pattern.pattern is None):
        return False
    call = last.body[-1]
    return (
        isinstance(call, ast.Expr)
        and isinstance(call.value, ast.Call)
        and isinstance(call.value.func, ast.Name)
        and call.value.func.id == "assert_never"
    )


def test_every_match_ends_in_assert_never() -> None:
    matches = _matches()
    assert matches, "no match statements found: the check would prove nothing"
    assert [where for where, m in matches if not _ends_in_assert_never(m)] == []
