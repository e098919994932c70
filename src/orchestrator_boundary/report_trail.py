"""Reading the audit trail for ``report``: one record per line, malformed lines counted.

A large trail is streamed (``iter_records``), never held in memory; ``load_trail`` keeps the
records for callers that want them twice (tests, ``replay``). ADR 0012.

Lines are read as bytes, so the hash chain (``trail_chain``, ADR 0031) is checked on exactly
what was written, in the same pass: pass a ``chain_check`` to ``iter_records``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from orchestrator_boundary import audit
from orchestrator_boundary.fs import open_regular
from orchestrator_boundary.progress import Progress
from orchestrator_boundary.trail_chain import ChainCheck


@dataclass(frozen=True, slots=True)
class Trail:
    records: list[dict[str, Any]]
    malformed: int
    files: list[str]


def record_day(rec: Mapping[str, Any]) -> date | None:
    """The UTC day of a record's ``ts``; None when it has no usable timestamp."""
    ts = rec.get("ts")
    if not isinstance(ts, str):
        return None
    try:
        return datetime.fromisoformat(ts).date()
    except ValueError:
        return None


def parse_lines(
    lines: Iterable[str], progress: Progress | None = None
) -> Iterator[dict[str, Any] | None]:
    """Each non-blank line as a record, or None when it is not a usable audit record."""
    for line in lines:
        if progress is not None:
            progress.advance()
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            yield None
            continue
        yield rec if isinstance(rec, dict) and record_day(rec) is not None else None


def iter_records(
    files: list[str], progress: Progress | None = None, chain: ChainCheck | None = None
) -> Iterator[dict[str, Any]]:
    """Every line of the trail files in order, streamed: a record, or ``{}`` for a malformed
    line (which ``compute`` counts as malformed), so a large trail is never held in memory.
    ``chain``: fed every line on the way (its ``result`` once the records are read)."""
    for name in files:
        for rec in parse_lines(read_lines(name, chain), progress):
            yield {} if rec is None else rec


def chain_check(path: str, files: list[str], keep: int) -> ChainCheck:
    """A check of the chain of the trail at ``path`` (``files``: ``audit.trail_files``),
    with its head record read now, before any line; ``keep``: the config's ``[audit] keep``."""
    rotated = [f for f in files if f.startswith(path + ".")]
    return ChainCheck(os.path.basename(path), audit.read_head(path), len(rotated) >= keep)


def is_spool(name: str) -> bool:
    """A spool file: lines that waited for the lock, not yet sealed (ADR 0028)."""
    base = os.path.basename(name)
    return base.startswith(".") and "-spool-" in base


def read_lines(name: str, chain: ChainCheck | None = None) -> Iterator[str]:
    """The lines of one trail file as text, each fed to ``chain`` as the bytes it holds."""
    spool = is_spool(name)
    where = os.path.basename(name)
    with open_regular(name) as fh:  # a FIFO in a trail file's place: an error, not a hang
        for n, raw in enumerate(fh, 1):
            if chain is not None:
                chain.feed(raw, f"{where}:{n}", spooled=spool)
            yield raw.decode("utf-8", "replace")


def load_trail(files: list[str], progress: Progress | None = None) -> Trail:
    """All records of the given trail files (oldest first); bad lines are counted."""
    records: list[dict[str, Any]] = []
    malformed = 0
    for name in files:
        for rec in parse_lines(read_lines(name), progress):
            if rec is None:
                malformed += 1
            else:
                records.append(rec)
    return Trail(records, malformed, list(files))


def parse_since(text: str, today: date) -> date:
    """``YYYY-MM-DD`` or ``Nd`` (N days before today)."""
    text = text.strip()
    if text.endswith("d") and text[:-1].isdigit():
        return today - timedelta(days=int(text[:-1]))
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"--since {text!r} is not a date: give YYYY-MM-DD or a number of days such as 30d."
        ) from None
