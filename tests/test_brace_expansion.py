"""Bash's brace expansion as the analysis does it (ADR 0081), word for word against the real
bash: `mv f{,.bak}` is two words, and the count decides what `mv` and `cp` write."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from orchestrator_boundary.bash.braces import MAX_BRACE_WORDS, _braces

TEXTS = [
    "a{,.bak}", "{mv,a,b}", "x{,}", "a{1..3}", "a{01..10..3}", "{a..e..2}x", "{a}{b,c}", "{}",
    "a{b,c{d,e}f}g", "{a,b}{c,d}", "{5..1}", "a{b", "a}b{c,d}", "{-2..2}", "x{1..a}",
    "{{a,b}}", "a{b,c}}", "{-05..3..2}", "{00..2}", "{10..8}", "{1..10..0}", "{x..z..-1}",
    "{1..3}{a,b}", "src/{a,b}/*.py", ".claude/settings.{json,bak}", "{1..64}",
]  # fmt: skip


@pytest.mark.skipif(shutil.which("bash") is None, reason="compares with the real bash")
@pytest.mark.parametrize("text", TEXTS)
def test_words_are_bashs(text: str) -> None:
    real = subprocess.run(
        ["bash", "-c", f"printf '%s\\n' {text}"], capture_output=True, text=True, check=True
    ).stdout.split("\n")[:-1]
    assert [w for w in (_braces(text) or []) if w] == real


@pytest.mark.parametrize("text", ["{1..65}", "a{1..9}{1..9}", "{a..z}{a..z}", "{a,b}" * 30])
def test_more_words_than_are_read_is_none(text: str) -> None:
    assert _braces(text) is None
    assert MAX_BRACE_WORDS == 64
