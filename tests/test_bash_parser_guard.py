"""tree-sitter-bash 0.25 corrupts memory on code points from U+20000 up; a crashed hook fails
open. The analysis refuses such text (UNPARSEABLE) instead of parsing it (ADR 0014)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from conftest import REPO, run_hook

from orchestrator_boundary.bash import Status, analyze

CRASHERS = "\U00020000\U0003abcd\U000e0041\U0010fffd"


def test_text_beyond_the_grammars_range_is_unparseable_not_parsed() -> None:
    result = analyze(f"echo {CRASHERS[0]} > f.txt", cwd="/w/p")
    assert result.status is Status.UNPARSEABLE
    assert "U+1FFFF" in result.error
    nested = analyze(f"bash -c 'echo {CRASHERS[3]}'", cwd="/w/p")
    assert nested.status is Status.UNPARSEABLE


def test_characters_the_grammar_handles_still_parse() -> None:
    for text in ("echo \U0001f600 > a.txt", "echo \u00e9\u4e2d > a.txt", "echo \ud800 > a.txt"):
        result = analyze(text, cwd="/w/p")
        assert result.status is Status.WRITES, text


def test_thousands_of_hostile_strings_do_not_crash_the_process() -> None:
    # a crash is a process death, so it can only be seen from outside the process
    script = textwrap.dedent(
        """
        import random, sys
        from orchestrator_boundary.bash import analyze
        r = random.Random(20261122)
        alphabet = list("ab $'\\"\\\\;|&(){}<>#=\\n\\t`")
        for _ in range(20000):
            n = r.randint(1, 40)
            s = "".join(r.choice(alphabet) if r.random() < 0.7
                        else chr(r.randint(0x10000, 0x10FFFF)) for _ in range(n))
            analyze(s, cwd="/w/p")
        print("done")
        """
    )
    env = {"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "done"), done.stderr[-2000:]


def test_the_hook_answers_such_a_command_deliberately(project: Path, make_payload: Any) -> None:
    (project / ".claude/boundary.toml").write_text('phase = "enforce"\n')
    env = {"CLAUDE_PROJECT_DIR": str(project)}
    rc, out, _ = run_hook(make_payload("Bash", {"command": f"echo {CRASHERS} > x"}), env)
    assert rc == 0 and out is not None
    assert "BASH_UNPARSEABLE" in out["hookSpecificOutput"]["permissionDecisionReason"]
    rc, out, _ = run_hook(
        make_payload("Bash", {"command": f"echo {CRASHERS} > x"}, subagent=True), env
    )
    assert (rc, out) == (0, None)
    record = json.loads((project / ".claude/boundary/audit.jsonl").read_text().splitlines()[-1])
    assert record["bash_status"] == "unparseable"


def test_encode_character_classes_match_the_comparisons() -> None:
    from orchestrator_boundary.bash.analysis import _ABOVE_PARSER_MAX, _SURROGATE

    edges = [0, 0x7F, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x1FFFF, 0x20000]
    for cp in [*edges, 0x10FFFF, *range(0, 0x110000, 97)]:
        ch = chr(cp)
        assert bool(_ABOVE_PARSER_MAX.search(ch)) == (ch > chr(0x1FFFF)), hex(cp)
        assert bool(_SURROGATE.search(ch)) == ("\ud800" <= ch <= "\udfff"), hex(cp)
