"""Bash commands from the shared corpus of real hook payloads (read in place, never copied)."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path


def corpus_dir() -> Path | None:
    """``<repo>/../shared/corpus``, else $ORCHESTRATOR_BOUNDARY_CORPUS; None when absent."""
    repo = Path(__file__).resolve().parents[1]
    candidates = [repo.parent / "shared" / "corpus"]
    env = os.environ.get("ORCHESTRATOR_BOUNDARY_CORPUS")
    if env:
        candidates.append(Path(env))
    for candidate in candidates:
        if (candidate / "payloads").is_dir():
            return candidate
    return None


def bash_commands(corpus: Path) -> Iterator[tuple[str, str]]:
    """(command, cwd) for every Bash tool call in the corpus payloads."""
    for path in sorted((corpus / "payloads").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8", errors="surrogateescape") as lines:
            for line in lines:
                try:
                    payload = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(payload, dict) or payload.get("tool_name") != "Bash":
                    continue
                tool_input = payload.get("tool_input")
                command = tool_input.get("command") if isinstance(tool_input, dict) else None
                if isinstance(command, str):
                    cwd = payload.get("cwd")
                    yield command, cwd if isinstance(cwd, str) and cwd else "/"
