"""The readiness report as ONE self-contained HTML page: inline CSS, inline SVG, no script,
no external URL. It can be mailed, attached to a ticket or opened from disk. ADR 0012."""

from __future__ import annotations

import math
from html import escape

from orchestrator_boundary.report import Report
from orchestrator_boundary.report_intents import IntentRow
from orchestrator_boundary.report_signals import write_allow_toml
from orchestrator_boundary.report_words import pct, plural

GREEN, RED, BAR, LINE = "#1a7f37", "#cf222e", "#4c6ef5", "#e8590c"
CHART_LABEL = 22  # characters of a name the tool chart shows; the table below has them all

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;
max-width:1100px;color:#1f2328;background:#fff;padding:0 16px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px}
.meta{color:#59636e;margin:0 0 16px}
.verdict{display:inline-block;padding:8px 18px;border-radius:6px;color:#fff;font-weight:700;
font-size:20px}
.ready{background:#1a7f37} .not-ready{background:#cf222e}
table{border-collapse:collapse;margin:4px 0} td,th{padding:4px 12px;border-bottom:1px solid #d1d9e0;
text-align:left;vertical-align:top} td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.ok td.mark{color:#1a7f37;font-weight:700} tr.fail td.mark{color:#cf222e;font-weight:700}
tr.ok{background:#dafbe1} tr.fail{background:#ffebe9}
.grid{display:flex;flex-wrap:wrap;gap:32px} .grid>div{flex:1 1 420px}
svg text{font:11px system-ui,sans-serif;fill:#1f2328}
code{font:12px ui-monospace,monospace}
pre{font:13px ui-monospace,monospace;background:#f6f8fa;padding:8px 12px;border-radius:6px}
#notes p{max-width:80ch}
"""


def _num(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def chart_per_day(r: Report, width: int = 1000, height: int = 260) -> str:
    """Bars: violations per day; line: daily violation rate (right axis)."""
    left, right, top, bottom = 44, 44, 16, 40
    w, h = width - left - right, height - top - bottom
    days = r.per_day
    parts = [
        f'<svg id="chart-per-day" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="violations per day">'
    ]
    parts.append(f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#f6f8fa"/>')
    if not days:
        parts.append(f'<text x="{left + 8}" y="{top + 20}">no tool uses</text></svg>')
        return "".join(parts)
    peak = max(max(d.violations for d in days), 1)
    top_rate = max(0.1, math.ceil(max(d.rate for d in days) * 10) / 10)  # right axis, 10 % steps
    origin = days[0].day
    span = max((days[-1].day - origin).days + 1, 1)
    slot = w / span
    bar_w = max(slot * 0.7, 1.0)
    for frac in (0, 0.5, 1):
        y = top + h - frac * h
        parts.append(
            f'<line x1="{left}" x2="{left + w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#d1d9e0"/>'
        )
        parts.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{peak * frac:g}</text>'
        )
        parts.append(
            f'<text x="{left + w + 6}" y="{y + 4:.1f}">{frac * top_rate * 100:.0f} %</text>'
        )
    points = []
    for d in days:
        i = (d.day - origin).days
        x = left + i * slot + (slot - bar_w) / 2
        bh = d.violations / peak * h
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{top + h - bh:.1f}" width="{bar_w:.1f}" '
            f'height="{bh:.1f}" fill="{BAR}"><title>{d.day}: {plural(d.violations, "violation")}'
            f" / {plural(d.tool_uses, 'tool use')}</title></rect>"
        )
        points.append(f"{left + i * slot + slot / 2:.1f},{top + h - d.rate / top_rate * h:.1f}")
    parts.append(
        f'<polyline points="{" ".join(points)}" fill="none" stroke="{LINE}" stroke-width="2"/>'
    )
    step = max(1, len(days) // 10)
    for d in days[::step]:
        i = (d.day - origin).days
        parts.append(
            f'<text x="{left + i * slot + slot / 2:.1f}" y="{top + h + 16}" '
            f'text-anchor="middle">{d.day.strftime("%m-%d")}</text>'
        )
    parts.append(
        f'<text x="{left}" y="{height - 6}">bars: violations per day (left axis); '
        f"line: violations / tool uses (right axis)</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


def chart_by_tool(r: Report, width: int = 480, limit: int = 10) -> str:
    items = r.by_tool[:limit]
    row, left, top = 24, 160, 8  # left: room for CHART_LABEL characters
    height = top * 2 + max(len(items), 1) * row
    parts = [
        f'<svg id="chart-by-tool" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="violations by tool">'
    ]
    if not items:
        parts.append(f'<text x="8" y="{top + 16}">no violations</text></svg>')
        return "".join(parts)
    peak = max(n for _, n in items)
    w = width - left - 60
    for k, (name, n) in enumerate(items):
        y = top + k * row
        bw = max(n / peak * w, 1)
        label = name if len(name) <= CHART_LABEL else name[: CHART_LABEL - 1] + "\u2026"
        parts.append(f'<text x="{left - 6}" y="{y + 16}" text-anchor="end">{escape(label)}</text>')
        parts.append(
            f'<rect class="bar" x="{left}" y="{y + 4}" width="{bw:.1f}" '
            f'height="{row - 8}" '
            f'fill="{BAR}"><title>{escape(name)}: {n}</title></rect>'
        )
        parts.append(f'<text x="{left + bw + 6:.1f}" y="{y + 16}">{n}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><td>{escape(k)}</td><td class=n>{escape(v)}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _names(items: list[tuple[str, int]], limit: int = 10) -> str:
    """The chart's names in full (its labels are shortened to fit), when any is shortened."""
    if all(len(name) <= CHART_LABEL for name, _ in items[:limit]):
        return ""
    return _ranking("", items, limit, ident="tools-in-full")


def _ranking(title: str, items: list[tuple[str, int]], limit: int = 15, ident: str = "") -> str:
    if not items:
        return ""
    id_attr = f' id="{ident}"' if ident else ""
    body = "".join(
        f"<tr><td><code>{escape(name)}</code></td><td class=n>{n}</td></tr>"
        for name, n in items[:limit]
    )
    more = f"<p class=meta>and {len(items) - limit} more</p>" if len(items) > limit else ""
    heading = f"<h2>{escape(title)}</h2>" if title else ""
    return f"<div{id_attr}>{heading}<table>{body}</table>{more}</div>"


def _numbers(r: Report) -> list[tuple[str, str]]:
    span = f"{r.first} .. {r.last}" if r.first else "no records"
    rows = [
        ("days of data (first to last)", f"{plural(r.span_days, 'day')} ({span})"),
        ("days with records", str(r.distinct_days)),
        ("tool uses (PreToolUse)", _num(r.tool_uses)),
        ("hook invocations", _num(r.invocations)),
        ("sessions", _num(r.sessions)),
        ("violations (would deny)", f"{_num(r.violations)} ({pct(r.violation_rate)} of uses)"),
        ("violations per session", f"{r.violations_per_session:.2f}"),
        ("violations now allowed by write_allow (not counted)", _num(r.allowed_by_config)),
        ("bypassed calls", _num(r.bypassed_calls)),
        ("sessions with a bypass", f"{r.sessions_with_bypass} ({pct(r.bypass_session_share)})"),
        ("hook errors", f"{r.hook_errors} ({pct(r.hook_error_rate, 2)} of invocations)"),
        ("subagent tool calls", _num(r.subagent_calls)),
        (
            "daily violation rate slope",
            "-" if r.slope is None else f"{r.slope * 100:+.2f} points a day",
        ),
        ("malformed lines (skipped)", _num(r.malformed)),
        ("repeated records of a call (counted once)", _num(r.repeated_records)),
    ]
    return rows


def _notes(r: Report) -> str:
    """The notes and the suggested ``write_allow`` lines, as in the text form."""
    if not r.notes:
        return ""
    paragraphs = "".join(f"<p>{escape(n)}</p>" for n in r.notes)
    toml = (
        f'<pre id="write-allow">{escape(write_allow_toml(r.write_allow))}</pre>'
        if r.write_allow
        else ""
    )
    return f'<div id="notes"><h2>Notes</h2>{paragraphs}{toml}</div>'


INTENT_HEADINGS = (
    ("intent", "the intent the Agent call named, or why there is none"),
    ("status", "the intent's status in the config"),
    ("Agent calls", "the Agent calls that started the subagents"),
    ("agents", "distinct subagents"),
    ("writes", "calls that changed files and were not denied"),
    ("files", "distinct files those writes changed"),
    ("scope", "DELEGATION_SCOPE and SCOPE_VIOLATION denials"),
    ("stale", "STALE_FILE denials"),
    ("lease", 'FILE_LEASED denials, and writes to a leased file with leases = "warn"'),
)


def _intent_row(row: IntentRow) -> str:
    numbers = (
        row.agent_calls,
        row.agents,
        row.writes,
        row.files,
        row.scope,
        row.stale_denials,
        row.leases,
    )
    name = f"<code>{escape(row.intent)}</code>" if row.intent else escape(row.label)
    reasons = "".join(
        f"<br><small>{escape(cause)}: {plural(n, 'call')}</small>"
        for cause, n in row.unknown_reasons
    )
    cells = "".join(f"<td class=n>{'-' if v is None else v}</td>" for v in numbers)
    return (
        f'<tr data-row="{row.kind}"><td>{name}{reasons}</td>'
        f"<td>{escape(row.status or '')}</td>{cells}</tr>"
    )


def _intents(r: Report) -> str:
    """The per-intent table (ADR 27), every row; nothing when the trail names no intent."""
    if not r.intents:
        return ""
    head = "".join(f'<th title="{escape(tip)}">{escape(t)}</th>' for t, tip in INTENT_HEADINGS)
    body = "".join(_intent_row(row) for row in r.intents)
    return (
        '<div id="intents"><h2>Per intent</h2>'
        f"<table><tr>{head}</tr>{body}</table>"
        "<p class=meta>Each call counts once; denials are what enforce would deny.</p></div>"
    )


def render_html(r: Report, *, trail_path: str = "", files: int = 1) -> str:
    verdict_class = "ready" if r.ready else "not-ready"
    crit = "".join(
        f'<tr class="{"ok" if c.ok else "fail"}" data-ok="{str(c.ok).lower()}">'
        f"<td class=mark>{'PASS' if c.ok else 'FAIL'}</td><td>{escape(c.label)}</td>"
        f"<td>{escape(c.value)}</td><td>{escape(c.needed)}</td></tr>"
        for c in r.criteria
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>orchestrator-boundary readiness: {r.verdict}</title>
<style>{CSS}</style></head>
<body>
<h1>orchestrator-boundary readiness report</h1>
<p class=meta>{escape(r.today.isoformat())} &middot; trail <code>{escape(trail_path)}</code>
({plural(files, "file")}, {plural(r.records, "record")})</p>
<p>Verdict for <code>enforce</code>:
<span id="verdict" class="verdict {verdict_class}">{r.verdict}</span></p>
<h2>Criteria</h2>
<table id="criteria"><tr><th></th><th>criterion</th><th>trail</th><th>needed</th></tr>{crit}</table>
{_notes(r)}
<h2>Violations per day</h2>
{chart_per_day(r)}
<div class=grid>
<div><h2>Numbers</h2>{_table(_numbers(r))}</div>
<div><h2>Violations by tool</h2>{chart_by_tool(r)}{_names(r.by_tool)}</div>
</div>
<div class=grid>
{_ranking("Violations by agent", r.by_agent)}
{_ranking("Violations by rule", r.by_rule)}
</div>
<div class=grid>
{_ranking("Violations by file", r.by_file)}
{_ranking("Hook errors by cause", r.by_cause, ident="errors-by-cause")}
</div>
{_intents(r)}
</body></html>
"""
