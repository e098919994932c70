"""A word longer than any path (ADR 0074): the tamper check made each guessed word into a
regular expression, character by character, so a one-word megabyte took 11 s to judge, past
the 10 s Claude Code gives the hook. Such a word is no longer searched: it counts when it
spells a protected name (what expands in it can make it short: ``${X:0:000...0}`` is empty,
seen in bash), and is let go when it spells none.

The hook's own 8 s deadline (ADR 0072) still answers anything slower; these rows show the
answer is the right one, not merely a timely block.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harden_support import bash_violation

from orchestrator_boundary.paths import MAX_PATH_CHARS
from orchestrator_boundary.protect import Protected, index
from orchestrator_boundary.protect_guess import could_name

CONFIG = 'phase = "enforce"\n'
SUB = {"agent_id": "a1", "agent_type": "general-purpose"}
LONG = "a" * (MAX_PATH_CHARS * 20)
EMPTY = "${X:0:0" + "0" * (MAX_PATH_CHARS * 2) + "}"  # bash: arithmetic 0, so no text at all

ROWS = [
    # (id, command, who, violation)
    ("long-echo-into-scope", f"echo {LONG} > src/a.py", SUB, "-"),
    ("long-echo-main", f"echo {LONG} > src/a.py", {}, "BASH_UNPARSEABLE"),  # over budget
    ("padded-settings", f'cp x "{EMPTY}.claude/settings.json"', SUB, "TAMPER"),
    ("padded-unparsed", f'cp x "{EMPTY}.claude/settings.json" (', SUB, "TAMPER"),
    ("long-unparsed-plain", f"echo {LONG} > src/a.py (", SUB, "-"),
]


@pytest.mark.parametrize(
    ("command", "who", "code"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_a_word_longer_than_any_path_gets_the_right_answer(
    tmp_path: Path, command: str, who: dict[str, str], code: str
) -> None:
    assert bash_violation(tmp_path, CONFIG, command, **who) == code


ROOT, HOME = "/home/dev/proj", "/home/dev"
PROTECTED = index(
    (
        Protected(f"{ROOT}/.claude/settings.json", False, ".claude/settings.json"),
        Protected(f"{ROOT}/.env", False, ".env"),
    ),
    False,
    [ROOT],
)


@pytest.mark.parametrize(
    ("word", "literal", "found"),
    [
        (LONG, True, False),
        (LONG + "/.claude/settings.json", True, True),
        (LONG + "/.env", True, True),
        ("$D/" + LONG, False, True),  # a guessed target this long counts as any file
    ],
    ids=["plain", "spells-settings", "spells-env", "guessed"],
)
def test_could_name_answers_a_long_word_without_searching_it(
    word: str, literal: bool, found: bool
) -> None:
    got = could_name(word, PROTECTED, cwd=ROOT, home=HOME, windows=False, literal=literal)
    assert (got is not None) is found
