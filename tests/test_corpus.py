"""Replay of the 17,520 real payloads in ../shared/corpus (skipped when it is absent).

Checks: no crash and a valid answer for every payload, and ``session_kind`` agreeing with the
provenance for every payload that carries a native ``agent_id`` or comes from 2.1.69 on. The
payloads recorded on Windows (drive-letter cwd) are judged here with Windows path rules, as
``replay`` does (``foreign.setup_for``), and every one of them must be judged (issue 15)."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from collections import Counter
from pathlib import Path

import pytest
from conftest import corpus_dir

from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.foreign import recorded_platform, setup_for
from orchestrator_boundary.paths import WINDOWS
from orchestrator_boundary.payload import payload_from_obj
from orchestrator_boundary.session import detect
from orchestrator_boundary.shell import judge
from orchestrator_boundary.verdict import render

pytestmark = pytest.mark.corpus
CORPUS = corpus_dir()


def _version_at_least(versions: list[str] | None, minimum: tuple[int, ...]) -> bool:
    for v in versions or []:
        try:
            if tuple(int(x) for x in v.split(".")[:3]) >= minimum:
                return True
        except ValueError:
            continue
    return False


def _provenance(corpus: Path) -> dict[str, list[dict[str, object]]]:
    out: dict[str, list[dict[str, object]]] = {}
    with tarfile.open(corpus / "provenance.tar.gz") as tar:
        for member in tar.getmembers():
            if member.name.endswith(".provenance.jsonl"):
                fh = tar.extractfile(member)
                assert fh is not None
                name = Path(member.name).name.removesuffix(".provenance.jsonl")
                out[name] = [json.loads(line) for line in io.TextIOWrapper(fh, "utf-8")]
    return out


@pytest.mark.skipif(CORPUS is None, reason="../shared/corpus is absent")
def test_every_real_payload_gets_a_valid_answer_and_the_right_session_kind(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert CORPUS is not None
    provenance = _provenance(CORPUS)
    stats: Counter[str] = Counter()
    mismatches: list[str] = []
    errors: list[str] = []
    env = {"HOME": "/nonexistent-home"}
    for path in sorted((CORPUS / "payloads").glob("*.jsonl.gz")):
        name = path.name.removesuffix(".jsonl.gz")
        prov = provenance[name]
        with gzip.open(path, "rt", encoding="utf-8", errors="surrogateescape") as fh:
            for n, line in enumerate(fh):
                stats["payloads"] += 1
                data = json.loads(line)
                meta = prov[n]
                try:
                    payload = payload_from_obj(data)
                except BoundaryInputError as exc:
                    stats["invalid_payloads"] += 1
                    assert str(exc)
                    continue
                kind = detect(payload).kind.value
                windows = recorded_platform(payload) == WINDOWS
                stats["windows_recorded"] += windows
                try:
                    verdict = judge(payload, setup_for(payload, env))
                    answer = render(verdict)
                    assert answer.exit_code == 0
                    assert answer.stdout == "" or isinstance(json.loads(answer.stdout), dict)
                    stats["judged"] += 1
                    stats["windows_judged"] += windows
                    if windows and verdict.violation is not None:
                        stats[f"windows_{verdict.violation.code.value}"] += 1
                except BoundaryInputError as exc:
                    assert "no usable project root" in str(exc), exc
                    # deliberate: a payload that names no working folder has no root to judge by
                    stats["no_root"] += 1
                    if payload.cwd:
                        errors.append(f"{name}:{n + 1} {exc}")
                added = meta.get("logger_added_keys") or []
                logger_added = any(str(k).startswith("agent_id") for k in added)  # type: ignore[attr-defined]
                native = "agent_id" in data and not logger_added
                sub = meta.get("subagent")
                if native or (
                    _version_at_least(
                        meta.get("version_from_transcript"),  # type: ignore[arg-type]
                        (2, 1, 69),
                    )
                    and data.get("hook_event_name") in ("PreToolUse", "PostToolUse")
                ):
                    stats["checked_kind"] += 1
                    expected = "subagent" if native else "main"
                    if kind != expected:
                        mismatches.append(f"{name}:{n + 1} {kind} != {expected} ({sub})")
                elif sub and data.get("hook_event_name") in ("PreToolUse", "PostToolUse"):
                    stats["old_subagent_no_signal"] += 1
                if logger_added:
                    stats["logger_added_agent_id"] += 1
                    assert kind == "subagent"  # indistinguishable from a native one, by design
    with capsys.disabled():
        print(f"\ncorpus replay: {dict(stats)}")
    assert stats["payloads"] == 17_520
    assert stats["windows_recorded"] == 4_296
    assert stats["windows_judged"] == 4_296, errors[:20]
    assert not errors, errors[:20]  # only the 13 payloads without a cwd have no root
    assert stats["no_root"] == 13
    assert not mismatches, mismatches[:20]
