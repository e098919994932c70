"""Report: how often the Bash analysis lets a write through or denies a read (issue 12, point 10).

Over the reality-checked table (tests/reality_cases.py): writes let through and read-only
commands denied, for the main agent under both ``bash.opaque`` settings ("allow", the default:
an opaque command is let through; "deny": it is denied). A command is denied when the analysis
finds an effect, says ``writes`` or ``unparseable`` (``bash.unparseable`` defaults to "deny"),
or, under "deny", says ``opaque``.

Then, when the corpus of real payloads is present, how the distinct Bash commands in it are
rated: read_only, writes, opaque, unparseable. Run it on two commits to compare them.

Run: PYTHONPATH=src:. python benchmarks/analysis_accuracy.py [--list] [--no-corpus]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from corpus_commands import bash_commands, corpus_dir
from reality_cases import OPAQUE, READ_ONLY, ROWS, WRITE, Row, analyse, denied, unnamed_targets

from orchestrator_boundary.bash import Status, analyze

MODES = ("allow", "deny")


def _share(part: int, whole: int) -> str:
    return f"{part:>3} of {whole:<3} ({100 * part / whole:5.1f} %)" if whole else "  - of 0"


def table_report(show: bool) -> list[str]:
    verdicts = {row.id: analyse(row) for row in ROWS}
    groups: dict[str, list[Row]] = {
        "writes visible in the text, let through": [r for r in ROWS if r.label == WRITE],
        "runners (opaque by design), let through": [r for r in ROWS if r.label == OPAQUE],
        "read-only commands denied": [r for r in ROWS if r.label == READ_ONLY],
    }
    checked = sum(1 for row in ROWS if not row.unchecked())
    labels = Counter(row.label for row in ROWS)
    lines = [
        f"table: {len(ROWS)} rows ({labels[WRITE]} write, {labels[OPAQUE]} opaque, "
        f"{labels[READ_ONLY]} read-only); {checked} checked against reality on this machine",
        "",
        f"{'':46}{'bash.opaque = allow':<26}{'bash.opaque = deny'}",
    ]
    listed: list[str] = []
    for title, rows in groups.items():
        cells = []
        for mode in MODES:
            if title.startswith("read-only"):
                bad = [r for r in rows if denied(verdicts[r.id], mode)]
            else:
                bad = [r for r in rows if not denied(verdicts[r.id], mode)]
            cells.append(f"{_share(len(bad), len(rows)):<26}")
            if show and bad:
                listed.append(f"{title} ({mode}): " + ", ".join(r.id for r in bad))
        lines.append((f"{title:<46}" + "".join(cells)).rstrip())
    rated_read_only = [
        r for r in ROWS if r.label != READ_ONLY and verdicts[r.id].status is Status.READ_ONLY
    ]
    with_targets = [r for r in ROWS if r.targets]
    unnamed = [r for r in with_targets if unnamed_targets(r, verdicts[r.id])]
    unproven = [
        r
        for r in ROWS
        if r.label == READ_ONLY and r.provable and verdicts[r.id].status is not Status.READ_ONLY
    ]
    lines += [
        "",
        f"writes rated read_only:                       {len(rated_read_only)}",
        f"writes whose spelled-out targets are missing: {_share(len(unnamed), len(with_targets))}",
        f"read-only commands not proven read-only:      {len(unproven)} "
        f"(of {sum(1 for r in ROWS if r.label == READ_ONLY and r.provable)} the issue asks for)",
    ]
    if show:
        listed.append("writes rated read_only: " + ", ".join(r.id for r in rated_read_only))
        listed.append("targets missing: " + ", ".join(r.id for r in unnamed))
        listed.append("not proven read-only: " + ", ".join(r.id for r in unproven))
        lines += ["", *listed]
    return lines


def corpus_report() -> list[str]:
    corpus = corpus_dir()
    if corpus is None:
        return ["corpus: absent (../shared/corpus or $ORCHESTRATOR_BOUNDARY_CORPUS), skipped"]
    first_cwd: dict[str, str] = {}
    for command, cwd in bash_commands(corpus):
        first_cwd.setdefault(command, cwd)
    counts = Counter(
        analyze(command, cwd=cwd, home="/home/user").status for command, cwd in first_cwd.items()
    )
    total = len(first_cwd)
    parts = ", ".join(
        f"{status.value} {counts[status]} ({100 * counts[status] / total:.1f} %)"
        for status in Status
    )
    return [f"corpus: {total} distinct Bash commands: {parts}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name the rows in each count")
    parser.add_argument("--no-corpus", action="store_true", help="the table only")
    args = parser.parse_args(argv)
    lines = table_report(args.list)
    if not args.no_corpus:
        lines += ["", *corpus_report()]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
