"""``orchestrator-boundary check``: judge one payload (or one Bash command) and say why.

Writes no audit line: it is for trying a config, not for recording."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from orchestrator_boundary.config import config_notes
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.foreign import setup_for
from orchestrator_boundary.payload import HookPayload, parse_payload
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.session import SessionKind
from orchestrator_boundary.setups import Setup
from orchestrator_boundary.shell import judge
from orchestrator_boundary.verdict import Verdict, render


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help="boundary.toml to use (default: PROJECT/.claude/boundary.toml)")
    p.add_argument("--phase", choices=[ph.value for ph in Phase], help="override the phase")
    p.add_argument(
        "--project",
        help="project root (default: $CLAUDE_PROJECT_DIR, else the payload's cwd); for a payload"
        " recorded on another platform the root is its cwd and this names the local checkout"
        " whose config applies",
    )


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="judge one hook payload from stdin (or --bash COMMAND)")
    add_common(p)
    p.add_argument(
        "--bash", metavar="COMMAND", help="judge the main agent running this Bash command"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def verdict_summary(v: Verdict) -> dict[str, Any]:
    a, vio = v.assessment, v.violation
    return {
        "event": v.event,
        "session_kind": a.session.kind.value,
        "agent_type": a.session.agent_type,
        "tool_name": a.tool_name,
        "tool_class": a.classification.tool_class.value,
        "paths": list(a.paths),
        "decision": v.decision.value,
        "would_deny": v.would_deny,
        "bypassed": v.bypassed,
        "post_block": v.post_block,
        "phase": v.phase.value,
        "phase_source": v.phase_source,
        "rule": vio.rule if vio else None,
        "code": vio.code.value if vio else None,
        "reason": vio.reason if vio else None,
        "error": None,
    }


def unjudged(data: object, error: str) -> dict[str, Any]:
    """The row of a line that cannot be judged: what the payload says about itself, and why."""
    fields = data if isinstance(data, dict) else {}

    def text(key: str) -> str | None:
        v = fields.get(key)
        return v if isinstance(v, str) else None

    kind = "unknown"
    if isinstance(data, dict):  # a subagent's exactly when agent_id is there (ADR 0003)
        kind = SessionKind.SUBAGENT.value if data.get("agent_id") else SessionKind.MAIN.value
    return {
        "event": text("hook_event_name"),
        "session_kind": kind,
        "agent_type": text("agent_type"),
        "tool_name": text("tool_name"),
        "tool_class": None,
        "decision": None,
        "would_deny": None,
        "rule": None,
        "code": None,
        "error": error,
    }


def setup_with_args(payload: HookPayload, env: dict[str, str], args: argparse.Namespace) -> Setup:
    """The setup for ``payload`` with the common options (--config, --phase) applied, under
    the path rules of the platform it was recorded on (``foreign.setup_for``)."""
    return setup_for(
        payload,
        env,
        config_file=args.config and os.path.abspath(args.config),
        phase_override=Phase(args.phase) if args.phase else None,
    )


def judge_with_args(payload: HookPayload, env: dict[str, str], args: argparse.Namespace) -> Verdict:
    """The verdict for ``payload`` with the common options (--config, --phase) applied."""
    return judge(payload, setup_with_args(payload, env, args))


def environ_for(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    if args.project:
        env["CLAUDE_PROJECT_DIR"] = os.path.abspath(args.project)
    return env


def run(args: argparse.Namespace) -> int:
    env = environ_for(args)
    if args.bash is not None:
        cwd = env.get("CLAUDE_PROJECT_DIR") or os.getcwd()
        raw: bytes = json.dumps(
            {
                "session_id": "check",
                "cwd": cwd,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": args.bash},
            }
        ).encode()
    else:
        raw = sys.stdin.buffer.read()
    try:
        payload = parse_payload(raw)
        s = setup_with_args(payload, env, args)
        verdict = judge(payload, s)
    except BoundaryInputError as exc:
        row = unjudged(_object(raw), str(exc))
        if args.json:
            print(json.dumps(row))
        else:
            print(f"error: {exc}\n  session: {row['session_kind']}")
        return 2
    summary = verdict_summary(verdict)
    summary["config_notes"] = config_notes(s.config)  # tool names no current tool has
    if args.json:
        summary["hook_output"] = render(verdict).stdout or None
        if verdict.assessment.bash is not None:
            summary["bash"] = bash_json(verdict)
        print(json.dumps(summary))
        return 0
    print(text_report(verdict, summary))
    return 0


def _object(raw: bytes) -> object:
    """``raw`` as JSON, None when it is not JSON at all."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def bash_json(v: Verdict) -> dict[str, Any]:
    b = v.assessment.bash
    assert b is not None
    return {
        "status": b.status.value,
        "error": b.error,
        "commands": [
            {
                "text": c.text,
                "program": c.program,
                "status": c.status.value,
                "note": c.note,
                "effects": [
                    {
                        "kind": e.kind.value,
                        "path": e.path,
                        "resolved": e.resolved,
                        "source": e.source,
                    }
                    for e in c.effects
                ],
            }
            for c in b.commands
        ],
    }


def text_report(v: Verdict, s: dict[str, Any]) -> str:
    lines = [
        f"{s['event']} {s['tool_name']} by {v.assessment.session.label}",
        f"  class: {s['tool_class']} ({v.assessment.classification.source})",
    ]
    if s["paths"]:
        lines.append("  paths: " + ", ".join(s["paths"]))
    b = v.assessment.bash
    if b is not None:
        try:
            from orchestrator_boundary.bash.explain import explain

            lines.extend("  " + line for line in explain(b).splitlines())
        except ImportError:
            lines.append(f"  bash: {b.status.value}")
    lines.append(f"  phase: {s['phase']} (from {s['phase_source']})")
    if v.violation:
        lines.append(f"  violation: {s['code']} by rule {s['rule']}")
        lines.append(f"  why: {s['reason']}")
    lines.extend(f"  config note: {note}" for note in s.get("config_notes", []))
    lines.append(
        f"  decision: {s['decision']}"
        + ("  (would deny in enforce)" if s["would_deny"] else "")
        + ("  [bypassed]" if s["bypassed"] else "")
    )
    if v.message:
        lines.append("  message to the model:")
        lines.extend("    " + line for line in v.message.splitlines())
    return "\n".join(lines)
