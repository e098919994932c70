"""Round twelve (ADR 0082): the writes of a wrapper or a tracer itself, as well as of the
command it runs. Observed in ``tests/reality_cases_attack_h.py``: ``strace -o F`` and
``valgrind --log-file=F`` write F, ``flock L -c CMD`` runs CMD through the shell, and
``nohup`` writes nohup.out when it has a terminal (the Bash tool gives none; ``unbuffer`` and
``script`` make one)."""

from __future__ import annotations

import pytest

from orchestrator_boundary.bash import Status, analyze

# (id, command, the places its writes name); all stay opaque: the traced command is not read
TRACED = [
    ("strace-o", "strace -o .claude/settings.json ls", {"/p/.claude/settings.json"}),
    ("strace-cluster", "strace -fo src/t ls", {"/p/src/t"}),
    ("strace-attached", "strace -osrc/t ls", {"/p/src/t"}),
    ("strace-long", "strace --output=src/t ls", {"/p/src/t"}),
    ("strace-long-next", "strace --output src/t ls", {"/p/src/t"}),
    ("strace-pipe", "strace -o '|tee src/t' ls", {"/p/src/t"}),
    ("strace-expansion", 'strace -o "$F" ls', {None}),
    ("ltrace-o", "ltrace -o src/t ls", {"/p/src/t"}),
    ("valgrind-log", "valgrind --log-file=src/v ls", {"/p/src/v"}),
    ("valgrind-xml", "valgrind --xml=yes --xml-file=src/v ls", {"/p/src/v"}),
    ("valgrind-pid", "valgrind --log-file=src/v.%p ls", {"/p/src/v.*"}),
    ("valgrind-callgrind", "valgrind --tool=callgrind ls", {"/p/callgrind.out.*"}),
    ("perf-record", "perf record ls", {"/p/perf.data", "/p/perf.data.old"}),
    ("perf-record-o", "perf record -o src/p ls", {"/p/src/p"}),
]


@pytest.mark.parametrize(("command", "places"), [t[1:] for t in TRACED], ids=[t[0] for t in TRACED])
def test_a_tracer_writes_its_report(command: str, places: set[str | None]) -> None:
    result = analyze(command, cwd="/p", home="/h")
    assert result.status is Status.OPAQUE, result
    assert places <= {e.resolved or e.path or None for e in result.effects}, result


def test_a_tracer_with_no_output_option_names_no_write() -> None:
    result = analyze("strace -e trace=open ls", cwd="/p", home="/h")
    assert result.status is Status.OPAQUE and not result.effects, result


FLOCK = [
    ("runs", "flock L -c 'touch x'", Status.WRITES, {"/p/L", "/p/x"}),
    ("long", "flock L --command 'touch .claude/settings.json'", Status.WRITES, None),
    # nothing written under sh may still be a write under the user's $SHELL (zsh's mapfile)
    ("quiet", "flock L -c 'x=1'", Status.OPAQUE, {"/p/L"}),
    ("no-command", "flock L -c", Status.OPAQUE, {"/p/L"}),
]


@pytest.mark.parametrize(
    ("command", "status", "places"), [f[1:] for f in FLOCK], ids=[f[0] for f in FLOCK]
)
def test_flock_runs_its_command_through_the_shell(
    command: str, status: Status, places: set[str] | None
) -> None:
    result = analyze(command, cwd="/p", home="/h")
    assert result.status is status, result
    named = {e.resolved for e in result.effects}
    assert named == (places or {"/p/L", "/p/.claude/settings.json"}), result


@pytest.mark.parametrize(
    "command", ["unbuffer nohup ls", "unbuffer -p nohup ls", "winpty nohup ls"]
)
def test_nohup_on_a_terminal_is_no_better_than_opaque(command: str) -> None:
    assert analyze(command, cwd="/p", home="/h").status is Status.OPAQUE


def test_other_commands_on_a_terminal_stay_read() -> None:
    assert analyze("unbuffer ls", cwd="/p", home="/h").status is Status.READ_ONLY


@pytest.mark.parametrize("command", ["nohup ls", "nohup ls > log 2>&1 &", "stdbuf -oL ls"])
def test_without_a_terminal_the_wrappers_write_nothing_of_their_own(command: str) -> None:
    result = analyze(command, cwd="/p", home="/h")
    assert result.status in (Status.READ_ONLY, Status.WRITES), result
    assert "/p/nohup.out" not in {e.resolved for e in result.effects}
