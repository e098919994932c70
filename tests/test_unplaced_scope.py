"""A subagent's write at a place the text does not fix, against its agent type's
``write_scope`` (ADR 0075).

Such a target (``echo x > "$D/x.txt"``, ``xargs rm``, ``cp a "$f.bak"`` in a loop) was checked
against the protected set only, so a subagent whose ``write_scope`` is ``src/**`` wrote
anywhere else in the project with it; two attackers of round ten flagged it. It is now
outside the scope, as under a delegation (ADR 0073), unless it is a glob whose folder the
scope holds entirely (``sed -i ... src/*.py``). An agent type without a ``write_scope`` may
write anywhere in the project, so its verdicts do not change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import reality
from harden_support import bash_violation

CONFIG = """\
phase = "enforce"
[agents.coder]
write_scope = ["src/**"]
"""
CODER = {"agent_id": "a1", "agent_type": "coder"}
OTHER = {"agent_id": "a2", "agent_type": "general-purpose"}  # no profile: the whole project

ROWS = [
    # (command, the coder's code, a subagent without a profile)
    ('echo x > "$D/x.txt"', "SCOPE_VIOLATION", "-"),
    ("ls | xargs rm", "SCOPE_VIOLATION", "-"),
    ("rm -f *.json", "SCOPE_VIOLATION", "-"),  # the root's files
    ("cd docs && rm -f *.md", "SCOPE_VIOLATION", "-"),  # docs/*.md
    ("cd src && rm -f *.pyc", "-", "-"),  # src/*.pyc: the analysis follows the cd
    ('cd "$D" && rm -f *.pyc', "SCOPE_VIOLATION", "-"),  # a cd it cannot follow
    ('for f in src/*.py; do cp "$f" "$f.bak"; done', "SCOPE_VIOLATION", "-"),
    ("sed -i s/a/b/ src/*.py", "-", "-"),
    ("rm -f src/*.pyc src/lib/*.pyc", "-", "-"),
    ("sed -i s/a/b/ src/a.py", "-", "-"),
    ("sed -i s/a/b/ docs/*.md", "SCOPE_VIOLATION", "-"),
]


@pytest.mark.parametrize(("command", "coder", "other"), ROWS, ids=[r[0] for r in ROWS])
def test_a_write_the_text_does_not_place_meets_the_write_scope(
    tmp_path: Path, command: str, coder: str, other: str
) -> None:
    assert bash_violation(tmp_path, CONFIG, command, **CODER) == coder
    assert bash_violation(tmp_path, CONFIG, command, **OTHER) == other


def test_a_scope_that_holds_every_path_holds_a_write_the_text_does_not_place(
    tmp_path: Path,
) -> None:
    wide = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**", "/**"]\n'
    assert bash_violation(tmp_path, wide, 'echo x > "$D/x.txt"', **CODER) == "-"
    narrower = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n'  # not /tmp
    assert bash_violation(tmp_path, narrower, 'echo x > "$D/x.txt"', **CODER) == ("SCOPE_VIOLATION")


def test_the_refusal_says_to_name_the_files(tmp_path: Path) -> None:
    from orchestrator_boundary.foreign import setup_for
    from orchestrator_boundary.payload import HookPayload
    from orchestrator_boundary.shell import judge

    bash_violation(tmp_path, CONFIG, "true")  # writes the config
    payload = HookPayload(
        hook_event_name="PreToolUse",
        session_id="s",
        cwd=str(tmp_path),
        tool_name="Bash",
        tool_input={"command": 'echo x > "$D/x.txt"'},
        **CODER,
    )
    verdict = judge(payload, setup_for(payload, {"CLAUDE_PROJECT_DIR": str(tmp_path)}))
    assert verdict.violation is not None
    assert "Name each file" in verdict.violation.suggestion
    assert "src/**" in verdict.violation.suggestion


def test_the_glob_of_a_scoped_write_stays_in_its_folder() -> None:
    """Reality: `sed -i ... src/*.py` changes src's files only, not those below or beside."""
    files = (("src/a.py", "a\n"), ("src/lib/b.py", "a\n"), ("c.py", "a\n"))
    outcome = reality.run("sed -i s/a/b/ src/*.py", reality.Seed(files=files))
    assert outcome.paths == frozenset({"src/a.py", "src/main.py"}), outcome.describe()
    outcome = reality.run("cd src && sed -i s/a/b/ *.py", reality.Seed(files=files))
    assert outcome.paths == frozenset({"src/a.py", "src/main.py"}), outcome.describe()
