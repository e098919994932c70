"""The audit trail's sequence numbers and hash chain, and the check that reads them. ADR 0031.

A chained line is the record's JSON with two last fields, ``"seq": N`` (per trail, counting
on across rotation) and ``"chain": "<64 hex>"``, where the chain is
``sha256(previous line's chain + this line's bytes without the chain field)``: the bytes run
up to ``"seq": N}``. The first line of a chain links to ``GENESIS``. Sealing is textual (the
record is not rendered again), so a line that waited in the spool is sealed as it is merged.

``ChainCheck`` is fed the trail's raw lines in order and says which lines were removed,
reordered, repeated or changed, and where the chain starts. It keeps a bounded window of
recent lines, so a trail of any size is checked in one pass. Pure: no file is read here.
"""

from __future__ import annotations

import json
from collections import deque
from enum import Enum

from orchestrator_boundary.digests import sha256
from orchestrator_boundary.values import field, frozen, mutable

GENESIS = "0" * 64
_CHAIN_KEY = b', "chain": "'
_SEQ_KEY = b'"seq": '
_SUFFIX = len(_CHAIN_KEY) + 64 + 2  # , "chain": "<64 hex>"}
_HEX = frozenset(b"0123456789abcdef")
WINDOW = 4096  # recent lines whose chain is kept, to check a line that arrives late
KEPT = 50  # problems kept with their place; the rest are only counted


def _record(raw: bytes) -> bool:
    """Whether an unchained line would count as a record (a JSON object with a ``ts``)."""
    try:
        rec = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return isinstance(rec, dict) and isinstance(rec.get("ts"), str)


def link(prev: str, body: bytes) -> str:
    """The chain of a line whose bytes up to ``"seq": N}`` are ``body``."""
    return sha256(prev.encode("ascii") + body).hexdigest()


def seal(line: bytes, seq: int, prev: str, *, spooled: bool = False) -> tuple[bytes, str]:
    """``line`` (one JSON object on one line, no newline) with its place and link added: the
    chained line, and its chain for the next one. ``spooled``: it waited for the lock."""
    head = line.rstrip()[:-1].rstrip()  # without the closing brace
    sep = b"" if head == b"{" else b", "
    extra = b'"spooled": true, ' if spooled else b""
    body = b"%s%s%s%s%d}" % (head, sep, extra, _SEQ_KEY, seq)
    chain = link(prev, body)
    return body[:-1] + _CHAIN_KEY + chain.encode("ascii") + b'"}', chain


def seal_line(
    line: bytes, last: Head | None, *, spooled: bool = False
) -> tuple[bytes, Head | None]:
    """``line`` chained to ``last`` (a new chain when there is none) with its newline, and
    the new last line; a spooled line that is not one JSON object is kept as it is (the
    check flags it) and an empty one dropped."""
    text = line.strip()
    if not (text.startswith(b"{") and text.endswith(b"}")):
        return (text + b"\n" if text else b""), last
    seq, prev = (last.seq + 1, last.chain) if last else (1, GENESIS)
    sealed, chain = seal(text, seq, prev, spooled=spooled)
    return sealed + b"\n", Head(seq, chain)


@frozen
class Sealed:
    """The place and link a chained line claims, and the bytes its chain covers."""

    seq: int
    chain: str
    body: bytes


def unseal(raw: bytes) -> Sealed | None:
    """What a line claims, or None when it carries no well-formed chain (an unchained line)."""
    line = raw.rstrip(b"\r\n")
    if len(line) <= _SUFFIX or not line.endswith(b'"}'):
        return None
    if line[-_SUFFIX : -_SUFFIX + len(_CHAIN_KEY)] != _CHAIN_KEY:
        return None
    chain = line[-66:-2]
    if not _HEX.issuperset(chain):
        return None
    body = line[:-_SUFFIX] + b"}"
    at = body.rfind(_SEQ_KEY)
    digits = body[at + len(_SEQ_KEY) : -1] if at > 0 else b""
    if not digits.isdigit() or len(digits) > 18:
        return None
    return Sealed(int(digits), chain.decode("ascii"), body)


class Problem(Enum):
    """What a check can find. Each value is what it says about the lines concerned."""

    REMOVED = "removed"  # a sequence number never seen: the line was deleted
    REORDERED = "out of order"  # a line seen after a later one
    REPEATED = "repeated"  # a sequence number seen twice: a copied line
    CHANGED = "changed"  # the line, or the one before it, is not what was written
    UNCHAINED = "unchained"  # a line with no chain after the chain started: written by hand
    RESTARTED = "restarted"  # a new chain after the chain started: its head record was lost
    END_REMOVED = "removed at the end"  # the head record names lines the trail lacks
    START_REMOVED = "removed at the start"  # the chain's first lines are gone, not rotated


@frozen
class Finding:
    problem: Problem
    where: str  # "file:line", or the trail's name for a finding about the whole trail
    detail: str

    def __str__(self) -> str:
        return f"{self.where}: {self.detail}"


@frozen
class Head:
    """The trail's head record: the last line written (``seq`` and ``chain``)."""

    seq: int
    chain: str


@frozen
class ChainResult:
    lines: int  # lines read (spooled ones included)
    chained: int
    before_start: int  # unchained lines before the chain starts (older versions wrote them)
    pending: int  # lines still in spool files: sealed when merged
    first_seq: int | None
    last_seq: int | None
    start: str  # where the chain starts ("file:line"), "" when no line is chained
    findings: tuple[Finding, ...]
    counts: dict[str, int]  # per Problem value, every finding (also those not kept)
    head_missing: bool = False  # no head record: lines cut from the end cannot be told

    @property
    def intact(self) -> bool:
        return not self.counts

    @property
    def problems(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        """One line: what the chain shows."""
        if not self.chained:
            lost = f"; {self.problems} removed from the end" if self.counts else ""
            return f"no chained line ({self.lines} written before the chain){lost}"
        span = f"seq {self.first_seq}..{self.last_seq}"
        end = "; its end cannot be checked (no head record)" if self.head_missing else ""
        if self.intact:
            return f"{span} ({self.chained} lines): none removed, reordered or changed{end}"
        what = ", ".join(f"{n} {key}" for key, n in sorted(self.counts.items()))
        return f"{span}: {what}{end}"

    def to_json(self) -> dict[str, object]:
        return {
            "intact": self.intact,
            "lines": self.lines,
            "chained": self.chained,
            "before_start": self.before_start,
            "pending": self.pending,
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
            "start": self.start,
            "problems": dict(self.counts),
            "head_missing": self.head_missing,
            "findings": [
                {"problem": f.problem.value, "where": f.where, "detail": f.detail}
                for f in self.findings
            ],
        }


@mutable
class ChainCheck:
    """Feed every line of the trail in order (``feed``), then ``result``.

    ``head``: the trail's head record, read before the lines (None: absent). ``rotated_away``:
    True when the oldest rotated file may have been dropped by rotation (as many rotated files
    as ``keep``), so a chain that starts past seq 1 is explained."""

    name: str
    head: Head | None = None
    rotated_away: bool = False
    lines: int = 0
    chained: int = 0
    before_start: int = 0
    pending: int = 0
    first: int | None = None
    top: int = 0  # the highest seq seen in the current chain
    start: str = ""
    recent: dict[int, str] = field(default_factory=dict)
    order: deque[int] = field(default_factory=deque)
    missing: list[list[int]] = field(default_factory=list)  # [low, high] seq ranges not seen
    found: list[Finding] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def _note(self, problem: Problem, where: str, detail: str, n: int = 1) -> None:
        self.counts[problem.value] = self.counts.get(problem.value, 0) + n
        if len(self.found) < KEPT:
            self.found.append(Finding(problem, where, detail))

    def feed(self, raw: bytes, where: str, *, spooled: bool = False) -> None:
        """One line of the trail; ``spooled``: from a spool file, still waiting for its seal."""
        if not raw.strip():
            return
        self.lines += 1
        if spooled:
            self.pending += 1
            return
        sealed = unseal(raw)
        if sealed is None:
            if self.first is None:
                self.before_start += 1
            elif _record(raw):  # garbage counts as malformed in the report, and claims nothing
                self._note(Problem.UNCHAINED, where, "a record without a chain inside the chain")
            return
        self.chained += 1
        if self.first is None:
            self._begin(sealed, where)
        elif sealed.seq == 1 and link(GENESIS, sealed.body) == sealed.chain:
            self._note(Problem.RESTARTED, where, f"a new chain starts after seq {self.top}")
            self._restart()
        self._place(sealed, where)
        self._remember(sealed)

    def _begin(self, s: Sealed, where: str) -> None:
        self.first, self.start = s.seq, where
        if s.seq > 1 and not self.rotated_away:
            self._note(
                Problem.START_REMOVED,
                where,
                f"the chain starts at seq {s.seq}: lines 1..{s.seq - 1} are not in the trail "
                "and were not rotated away",
                s.seq - 1,
            )
        self.top = s.seq - 1

    def _restart(self) -> None:
        self.top = 0
        self.recent.clear()
        self.order.clear()

    def _place(self, s: Sealed, where: str) -> None:
        if s.seq > self.top:
            if s.seq > self.top + 1:
                self.missing.append([self.top + 1, s.seq - 1])
            self.top = s.seq
            self._check_link(s, where)
            return
        for span in self.missing:
            if span[0] <= s.seq <= span[1]:
                self._take(span, s.seq)
                self._note(Problem.REORDERED, where, f"seq {s.seq} comes after seq {self.top}")
                self._check_link(s, where)
                return
        self._note(Problem.REPEATED, where, f"seq {s.seq} was already in the trail")

    def _take(self, span: list[int], seq: int) -> None:
        low, high = span
        self.missing.remove(span)
        if low < seq:
            self.missing.append([low, seq - 1])
        if seq < high:
            self.missing.append([seq + 1, high])

    def _check_link(self, s: Sealed, where: str) -> None:
        prev = GENESIS if s.seq == 1 else self.recent.get(s.seq - 1)
        if prev is not None and link(prev, s.body) != s.chain:
            self._note(
                Problem.CHANGED,
                where,
                f"seq {s.seq} does not follow from seq {s.seq - 1}: one of them was changed",
            )

    def _remember(self, s: Sealed) -> None:
        self.recent[s.seq] = s.chain
        self.order.append(s.seq)
        if len(self.order) > WINDOW:
            self.recent.pop(self.order.popleft(), None)

    def result(self) -> ChainResult:
        for low, high in sorted(self.missing):
            seqs = f"seq {low}" if low == high else f"seq {low}..{high}"
            self._note(Problem.REMOVED, self.name, f"{seqs} missing", high - low + 1)
        self.missing.clear()
        self._check_head()
        return ChainResult(
            self.lines,
            self.chained,
            self.before_start,
            self.pending,
            self.first,
            self.top if self.first is not None else None,
            self.start,
            tuple(self.found),
            dict(self.counts),
            self.head is None and self.first is not None,
        )

    def _check_head(self) -> None:
        if self.head is None:
            return  # a copy of the trail without it, or it was removed: ChainResult says so
        if self.first is None:  # emptied, deleted or swapped for /dev/null after lines
            if self.head.seq > 0:
                what = f"the trail holds no chained line, but seq {self.head.seq} was written"
                self._note(Problem.END_REMOVED, self.name, what, self.head.seq)
            return
        if self.head.seq > self.top:
            self._note(
                Problem.END_REMOVED,
                self.name,
                f"the trail ends at seq {self.top}, but seq {self.head.seq} was written",
                self.head.seq - self.top,
            )
        elif self.head.seq == self.top and self.recent.get(self.top) != self.head.chain:
            self._note(
                Problem.CHANGED,
                self.name,
                f"the last line (seq {self.top}) is not the one that was written",
            )


def parse_head(data: bytes) -> Head | None:
    """The head record's text (``<seq> <chain>``), or None when it is not one."""
    parts = data.split()
    if len(parts) != 2 or not parts[0].isdigit() or len(parts[0]) > 20:
        return None
    if len(parts[1]) != 64 or not _HEX.issuperset(parts[1]):
        return None
    return Head(int(parts[0]), parts[1].decode("ascii"))


def format_head(head: Head) -> bytes:
    """Fixed width, so an overwrite in place always leaves exactly one record."""
    return b"%020d %s\n" % (head.seq, head.chain.encode("ascii"))
