"""The report's per-intent table (ADR 27, issue 17 point 7): for each intent the trail names,
the delegations that worked under it, their writes and their denials.

Pure: ``IntentTally.add`` takes one audit record at a time (the same stream ``compute`` reads),
``IntentTally.rows`` returns the table. A subagent's line carries ``delegation``: its Agent
call's ``tool_use_id``, description and ``intent``, or ``unknown`` with the reason the link
could not be found. Rows:

- one per intent named on a line (its status from the config, or "not in config");
- ``no_intent``: subagents whose Agent call named no intent (a ``Scope:`` line alone, or no
  directive);
- ``unknown``: subagents whose delegation is unknown, with the reasons grouped (ids and
  details taken out), and lines that carry no delegation record at all;
- ``main``: the main agent's own writes and stale or lease denials (it has no delegation).

Counting follows ADR 25: a call counts once, by its ``tool_use_id``. Denials come from the
PreToolUse line (``would_deny``; STALE_FILE and FILE_LEASED are judged only there), a
write from the PostToolUse line's ``trace`` (the files it changed), and a call denied at
PreToolUse (it went through in ``warn``) is a denial, not a write. Scope denials are
DELEGATION_SCOPE and SCOPE_VIOLATION (the agent type's ``write_scope``). A write to a file
leased to another subagent with ``[delegation] leases = "warn"`` (its line names the holder,
``leased_to``) counts as a lease conflict beside the FILE_LEASED denials.

The table is shown when a line names an intent, or when the config declares intents and
subagents ran: a project that uses no intents sees no table of empty rows.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from orchestrator_boundary.errors import assert_never


class RowKind(enum.StrEnum):
    """What a row of the table stands for, in the order the rows are shown."""

    INTENT = "intent"
    NO_INTENT = "no_intent"
    UNKNOWN = "unknown"
    MAIN = "main"


INTENT, NO_INTENT, UNKNOWN, MAIN = RowKind.INTENT, RowKind.NO_INTENT, RowKind.UNKNOWN, RowKind.MAIN
KIND_ORDER = tuple(RowKind)
SCOPE_CODES = ("DELEGATION_SCOPE", "SCOPE_VIOLATION")
STALE, LEASED = "STALE_FILE", "FILE_LEASED"
NOT_IN_CONFIG = "not in config"
NO_RECORD = "the line carries no delegation record"

_PARENS = re.compile(r"\s*\([^()]*\)")  # a detail: a refusal's reason, an exception's text
_CALL_ID = re.compile(r"\bAgent call (?!names\b)\S+?(?=,|\s|$)")
_META_ID = re.compile(r"\bmeta\.json names (?!no\b|parent\b)\S+")
_QUOTED = re.compile(r"'[^']*'|\bNone\b")


def unknown_cause(reason: object) -> str:
    """A stable name for why a delegation is unknown: the recorded reason without the ids
    and details that make each one unique (``its Agent call toolu_1 was refused (...)`` ->
    ``its Agent call was refused``). A reason of another shape is kept as it is."""
    if not isinstance(reason, str) or not reason.strip():
        return "no reason recorded"
    text = reason.strip()
    while (shorter := _PARENS.sub("", text)) != text:
        text = shorter
    text = _CALL_ID.sub("Agent call", text)
    text = _META_ID.sub("meta.json names another", text)
    return _QUOTED.sub("another", text)


@dataclass(frozen=True, slots=True)
class IntentRow:
    kind: RowKind
    intent: str | None  # the intent's id (INTENT rows only)
    status: str | None  # the config's status, NOT_IN_CONFIG; None for the other rows
    agent_calls: int | None  # distinct Agent calls (None where there is no Agent call)
    agents: int | None  # distinct subagents (None for the main agent)
    tool_calls: int
    writes: int  # calls that changed files and were not denied
    files: int  # distinct files those writes changed
    scope_denials: tuple[tuple[str, int], ...]  # by code
    stale_denials: int
    lease_denials: int  # FILE_LEASED
    lease_warnings: int  # writes to a leased file with leases = "warn"
    unknown_reasons: tuple[tuple[str, int], ...] = ()  # calls, by cause (UNKNOWN row)

    @property
    def label(self) -> str:
        match self.kind:
            case RowKind.INTENT:
                return f"{self.intent} ({self.status})"
            case RowKind.NO_INTENT:
                return "(no intent named)"
            case RowKind.UNKNOWN:
                return "(delegation unknown)"
            case RowKind.MAIN:
                return "(main agent)"
            case _:
                assert_never(self.kind)

    @property
    def scope(self) -> int:
        return sum(n for _, n in self.scope_denials)

    @property
    def leases(self) -> int:
        return self.lease_denials + self.lease_warnings

    def to_json(self) -> dict[str, Any]:
        return {
            "row": self.kind.value,
            "intent": self.intent,
            "status": self.status,
            "agent_calls": self.agent_calls,
            "agents": self.agents,
            "tool_calls": self.tool_calls,
            "writes": self.writes,
            "files_written": self.files,
            "scope_denials": self.scope,
            "scope_denials_by_code": dict(self.scope_denials),
            "stale_denials": self.stale_denials,
            "lease_denials": self.lease_denials,
            "lease_warnings": self.lease_warnings,
            "unknown_reasons": dict(self.unknown_reasons),
        }


@dataclass(slots=True)
class _Row:
    agent_calls: set[tuple[str, str]] = field(default_factory=set)
    agents: set[tuple[str, str]] = field(default_factory=set)
    tool_calls: int = 0
    writes: dict[str, set[str]] = field(default_factory=dict)  # tool_use_id -> files
    writes_without_id: int = 0
    files_without_id: set[str] = field(default_factory=set)
    denials: Counter[str] = field(default_factory=Counter)  # by code; "leased_to" in warn
    reasons: Counter[str] = field(default_factory=Counter)


def _key(rec: Mapping[str, Any]) -> tuple[RowKind, str | None, Any]:
    """(row kind, intent id, the delegation dict) of a tool call's line."""
    if not (rec.get("agent_id") or rec.get("session_kind") == "subagent"):
        return MAIN, None, None
    d = rec.get("delegation")
    if not isinstance(d, dict) or "unknown" in d:
        return UNKNOWN, None, d
    intent = d.get("intent")
    if isinstance(intent, str) and intent:
        return INTENT, intent, d
    return NO_INTENT, None, d


@dataclass(slots=True)
class IntentTally:
    """One pass over the records (any order); ``rows`` gives the table."""

    rows_by_key: dict[tuple[RowKind, str | None], _Row] = field(default_factory=dict)
    counted: set[str] = field(default_factory=set)  # tool_use_ids of PreToolUse lines counted
    denied: set[str] = field(default_factory=set)  # tool_use_ids denied at PreToolUse
    named: bool = False  # some line names an intent

    def add(self, rec: Mapping[str, Any]) -> None:
        event = rec.get("event")
        if rec.get("error") or event not in ("PreToolUse", "PostToolUse"):
            return
        kind, intent, d = _key(rec)
        self.named |= kind == INTENT
        row = self.rows_by_key.setdefault((kind, intent), _Row())
        sid, call = str(rec.get("session_id") or ""), rec.get("tool_use_id")
        call_key = call if isinstance(call, str) and call else None  # as ``report`` keys calls
        if kind != MAIN:
            row.agents.add((sid, str(rec.get("agent_id") or "?")))
        if isinstance(d, dict) and isinstance(d.get("tool_use_id"), str):
            row.agent_calls.add((sid, d["tool_use_id"]))
        if event == "PreToolUse":
            if call_key is not None:
                if call_key in self.counted:
                    return  # a repeated record of a call already counted (ADR 25)
                self.counted.add(call_key)
            self._pre(row, rec, kind, d, call_key)
        elif rec.get("would_deny") is not True and isinstance(rec.get("trace"), list):
            self._write(row, rec["trace"], call_key)

    def _pre(
        self,
        row: _Row,
        rec: Mapping[str, Any],
        kind: RowKind,
        d: Any,
        call_key: str | None,
    ) -> None:
        row.tool_calls += 1
        if kind == UNKNOWN:
            row.reasons[unknown_cause(d["unknown"]) if isinstance(d, dict) else NO_RECORD] += 1
        code = rec.get("code")
        if rec.get("would_deny") is True:
            if call_key is not None:
                self.denied.add(call_key)
            if code in (*SCOPE_CODES, STALE, LEASED):
                row.denials[str(code)] += 1
        elif rec.get("leased_to"):
            row.denials["leased_to"] += 1

    @staticmethod
    def _write(row: _Row, trace: list[Any], call_key: str | None) -> None:
        paths = {str(t["path"]) for t in trace if isinstance(t, dict) and t.get("path")}
        if not paths:
            return
        if call_key is None:
            row.writes_without_id += 1
            row.files_without_id |= paths
        else:
            row.writes.setdefault(call_key, set()).update(paths)

    def rows(self, statuses: Mapping[str, str] | None = None) -> list[IntentRow]:
        """The table; empty when no line names an intent and the config declares none (or
        no subagent ran). ``statuses``: each configured intent's status."""
        statuses = statuses or {}
        subagents = any(kind != MAIN for kind, _ in self.rows_by_key)
        if not (self.named or (statuses and subagents)):
            return []
        out = [
            self._row(kind, intent, acc, statuses)
            for (kind, intent), acc in self.rows_by_key.items()
        ]
        out = [r for r in out if r.kind != MAIN or r.writes or r.stale_denials or r.leases]
        return sorted(out, key=lambda r: (KIND_ORDER.index(r.kind), -r.tool_calls, r.intent or ""))

    def _row(
        self, kind: RowKind, intent: str | None, acc: _Row, statuses: Mapping[str, str]
    ) -> IntentRow:
        subagent = kind != MAIN
        allowed = [files for call, files in acc.writes.items() if call not in self.denied]
        return IntentRow(
            kind=kind,
            intent=intent,
            status=statuses.get(intent, NOT_IN_CONFIG) if intent is not None else None,
            agent_calls=len(acc.agent_calls) if kind in (INTENT, NO_INTENT) else None,
            agents=len(acc.agents) if subagent else None,
            tool_calls=acc.tool_calls,
            writes=len(allowed) + acc.writes_without_id,
            files=len(acc.files_without_id.union(*allowed)),
            scope_denials=tuple((c, acc.denials[c]) for c in SCOPE_CODES if acc.denials[c]),
            stale_denials=acc.denials[STALE],
            lease_denials=acc.denials[LEASED],
            lease_warnings=acc.denials["leased_to"],
            unknown_reasons=tuple(sorted(acc.reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        )
