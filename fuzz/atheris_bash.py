"""Coverage-guided fuzzing of the Bash analysis and its use by the policy (not run in CI).

    pip install atheris
    python fuzz/atheris_bash.py -runs=200000 -max_len=2048 [corpus_dir]

Each input is a command text. Checked: ``bash.analyze`` never raises and returns resolved
effects as absolute paths (or None); the same command through the hook shell, for the main
agent and a subagent, gets an answer that keeps the protocol contract.
"""

from __future__ import annotations

import json
import os
import sys

import atheris
from _common import check, make_project

with atheris.instrument_imports():
    from orchestrator_boundary import bash

ROOT = make_project()
ENV = {"CLAUDE_PROJECT_DIR": ROOT, "HOME": ROOT + "/..", "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    shell = "powershell" if fdp.ConsumeBool() else "bash"
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
    analysis = bash.analyze(text, cwd=ROOT, home=ROOT + "/..", shell=shell)
    for effect in analysis.effects:
        assert effect.resolved is None or os.path.isabs(effect.resolved), effect
    for agent in (None, "coder"):
        payload = {
            "hook_event_name": "PreToolUse",
            "cwd": ROOT,
            "session_id": "f",
            "tool_name": "PowerShell" if shell == "powershell" else "Bash",
            "tool_input": {"command": text},
            "tool_use_id": "t",
        }
        if agent:
            payload.update(agent_id="a1", agent_type=agent)
        check(shell.evaluate(json.dumps(payload).encode(), ENV), "enforce")


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
