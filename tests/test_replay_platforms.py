"""Issue 15, point 5: replay across platforms.

A payload recorded on Windows is judged on Linux (and a POSIX one on Windows) with the path
rules of the platform it was recorded on, through ``replay``'s own line judge: the platform is
read off the payload, the root is its cwd, and the file-system facts of the recording machine
(what exists, links, the names' case on disk) are taken as absent. Every replayed line gets a
``session_kind``, also the ones that cannot be judged.

The Windows rows are the table ``test_windows_paths`` runs on (simulated) Windows, where the
files exist: the same payloads must get the same verdicts here, where none of them do.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_dir
from test_windows_paths import CASES, CONFIG, _payload
from windows_sim import python_argv, sim_env

from orchestrator_boundary import setups
from orchestrator_boundary.cli import main
from orchestrator_boundary.cmd_replay import judge_line
from orchestrator_boundary.errors import BoundaryInputError
from orchestrator_boundary.fs import ForeignFileSystem, windows_normal
from orchestrator_boundary.paths import POSIX, WINDOWS, locate, platform_of, recorded_home


def _args(config: Path | None) -> argparse.Namespace:
    return argparse.Namespace(config=str(config) if config else None, phase=None, project=None)


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "boundary.toml"
    path.write_text(CONFIG)
    return path


ENV = {"HOME": "/nonexistent-home"}


@pytest.mark.parametrize(
    ("who", "root", "tool", "tool_input", "decision", "code"),
    [case[1:7] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_windows_payload_replayed_here_gets_the_verdict_windows_gives(
    config: Path,
    who: str,
    root: str,
    tool: str,
    tool_input: dict[str, Any],
    decision: str,
    code: str | None,
) -> None:
    line = json.dumps(_payload(who, root, tool, tool_input))
    row, _ = judge_line(line, ENV, _args(config))
    assert row["error"] is None
    assert row["session_kind"] == ("main" if who == "main" else "subagent")
    assert (row["decision"], row["code"]) == (decision, code), row["reason"]


# (id, file_path, who, decision, code): a drive root, without the project's config (defaults,
# enforce from the command line): the orchestrator may not write anywhere, subagents may
HAND: list[tuple[str, str, str, str, str | None]] = [
    ("main-write-in-root", "C:\\Users\\dev\\proj\\src\\a.py", "main", "deny", "ORCHESTRATOR_WRITE"),
    ("main-write-mixed-separators", "C:/Users/dev/proj\\src/a.py", "main", "deny", "ORCHESTRATOR_WRITE"),
    ("main-write-settings", "C:\\Users\\dev\\proj\\.claude\\settings.json", "main", "deny", "TAMPER"),
    ("main-write-settings-case", "c:\\USERS\\dev\\PROJ\\.Claude\\SETTINGS.JSON", "main", "deny", "TAMPER"),
    ("main-write-settings-rooted", "\\Users\\dev\\proj\\.claude\\settings.json", "main", "deny", "TAMPER"),
    ("main-write-home-settings", "C:/Users/dev/.claude/settings.json", "main", "deny", "TAMPER"),
    ("sub-write-in-root", "C:\\Users\\dev\\proj\\src\\a.py", "general-purpose", "none", None),
    ("sub-write-case", "c:\\users\\dev\\proj\\SRC\\a.py", "general-purpose", "none", None),
    ("sub-write-settings", "C:\\Users\\dev\\proj\\.claude\\settings.json", "general-purpose", "deny", "TAMPER"),
    ("sub-write-other-drive", "D:\\Users\\dev\\proj\\src\\a.py", "general-purpose", "deny", "SCOPE_VIOLATION"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("file_path", "who", "decision", "code"),
    [h[1:] for h in HAND],
    ids=[h[0] for h in HAND],
)
def test_hand_written_windows_writes_under_the_default_config(
    file_path: str, who: str, decision: str, code: str | None
) -> None:
    line = json.dumps(_payload(who, "C:\\Users\\dev\\proj", "Write", {"file_path": file_path}))
    args = _args(None)
    args.phase = "enforce"
    row, _ = judge_line(line, ENV, args)
    assert (row["decision"], row["code"], row["error"]) == (decision, code, None), row["reason"]


def test_a_windows_read_by_the_main_agent_is_no_objection() -> None:
    line = json.dumps(_payload("main", "C:\\p", "Read", {"file_path": "C:\\p\\src\\a.py"}))
    args = _args(None)
    args.phase = "enforce"
    row, _ = judge_line(line, ENV, args)
    assert (row["session_kind"], row["tool_class"], row["decision"]) == ("main", "read", "none")


# ---- every line gets a session_kind ----

UNJUDGED = [
    ("not-json", "{not json", "unknown", "not JSON"),
    ("json-array", "[1, 2]", "unknown", "expected an object"),
    ("no-event", json.dumps({"agent_id": "a1", "tool_name": "Write"}), "subagent", "invalid"),
    ("no-root-main", json.dumps(_payload("main", "proj", "Write", {"file_path": "a"})), "main", "root"),
    ("no-root-sub", json.dumps(_payload("coder", "", "Write", {"file_path": "a"})), "subagent", "root"),
    ("bad-cwd-windows", json.dumps(_payload("coder", "C:relative", "Write", {"file_path": "D:\\a"})), "subagent", "root"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("line", "kind", "error"), [u[1:] for u in UNJUDGED], ids=[u[0] for u in UNJUDGED]
)
def test_a_line_that_cannot_be_judged_still_gets_its_session_kind(
    line: str, kind: str, error: str
) -> None:
    row, _ = judge_line(line, ENV, _args(None))
    assert row["decision"] is None
    assert error in row["error"]
    assert row["session_kind"] == kind


def test_the_live_hooks_keep_this_machines_path_rules() -> None:
    """Only check and replay read the platform off the payload; a hook's payload is from here."""
    with pytest.raises(BoundaryInputError, match="no usable project root"):
        setups.setup("C:\\Users\\dev\\proj", ENV)
    assert isinstance(setups.setup("/", ENV).context.fs, type(setups.FS))


# ---- the pieces ----

PLATFORMS = [
    ("drive", "C:\\a", WINDOWS),
    ("drive-slash", "c:/a", WINDOWS),
    ("unc", "\\\\server\\share", WINDOWS),
    ("long-prefix", "\\\\?\\C:\\a", WINDOWS),
    ("posix", "/home/a", POSIX),
    ("drive-relative", "C:a", None),
    ("relative", "a\\b", None),
    ("empty", "", None),
    ("not-text", 3, None),
]


@pytest.mark.parametrize(
    ("path", "platform"), [p[1:] for p in PLATFORMS], ids=[p[0] for p in PLATFORMS]
)
def test_the_platform_a_path_was_written_on(path: object, platform: str | None) -> None:
    assert platform_of(path) == platform


NORMAL = [
    ("slashes", "C:/a/b", "C:\\a\\b"),
    ("dotdot", "C:\\a\\b\\..\\c", "C:\\a\\c"),
    ("long-prefix", "\\\\?\\C:\\a\\b", "C:\\a\\b"),
    ("long-unc", "\\\\?\\UNC\\server\\share\\a", "\\\\server\\share\\a"),
    ("device-prefix", "\\\\.\\C:\\a", "C:\\a"),
    ("trailing-dot-space", "C:\\a.\\settings.json. ", "C:\\a\\settings.json"),
    ("literal-below-long-prefix", "\\\\?\\C:\\a\\b.", "C:\\a\\b."),
    ("main-stream", "C:\\a\\s.json::$DATA", "C:\\a\\s.json"),
    ("rooted-on-the-cwd-drive", "\\a\\b", "D:\\a\\b"),
    ("unc", "//server/share/a/../b", "\\\\server\\share\\b"),
]


@pytest.mark.parametrize(("raw", "normal"), [n[1:] for n in NORMAL], ids=[n[0] for n in NORMAL])
def test_a_windows_path_in_its_normal_form(raw: str, normal: str) -> None:
    assert windows_normal(raw, "D:") == normal


def test_the_foreign_file_system_has_no_facts() -> None:
    fs = ForeignFileSystem(True, drive="C:")
    located = locate("c:\\P\\x\\..\\Src\\a.py", "C:\\p", fs)
    assert located.relatives == ("Src/a.py",)
    assert fs.identity("C:\\p\\Src\\a.py") is None
    assert fs.files_below("C:\\p", 10) == []
    posix = ForeignFileSystem(False)
    assert not posix.case_insensitive("/home/a")
    assert posix.realpath("//home/a/../b") == "/home/b"
    assert locate("/p/src\\a.py", "/p", posix).relatives == ("src\\a.py", "src/a.py")


HOMES = [
    ("windows", "C:\\Users\\dev\\.claude\\projects\\C--p\\s.jsonl", True, "C:\\Users\\dev"),
    ("windows-case", "C:/Users/dev/.Claude/Projects/C--p/s.jsonl", True, "C:/Users/dev"),
    ("posix", "/home/dev/.claude/projects/-p/s.jsonl", False, "/home/dev"),
    ("elsewhere", "/tmp/s.jsonl", False, None),
    ("missing", None, True, None),
]


@pytest.mark.parametrize(
    ("transcript", "windows", "home"), [h[1:] for h in HOMES], ids=[h[0] for h in HOMES]
)
def test_the_recording_machines_home_from_the_transcript_path(
    transcript: str | None, windows: bool, home: str | None
) -> None:
    assert recorded_home(transcript, windows) == home


# ---- the reverse: POSIX payloads replayed on (simulated) Windows ----

POSIX_CASES = [
    ("main-write", "main", "/home/dev/proj/src/a.py", "deny", "ORCHESTRATOR_WRITE"),
    ("main-write-allowed", "main", "/home/dev/proj/STATE.md", "none", None),
    ("main-write-allowed-other-case", "main", "/home/dev/proj/state.md", "deny", "ORCHESTRATOR_WRITE"),
    ("main-settings", "main", "/home/dev/proj/.claude/settings.json", "deny", "TAMPER"),
    ("main-home-settings", "main", "/home/dev/.claude/settings.json", "deny", "TAMPER"),
    ("coder-in-scope", "coder", "/home/dev/proj/src/a.py", "none", None),
    ("coder-backslash-is-a-name", "coder", "/home/dev/proj/src\\a.py", "deny", "SCOPE_VIOLATION"),
    ("coder-dotdot", "coder", "/home/dev/proj/src/../docs/a.md", "deny", "SCOPE_VIOLATION"),
    ("coder-drive-path", "coder", "C:\\home\\dev\\proj\\src\\a.py", "deny", "SCOPE_VIOLATION"),
]  # fmt: skip

REPLAY = textwrap.dedent(
    """
    import sys
    from orchestrator_boundary.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def test_posix_payloads_replayed_on_windows_keep_posix_rules(tmp_path: Path) -> None:
    drive = tmp_path / "C"
    drive.mkdir()
    (drive / "boundary.toml").write_text(CONFIG)
    lines = []
    for _id, who, file_path, _decision, _code in POSIX_CASES:
        data = _payload(who, "/home/dev/proj", "Write", {"file_path": file_path})
        data["transcript_path"] = "/home/dev/.claude/projects/-home-dev-proj/s.jsonl"
        lines.append(json.dumps(data))
    (drive / "in.jsonl").write_text("\n".join(lines) + "\n")
    script = tmp_path / "replay.py"
    script.write_text(REPLAY)
    env = sim_env({**os.environ, "HOME": "C:\\Users\\me"}, drives={"C:": str(drive)}, cwd="C:\\")
    env.pop("CLAUDE_PROJECT_DIR", None)
    argv = python_argv(
        str(script), "replay", "--json", "--config", "C:\\boundary.toml", "C:\\in.jsonl"
    )
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    got = {
        case[0]: (row["decision"], row["code"]) for case, row in zip(POSIX_CASES, rows, strict=True)
    }
    assert got == {case[0]: (case[3], case[4]) for case in POSIX_CASES}


# ---- the real corpus, through replay's own line judge ----

CORPUS = corpus_dir()


@pytest.mark.corpus
@pytest.mark.skipif(CORPUS is None, reason="../shared/corpus is absent")
def test_every_windows_recorded_corpus_payload_replays_here_without_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert CORPUS is not None
    counts: Counter[str] = Counter()
    errors = []
    for path in sorted((CORPUS / "payloads").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8", errors="surrogateescape") as fh:
            for n, line in enumerate(fh, 1):
                cwd = json.loads(line).get("cwd")
                windows = platform_of(cwd) == WINDOWS
                row, _ = judge_line(line, ENV, _args(None))
                assert row["session_kind"] in ("main", "subagent")
                counts["payloads"] += 1
                counts["errors"] += row["error"] is not None
                if windows:
                    counts["windows"] += 1
                    counts[f"windows_{row['session_kind']}"] += 1
                    counts[f"windows_{row['decision']}"] += 1
                    if row["error"] is not None:
                        errors.append(f"{path.name}:{n} {row['error']}")
    with capsys.disabled():
        print(f"\nreplay across platforms: {dict(counts)}")
    assert counts["windows"] == 4_296
    assert errors == []
    assert counts["errors"] == 13  # the payloads that carry no cwd at all


# ---- check, from the command line ----


def _check(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Any:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    rc = main(["check", "--json", *argv])
    return rc, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("file_path", "decision", "code"),
    [
        ("C:\\Users\\dev\\proj\\state.md", "none", None),
        ("C:\\Users\\dev\\proj\\src\\a.py", "deny", "ORCHESTRATOR_WRITE"),
    ],
    ids=["write-allowed-by-the-checkout", "write-src"],
)
def test_check_a_windows_payload_against_a_local_checkouts_config(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    file_path: str,
    decision: str,
    code: str | None,
) -> None:
    """--project names the checkout here whose config applies; the root stays the cwd."""
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "boundary.toml").write_text(CONFIG)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("ORCHESTRATOR_BOUNDARY_PHASE", raising=False)
    payload = json.dumps(
        _payload("main", "C:\\Users\\dev\\proj", "Write", {"file_path": file_path})
    )
    rc, out = _check(["--project", str(tmp_path)], payload, monkeypatch, capsys)
    assert rc == 0
    assert (out["decision"], out["code"], out["phase"]) == (decision, code, "enforce")


def test_check_says_the_session_kind_of_a_payload_it_cannot_judge(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = json.dumps(_payload("coder", "", "Write", {"file_path": "a"}))
    rc, out = _check([], payload, monkeypatch, capsys)
    assert rc == 2
    assert (out["session_kind"], out["decision"]) == ("subagent", None)
    assert "no usable project root" in out["error"]


def test_a_changed_local_config_is_read_again(tmp_path: Path) -> None:
    """Foreign Setups are reused between lines, but not past a change of the config file."""
    cfg = tmp_path / "boundary.toml"
    line = json.dumps(_payload("main", "C:\\p", "Write", {"file_path": "C:\\p\\a.py"}))
    cfg.write_text('phase = "warn"\n')
    assert judge_line(line, ENV, _args(cfg))[0]["decision"] == "warn"
    assert judge_line(line, ENV, _args(cfg))[0]["decision"] == "warn"
    cfg.write_text('phase = "enforce"\n')
    assert judge_line(line, ENV, _args(cfg))[0]["decision"] == "deny"
