"""A program the Bash analysis does not know, handed a protected file by name (ADR 0054).

``npx json -I -f .claude/settings.json -e 'this.hooks={}'`` rewrites the settings in place, and
so may any program the analysis cannot see into (``certutil -decode x .claude/settings.json``
on Windows). An opaque command was allowed to a subagent, and to the main agent under the
default ``bash.opaque = "allow"``, whatever its words named. Now a word of an opaque command
that names a protected file is TAMPER, in warn too. Env files are excepted: loaders,
``--env-file`` and ``source`` read them, and sourcing one writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import make_project

# (id, command, agent or None for the main agent, code)
CASES = [
    ("npx-json-in-place", "npx json -I -f .claude/settings.json -e 'this.hooks={}'", "coder",
     "TAMPER"),
    ("unknown-program", "frobnicate .claude/settings.json", "coder", "TAMPER"),
    ("certutil", "certutil -decode x.b64 .claude/settings.local.json", "coder", "TAMPER"),
    ("main-unknown-program", "frobnicate --out=x .claude/boundary.toml", None, "TAMPER"),
    ("agent-definition", "mytool write .claude/agents/coder.md", "coder", "TAMPER"),
    ("ordinary-file", "frobnicate src/a.py", "coder", None),
    ("source-env", ". ./.env", "coder", None),
    ("env-file-option", "npx supabase functions serve --env-file supabase/functions/.env",
     "coder", None),
    ("dotenv-run", "dotenv -f .env.local run -- node app.js", "coder", None),
    ("read-only-program", "cat .claude/settings.json", None, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("command", "agent", "code"), [row[1:] for row in CASES], ids=[row[0] for row in CASES]
)
def test_an_opaque_commands_words_meet_the_protected_set(
    tmp_path: Path, command: str, agent: str | None, code: str | None
) -> None:
    p = make_project(tmp_path)
    p.configure('phase = "warn"\n')
    _, rec = p.call(p.payload("Bash", {"command": command}, agent=agent))
    assert rec["code"] == code, rec
    assert rec["decision"] == ("deny" if code == "TAMPER" else "none"), rec
