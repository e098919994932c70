"""The deny path's JSON, written out with ``jsontext.string``, is the text ``json.dumps``
gives for the same fields (ADR 20 says why it is written out)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from orchestrator_boundary.jsontext import string
from orchestrator_boundary.suggest import delegate_hint
from orchestrator_boundary.verdict import reason_text
from orchestrator_boundary.violation import Code, Violation


@given(st.text())
def test_string_is_json_dumps_of_a_string(text: str) -> None:
    assert string(text) == json.dumps(text)


@given(
    st.sampled_from(Code),
    st.text(),
    st.text(),
    st.text(),
    st.text(),
    st.one_of(st.none(), st.text()),
    st.text(),
    st.booleans(),
)
def test_the_deny_reason_line_is_json_dumps_of_its_fields(
    code: Code,
    rule: str,
    reason: str,
    suggestion: str,
    tool: str,
    path: str | None,
    command: str,
    recoverable: bool,
) -> None:
    v = Violation(code, rule, reason, suggestion, path, command, recoverable)
    data: dict[str, object] = {
        "error": code,
        "reason": reason,
        "suggestion": suggestion,
        "recoverable": recoverable,
        "rule": rule,
        "tool": tool,
        "path": path,
    }
    if command:
        data["command"] = command
    assert reason_text(v, tool).rpartition("\n")[2] == json.dumps(data)


@given(st.one_of(st.none(), st.text()), st.text())
def test_the_suggested_agent_call_is_json_dumps_of_its_fields(path: str | None, tool: str) -> None:
    hint = delegate_hint((), path, tool)
    target = path or "the files involved"
    call = {
        "subagent_type": "general-purpose",
        "description": f"Change {target}"[:60],
        "prompt": f"In {target}: <what to change and why>. Report back what you changed.",
    }
    assert hint.endswith(f"e.g. Agent({json.dumps(call)}).")
