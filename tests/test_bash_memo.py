"""The Bash analysis is pure, so its answers are remembered; the key must hold every input."""

from __future__ import annotations

from orchestrator_boundary import bash
from orchestrator_boundary.bash import MEMO_ENTRIES, MEMO_MAX_CHARS, Status, analyze


def test_the_same_inputs_are_answered_from_memory() -> None:
    bash.clear_memo()
    first = analyze("echo hi > out.txt", cwd="/w/p")
    assert analyze("echo hi > out.txt", cwd="/w/p") is first


def test_every_input_is_part_of_the_key() -> None:
    bash.clear_memo()
    base = analyze("cat a > b; git log", cwd="/w/p", home="/home/u")
    assert base.effects[0].resolved == "/w/p/b"
    assert analyze("cat a > b; git log", cwd="/w/q", home="/home/u").effects[0].resolved == "/w/q/b"
    tilde = analyze("cat a > ~/b", cwd="/w/p", home="/home/u")
    assert tilde.effects[0].resolved == "/home/u/b"
    assert analyze("cat a > ~/b", cwd="/w/p", home="/home/v").effects[0].resolved == "/home/v/b"
    assert analyze("mytool x", cwd="/w/p").status is Status.OPAQUE
    known = analyze("mytool x", cwd="/w/p", read_only_commands=frozenset({"mytool"}))
    assert known.status is Status.READ_ONLY
    assert analyze("Set-Content f x", cwd="/w/p", shell="powershell").effects
    assert analyze("echo hi > f; " * 50, cwd="/w/p", budget=20).exhausted
    assert analyze("echo hi > f; " * 50, cwd="/w/p").status is Status.WRITES


def test_long_commands_are_analysed_every_time_and_the_memo_is_bounded() -> None:
    bash.clear_memo()
    long = "echo " + "x" * MEMO_MAX_CHARS + " > f"
    assert analyze(long, cwd="/w/p") is not analyze(long, cwd="/w/p")
    assert analyze(long, cwd="/w/p") == analyze(long, cwd="/w/p")
    for i in range(MEMO_ENTRIES + 10):
        analyze(f"echo {i} > f{i}", cwd="/w/p")
    info = bash._remembered.cache_info()
    assert info.currsize == MEMO_ENTRIES
