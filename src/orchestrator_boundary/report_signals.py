"""What ``report`` reads out of the records beyond counting them: why the hook failed, and
which files the orchestrator changes on purpose.

Hook errors are grouped by a stable cause taken from the recorded ``error`` message: the
exception class for internal errors, the field for an invalid payload, otherwise the message
up to its first detail (``payload too large (40 MB > 32 MB)`` -> ``payload too large``).

An *intended write* is the orchestrator keeping its own notes (``STATE.md``, a plan): the top
violated file is a notes file inside the root, every violation on it is the main agent writing
it (``ORCHESTRATOR_WRITE``, or ``BASH_WRITE`` for ``echo >> STATE.md``), and it was written in
at least ``INTENDED_MIN_SESSIONS`` sessions. Only notes files qualify: a code file the main
agent keeps editing is exactly what the boundary is there to stop, never something to allow.
Only the top file is judged: a notes file the main agent wrote a few times and then left alone
is a habit the team already broke, not something to allow. Once the top file is allowed, the
next one, if it qualifies, is the top on the next run.

*Analysis misses* (ADR 0029) come from the ``field`` of PostToolUse lines: a Bash call whose
files changed where the analysis did not predict, by a command it rated ``read_only`` or
``writes``. A miss on a call that overlapped another is counted apart: the change may be the
other call's.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from orchestrator_boundary import scope

WRITE_CODES = frozenset({"ORCHESTRATOR_WRITE", "BASH_WRITE"})
INTENDED_MIN_SESSIONS = 3
NOTES_SUFFIXES = (".md", ".markdown", ".mdx", ".txt", ".rst", ".org", ".adoc")
DEFAULT_CONFIG_LABEL = ".claude/boundary.toml"

_INTERNAL = re.compile(r"internal error \((\w+)")
_PAYLOAD_FIELD = re.compile(r"invalid hook payload: ([^:]+):")
_DETAIL = re.compile(r" \(|: |, ")
_ABSOLUTE = re.compile(r"[/\\]|[A-Za-z]:[/\\]")  # POSIX, UNC or Windows drive


def error_cause(error: object) -> str:
    """A stable name for why the hook could not judge a call (see the module docstring)."""
    if not isinstance(error, str) or not error.strip():
        return "unknown"
    if m := _INTERNAL.match(error):
        return f"internal error ({m[1]})"
    if m := _PAYLOAD_FIELD.match(error):
        return f"invalid hook payload ({m[1]})"
    return _DETAIL.split(error.strip(), maxsplit=1)[0]


@dataclass(frozen=True, slots=True)
class WriteAllow:
    """The current config's allow lists. Recorded orchestrator writes they now cover are
    re-judged as allowed, so adding ``write_allow`` takes effect on the trail at once."""

    patterns: tuple[str, ...] = ()  # orchestrator.write_allow
    bash_patterns: tuple[str, ...] = ()  # bash.allow_write (Bash writes only)
    config_file: str = DEFAULT_CONFIG_LABEL  # where to add a pattern, as shown to the user

    def allows(self, code: str, paths: Sequence[str]) -> bool:
        """Would the current config let the main agent make this recorded write?"""
        if code not in WRITE_CODES or not paths or not self.patterns + self.bash_patterns:
            return False
        extra = self.bash_patterns if code == "BASH_WRITE" else ()
        compiled = scope.compiled([*self.patterns, *extra])
        return all(_relative(p) and scope.covers(compiled, p) for p in paths)


def _relative(path: str) -> bool:
    """A path the hook recorded relative to the root (not absolute, not unknown)."""
    return bool(path) and path != "?" and not _ABSOLUTE.match(path)


@dataclass(slots=True)
class FileWrites:
    """The main agent's write violations on one file."""

    writes: int = 0
    sessions: set[str] = field(default_factory=set)
    days: set[date] = field(default_factory=set)

    def add(self, session: str | None, day: date) -> None:
        self.writes += 1
        self.days.add(day)
        if session:
            self.sessions.add(session)


@dataclass(frozen=True, slots=True)
class IntendedWrite:
    path: str
    writes: int
    sessions: int
    days: int


def is_notes_file(path: str) -> bool:
    return path.lower().endswith(NOTES_SUFFIXES)


def _as_pattern(path: str) -> bool:
    """Does ``path``, written as a scope pattern, name exactly that file?"""
    try:
        return scope.covers(scope.compiled([path]), path)
    except scope.PatternError:
        return False


def _looks_intended(path: str, violations: int, fw: FileWrites | None) -> bool:
    return (
        fw is not None
        and fw.writes == violations
        and len(fw.sessions) >= INTENDED_MIN_SESSIONS
        and _relative(path)
        and is_notes_file(path)
        and _as_pattern(path)
    )


def intended_write(
    by_file: Sequence[tuple[str, int]], writes: Mapping[str, FileWrites]
) -> IntendedWrite | None:
    """The top violated file, when it looks like an intended write (module docstring)."""
    if not by_file or not _looks_intended(*by_file[0], writes.get(by_file[0][0])):
        return None
    path, n = by_file[0]
    return IntendedWrite(path, n, len(writes[path].sessions), len(writes[path].days))


def suggested_write_allow(current: Iterable[str], path: str) -> list[str]:
    """The ``write_allow`` list with ``path`` added (the current patterns kept first)."""
    return list(dict.fromkeys([*current, path]))


def write_allow_toml(patterns: Sequence[str], width: int = 76) -> str:
    """The ``[orchestrator]`` table line to paste, one pattern a line when it is long."""
    items = [json.dumps(p, ensure_ascii=False) for p in patterns]
    line = f"write_allow = [{', '.join(items)}]"
    if len(line) > width:
        line = "write_allow = [\n" + "".join(f"    {i},\n" for i in items) + "]"
    return f"[orchestrator]\n{line}"


MAX_MISS_EXAMPLES = 5
ENDS = frozenset({"PostToolUse", "PostToolUseFailure"})  # a Bash call that exited non-zero


@dataclass(slots=True)
class AnalysisMisses:
    """What the field check found over the trail (module docstring)."""

    compared: int = 0  # calls whose changes were compared with the analysis
    partial: int = 0  # of those, compared over part of the tree only
    overlapped: int = 0  # of those, run while another call ran
    by_label: Counter[str] = field(default_factory=Counter)  # calls with a miss, by label
    overlapped_misses: int = 0  # calls with a miss that overlapped another (not attributed)
    examples: list[dict[str, Any]] = field(default_factory=list)
    _seen: set[str] = field(default_factory=set)

    def add(self, rec: Mapping[str, Any]) -> None:
        f = rec.get("field")
        if rec.get("event") not in ENDS or not isinstance(f, Mapping) or "label" not in f:
            return
        call = rec.get("tool_use_id")
        if isinstance(call, str) and call:
            if call in self._seen:
                return  # the boundary registered twice: one comparison per call
            self._seen.add(call)
        self.compared += 1
        self.partial += f.get("partial") is True
        overlapped = f.get("overlapped") is True
        self.overlapped += overlapped
        n = f.get("missed_count")
        if not isinstance(n, int) or n <= 0:
            return
        if overlapped:
            self.overlapped_misses += 1
            return
        label = str(f.get("label"))
        self.by_label[label] += 1
        if len(self.examples) < MAX_MISS_EXAMPLES:
            sent = f.get("missed")
            missed: list[Any] = sent if isinstance(sent, list) else []
            self.examples.append(
                {
                    "label": label,
                    "command": str(f.get("command") or "")[:200],
                    "missed": [str(p) for p in missed[:5]],
                    "missed_count": n,
                    "ts": rec.get("ts"),
                    "session_id": rec.get("session_id"),
                }
            )

    @property
    def read_only(self) -> int:
        """Calls rated read_only that changed files: enforce would let them through."""
        return self.by_label["read_only"]

    def to_json(self) -> dict[str, Any]:
        return {
            "compared": self.compared,
            "partial": self.partial,
            "overlapped": self.overlapped,
            "misses_by_label": dict(sorted(self.by_label.items())),
            "overlapped_misses": self.overlapped_misses,
            "examples": list(self.examples),
        }
