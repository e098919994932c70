"""``orchestrator-boundary report``: is this project ready for ``enforce``? ADR 0012.

Reads the whole audit trail (rotated files included), prints the readiness numbers and a
verdict as an 80-column table, one JSON object (``--json``) and/or one self-contained HTML
page (``--html FILE``).

Exit codes: 0 READY, 3 NOT READY, 2 the report could not be made (no trail, broken config,
bad arguments).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, date, datetime
from typing import IO, Any

from orchestrator_boundary import audit
from orchestrator_boundary.config import ConfigProblem, config_path, load_config
from orchestrator_boundary.progress import Progress
from orchestrator_boundary.report import Report, Thresholds, compute, iter_records, parse_since

EXIT_READY, EXIT_NOT_READY, EXIT_ERROR = 0, 3, 2
WIDTH = 80


def register(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="is the audit trail good enough to enforce? (exit 0 READY, 3 NOT READY)",
        description="Readiness numbers for switching to enforce. Exit 0 READY, 3 NOT READY, "
        "2 when no report could be made.",
    )
    p.add_argument("--project", help="project root (default: $CLAUDE_PROJECT_DIR, else cwd)")
    p.add_argument(
        "--audit",
        metavar="FILE",
        help="audit trail (default: [audit] path of the config); rotated FILE.N too",
    )
    p.add_argument("--since", metavar="DATE", help="only records from DATE (YYYY-MM-DD or 30d)")
    p.add_argument("--json", action="store_true", help="one JSON object with every number")
    p.add_argument("--html", metavar="FILE", help="also write one self-contained HTML page")
    p.add_argument("--min-days", type=int, help="override [report] min_days")
    p.add_argument("--min-tool-uses", type=int, help="override [report] min_tool_uses")
    p.add_argument(
        "--max-hook-error-rate",
        type=float,
        metavar="RATE",
        help="override [report] max_hook_error_rate (0.01 = 1 %%)",
    )
    p.add_argument(
        "--max-bypass-session-share",
        type=float,
        metavar="SHARE",
        help="override [report] max_bypass_session_share (0.10 = 10 %%)",
    )
    p.add_argument(
        "--trend-tolerance",
        type=float,
        metavar="SLOPE",
        help="largest rise of the daily violation rate still 'stable' (default 0.005)",
    )
    p.set_defaults(func=run)


def _fail(args: argparse.Namespace, message: str) -> int:
    if args.json:
        print(json.dumps({"verdict": None, "ready": False, "error": message}))
    sys.stderr.write(f"report: {message}\n")
    return EXIT_ERROR


def run(
    args: argparse.Namespace, *, today: date | None = None, progress_stream: IO[str] | None = None
) -> int:
    today = today or datetime.now(UTC).date()
    root = os.path.abspath(args.project or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    loaded = load_config(config_path(root, os.environ), os.environ.get("HOME") or None)
    if isinstance(loaded, ConfigProblem):
        return _fail(args, f"config problem: {loaded}")
    trail_path = args.audit or loaded.audit.path
    if not os.path.isabs(trail_path):
        base = os.getcwd() if args.audit else root  # --audit is relative to where you are
        trail_path = os.path.join(base, trail_path)
    files = audit.trail_files(trail_path)
    if not files:
        return _fail(args, f"no audit trail at {trail_path} (has the hook run in this project?)")
    try:
        since = parse_since(args.since, today) if args.since else None
        thresholds = Thresholds.from_config(
            loaded.report,
            min_days=args.min_days,
            min_tool_uses=args.min_tool_uses,
            max_hook_error_rate=args.max_hook_error_rate,
            max_bypass_session_share=args.max_bypass_session_share,
            trend_tolerance=args.trend_tolerance,
        )
    except ValueError as exc:
        return _fail(args, str(exc))
    progress = Progress("report: reading audit trail", stream=progress_stream)
    try:
        rep = compute(iter_records(files, progress), thresholds, today, since=since)
    except OSError as exc:
        return _fail(args, f"cannot read the audit trail ({exc})")
    finally:
        progress.close()
    if args.html:
        from orchestrator_boundary.report_html import render_html

        with open(args.html, "w", encoding="utf-8") as fh:
            fh.write(render_html(rep, trail_path=trail_path, files=len(files)))
    if args.json:
        data = rep.to_json()
        data.update(trail=trail_path, trail_files=files, html=args.html)
        print(json.dumps(data))
    else:
        sys.stdout.write(render_text(rep, trail_path, len(files), args.html))
    return EXIT_READY if rep.ready else EXIT_NOT_READY


# ---------------------------------------------------------------- text (80 columns)


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, eliding the middle (paths keep both ends)."""
    if len(text) <= width:
        return text
    if width <= 3:
        return text[:width]
    head = (width - 3) // 2
    return text[:head] + "..." + text[len(text) - (width - 3 - head) :]


def _row(label: str, value: str, extra: str = "") -> str:
    line = f"  {fit(label, 34):<34} {fit(value, 14):>14}"
    if extra:
        line += "  " + fit(extra, WIDTH - len(line) - 2)
    return line


def _ranking(title: str, items: list[tuple[str, int]], total: int, limit: int = 8) -> list[str]:
    if not items:
        return []
    out = [f"{title}:"]
    for name, n in items[:limit]:
        share = f"{n / total * 100:5.1f} %" if total else ""
        out.append(f"  {fit(name, 56):<56} {n:>9} {share:>9}"[:WIDTH].rstrip())
    if len(items) > limit:
        rest = sum(n for _, n in items[limit:])
        out.append(f"  {fit(f'... {len(items) - limit} more', 56):<56} {rest:>9}")
    out.append("")
    return out


def render_text(r: Report, trail_path: str, nfiles: int, html: str | None = None) -> str:
    lines = [
        fit(f"orchestrator-boundary readiness report ({r.today.isoformat()})", WIDTH),
        fit(f"trail: {trail_path} ({nfiles} file{'s' if nfiles != 1 else ''})", WIDTH),
    ]
    if r.first and r.last:
        lines.append(
            f"data:  {r.first} .. {r.last}: {r.span_days} days, {r.distinct_days} with records"
        )
    else:
        lines.append("data:  no records")
    lines.append(
        f"lines: {r.records} records, {r.malformed} malformed (skipped)"
        + (f", {r.skipped_before_since} before --since" if r.skipped_before_since else "")
    )
    lines += [
        "",
        "Numbers:",
        _row("tool uses (PreToolUse)", str(r.tool_uses)),
        _row("hook invocations", str(r.invocations)),
        _row("sessions", str(r.sessions)),
        _row(
            "violations (would deny)", str(r.violations), f"{r.violation_rate * 100:.1f} % of uses"
        ),
        _row("violations per session", f"{r.violations_per_session:.2f}"),
        _row("bypassed calls", str(r.bypassed_calls)),
        _row(
            "sessions with a bypass",
            str(r.sessions_with_bypass),
            f"{r.bypass_session_share * 100:.1f} % of sessions",
        ),
        _row("hook errors", str(r.hook_errors), f"{r.hook_error_rate * 100:.2f} % of invocations"),
        _row("subagent tool calls", str(r.subagent_calls)),
        _row(
            "daily violation rate slope",
            "-" if r.slope is None else f"{r.slope * 100:+.2f}",
            "points per day",
        ),
        "",
    ]
    if r.first_half_rate is not None and r.second_half_rate is not None:
        lines.insert(
            -1,
            _row(
                "violation rate 1st / 2nd half",
                f"{r.first_half_rate * 100:.1f} / {r.second_half_rate * 100:.1f}",
                "%",
            ),
        )
    lines += _ranking("Violations by tool", r.by_tool, r.violations)
    lines += _ranking("Violations by agent", r.by_agent, r.violations)
    lines += _ranking("Violations by rule", r.by_rule, r.violations)
    lines += _ranking("Violations by file", r.by_file, r.violations)
    if r.per_day:
        lines.append("Violations per day (rate = violations / tool uses):")
        for d in r.per_day[-14:]:
            bar = "#" * round(d.rate * 40)
            lines.append(
                f"  {d.day} {d.violations:>6}/{d.tool_uses:<6} {d.rate * 100:5.1f} % {bar}"
            )
        if len(r.per_day) > 14:
            lines.append(f"  (last 14 of {len(r.per_day)} days; --json has them all)")
        lines.append("")
    lines.append(f"Verdict for enforce: {r.verdict}")
    for c in r.criteria:
        mark = "[ok]  " if c.ok else "[FAIL]"
        lines.append(f"  {mark} {fit(c.label, 28):<28} {fit(c.value, 26):<26} {fit(c.needed, 14)}")
    if not r.subagent_calls:
        lines.append("  no call carried agent_id: enforce would block the subagents too")
    if html:
        lines.append(fit(f"html: {html}", WIDTH))
    return "\n".join(line[:WIDTH].rstrip() for line in lines) + "\n"
