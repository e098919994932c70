"""The report over a trail of the 17,520 real payloads in ../shared/corpus (skipped when it is
absent): every payload replayed through the hook with the bypass set, spread over 30 days.

Real paths (Windows ones too) and real tool names must fit the 80 columns uncut, and a real
call's PreToolUse and PostToolUse lines must count as one bypassed call."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import corpus_dir

from orchestrator_boundary import audit
from orchestrator_boundary.report import Thresholds, compute, iter_records
from orchestrator_boundary.report_text import render_text
from orchestrator_boundary.shell import evaluate

pytestmark = pytest.mark.corpus
CORPUS = corpus_dir()
START = datetime(2026, 3, 2, tzinfo=UTC)


def payloads(corpus: Path) -> Iterator[bytes]:
    for path in sorted((corpus / "payloads").glob("*.jsonl.gz")):
        with gzip.open(path, "rb") as fh:
            yield from (line.rstrip(b"\n") for line in fh if line.strip())


@pytest.fixture(scope="module")
def corpus_trail(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert CORPUS is not None
    root = tmp_path_factory.mktemp("corpus-report") / "proj"
    root.mkdir()
    env = {
        "CLAUDE_PROJECT_DIR": str(root),
        "HOME": "/nonexistent-home",
        "AMPLIFIER_BYPASS_BOUNDARY": "1",
    }
    raws = list(payloads(CORPUS))
    for k, raw in enumerate(raws):
        when = (START + timedelta(days=k * 30 // len(raws), seconds=k)).timestamp()
        event = "PostToolUse" if b'"PostToolUse"' in raw else "PreToolUse"
        evaluate(raw, env, event=event, clock=lambda when=when: when)
    return root / ".claude" / "boundary" / "audit.jsonl"


@pytest.mark.skipif(CORPUS is None, reason="../shared/corpus is absent")
def test_real_calls_count_once_and_real_values_fit_uncut(corpus_trail: Path) -> None:
    files = audit.trail_files(str(corpus_trail))
    rep = compute(iter_records(files), Thresholds(), START.date() + timedelta(days=40))
    lines = [json.loads(x) for x in corpus_trail.read_text().splitlines()]
    bypassed = [x for x in lines if x.get("bypassed")]
    ids = {x["tool_use_id"] for x in bypassed if x.get("tool_use_id")}
    keyless = sum(1 for x in bypassed if not x.get("tool_use_id") and x["event"] == "PreToolUse")
    assert rep.bypassed_calls == len(ids) + keyless
    assert rep.bypassed_calls < len(bypassed)  # real PostToolUse lines share their call's id
    out = render_text(rep, str(corpus_trail), len(files))
    assert max(map(len, out.splitlines())) <= 80
    squashed = re.sub(r"\s+", "", out)
    assert max(len(name) for name, _ in rep.by_file[:8]) > 56  # longer than the name column
    for name, _ in rep.by_file[:8] + rep.by_tool[:8] + rep.by_rule[:8]:
        assert re.sub(r"\s+", "", name) in squashed, name
