"""Round twelve (ADR 0082): brace expansion in words that are partly quoted. Bash expands the
braces of the unquoted parts and reads the quoted ones as text, so ``mv
".claude/settings.json"{,.bak}`` moves the settings away; the analysis read such a word as an
unknown pattern (opaque: sound, but a false alarm for ``cp "$dir/a"{,.orig}``-like ordinary
work without the ``$``, and no name for the policy). Each word is compared with the real bash.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from harden_support import bash_violation

from orchestrator_boundary.bash import Status, analyze

TEXTS = [
    '".claude/settings.json"{,.bak}', "'.claude'/settings.json{,.x}", "a{,'b'}", 'x{a,"b,c"}',
    "'a{b,c}'", "a\\{b,c}", "a{1'..'3}", 'a{"}",b}', '"a\\"b"{,.x}', "'a\\'{b,c}",
    "{'a','b'}c", "a{b,c}'d e'", '"{"a,b"}"', "x{a,b'}'}", "a{'1'..3}", "'x'{1..3}",
    'a{b,"c"{d,e}}', "\\a{b,c}", "'.claude'/{settings,x}.json",
    # an unmatched `{` before a pair: bash expands the pair (plain words too)
    "{{{a,b}", "a{b{c,d}", "}{a,b}", "x{'y'{a,b}",
]  # fmt: skip


def _tee(text: str) -> tuple[Status, list[str]]:
    result = analyze(f"echo x | tee {text}", cwd="/p", home="/h")
    return result.status, sorted(
        (e.resolved or "").removeprefix("/p/") for e in result.effects if e.kind.value == "write"
    )


@pytest.mark.skipif(shutil.which("bash") is None, reason="compares with the real bash")
@pytest.mark.parametrize("text", TEXTS)
def test_the_words_are_bashs(tmp_path: Path, text: str) -> None:
    real = subprocess.run(
        ["bash", "-c", f"printf '%s\\n' {text}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout.split("\n")[:-1]
    status, named = _tee(text)
    assert status is Status.WRITES, named
    assert named == sorted(real)


def test_the_settings_moved_away_are_named() -> None:
    result = analyze('mv ".claude/settings.json"{,.bak}', cwd="/p", home="/h")
    assert result.status is Status.WRITES, result
    assert {e.resolved for e in result.effects} >= {"/p/.claude/settings.json"}


def test_a_quoted_glob_character_is_text() -> None:
    result = analyze('cp "a*"{1,2} d', cwd="/p", home="/h")
    assert result.status is Status.WRITES, result
    assert "/p/d/a*2" in {e.resolved for e in result.effects}


@pytest.mark.parametrize("command", ["mv ~/'a'{b,c}", "mv $'a'{b,c}"])
def test_a_tilde_or_ansi_c_beside_the_braces_stays_opaque(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is Status.OPAQUE


# an expansion beside braces: bash expands the braces first, so `f$1{,.bak}` is two words
# (`mv .claude/settings.json$1{,.bak}` moves the settings when $1 is empty); each is now a
# pattern with `*` for the expansion. Read as one unknown word, `mv` had one operand and was
# read_only: let through in every phase.
EXPANDED = [
    ("positional", "mv .claude/settings.json$1{,.bak}", 2),
    ("variable", "mv .claude/settings.json$X{,.bak}", 2),
    ("braced-variable", "mv .claude/settings.json${X}{,.bak}", 2),
    ("substitution", "mv .claude/settings.json$(true){,.bak}", 2),
    ("quoted-variable", 'mv "$X"{,.bak}', 2),
    ("in-the-list", "mv {$X,src/a.py}", 2),
]


@pytest.mark.parametrize(
    ("command", "count"), [e[1:] for e in EXPANDED], ids=[e[0] for e in EXPANDED]
)
def test_an_expansion_beside_braces_gives_bashs_count_of_patterns(command: str, count: int) -> None:
    result = analyze(command, cwd="/p", home="/h")
    assert result.status is not Status.READ_ONLY, result
    assert len(result.effects) == count, result
    assert any(e.resolved is None and "*" in e.path for e in result.effects), result


@pytest.mark.parametrize("command", [e[1] for e in EXPANDED[:4]], ids=[e[0] for e in EXPANDED[:4]])
def test_moving_the_settings_beside_an_expansion_is_tamper(tmp_path: Path, command: str) -> None:
    wide = 'phase = "enforce"\n[agents.coder]\nwrite_scope = ["**"]\n'
    assert bash_violation(tmp_path, wide, command, agent_id="a1", agent_type="coder") == "TAMPER"
    assert bash_violation(tmp_path, 'phase = "enforce"\n', command) == "TAMPER"


@pytest.mark.parametrize("command", ["mv a{,b}$1:", "mv a $${x,y}"])
def test_braces_beside_a_modifier_or_the_pid_are_an_unknown_pattern(command: str) -> None:
    # `a{,b}$1:` is two words to bash (it was one unknown word: mv read_only); zsh reads `$1:`
    # as a modifier, and `${` is never a brace (`$${x,y}` is the pid and `{x,y}`)
    assert analyze(command, cwd="/p", home="/h").status is Status.OPAQUE
