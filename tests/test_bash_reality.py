"""Issue 12, point 10: the table of writes and their read-only twins, checked against reality.

``reality.py`` runs each row's command in a throwaway folder (no network, HOME and TMPDIR inside,
the rest of the file system read-only where the machine allows it) and compares the tree before
and after. Here that ground truth is checked for every row that can run on this machine, so the
table itself is proven: a ``write`` row really writes (its targets among the changes), an
``opaque`` row really can write, a ``read_only`` row changes nothing.

Then the Bash analysis is judged by the same rows (all of them: it needs no program installed):
no write rated ``read_only`` or let through with ``bash.opaque = "deny"``, spelled-out targets
named, read-only commands never denied with the default and proven where the issue asks.
``benchmarks/analysis_accuracy.py`` prints the same judgement as counts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import reality
from reality_cases import OPAQUE, READ_ONLY, ROWS, WRITE, Row, analyse, denied, unnamed_targets

from orchestrator_boundary.bash import Status
from orchestrator_boundary.bash.explain import explain

CHECKED = [row for row in ROWS if not row.unchecked()]
ISSUE_POINTS = {"1", "2", "3", "4", "5", "6", "7", "9"}


def covered(target: str, paths: frozenset[str]) -> bool:
    """A change at ``target`` or inside it (``out`` covers ``out/Hello.class``)."""
    return any(p == target or p.startswith(target + "/") for p in paths)


@pytest.mark.parametrize("row", CHECKED, ids=[row.id for row in CHECKED])
def test_row_matches_reality(row: Row) -> None:
    outcome = reality.run(row.command, row.seed, tty=row.tty)
    assert not outcome.timed_out, outcome.describe()
    assert not outcome.outside_blocked, outcome.describe()
    if row.label == READ_ONLY:
        assert not outcome.changes, outcome.describe()
    else:
        assert outcome.changes, outcome.describe()
        missing = [t for t in row.targets if not covered(t, outcome.paths)]
        assert not missing, f"targets not changed: {missing}\n{outcome.describe()}"


# --- the table's shape ----------------------------------------------------------------------


def test_rows_are_unique_and_well_formed() -> None:
    ids = [row.id for row in ROWS]
    assert len(ids) == len(set(ids))
    assert len({(row.command, row.shell) for row in ROWS}) == len(ROWS)
    for row in ROWS:
        assert row.label in (READ_ONLY, WRITE, OPAQUE), row.id
        assert row.point in ISSUE_POINTS, row.id
        assert not (row.targets and row.label != WRITE), f"{row.id}: only writes name targets"
        assert row.provable or row.label == READ_ONLY, f"{row.id}: provable is for read-only rows"
        for target in row.targets:
            assert not os.path.isabs(target), f"{row.id}: targets are relative to the folder"


def test_every_point_has_writes_and_read_only_twins() -> None:
    for point in ISSUE_POINTS - {"9"}:
        labels = {row.label for row in ROWS if row.point == point}
        assert {WRITE, READ_ONLY} <= labels, f"point {point}: {labels}"
    assert {row.label for row in ROWS if row.point == "9"} >= {WRITE, READ_ONLY}


def test_most_rows_are_checked_against_reality() -> None:
    """Label-only rows say why; on this kind of machine most rows run for real."""
    unchecked = [row for row in ROWS if row.unchecked()]
    assert all(row.unchecked().strip() for row in unchecked)
    # rows that need no program beyond bash and coreutils, and no Windows, always run
    basic = [row for row in ROWS if not row.needs and not row.label_only and not row.offline_only]
    assert all(not row.unchecked() for row in basic)
    assert len(CHECKED) >= 150, [f"{row.id}: {row.unchecked()}" for row in unchecked]


# --- the helper itself ------------------------------------------------------------------------


def test_helper_sees_each_kind_of_change() -> None:
    outcome = reality.run(
        "echo x > new; echo y >> f; rm a; chmod 600 b; mkdir e; ln -sfn a link; touch -m notes.md"
    )
    assert {(c.path, c.what) for c in outcome.changes} == {
        ("new", "created"),
        ("f", "changed"),
        ("a", "deleted"),
        ("b", "changed"),
        ("e", "created"),
        ("link", "changed"),
        ("notes.md", "changed"),
    }, outcome.describe()


def test_helper_sees_home_and_tmpdir_inside_the_folder() -> None:
    outcome = reality.run('echo x > "$HOME/h"; echo y > "$TMPDIR/t"; echo "$HOME $TMPDIR $PWD"')
    assert outcome.paths == {"../home/h", "../tmp/t"}, outcome.describe()
    home, tmp, cwd = outcome.stdout.split()
    assert os.path.dirname(home) == os.path.dirname(tmp) == os.path.dirname(cwd)


def test_helper_seeds_a_clean_git_repository() -> None:
    outcome = reality.run(
        "git status --porcelain; git log --oneline | wc -l", reality.Seed(git=True)
    )
    assert outcome.stdout.split() == ["1"], outcome.describe()
    assert not outcome.changes, outcome.describe()


def test_helper_seeds_per_case_files_and_setup() -> None:
    seed = reality.Seed(files=(("x/y.txt", "hi\n"),), setup="cp x/y.txt z")
    outcome = reality.run("cat x/y.txt z; readlink link", seed)
    assert outcome.stdout.split() == ["hi", "hi", "f"], outcome.describe()


def test_helper_stops_at_the_timeout() -> None:
    outcome = reality.run("sleep 30; touch late", timeout=1)
    assert outcome.timed_out
    assert not outcome.changes


@pytest.mark.skipif(not reality.isolated(), reason=reality.isolation())
def test_isolated_run_has_no_network_and_cannot_write_outside() -> None:
    outcome = reality.run(
        "grep -c : /proc/net/dev; echo x > /var/tmp/reality-escape; echo x > /tmp/reality-tmp"
    )
    assert outcome.stdout.split() == ["1"], outcome.describe()  # only the loopback device
    assert outcome.outside_blocked, outcome.describe()
    assert not os.path.exists("/var/tmp/reality-escape")
    # /tmp is the folder's own tmp/ during the run
    assert outcome.paths == {"../tmp/reality-tmp"}, outcome.describe()


# --- the analysis against the table (issue 12, point 10) --------------------------------------
# Every row, label-only ones included: the analysis is pure, it needs no program installed.

WRITES = [row for row in ROWS if row.label != READ_ONLY]
READS = [row for row in ROWS if row.label == READ_ONLY]


@pytest.mark.parametrize("row", WRITES, ids=[row.id for row in WRITES])
def test_analysis_never_rates_a_write_read_only(row: Row) -> None:
    """With ``bash.opaque = "deny"`` no write gets through; the targets the text spells are named
    (so that with the default, ``"allow"``, the write is denied too)."""
    result = analyse(row)
    assert result.status is not Status.READ_ONLY, explain(result)
    assert denied(result, "deny"), explain(result)
    missing = unnamed_targets(row, result)
    assert not missing, f"targets not named: {missing}\n{explain(result)}"


@pytest.mark.parametrize("row", READS, ids=[row.id for row in READS])
def test_analysis_never_denies_a_read_only_command(row: Row) -> None:
    """Proven read-only where the issue asks for it; never a write in any case."""
    result = analyse(row)
    assert not result.effects, explain(result)
    assert not denied(result, "allow"), explain(result)
    if row.provable:
        assert result.status is Status.READ_ONLY, explain(result)


def test_accuracy_report_counts_the_whole_table() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/analysis_accuracy.py", "--no-corpus", "--list"],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"table: {len(ROWS)} rows")
    assert "bash.opaque = allow" in lines[2] and "bash.opaque = deny" in lines[2]
    writes = sum(1 for row in ROWS if row.label == WRITE)
    reads = sum(1 for row in ROWS if row.label == READ_ONLY)
    assert any(f"of {writes} " in line for line in lines if line.startswith("writes visible"))
    assert any(f"of {reads} " in line for line in lines if line.startswith("read-only commands"))
