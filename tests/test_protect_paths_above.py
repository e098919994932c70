"""A folder that holds what ``[protect] paths`` names (ADR 0074).

``[protect] paths = ["infra/prod/**"]`` kept every agent from writing ``infra/prod/main.tf``,
but ``rm -rf infra`` or ``mv infra old`` took those files away without naming them, and a
subagent did it in enforce (found by round ten's policy attack). A write or delete of a folder
above a pattern's literal head is now TAMPER, as a folder that holds a built-in protected file
is; folders beside it, and patterns with no literal head (``**/*.pem``), are as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import bash_violation

CONFIG = 'phase = "enforce"\n[protect]\npaths = ["infra/prod/**", "**/*.pem"]\n'
SUB = {"agent_id": "a1", "agent_type": "general-purpose"}

ROWS = [
    ("rm -rf infra", "TAMPER"),
    ("mv infra old", "TAMPER"),
    ("rm -r ./infra/", "TAMPER"),
    ("cp -r x/. infra", "TAMPER"),
    ("rm -rf infra/prod/x.tf", "TAMPER"),
    ("rm -rf infra/dev", "-"),
    ("rm -rf src", "-"),
    ("echo x > infra/README.md", "-"),
]


@pytest.mark.parametrize(("command", "code"), ROWS, ids=[r[0] for r in ROWS])
def test_a_folder_above_a_protected_pattern_is_protected(
    tmp_path: Path, command: str, code: str
) -> None:
    (tmp_path / "infra" / "prod").mkdir(parents=True)
    (tmp_path / "infra" / "prod" / "main.tf").write_text("x\n")
    assert bash_violation(tmp_path, CONFIG, command, **SUB) == code
