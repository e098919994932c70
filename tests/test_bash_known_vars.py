"""ADR 0067: a variable the command assigns a literal in sight, before it uses it, is that value.

`LOG=x.log; make > "$LOG"` was a write to a place the text does not fix, which may be a
protected file: TAMPER, in every phase, for every agent. Each row here is run for real by
``reality.py`` (bash in a throwaway folder) and compared with the analysis:

- ``KNOWN``: the analysis names exactly the files bash changed;
- ``CHANGED``: something else in the command changes the variable after its literal assignment
  (a builtin that takes a name, arithmetic, a function, a trap, a branch, the background, ...).
  Bash writes somewhere other than the literal, and the analysis must not name the literal: its
  target stays unknown. These are the attacks on the rule, one per route.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest
import reality
from harden_support import bash_violation
from reality import Seed

from orchestrator_boundary.bash import Status, analyze
from orchestrator_boundary.bash.explain import explain

CWD = "/r/work"  # where reality_cases' analysis runs; the throwaway folder stands for it
HOME = "/r/home"
ARRAY = Seed(files=(("sub/.keep", ""),))

KNOWN: list[tuple[str, str, tuple[str, ...]]] = [
    ("quoted", 'LOG=x.log; echo hi > "$LOG"', ("x.log",)),
    ("braced", 'LOG=x.log; echo hi > "${LOG}"', ("x.log",)),
    ("and-chain", "LOG=x.log && echo hi > $LOG", ("x.log",)),
    ("redirect-on-chain", 'LOG=x.log && true > "$LOG" 2>&1', ("x.log",)),
    ("folder-and-file", 'OUT=build; mkdir -p "$OUT" && echo > "$OUT/a"', ("build", "build/a")),
    ("one-from-another", 'A=sub B="$A/x.txt"; echo > "$B"', ("sub/x.txt",)),
    ("blank-in-quotes", "LOG='a b'; echo > \"$LOG\"", ("a b",)),
    ("reassigned", 'LOG=x; LOG=y; echo > "$LOG"', ("y",)),
    ("heredoc", 'LOG=x.log; cat <<EOF > "$LOG"\nhi\nEOF', ("x.log",)),
    ("cd", 'D=sub; cd "$D" && echo > f', ("sub/f",)),
    ("substitution", 'LOG=x; echo $(echo hi > "$LOG")', ("x",)),
    ("in-a-branch", 'LOG=x; if true; then echo > "$LOG"; fi', ("x",)),
    ("pattern-read", 'LOG=x; echo "${LOG/x/y}" "${#LOG}"; echo > "$LOG"', ("x",)),
    ("as-option", "F=-ox.txt; sort a $F", ("x.txt",)),
]

CHANGED: list[tuple[str, str, Seed]] = [
    ("read", 'LOG=x; read LOG <<< y; echo > "$LOG"', Seed()),
    ("builtin-read", 'LOG=x; builtin read LOG <<< y; echo > "$LOG"', Seed()),
    ("read-by-variable", 'LOG=x; R=read; $R LOG <<< y; echo > "$LOG"', Seed()),
    ("printf-v", 'LOG=x; printf -v LOG y; echo > "$LOG"', Seed()),
    ("mapfile", 'LOG=x; mapfile -t LOG <<< y; echo > "$LOG"', Seed()),
    ("getopts", 'LOG=x; getopts a LOG -a; echo > "$LOG"', Seed()),
    ("nameref", 'LOG=x; declare -n R=LOG; R=y; echo > "$LOG"', Seed()),
    ("declare", 'LOG=x; declare LOG=y; echo > "$LOG"', Seed()),
    ("export", 'LOG=x; export LOG=y; echo > "$LOG"', Seed()),
    ("function", 'LOG=x; f() { LOG=y; }; f; echo > "$LOG"', Seed()),
    ("eval", 'LOG=x; eval LOG=y; echo > "$LOG"', Seed()),
    ("source", 'LOG=x; source <(echo LOG=y); echo > "$LOG"', Seed()),
    ("alias", "shopt -s expand_aliases; LOG=x; alias s='LOG=y'\ns; echo > \"$LOG\"", Seed()),
    ("debug-trap", "LOG=x; trap 'LOG=y' DEBUG; echo > \"$LOG\"", Seed()),
    ("arithmetic", 'LOG=x; : $((LOG=5)); echo > "$LOG"', Seed()),
    ("arithmetic-command", 'LOG=x; ((LOG=2)); echo > "$LOG"', Seed()),
    ("let", 'LOG=x; let LOG=4; echo > "$LOG"', Seed()),
    ("value-evaluated", "LOG=x; N='LOG=8'; : $((N)); echo > \"$LOG\"", Seed()),
    ("test-eq", 'LOG=x; [[ LOG=7 -eq 7 ]]; echo > "$LOG"', Seed()),
    ("subscript", 'LOG=x; a=(1); : "${a[LOG=6]}"; echo > "$LOG"', Seed()),
    ("heredoc-arithmetic", 'LOG=x; : <<EOF\n$((LOG=3))\nEOF\necho > "$LOG"', Seed()),
    ("default-assigns", 'LOG=x; unset LOG; : "${LOG:=y}"; echo > "$LOG"', Seed()),
    ("fd-variable", 'LOG=x; exec {LOG}>/dev/null; echo > "$LOG"', Seed()),
    ("append", 'LOG=x; LOG+=y; echo > "$LOG"', Seed()),
    ("for", 'LOG=x; for LOG in y; do :; done; echo > "$LOG"', Seed()),
    ("and-branch", 'LOG=x; true && LOG=y; echo > "$LOG"', Seed()),
    ("if", 'LOG=x; if true; then LOG=y; fi; echo > "$LOG"', Seed()),
    ("case", 'LOG=x; case a in a) LOG=y;; esac; echo > "$LOG"', Seed()),
    ("braces", 'LOG=x; { LOG=y; }; echo > "$LOG"', Seed()),
    ("subshell-use", 'LOG=x; (LOG=y; echo > "$LOG")', Seed()),
    ("background", 'LOG=x & wait; echo > "$LOG"', Seed()),
    ("pipeline", 'LOG=x | cat; echo > "$LOG"', Seed()),
    ("prefix", 'LOG=x true; echo > "$LOG"', Seed()),
    ("tilde", 'LOG=~; echo > "$LOG/f"', Seed()),
    ("random", 'RANDOM=5; echo > "$RANDOM"', Seed()),
    ("last-argument", '_=x; true y; echo > "$_"', Seed()),
    ("unquoted-split", "LOG='a b'; echo > $LOG c", Seed()),
    ("wait-p", 'LOG=x; true & wait -p LOG; echo > "$LOG"', Seed()),
    ("time", 'LOG=x; time LOG=y; echo > "$LOG"', Seed()),
    ("coproc", 'LOG=x; coproc LOG { :; }; echo > "$LOG"', Seed()),
    # round nine: a wrapped `printf -v`, and the option spelled so the text does not show it
    ("builtin-printf-v", 'LOG=x; builtin printf -v LOG y; echo > "$LOG"', Seed()),
    ("command-printf-v", 'LOG=x; command printf -v LOG y; echo > "$LOG"', Seed()),
    ("time-printf-v", 'LOG=x; time printf -v LOG y; echo > "$LOG"', Seed()),
    ("printf-escaped-v", 'LOG=x; printf \\-v LOG y; echo > "$LOG"', Seed()),
    ("printf-ansi-c-v", "LOG=x; printf $'-v' LOG y; echo > \"$LOG\"", Seed()),
    # `set -k` (keyword) makes `LOG=y` an assignment anywhere; before a special builtin in
    # posix mode it stays
    ("keyword-posix", 'set -o posix -o keyword; LOG=x; : LOG=y; echo > "$LOG"', Seed()),
    # words after a redirect are the command's arguments to bash, the redirect's to the grammar
    ("printf-v-after-redirect", 'LOG=x; printf >/dev/null -v LOG y; echo > "$LOG"', Seed()),
    (
        "keyword-after-redirect",
        'set -o posix -o keyword; LOG=x; : 2>/dev/null LOG=y; echo > "$LOG"',
        Seed(),
    ),
]

# zsh's own routes (macOS runs the Bash tool in zsh): judged by the analysis alone, as no zsh
# runs here; each sets LOG in zsh
ZSH: list[tuple[str, str]] = [
    ("zsh-repeat", 'LOG=x; repeat 1 LOG=y; echo > "$LOG"'),
    ("zsh-print-v", 'LOG=x; print -v LOG y; echo > "$LOG"'),
    ("zsh-vared", 'LOG=x; vared LOG; echo > "$LOG"'),
    ("zsh-set-a", 'LOG=x; set -A LOG y; echo > "$LOG"'),
    ("zsh-typeset", 'LOG=x; typeset LOG=y; echo > "$LOG"'),
    ("zsh-integer", 'LOG=x; integer LOG=1; echo > "$LOG"'),
    ("zsh-assign-always", 'LOG=x; : ${LOG::=y}; echo > "$LOG"'),
    ("zsh-indirect", 'LOG=x; : ${(P)N::=y}; echo > "$LOG"'),
    ("zsh-subscript", 'LOG=x; : $a[LOG=1]; echo > "$LOG"'),
    ("zsh-glob-qualifier", "LOG=x; : *(e:'LOG=y':); echo > \"$LOG\""),
    ("zsh-zparseopts", 'LOG=x; zparseopts -A LOG a; echo > "$LOG"'),
    ("zsh-anonymous-function", 'LOG=x; () { LOG=y }; echo > "$LOG"'),
    # round nine: a tied pair, the array assigned, the scalar read (FIGNORE is then "y")
    ("zsh-tied-fignore", 'FIGNORE=x; fignore=(y); echo > "$FIGNORE"'),
    ("zsh-tied-watch", 'WATCH=x; watch=(y); echo > "$WATCH"'),
    ("zsh-shift-arithmetic", 'LOG=x; shift LOG=0; echo > "$LOG"'),
]


def _analysed(command: str) -> tuple[Status, set[str | None]]:
    result = analyze(command, cwd=CWD, home=HOME)
    named = {
        None if e.resolved is None else posixpath.relpath(e.resolved, CWD) for e in result.effects
    }
    return result.status, named


@pytest.mark.parametrize(("command", "targets"), [r[1:] for r in KNOWN], ids=[r[0] for r in KNOWN])
def test_a_value_assigned_in_sight_names_what_bash_writes(
    command: str, targets: tuple[str, ...]
) -> None:
    outcome = reality.run(command, ARRAY)
    assert outcome.paths == set(targets), outcome.describe()
    status, named = _analysed(command)
    assert status is not Status.READ_ONLY
    assert named == set(targets), explain(analyze(command, cwd=CWD, home=HOME))


@pytest.mark.parametrize(("command", "seed"), [r[1:] for r in CHANGED], ids=[r[0] for r in CHANGED])
def test_a_value_changed_out_of_sight_stays_unknown(command: str, seed: Seed) -> None:
    outcome = reality.run(command, seed)
    literal = "x" if "LOG=x" in command else command.split("=", 1)[1].split(";", 1)[0]
    # the attack is real: bash did not write (only) the literal the command assigned first
    assert outcome.paths != {literal}, outcome.describe()
    status, named = _analysed(command)
    assert literal not in named, explain(analyze(command, cwd=CWD, home=HOME))
    assert None in named or status is Status.OPAQUE, explain(analyze(command, cwd=CWD, home=HOME))


@pytest.mark.parametrize("command", [r[1] for r in ZSH], ids=[r[0] for r in ZSH])
def test_zsh_routes_leave_the_value_unknown(command: str) -> None:
    status, named = _analysed(command)
    assert "x" not in named, explain(analyze(command, cwd=CWD, home=HOME))
    assert status is not Status.READ_ONLY


def test_nested_shells_start_without_the_outer_values() -> None:
    """`sh -c` is a new shell: a variable the outer one did not export is not set there."""
    _, named = _analysed("LOG=x; sh -c 'echo > \"$LOG\"'")
    assert "x" not in named and None in named


def test_the_false_tamper_is_gone_and_the_protected_file_still_is(tmp_path: Path) -> None:
    """The reported false alarm: a subagent's `make > "$LOG"` was TAMPER, refused in every
    phase. Now it is judged by where it writes; the same route to a protected file is TAMPER."""
    root = tmp_path.resolve()
    sub = {"agent_id": "a1", "agent_type": "general-purpose"}

    def _violation(root: Path, command: str, **who: str) -> str:
        return bash_violation(root, 'phase = "enforce"\n', command, **who)

    assert _violation(root, 'LOG=build.log; make > "$LOG" 2>&1', **sub) == "-"
    assert _violation(root, 'OUT=dist; mkdir -p "$OUT" && cp a "$OUT/"', **sub) == "-"
    assert _violation(root, 'D=.claude; echo {} > "$D/settings.json"', **sub) == "TAMPER"
    assert _violation(root, 'LOG=x; read LOG; make > "$LOG"', **sub) == "TAMPER"
    assert _violation(root, 'LOG=build.log; echo hi > "$LOG"') == "BASH_WRITE"
