"""Can a subagent really write here under Claude Code's own permission rules? For ``doctor``.

The boundary only ever takes writes away from the orchestrator; subagents must be able to make
them. Claude Code's own rules can stop them first: a deny rule on Write/Edit, an ask rule (a
background subagent cannot answer a prompt, so the write is refused), or a default mode that
does not let edits through without asking (``default``, ``dontAsk``) or at all (``plan``).
With the boundary in enforce that leaves nothing able to edit. Pure: settings in, findings out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from orchestrator_boundary.values import frozen

WRITE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
EVERYTHING = ("", "*", "**", "/**", "./**", "//**", "~/**")
# Which settings file wins for a scalar such as defaultMode: managed, then local, project, user.
PRECEDENCE = ("managed", "local", "project", "user")
MODES_THAT_WRITE = ("acceptEdits", "bypassPermissions", "auto")
_RULE = re.compile(r"^\s*([A-Za-z]+)\s*(?:\((.*)\))?\s*$")


@frozen
class Finding:
    blocking: bool  # True: no subagent write can succeed; False: some are refused
    message: str


def _rules(data: Mapping[str, Any], kind: str) -> list[str]:
    perms = data.get("permissions")
    rules = perms.get(kind) if isinstance(perms, dict) else None
    return [r for r in rules if isinstance(r, str)] if isinstance(rules, list) else []


def write_rule(rule: str) -> tuple[str, str] | None:
    """(tool, specifier) of a rule about a write tool; None for other rules."""
    m = _RULE.match(rule)
    if m is None or m.group(1) not in WRITE_TOOLS:
        return None
    return m.group(1), (m.group(2) or "").strip()


def default_mode(files: Iterable[tuple[str, str, Mapping[str, Any] | None]]) -> tuple[str, str]:
    """(the effective ``permissions.defaultMode``, the file it comes from); ("", "") unset."""
    found: dict[str, tuple[str, str]] = {}
    for scope, path, data in files:
        perms = (data or {}).get("permissions")
        mode = perms.get("defaultMode") if isinstance(perms, dict) else None
        if isinstance(mode, str) and scope not in found:
            found[scope] = (mode, path)
    return next((found[s] for s in PRECEDENCE if s in found), ("", ""))


def findings(files: Iterable[tuple[str, str, Mapping[str, Any] | None]]) -> list[Finding]:
    """What in these settings files (scope, path, parsed) refuses subagents' writes."""
    files = list(files)
    out: list[Finding] = []
    allowed = False
    for _scope, path, data in files:
        for rule in _rules(data or {}, "deny"):
            hit = write_rule(rule)
            if hit is not None:
                everywhere = hit[1] in EVERYTHING
                what = "every write" if everywhere else f"writes to {hit[1]}"
                out.append(Finding(everywhere, f"deny rule {rule!r} in {path} refuses {what}"))
        for rule in _rules(data or {}, "ask"):
            if write_rule(rule) is not None:
                out.append(
                    Finding(
                        False,
                        f"ask rule {rule!r} in {path}: a background subagent cannot answer the "
                        "prompt, so those writes are refused",
                    )
                )
        allowed = allowed or any(write_rule(r) for r in _rules(data or {}, "allow"))
    mode, where = default_mode(files)
    if mode == "plan":
        out.append(Finding(True, f"defaultMode is plan in {where}: nothing may edit"))
    elif mode and mode not in MODES_THAT_WRITE and not allowed:
        out.append(
            Finding(
                True,
                f"defaultMode is {mode} in {where} and no allow rule covers Write/Edit: a "
                "background subagent's writes need a prompt it cannot show, so they are refused",
            )
        )
    return out
