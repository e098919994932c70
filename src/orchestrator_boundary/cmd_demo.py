"""``orchestrator-boundary demo``: replay a bundled captured session through each phase.

The session in ``data/demo_session.jsonl`` was captured from the real Claude Code CLI (see
tests/payloads/README.md); the demo shows what warn and enforce would each do with it."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from importlib import resources
from typing import Any

from orchestrator_boundary.cmd_check import verdict_summary
from orchestrator_boundary.payload import payload_from_obj
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.setups import setup
from orchestrator_boundary.shell import judge

DEMO_CONFIG = """\
phase = "warn"
[orchestrator]
write_allow = ["STATE.md"]
"""


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="show warn vs enforce on a bundled captured session")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = resources.files("orchestrator_boundary").joinpath("data/demo_session.jsonl").read_text()
    payloads = [json.loads(line) for line in text.splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.realpath(tmp)
        cfg = os.path.join(root, "boundary.toml")
        with open(cfg, "w") as fh:
            fh.write(DEMO_CONFIG)
        env = {"CLAUDE_PROJECT_DIR": root, "HOME": root}
        rows = []
        for data in payloads:
            data = json.loads(json.dumps(data).replace("/home/user/project", root))
            payload = payload_from_obj(data)
            row: dict[str, Any] = {"tool": payload.tool_name}
            for phase in (Phase.WARN, Phase.ENFORCE):
                s = setup(root, env, config_file=cfg, phase_override=phase)
                summary = verdict_summary(judge(payload, s))
                row["who"] = summary["session_kind"] + (
                    f":{summary['agent_type']}" if summary["agent_type"] else ""
                )
                ti = payload.tool_input
                shown = ti.get("file_path") or ti.get("command") or ti.get("pattern") or ""
                row["target"] = (summary["paths"] or [str(shown).replace(root + "/", "")])[0]
                row[phase.value] = summary["decision"]
                row["code"] = summary["code"]
            rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("A captured session replayed through warn and enforce")
    print("(config: write_allow = STATE.md)\n")
    print("\n".join(table(rows)))
    print("\nwarn: nothing is blocked, the model is told what enforce would do.")
    print("enforce: the main agent's own writes are denied; subagents' writes go through.")
    return 0


def table(rows: list[dict[str, Any]], width: int = 80) -> list[str]:
    """The rows as columns as wide as their widest value, so no agent type or rule is cut;
    only a target too long for ``width`` is shortened, from its start ("...")."""
    head = ("who", "tool", "target", "warn", "enforce", "rule broken")
    cells = [
        (r["who"], r["tool"], str(r["target"]), r["warn"], r["enforce"], r["code"] or "-")
        for r in rows
    ]
    widths = [max(len(c[i]) for c in [head, *cells]) for i in range(len(head))]
    room = width - sum(widths) - len(widths) + 1 + widths[2]
    widths[2] = max(min(widths[2], room), len("target"))
    out = []
    for c in [head, *cells]:
        target = c[2] if len(c[2]) <= widths[2] else "..." + c[2][-(widths[2] - 3) :]
        shown = (*c[:2], target, *c[3:])
        out.append(" ".join(v.ljust(w) for v, w in zip(shown, widths, strict=True)).rstrip())
    return out
