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
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import IO, Any

from orchestrator_boundary import audit, wire
from orchestrator_boundary.cli_project import PROJECT_HELP, find_root, trail_environ
from orchestrator_boundary.config import Config, ConfigProblem, config_path, load_config
from orchestrator_boundary.progress import Progress
from orchestrator_boundary.report import (
    Report,
    Thresholds,
    WriteAllow,
    compute,
    iter_records,
    parse_since,
)
from orchestrator_boundary.report_text import render_text
from orchestrator_boundary.report_trail import chain_check
from orchestrator_boundary.setups import audit_setting

__all__ = [
    "EXIT_ERROR",
    "EXIT_NOT_READY",
    "EXIT_READY",
    "Made",
    "NoReport",
    "project_report",
    "register",
    "render_text",
    "run",
]

EXIT_READY, EXIT_NOT_READY, EXIT_ERROR = 0, 3, 2


def register(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="is the audit trail good enough to enforce? (exit 0 READY, 3 NOT READY)",
        description="Readiness numbers for switching to enforce. Exit 0 READY, 3 NOT READY, "
        "2 when no report could be made.",
    )
    p.add_argument("--project", default=None, help=PROJECT_HELP)
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


def _shown(path: str, root: str) -> str:
    """``path`` relative to the project root when it is inside, else as it is."""
    inside = path.startswith(root.rstrip(os.sep) + os.sep)
    return os.path.relpath(path, root).replace(os.sep, "/") if inside else path


def _allow(config: Config, config_file: str, root: str) -> WriteAllow:
    """The current allow lists: recorded writes they cover are re-judged as allowed."""
    return WriteAllow(
        tuple(config.orchestrator.write_allow),
        tuple(config.bash.allow_write),
        _shown(config_file, root),
    )


class NoReport(Exception):
    """No report can be made (a broken config, no trail, an unreadable trail): one sentence."""


@dataclass(frozen=True, slots=True)
class Made:
    report: Report
    trail: str  # the trail's path
    files: list[str]  # the trail and its rotated files, oldest first


def project_report(
    root: str,
    environ: Mapping[str, str],
    today: date,
    *,
    trail: str | None = None,
    since: date | None = None,
    progress: Progress | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Made:
    """The readiness report of the project at ``root`` exactly as ``report`` makes it: the
    config's thresholds (``overrides`` win) and allow lists, the whole trail. For any command
    that gates on the verdict (``phase enforce``), so that both always agree."""
    config_file = config_path(root, environ)
    loaded = load_config(config_file, wire.user_home(environ))
    if isinstance(loaded, ConfigProblem):
        raise NoReport(f"the config is broken ({loaded}); fix it and run the report again.")
    trail_path = audit.trail_path(root, trail or audit_setting(loaded, environ))  # user scope too
    files = audit.trail_files(trail_path)
    if not files:
        raise NoReport(
            f"there is no audit trail at {trail_path}; has the hook run in this project?"
        )
    thresholds = Thresholds.from_config(loaded.report, **(overrides or {}))
    allow = _allow(loaded, config_file, root)
    statuses = {name: intent.status for name, intent in loaded.intents.items()}
    check = chain_check(trail_path, files, loaded.audit.keep)  # ADR 0031
    try:
        records = iter_records(files, progress, check)
        rep = compute(
            records,
            thresholds,
            today,
            since=since,
            allow=allow,
            intents=statuses,
            chain=check,
        )
    except OSError as exc:
        raise NoReport(f"the audit trail cannot be read ({exc}).") from None
    return Made(rep, trail_path, files)


def run(
    args: argparse.Namespace, *, today: date | None = None, progress_stream: IO[str] | None = None
) -> int:
    today = today or datetime.now(UTC).date()
    root = find_root(args.project, os.environ)
    environ = trail_environ(root, os.environ)
    overrides = {
        "min_days": args.min_days,
        "min_tool_uses": args.min_tool_uses,
        "max_hook_error_rate": args.max_hook_error_rate,
        "max_bypass_session_share": args.max_bypass_session_share,
        "trend_tolerance": args.trend_tolerance,
    }
    trail = os.path.abspath(args.audit) if args.audit else None  # relative to where you are
    progress = Progress("report: reading audit trail", stream=progress_stream)
    try:
        since = parse_since(args.since, today) if args.since else None
        made = project_report(
            root,
            environ,
            today,
            trail=trail,
            since=since,
            progress=progress,
            overrides=overrides,
        )
    except (NoReport, ValueError) as exc:
        return _fail(args, str(exc))
    finally:
        progress.close()
    rep, trail_path, files = made.report, made.trail, made.files
    if args.html:
        from orchestrator_boundary.report_html import render_html

        try:
            with open(args.html, "w", encoding="utf-8") as fh:
                fh.write(render_html(rep, trail_path=trail_path, files=len(files)))
        except OSError as exc:
            return _fail(args, f"the HTML page cannot be written to {args.html} ({exc}).")
    _print(args, rep, trail_path, files)
    return EXIT_READY if rep.ready else EXIT_NOT_READY


def _print(args: argparse.Namespace, rep: Report, trail_path: str, files: list[str]) -> None:
    if args.json:
        data = rep.to_json()
        data.update(trail=trail_path, trail_files=files, html=args.html)
        print(json.dumps(data))
    else:
        sys.stdout.write(render_text(rep, trail_path, len(files), args.html))
