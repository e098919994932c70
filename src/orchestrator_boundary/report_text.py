"""The report as text for an 80-column terminal. Nothing is cut: a value longer than its
column wraps onto the next lines (paths break after a ``/``, sentences between words), and the
numbers of a row stand on its last line. ADR 0012."""

from __future__ import annotations

import textwrap

from orchestrator_boundary.report import Report
from orchestrator_boundary.report_chain import chain_header
from orchestrator_boundary.report_intents import INTENT, IntentRow
from orchestrator_boundary.report_signals import write_allow_toml
from orchestrator_boundary.report_words import pct, plural

WIDTH = 80
NAME = 56  # the name column of a ranking: name, count (9), share (9)
LABEL = 28  # the label column of a criterion


def shown(text: str) -> str:
    """``text`` safe for a terminal: control characters (a newline, an escape sequence in a
    file name an agent chose) are written as Python escapes, never sent as they are."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def chunks(text: str, width: int) -> list[str]:
    """``text`` in pieces of at most ``width`` characters that join back to it: each piece
    ends after the last ``/``, ``\\`` or space that leaves it at least half full, else it is
    cut hard."""
    out: list[str] = []
    while len(text) > width:
        cut = max(text.rfind(sep, 0, width) for sep in "/\\ ") + 1
        cut = cut if cut > width // 2 else width
        out.append(text[:cut])
        text = text[cut:]
    return [*out, text]


def hanging(first: str, text: str, indent: int) -> list[str]:
    """``first`` then ``text`` wrapped to WIDTH, the next lines indented by ``indent``."""
    room, text = WIDTH - len(first), shown(text)
    head = chunks(text, room)[0] if room > 0 else ""
    lines = [(first + head).rstrip()]
    rest = text[len(head) :]
    if rest:
        lines += [" " * indent + piece for piece in chunks(rest, WIDTH - indent)]
    return lines


def prose(text: str, indent: int = 0) -> list[str]:
    """A sentence (or several) wrapped between words, long words broken, nothing dropped."""
    pad = " " * indent
    return textwrap.wrap(
        shown(text), WIDTH, initial_indent=pad, subsequent_indent=pad, break_on_hyphens=False
    )


def ranked_row(name: str, numbers: str) -> list[str]:
    """A ranking row: the name wrapped in its column, the numbers beside its last piece."""
    pieces = chunks(shown(name), NAME)
    lines = [f"  {p}" for p in pieces[:-1]]
    return [*lines, f"  {pieces[-1]:<{NAME}}{numbers}".rstrip()]


def ranking(title: str, items: list[tuple[str, int]], total: int, noun: str) -> list[str]:
    limit = 8
    if not items:
        return []
    out = [f"{title}:"]
    for name, n in items[:limit]:
        share = f"{n / total * 100:5.1f} %" if total else ""
        out += ranked_row(name, f" {n:>9} {share:>9}")
    if len(items) > limit:
        rest = sum(n for _, n in items[limit:])
        out += ranked_row(f"and {plural(len(items) - limit, 'more ' + noun)}", f" {rest:>9}")
    return [*out, ""]


def _row(label: str, value: str, extra: str = "") -> str:
    return f"  {label:<34} {value:>14}  {extra}".rstrip()


def numbers(r: Report) -> list[str]:
    lines = [
        "Numbers:",
        _row("tool uses (PreToolUse)", str(r.tool_uses)),
        _row("hook invocations", str(r.invocations)),
        _row("sessions", str(r.sessions)),
        _row("violations (would deny)", str(r.violations), f"{pct(r.violation_rate)} of uses"),
        _row("violations per session", f"{r.violations_per_session:.2f}"),
    ]
    if r.allowed_by_config:
        lines.append(_row("now allowed by write_allow", str(r.allowed_by_config), "not counted"))
    lines += [
        _row("bypassed calls", str(r.bypassed_calls)),
        _row(
            "sessions with a bypass",
            str(r.sessions_with_bypass),
            f"{pct(r.bypass_session_share)} of sessions",
        ),
        _row("hook errors", str(r.hook_errors), f"{pct(r.hook_error_rate, 2)} of invocations"),
        _row("subagent tool calls", str(r.subagent_calls)),
        *_misses(r),
        _row(
            "daily violation rate slope",
            "-" if r.slope is None else f"{r.slope * 100:+.2f}",
            "points a day",
        ),
    ]
    if r.first_half_rate is not None and r.second_half_rate is not None:
        halves = f"{r.first_half_rate * 100:.1f} / {r.second_half_rate * 100:.1f}"
        lines.append(_row("violation rate 1st / 2nd half", halves, "%"))
    return [*lines, ""]


def _misses(r: Report) -> list[str]:
    """The field check's rows (ADR 0029); none when it never ran."""
    m = r.misses
    if not m.compared:
        return []
    missed = sum(m.by_label.values())
    return [
        _row("Bash calls compared with the field", str(m.compared), f"{m.partial} partial"),
        _row("analysis misses", str(missed), f"{m.read_only} read_only"),
    ]


def per_day(r: Report) -> list[str]:
    if not r.per_day:
        return []
    lines = ["Violations per day (rate = violations / tool uses):"]
    for d in r.per_day[-14:]:
        bar = "#" * round(d.rate * 40)
        lines.append(f"  {d.day} {d.violations:>6}/{d.tool_uses:<6} {d.rate * 100:5.1f} % {bar}")
    if len(r.per_day) > 14:
        lines.append(f"  These are the last 14 of {len(r.per_day)} days; --json has them all.")
    return [*lines, ""]


INTENT_COLUMNS = ("calls", "agents", "writes", "files", "scope", "stale", "lease")
INTENT_ROWS = 10  # intent rows shown; the rest are summed on one row (--json has them all)
INTENT_LEGEND = (
    "calls: the Agent calls that started the subagents; agents: distinct subagents; "
    "writes: calls that changed files and were not denied; files: distinct files they "
    "changed; scope: DELEGATION_SCOPE and SCOPE_VIOLATION; stale: STALE_FILE; lease: "
    'FILE_LEASED, and writes to a leased file with leases = "warn". Each call counts once.'
)


def _intent_cells(row: IntentRow) -> tuple[str, ...]:
    values = (
        row.agent_calls,
        row.agents,
        row.writes,
        row.files,
        row.scope,
        row.stale_denials,
        row.leases,
    )
    return tuple("-" if v is None else str(v) for v in values)


def _summed(rows: list[IntentRow]) -> tuple[str, ...]:
    """The cells of intent rows summed (all of them have every number)."""
    cells = [_intent_cells(row) for row in rows]
    return tuple(str(sum(int(c[i]) for c in cells)) for i in range(len(INTENT_COLUMNS)))


def intents(r: Report) -> list[str]:
    """The per-intent table (ADR 27): name wrapped in its column, numbers beside its last
    piece, every column as wide as its widest value, so the table never passes WIDTH."""
    if not r.intents:
        return []
    named = [row for row in r.intents if row.kind == INTENT]
    table: list[tuple[str, tuple[str, ...], IntentRow | None]] = [
        (row.label, _intent_cells(row), row) for row in named[:INTENT_ROWS]
    ]
    if len(named) > INTENT_ROWS:
        rest = named[INTENT_ROWS:]
        table.append((f"and {plural(len(rest), 'more intent')}", _summed(rest), None))
    table += [(row.label, _intent_cells(row), row) for row in r.intents if row.kind != INTENT]
    widths = [
        1 + max(len(title), *(len(cells[i]) for _, cells, _ in table))
        for i, title in enumerate(INTENT_COLUMNS)
    ]
    name_width = WIDTH - 2 - sum(widths)
    lines = [
        "Per intent (delegations, their writes and denials):",
        f"  {'intent (status)':<{name_width}}"
        + "".join(f"{t:>{w}}" for t, w in zip(INTENT_COLUMNS, widths, strict=True)),
    ]
    for name, cells, row in table:
        pieces = chunks(shown(name), name_width)
        lines += [f"  {p}" for p in pieces[:-1]]
        numbers = "".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))
        lines.append(f"  {pieces[-1]:<{name_width}}{numbers}")
        for cause, n in row.unknown_reasons if row is not None else ():
            lines += hanging("    - ", f"{cause}: {plural(n, 'call')}", 6)
    return [*lines, *prose(INTENT_LEGEND, 2), ""]


def verdict(r: Report) -> list[str]:
    lines = [f"Verdict for enforce: {r.verdict}"]
    for c in r.criteria:
        mark = "[ok]  " if c.ok else "[FAIL]"
        lines += hanging(
            f"  {mark} {c.label:<{LABEL}} ", f"{c.value}; needs {c.needed}", LABEL + 10
        )
    for note in r.notes:
        lines += ["", *prose(note, 2)]
    if r.write_allow:
        lines += ["", *("    " + line for line in write_allow_toml(r.write_allow).splitlines())]
    return lines


def header(r: Report, trail_path: str, nfiles: int) -> list[str]:
    lines = [
        f"orchestrator-boundary readiness report ({r.today.isoformat()})",
        *hanging("trail: ", f"{trail_path} ({plural(nfiles, 'file')})", 7),
    ]
    if r.first and r.last:
        days = f"{plural(r.span_days, 'day')}, {r.distinct_days} with records"
        lines.append(f"data:  {r.first} .. {r.last}: {days}")
    else:
        lines.append("data:  no records")
    counts = [plural(r.records, "record"), f"{r.malformed} malformed (skipped)"]
    if r.skipped_before_since:
        counts.append(f"{r.skipped_before_since} before --since")
    if r.repeated_records:
        counts.append(f"{r.repeated_records} repeated")
    lines += prose("lines: " + ", ".join(counts))
    return lines + [piece for line in chain_header(r) for piece in prose(line)]


def render_text(r: Report, trail_path: str, nfiles: int, html: str | None = None) -> str:
    lines = [*header(r, trail_path, nfiles), "", *numbers(r)]
    lines += ranking("Violations by tool", r.by_tool, r.violations, "tool")
    lines += ranking("Violations by agent", r.by_agent, r.violations, "agent")
    lines += ranking("Violations by rule", r.by_rule, r.violations, "rule")
    lines += ranking("Violations by file", r.by_file, r.violations, "file")
    lines += ranking("Hook errors by cause", r.by_cause, r.hook_errors, "cause")
    lines += intents(r)
    lines += per_day(r)
    lines += verdict(r)
    if html:
        lines += hanging("html: ", html, 6)
    return "\n".join(line.rstrip() for line in lines) + "\n"
