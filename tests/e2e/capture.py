"""Re-capture the hook payloads in tests/payloads/ from the pinned Claude Code CLI.

    python tests/e2e/capture.py            # rewrite tests/payloads/*.json
    python tests/e2e/capture.py --out DIR  # write elsewhere

Runs the CLI (installing it with ``npm ci --prefix tests/e2e`` when missing) offline against
the scripted stand-in, with ``capture_hook.py`` registered for PreToolUse, PostToolUse and
SubagentStop, and stores one payload per file with the temporary folders made neutral
(project -> /home/user/project, HOME -> /home/user, TMPDIR -> /tmp). Everything else is kept
as the CLI sent it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from cli import claude_binary, pinned_version
from fake_api import Call, Text, marker
from harness import Agent, Harness, Hooks, Project, python_command

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / "payloads"
CUSTOM_AGENT = "scribe"
LEAD_AGENT = "lead"
# The default tool set of 2.1.330 has no Glob or Grep (it points to find/grep in Bash) and
# no task tools; naming them in --tools brings them back.
TOOLS = ["Agent", "Bash", "Edit", "Glob", "Grep", "Read", "TaskCreate", "Write"]


def _file_steps(root: Path, stem: str) -> list[Call]:
    path = str(root / f"{stem}.txt")
    return [
        Call("Write", {"file_path": path, "content": "one\n"}),
        Call("Read", {"file_path": path}),
        Call("Edit", {"file_path": path, "old_string": "one", "new_string": "two"}),
        Call("Bash", {"command": f"cat {stem}.txt", "description": "Show the file"}),
    ]


def _who(payload: dict[str, Any]) -> str:
    if "agent_id" in payload:
        return "subagent_" + str(payload.get("agent_type") or "unknown").replace("-", "_")
    if "agent_type" in payload:
        return "agent_flag_main"
    return "main"


def _name(payload: dict[str, Any]) -> str:
    event = str(payload.get("hook_event_name"))
    if event in ("PreToolUse", "PostToolUse"):
        suffix = "pre" if event == "PreToolUse" else "post"
        return f"{_who(payload)}_{str(payload['tool_name']).lower()}_{suffix}"
    return f"{_who(payload)}_{event.lower()}"


def _hooks(log: Path) -> Hooks:
    hook = python_command(HERE / "capture_hook.py", str(log))
    return Hooks.commands(pre=[hook], post=[hook], other={"SubagentStop": [hook]})


def _capture_runs(harness: Harness, base: Path) -> list[tuple[Project, Path]]:
    agents = [
        Agent(
            CUSTOM_AGENT, "Writes files it is asked to.", tools=["Write", "Edit", "Read", "Bash"]
        ),
        Agent(LEAD_AGENT, "Leads the session.", tools=None),
    ]
    runs = []

    log = base / "main-and-subagents.jsonl"
    project = harness.project(_hooks(log), agents=agents)
    root = project.root
    harness.run(
        project,
        {
            "main": [
                *_file_steps(root, "main"),
                Call("Glob", {"pattern": "*.txt"}),
                Call("Grep", {"pattern": "two", "path": str(root)}),
                Call("TaskCreate", {"subject": "Review", "description": "Review the change"}),
                Call(
                    "Agent",
                    {
                        "description": "Edit a file",
                        "subagent_type": "general-purpose",
                        "prompt": f"Edit the file. {marker('general')}",
                    },
                ),
                Call(
                    "Agent",
                    {
                        "description": "Edit another",
                        "subagent_type": CUSTOM_AGENT,
                        "prompt": f"Edit the other file. {marker('custom')}",
                    },
                ),
                Text("All delegated."),
            ],
            "general": [*_file_steps(root, "general"), Text("Edited.")],
            "custom": [*_file_steps(root, "custom"), Text("Edited too.")],
        },
        tools=TOOLS,
    )
    runs.append((project, log))

    log = base / "agent-flag.jsonl"
    project = harness.project(_hooks(log), agents=agents)
    harness.run(
        project,
        {
            "main": [
                Call("Write", {"file_path": str(project.root / "lead.txt"), "content": "lead\n"}),
                Text("Written."),
            ]
        },
        agent=LEAD_AGENT,
    )
    runs.append((project, log))
    return runs


def capture(out: Path) -> list[Path]:
    written = []
    with tempfile.TemporaryDirectory(prefix="capture") as tmp:
        base = Path(tmp).resolve()
        harness = Harness(claude_binary(), base)
        seen: set[str] = set()
        for project, log in _capture_runs(harness, base):
            for line in log.read_text(encoding="utf-8").splitlines():
                payload = json.loads(project.neutral(line))
                name = _name(payload)
                if name in seen:
                    continue
                seen.add(name)
                out.mkdir(parents=True, exist_ok=True)
                target = out / f"{name}.json"
                target.write_text(
                    json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
                )
                written.append(target)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    written = capture(args.out)
    for path in sorted(written):
        print(path)
    print(f"{len(written)} payloads captured from Claude Code {pinned_version()}", file=sys.stderr)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
