"""``orchestrator-boundary replay FILE...``: judge captured payloads (JSONL), as a table or
JSON lines; lines with an ``expect`` field make it a regression test (exit 1 on a mismatch).

``expect`` is either a decision (``"deny"``) or an object whose keys must equal the output's
(``{"decision": "warn", "code": "ORCHESTRATOR_WRITE"}``). Writes no audit line.

The project root is what the live hook had: ``--project``, else the folder the session started
in (``CLAUDE_PROJECT_DIR`` in the hook), read from the session transcript (the ``cwd`` of its
first line that has one) when the payload's transcript is readable here, else the payload's
``cwd`` (which moves with a ``cd`` in Bash)."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from orchestrator_boundary import wire
from orchestrator_boundary.cmd_check import add_common, judge_with_args, unjudged, verdict_summary
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.payload import HookPayload, payload_from_obj
from orchestrator_boundary.progress import Progress

START_LINES, START_BYTES = 64, 1 << 20  # how far into a transcript its start folder is looked for


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="judge JSONL payloads; `expect` fields make it a test")
    add_common(p)
    p.add_argument("files", nargs="+", metavar="FILE", help="JSONL (or .jsonl.gz); - for stdin")
    p.add_argument("--json", action="store_true", help="one JSON object per input line")
    p.set_defaults(func=run)


def _open(name: str) -> IO[str]:
    if name == "-":
        return sys.stdin
    if name.endswith(".gz"):
        return gzip.open(name, "rt", encoding="utf-8", errors="surrogateescape")
    return open(name, encoding="utf-8", errors="surrogateescape")


def lines(files: list[str]) -> Iterator[tuple[str, int, str]]:
    for name in files:
        with _open(name) as fh:
            for n, line in enumerate(fh, 1):
                if line.strip():
                    yield name, n, line


def start_folder(transcript_path: str) -> str | None:
    """The folder the session started in: the ``cwd`` of the first line of the transcript that
    has one (within its first ``START_LINES`` lines and ``START_BYTES`` bytes); None when the
    transcript cannot be read here or names no absolute folder."""
    if not transcript_path or not os.path.isabs(transcript_path):
        return None
    try:
        with open(transcript_path, encoding="utf-8", errors="replace") as fh:
            left = START_BYTES
            for _ in range(START_LINES):
                line = fh.readline(left)
                left -= len(line)
                if not line or left <= 0:
                    return None
                cwd = _cwd_of(line)
                if cwd is not None:
                    return cwd if os.path.isabs(cwd) else None
    except OSError:
        return None
    return None


def _cwd_of(line: str) -> str | None:
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError):
        return None
    cwd = rec.get("cwd") if isinstance(rec, dict) else None
    return cwd if isinstance(cwd, str) and cwd else None


def _env_for(
    payload: HookPayload, env: dict[str, str], starts: dict[str, str | None] | None
) -> dict[str, str]:
    """``env`` with the session's start folder as ``CLAUDE_PROJECT_DIR`` when ``--project``
    did not set it and the transcript says (``starts``: transcripts already read)."""
    if wire.PROJECT_DIR_ENV in env or starts is None:
        return env
    path = payload.transcript_path
    if path not in starts:
        starts[path] = start_folder(path)
    start = starts[path]
    return env if start is None else {**env, wire.PROJECT_DIR_ENV: start}


def judge_line(
    line: str,
    env: dict[str, str],
    args: argparse.Namespace,
    starts: dict[str, str | None] | None = None,
) -> tuple[dict[str, Any], Any]:
    """The summary of one line's verdict, or of why it cannot be judged: either way with the
    ``session_kind`` the payload shows (``unknown`` only for a line that is no JSON object).
    With ``starts`` (a cache, by transcript path), the root is the session's start folder when
    its transcript can be read here."""
    expect = None
    data: object = None
    try:
        data = json.loads(line)
        if isinstance(data, dict):
            expect = data.pop("expect", None)
        payload = payload_from_obj(data)
        verdict = judge_with_args(payload, _env_for(payload, env, starts), args)
        return verdict_summary(verdict), expect
    except (ValueError, RecursionError, BoundaryInputError) as exc:
        msg = (
            str(exc) if isinstance(exc, BoundaryInputError) else f"not JSON ({type(exc).__name__})"
        )
        return unjudged(data, msg), expect


def mismatch(result: dict[str, Any], expect: Any) -> str:
    if expect is None:
        return ""
    wanted = {"decision": expect} if isinstance(expect, str) else expect
    if not isinstance(wanted, dict):
        return f"unusable expect {expect!r}"
    bad = [
        f"{k}={result.get(k)!r} (expected {v!r})" for k, v in wanted.items() if result.get(k) != v
    ]
    return "; ".join(bad)


ROW = "{:>5} {:<8} {:<13} {:<10} {:<8} {:<5} {}"


def run(args: argparse.Namespace) -> int:
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    if args.project:
        env["CLAUDE_PROJECT_DIR"] = os.path.abspath(args.project)
    failures = 0
    starts: dict[str, str | None] = {}  # transcript -> the session's start folder
    progress = Progress("replay")
    out = sys.stdout
    if not args.json:
        out.write(ROW.format("line", "kind", "tool", "class", "decision", "deny?", "code") + "\n")
    for name, n, line in lines(args.files):
        result, expect = judge_line(line, env, args, starts)
        problem = mismatch(result, expect)
        failures += bool(problem)
        progress.advance()
        if args.json:
            row = {"file": name, "line": n, **result}
            if expect is not None:
                row["expect_ok"] = not problem
                if problem:
                    row["mismatch"] = problem
            out.write(json.dumps(row) + "\n")
        else:
            code = result.get("code") or (
                f"error: {result['error']}" if result.get("error") else ""
            )
            out.write(
                ROW.format(
                    n,
                    str(result.get("session_kind") or "-")[:8],
                    str(result.get("tool_name") or "-")[:13],
                    str(result.get("tool_class") or "-")[:10],
                    str(result.get("decision") or "-")[:8],
                    "yes" if result.get("would_deny") else "no",
                    (code + (f"  MISMATCH {problem}" if problem else ""))[:28],
                )
                + "\n"
            )
            if problem:
                out.write(f"      {name}:{n}: {problem}\n")
    progress.close()
    if failures:
        sys.stderr.write(f"replay: {failures} line(s) did not meet their expectation\n")
    return 1 if failures else 0
