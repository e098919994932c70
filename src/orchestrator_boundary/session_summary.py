"""The one-screen summary of a session shown when the main agent stops (``[report]
stop_summary = true``, ADR 27). Pure: it reads audit records the shell hands it.

Delegations are grouped by the Agent call that started them (the ``delegation`` field of their
subagents' lines): description, intent, the files they wrote and their denied calls. Then the
calls that broke a rule, by code, and the bypassed ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

MAX_LINES = 24


def _delegation_key(rec: Mapping[str, Any]) -> tuple[str, str, str]:
    d = rec.get("delegation")
    if not isinstance(d, dict):
        return ("?", "", "")
    if "unknown" in d:
        return ("?", f"unknown delegation ({d['unknown']})", "")
    return (
        str(d.get("tool_use_id") or "?"),
        str(d.get("description") or ""),
        str(d.get("intent") or ""),
    )


def summary(records: Iterable[Mapping[str, Any]], session_id: str) -> str:
    """The summary of ``session_id``'s records, or "" when the session left none."""
    writes: dict[tuple[str, str, str], set[str]] = {}
    denied: Counter[tuple[str, str, str]] = Counter()
    codes: Counter[str] = Counter()
    bypassed = main_writes = 0
    seen = False
    for rec in records:
        if rec.get("session_id") != session_id:
            continue
        seen = True
        pre = rec.get("event") == "PreToolUse"
        if rec.get("bypassed"):
            bypassed += 1
        if pre and rec.get("would_deny") and rec.get("code"):
            codes[str(rec["code"])] += 1
        sub = bool(rec.get("agent_id"))
        if sub:
            key = _delegation_key(rec)
            writes.setdefault(key, set())
            if pre and rec.get("would_deny"):
                denied[key] += 1
        if rec.get("event") == "PostToolUse" and isinstance(rec.get("trace"), list):
            paths = {str(t.get("path")) for t in rec["trace"] if isinstance(t, dict)}
            if sub:
                writes[_delegation_key(rec)] |= paths
            else:
                main_writes += len(paths)
    if not seen:
        return ""
    lines = [f"orchestrator-boundary: this session, {len(writes)} delegation(s)"]
    for key, files in list(writes.items())[:12]:
        tool_use_id, description, intent = key
        line = f"- {description or tool_use_id}" + (f" [intent {intent}]" if intent else "")
        line += f": {len(files)} file(s) written"
        if files:
            line += " (" + ", ".join(sorted(files)[:4]) + (" ..." if len(files) > 4 else "") + ")"
        if denied[key]:
            line += f", {denied[key]} denied"
        lines.append(line)
    if main_writes:
        lines.append(f"- the main agent itself: {main_writes} file write(s)")
    lines.append(
        "Rules broken: "
        + (", ".join(f"{code} x{n}" for code, n in codes.most_common(6)) or "none")
        + f". Bypassed calls: {bypassed}."
    )
    return "\n".join(lines[:MAX_LINES])
