"""``orchestrator-boundary trace PATH``: who changed a file, when, through which delegation and
intent, with the content hashes the hooks recorded (ADR 0027).

Reads the audit trail's PostToolUse lines (rotated files included, oldest first): each carries
``trace`` (the path and its SHA-256 after the call) and, for a subagent, ``delegation`` (the
Agent call, its description and intent, or why it is unknown). Then hashes the file as it is
now: content that matches no recorded write was changed outside any agent (by a person, a
formatter, a tool without hooks). Exit 0 when the file's content is explained by the trail, 3
when it is not, 2 when the trail cannot be read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from orchestrator_boundary import audit, wire
from orchestrator_boundary.cli_project import find_root, trail_environ
from orchestrator_boundary.config import Config, ConfigProblem, config_path, load_config
from orchestrator_boundary.fs import RealFileSystem, sha256_of
from orchestrator_boundary.paths import fold
from orchestrator_boundary.report import iter_records
from orchestrator_boundary.setups import audit_setting
from orchestrator_boundary.tools import says_it_changes

EXIT_EXPLAINED, EXIT_ERROR, EXIT_UNEXPLAINED = 0, 2, 3


def register(sub: Any) -> None:
    p = sub.add_parser("trace", help="who changed a file, through which delegation and intent")
    p.add_argument("path", metavar="PATH", help="the file (relative to where you are)")
    p.add_argument("--project", help="project root (default: $CLAUDE_PROJECT_DIR, else cwd)")
    p.add_argument("--audit", metavar="FILE", help="audit trail (default: [audit] path)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def _who(rec: Mapping[str, Any]) -> str:
    if rec.get("session_kind") == "subagent" or rec.get("agent_id"):
        return f"subagent {rec.get('agent_type') or '?'} ({rec.get('agent_id')})"
    return "main agent"


def changes(
    records: Iterable[Mapping[str, Any]],
    keys: set[str],
    folders: set[str] | None = None,
    insensitive: bool = False,
) -> list[dict[str, Any]]:
    """The PostToolUse (and a failed command's) trace entries for any of ``keys`` (as named), or
    for one of the ``folders`` that hold it (``cp -r x/. src/c`` wrote the files in it:
    ``through``); names compared as the disk does (ADR 0073)."""
    keys = {fold(k, insensitive) for k in keys}
    folders = {fold(f, insensitive) for f in folders or ()}
    out = []
    for rec in records:
        if rec.get("event") not in _AFTER or not isinstance(rec.get("trace"), list):
            continue
        if rec.get("tool_class") == "unknown" and not says_it_changes(str(rec.get("tool_name"))):
            continue  # an MCP read (``mcp__fs__read_file``): the line hashed what it read (0085)
        for entry in rec["trace"]:
            path = entry.get("path") if isinstance(entry, dict) else None
            named = fold(path, insensitive) if isinstance(path, str) else None
            if named is None or (named not in keys and named not in folders):
                continue
            d = rec.get("delegation")
            d = d if isinstance(d, dict) else {}
            out.append(
                {
                    "ts": rec.get("ts"),
                    "who": _who(rec),
                    "tool": rec.get("tool_name"),
                    "tool_use_id": rec.get("tool_use_id"),
                    "sha256": entry.get("sha256"),
                    "delegation": d.get("tool_use_id"),
                    "description": d.get("description"),
                    "intent": d.get("intent"),
                    "unknown": d.get("unknown"),
                    "session_id": rec.get("session_id"),
                    "through": path if named in folders else None,
                    "beside": _beside(rec, entry),
                }
            )
    return out


_AFTER = frozenset({"PostToolUse", "PostToolUseFailure"})  # a command that exited non-zero


def _beside(rec: Mapping[str, Any], entry: Mapping[str, Any]) -> bool | None:
    """Was the file, as recorded, not what the Write put there (``tool_sha256``)? Then it
    was changed beside the write, before the hook hashed it: by another PostToolUse hook of
    the project's (a formatter) or a process outside Claude Code (ADR 0080). None: a file
    tool (an MCP tool, a NotebookEdit of an older CLI) that does not say what it left, so a
    change beside it cannot be told (ADR 0085). A command's stays False: what it left is
    never known, and ``BESIDE``'s note says what that means when its content matches none."""
    wrote = rec.get("tool_sha256")
    if not isinstance(wrote, str):  # Write and Edit: as before ADR 0085, lines of older trails
        return False if rec.get("tool_name") in _COMMANDS | {"Write", "Edit"} else None
    return len(rec["trace"]) == 1 and entry.get("sha256") != wrote


_COMMANDS = frozenset({"Bash", "PowerShell", "Monitor"})
UNTOLD = "  (the tool does not say what it left: a change beside it cannot be told)"


BESIDE = (
    "The hook hashes a file beside the project's other PostToolUse hooks: a formatter's "
    "change can land before the hash (marked `changed beside the write`) or after it (then "
    "the content matches no recorded write)."
)


def finding(found: list[dict[str, Any]], current: str | None, exists: bool) -> tuple[bool, str]:
    """(is the current content explained by the trail?, one line saying why)."""
    if not exists:
        return (
            not found,
            "the file does not exist" + (" (it was written before)" if found else ""),
        )
    if current is None:
        return False, "the file cannot be read (or is not a regular file): nothing to compare"
    if not found:
        return False, "no agent's write of this file is in the trail"
    if found[-1].get("through"):  # a folder has no content hash to compare
        return True, f"it was last written through its folder {found[-1]['through']}"
    if found[-1]["sha256"] == current:
        changed = (
            ", changed beside the write (a formatter hook?)" if found[-1].get("beside") else ""
        )
        return True, f"its content is the last recorded write's{changed}"
    for c in reversed(found[:-1]):
        if c["sha256"] == current:
            return (
                True,
                f"its content is an earlier write's ({c['ts']}, {c['who']}): "
                "later ones were undone",
            )
    return False, (
        "its content matches no recorded write: it was changed outside any agent (a "
        "PostToolUse hook such as a formatter, a person, a tool without hooks)"
    )


def _keys(path: str, root: str) -> tuple[set[str], set[str]]:
    """(the names the trail may give the file, those of the folders in the project that hold
    it: relative, the root by its absolute path, as ``locate`` names them)."""
    full = os.path.realpath(os.path.abspath(path))
    keys = {full, os.path.abspath(path)}
    if not full.startswith(root.rstrip(os.sep) + os.sep):
        return keys, set()
    rel = os.path.relpath(full, root).replace(os.sep, "/")
    parts = rel.split("/")[:-1]
    return keys | {rel}, {root, *("/".join(parts[:n]) for n in range(1, len(parts) + 1))}


def _line(c: Mapping[str, Any]) -> str:
    via = (
        f"{c['description']!r} (Agent call {c['delegation']})"
        if c["delegation"]
        else (f"unknown delegation: {c['unknown']}" if c["unknown"] else "-")
    )
    sha = (c["sha256"] or "unreadable")[:12]
    intent = c["intent"] or "-"
    beside = "  (changed beside the write)" if c.get("beside") else ""
    beside = UNTOLD if c.get("beside", False) is None else beside
    return (
        f"  {c['ts']}  {c['who']}  {c['tool']}  sha256 {sha}  via {via}  intent {intent}{beside}\n"
    )


def run(args: argparse.Namespace) -> int:
    root = os.path.realpath(find_root(args.project, os.environ))
    environ = trail_environ(root, os.environ)
    loaded = load_config(config_path(root, environ), wire.user_home(environ))
    if isinstance(loaded, ConfigProblem) and not args.audit:
        sys.stderr.write(f"trace: config problem: {loaded}\n")
        return EXIT_ERROR
    trail = args.audit or (audit_setting(loaded, environ) if isinstance(loaded, Config) else "")
    trail = audit.trail_path(os.getcwd() if args.audit else root, trail)  # --audit: from here
    files = audit.trail_files(trail)
    if not files:
        sys.stderr.write(f"trace: no audit trail at {trail}\n")
        return EXIT_ERROR
    try:
        keys, folders = _keys(args.path, root)
        insensitive = RealFileSystem().case_insensitive(root)
        found = changes(iter_records(files), keys, folders, insensitive)
    except OSError as exc:
        sys.stderr.write(f"trace: cannot read the audit trail ({exc})\n")
        return EXIT_ERROR
    exists = os.path.lexists(args.path)
    current = sha256_of(args.path) if exists else None
    explained, why = finding(found, current, exists)
    if args.json:
        out = {"path": args.path, "changes": found, "current_sha256": current}
        out.update(explained=explained, finding=why, trail=trail)
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        sys.stdout.write(f"{args.path}: {len(found)} recorded change(s)\n")
        sys.stdout.writelines(_line(c) for c in found)
        now = (current or "-")[:12]
        sys.stdout.write(f"now: sha256 {now}: {why}\n")
        if any(c.get("beside", False) is not False for c in found) or not explained:
            sys.stdout.write(f"note: {BESIDE}\n")
    return EXIT_EXPLAINED if explained else EXIT_UNEXPLAINED
