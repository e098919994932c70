"""Coverage-guided fuzzing of the hook shell with arbitrary stdin bytes (not run in CI).

    pip install atheris
    python fuzz/atheris_payload.py -runs=200000 -max_len=4096 [corpus_dir]

The first byte picks the phase and the event; the rest is the payload. Any exception or a
broken answer contract is a finding (atheris saves the input as crash-*).
"""

from __future__ import annotations

import sys

import atheris
from _common import PHASES, check, make_project

with atheris.instrument_imports():
    from orchestrator_boundary import shell

ROOT = make_project()


def one_input(data: bytes) -> None:
    if not data:
        return
    phase = PHASES[data[0] % 4]
    event = "PostToolUse" if data[0] & 4 else "PreToolUse"
    env = {"CLAUDE_PROJECT_DIR": ROOT, "HOME": ROOT + "/..", "ORCHESTRATOR_BOUNDARY_PHASE": phase}
    check(shell.evaluate(data[1:], env, event=event), phase)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
