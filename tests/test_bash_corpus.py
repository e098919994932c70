"""Every Bash command of the shared corpus gets an analysis, without exceptions."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from corpus_commands import bash_commands, corpus_dir

from orchestrator_boundary.bash import BashAnalysis, Status, analyze

pytestmark = pytest.mark.corpus

CORPUS = corpus_dir()


@pytest.mark.skipif(CORPUS is None, reason="../shared/corpus is absent")
def test_corpus_commands_analyze_without_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert CORPUS is not None
    counts: Counter[str] = Counter()
    slowest = (0.0, "")
    total = 0
    analyze("true", cwd="/")  # load the grammar before timing
    for command, cwd in bash_commands(CORPUS):
        start = time.perf_counter()
        result = analyze(command, cwd=cwd, home="/home/user")
        elapsed = time.perf_counter() - start
        assert isinstance(result, BashAnalysis)
        assert result.status in Status
        if result.status == Status.UNPARSEABLE:
            assert result.error
        counts[result.status.value] += 1
        total += 1
        if elapsed > slowest[0]:
            slowest = (elapsed, command)
    assert total > 1000
    with capsys.disabled():
        print(
            f"\n[bash corpus] {total} commands: "
            + ", ".join(f"{k}={v}" for k, v in sorted(counts.items()))
            + f"; slowest {slowest[0] * 1000:.1f} ms ({len(slowest[1])} chars)"
        )
