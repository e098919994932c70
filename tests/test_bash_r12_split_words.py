"""Round twelve (ADR 0082): tree-sitter-bash splits a word at a backslash that follows a quote
or an expansion: ``cp a '.claude/'\\settings.json`` was read as ``cp a .claude/ settings.json``
(a copy INTO ``settings.json/``), while Bash copies over ``.claude/settings.json``; a wide
subagent was let through. ``x="a"\\b rm -rf src`` ran ``rm`` to Bash and ``b`` to the grammar.
Such text is now a disagreement (unparseable, ADR 0006's rule); the same backslashes inside one
word the grammar reads whole are not.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from harden_support import WIDE_OPEN, bash_violation

from orchestrator_boundary.bash import Status, analyze

SPLIT = [
    "cp a '.claude/'\\settings.json",
    'cp a ".claude"\\/settings.json',
    "cp a .claude/'settings'\\.json",
    'x="a"\\b rm -rf src',
    "$x\\a",
    "cat $(echo)\\a",
    "echo x > '.claude/'\\settings.json",
    "for f in 'a'\\b; do rm $f; done",
    "echo $(ls)\\;",
    "rm 'x'\\a\\b'y'",
]


@pytest.mark.parametrize("command", SPLIT)
def test_a_word_split_at_a_backslash_is_unparseable(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is Status.UNPARSEABLE


WHOLE = [
    ("escaped-blank", "echo a\\ b", Status.READ_ONLY),
    ("word-then-escape", "echo 'a' \\b", Status.READ_ONLY),
    ("in-quotes", "grep -E 'a\\|b' f", Status.READ_ONLY),
    ("escaped-quote", 'echo "a\\"b"', Status.READ_ONLY),
    ("after-semicolon", "a=1;\\rm x", Status.WRITES),
    ("find-exec", "find . -exec ls {} \\;", Status.READ_ONLY),
    ("escape-then-quote", "echo x\\\\'y'", Status.READ_ONLY),
    ("plain-escape", "touch x\\a", Status.WRITES),
]


@pytest.mark.parametrize(("command", "status"), [w[1:] for w in WHOLE], ids=[w[0] for w in WHOLE])
def test_a_word_the_grammar_reads_whole_is_analysed(command: str, status: Status) -> None:
    assert analyze(command, cwd="/p", home="/h").status is status


@pytest.mark.skipif(shutil.which("bash") is None, reason="compares with the real bash")
@pytest.mark.parametrize("text", ["'d/'\\g.txt", '"d"\\/g.txt', "d/'g'\\.txt"])
def test_bash_reads_one_word(tmp_path: Path, text: str) -> None:
    out = subprocess.run(
        ["bash", "-c", f"printf '%s\\n' {text}"], capture_output=True, text=True, check=True
    ).stdout
    assert out == "d/g.txt\n"


def test_a_wide_subagent_copying_over_the_settings_is_stopped(tmp_path: Path) -> None:
    wide = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n'
    command = "cp a '.claude/'\\settings.json"
    assert bash_violation(tmp_path, wide, command, agent_id="a1", agent_type="coder") != "-"


# the grammar skips `\ ` before a word: `touch \ a` is `a` to it and ` a` to Bash
DROPPED = [
    "echo x > \\ /../.claude/settings.json",
    "mkdir ' ' && echo x > \\ /../.claude/settings.json",
    "touch \\ a",
    "\\ ls",
    'touch \\ "y"',
]


@pytest.mark.parametrize("command", DROPPED)
def test_an_escaped_blank_the_grammar_drops_is_unparseable(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is Status.UNPARSEABLE


@pytest.mark.parametrize(
    "command",
    [
        "touch a\\ b",
        "echo a \\\nb",
        "grep 'a\\ b' f",
        "[[ x =~ a\\ b ]]",
        "case x in a\\ b) ;; esac",
    ],
)
def test_an_escaped_blank_inside_a_word_is_read(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is not Status.UNPARSEABLE


def test_a_write_through_a_folder_named_blank_is_stopped_where_outside_writes_are_allowed(
    tmp_path: Path,
) -> None:
    command = "mkdir ' ' && echo x > \\ /../.claude/settings.json"
    config = 'phase = "enforce"\n' + WIDE_OPEN
    assert bash_violation(tmp_path, config, command, agent_id="a1", agent_type="coder") != "-"
    assert bash_violation(tmp_path, config, command) != "-"


# the grammar ends a word at a `$` after `${X}` and starts another: `a${X}$Y/z` is `a${X}$` and
# `Y/z` to it, so `cp f a${X}$Y/settings.json` was a copy into `Y/settings.json/`
DOLLAR = [
    "mv .claude/settings.json`true`{,.bak}",  # the grammar splits before the backquote
    "mkdir -p a && X=/../.claude && Y= && cp f a${X}$Y/settings.json",
    "cp f a${X}$Y/z",
    "cp f 'a'${X}$Y/",
    "cp f a$X$Y/",
]


@pytest.mark.parametrize("command", DOLLAR)
def test_a_word_split_after_a_dollar_is_unparseable(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is Status.UNPARSEABLE


@pytest.mark.parametrize(
    "command", ["cp f ${X}$Y/", "cp f $X$Y", "echo a$", 'echo "$a"$b', "echo ${a}${b}c", "x=$y$z"]
)
def test_expansions_the_grammar_reads_as_one_word_are_analysed(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is not Status.UNPARSEABLE


def test_a_wide_subagent_copying_through_a_split_word_is_stopped(tmp_path: Path) -> None:
    wide = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n'
    command = "mkdir -p a && X=/../.claude && Y= && cp f a${X}$Y/settings.json"
    assert bash_violation(tmp_path, wide, command, agent_id="a1", agent_type="coder") != "-"
