"""What the report says about the audit trail's hash chain (ADR 0031): a criterion, a note and
a header line, present only once the trail holds chained lines (older trails read as before).

A trail whose lines were removed, reordered or changed cannot vouch for its own numbers, so
such a trail is NOT READY until a person has looked.
"""

from __future__ import annotations

from orchestrator_boundary.report_model import Criterion, Report
from orchestrator_boundary.report_words import plural, verb

SHOWN = 3  # findings named in the note; doctor lists up to trail_chain.KEPT


def chain_criteria(r: Report) -> list[Criterion]:
    c = r.chain
    if c is None or not c.chained:
        return []
    value = "intact" if c.intact else plural(c.problems, "line") + " " + _what(r)
    return [
        Criterion(
            "trail_intact",
            "audit trail intact",
            c.intact,
            value,
            "no line removed, reordered or changed",
        )
    ]


def _what(r: Report) -> str:
    assert r.chain is not None
    return "(" + ", ".join(f"{n} {key}" for key, n in sorted(r.chain.counts.items())) + ")"


def chain_notes(r: Report) -> list[str]:
    c = r.chain
    if c is None or not c.chained:
        return []
    out = []
    if not c.intact:
        places = "; ".join(str(f) for f in c.findings[:SHOWN])
        more = len(c.findings) - SHOWN
        places += f" (and {plural(more, 'more place')})" if more > 0 else ""
        out.append(
            f"The audit trail is not as it was written: {places}. Its numbers cannot vouch "
            "for themselves until a person has found out why (orchestrator-boundary doctor "
            "lists each place). If a person pruned the trail on purpose, move the trail's "
            "files and its head record (.audit.jsonl-head beside it) aside to start a new one."
        )
    if c.head_missing:
        out.append(
            "The trail has no head record beside it (.audit.jsonl-head), as with a copy of "
            "the trail: lines cut from its end cannot be told."
        )
    if c.before_start:
        n = c.before_start
        out.append(
            f"{plural(n, 'line')} {verb(n, 'was', 'were')} written before the trail was "
            f"chained (by an older version), so {verb(n, 'it is', 'they are')} counted but "
            f"cannot be checked; the chain starts at {c.start}."
        )
    return out


def chain_header(r: Report) -> list[str]:
    """One line for the report's header: what the chain shows."""
    c = r.chain
    if c is None or not c.chained:
        return []
    pending = f", {c.pending} still spooled" if c.pending else ""
    return [f"chain: {c.summary()}{pending}"]
