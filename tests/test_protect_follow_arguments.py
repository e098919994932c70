"""What a hook script names as an argument, and what a definition says in prose, are the
project's own files, not code the hook runs (ADR 0081). Before, every word with a code file's
extension in a hook script (``ruff check src/main.py``) and in the whole text of an agent
definition ("You work on src/auth/login.py") was protected: the files the team works on
became TAMPER for every subagent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harden_support import make_project

WARN = {"ORCHESTRATOR_BOUNDARY_PHASE": "warn"}
CONFIG = '[agents.coder]\nwrite_scope = ["**"]\n'

HOOK = """#!/bin/bash
FILE=$(jq -r .tool_input.file_path)
ruff check src/main.py
python3 -m pytest tests/test_app.py -q
node scripts/lint.js src/app.ts
timeout 5 ./scripts/notify.sh "$FILE"
python3 scripts/check.py
"""
CHECK = 'import subprocess\nsubprocess.run(["ruff", "check", "src/other.py"])\n'
CHECK += 'subprocess.run(["python3", "scripts/gen.py"])\n'
AGENT = """---
name: coder
description: writes the code in src/auth/login.py
hooks:
  PostToolUse:
    - matcher: Write
      hooks:
        - type: command
          command: "python3 scripts/fmt.py"
---
You work on the login module: src/auth/login.py and src/auth/forms.py are yours.
Run `python3 scripts/prose_only.py` when you are done.
"""
FILES = {
    ".claude/hooks/post.sh": HOOK,
    ".claude/agents/coder.md": AGENT,
    "scripts/check.py": CHECK,
    **{f: "x\n" for f in ("src/main.py", "tests/test_app.py", "scripts/lint.js", "src/app.ts")},
    **{f: "x\n" for f in ("scripts/notify.sh", "src/other.py", "scripts/gen.py")},
    **{f: "x\n" for f in ("scripts/fmt.py", "src/auth/login.py", "src/auth/forms.py")},
    "scripts/prose_only.py": "x\n",
}

ROWS = [
    ("src/main.py", "none"),  # an argument of ruff
    ("tests/test_app.py", "none"),  # an argument of pytest (a test runner: out of reach)
    ("src/app.ts", "none"),  # an argument of lint.js
    ("src/other.py", "none"),  # an argument of ruff in a script the hook runs
    ("src/auth/login.py", "none"),  # prose and a description
    ("src/auth/forms.py", "none"),
    ("scripts/prose_only.py", "none"),  # prose: the model may run it, with its hooks asked
    ("scripts/lint.js", "TAMPER"),  # node runs it
    ("scripts/notify.sh", "TAMPER"),  # in a program's place, past `timeout 5`
    ("scripts/check.py", "TAMPER"),
    ("scripts/gen.py", "TAMPER"),  # ["python3", "scripts/gen.py"]
    ("scripts/fmt.py", "TAMPER"),  # the definition's front-matter hook
]


@pytest.mark.parametrize(("rel", "code"), ROWS, ids=[r[0] for r in ROWS])
def test_only_what_runs_is_protected(tmp_path: Path, rel: str, code: str) -> None:
    p = make_project(tmp_path)
    for name, text in FILES.items():
        (p.root / name).parent.mkdir(parents=True, exist_ok=True)
        (p.root / name).write_text(text)
    hooks = {"PostToolUse": [{"matcher": "Write", "hooks": [
        {"type": "command", "command": "bash .claude/hooks/post.sh"}]}]}  # fmt: skip
    (p.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    p.configure(CONFIG)
    given = {"file_path": str(p.root / rel), "content": "x"}
    found = p.judge("Write", given, agent="coder", env=WARN)[1]
    assert (found or "none") == code
