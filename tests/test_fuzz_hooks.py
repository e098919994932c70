"""Issue 6.3: every input gets a deliberate answer, through both entry points.

In-process through ``shell.evaluate`` for many examples, through real subprocesses of
``hooks/hook.py PreToolUse`` and ``hooks/hook.py PostToolUse`` for a few. The contract checked for
every input: exit code 0 or 2; stdout empty or exactly one JSON object of the protocol (never
``allow``, never a traceback); exit 2 comes with one line on stderr; in enforce, input that
cannot be understood is exit 2.

Profile: ``BOUNDARY_FUZZ_PROFILE`` (default ``ci``: derandomized, bounded, a few seconds);
``deep`` (5,000 examples per test) for long runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orchestrator_boundary import shell
from orchestrator_boundary.payload import MAX_PAYLOAD_BYTES

REPO = Path(__file__).resolve().parents[1]
HOOK = REPO / "hooks" / "hook.py"  # hook.py EVENT

_QUIET = [
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    HealthCheck.large_base_example,
    HealthCheck.function_scoped_fixture,
]
# Named profiles applied by decorator, never loaded globally: other test modules keep theirs.
settings.register_profile(
    "boundary-fuzz-ci",
    max_examples=150,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=_QUIET,
)
settings.register_profile(
    "boundary-fuzz-deep", max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck)
)
FUZZ = settings(
    settings.get_profile("boundary-fuzz-" + os.environ.get("BOUNDARY_FUZZ_PROFILE", "ci"))
)

PHASES = ["off", "warn", "ask", "enforce"]


@pytest.fixture(scope="module")
def proj(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("fuzz")
    root, home = base / "proj", base / "home"
    for d in (root / ".claude" / "agents", root / "src", root / "docs", home / ".claude"):
        d.mkdir(parents=True)
    (root / ".claude" / "boundary.toml").write_text(
        '[orchestrator]\nwrite_allow = ["STATE.md", "docs/**"]\n'
        '[agents.coder]\nwrite_scope = ["src/**", "!src/secrets/**"]\n'
        'tools = ["Read", "Write", "Edit", "Bash"]\n'
        "[audit]\nmax_bytes = 2000000\nkeep = 3\n"
    )
    (root / "src" / "link").symlink_to(root / ".claude")
    return {"root": str(root.resolve()), "home": str(home)}


# --- strategies ------------------------------------------------------------------------------


def _paths(root: str) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(
            [
                f"{root}/STATE.md",
                f"{root}/docs/a.md",
                f"{root}/src/a.py",
                f"{root}/src/secrets/k",
                f"{root}/.claude/settings.json",
                f"{root}/.claude/boundary.toml",
                f"{root}/src/link/x",
                f"{root}/../x",
                "/etc/passwd",
                "relative/p.py",
                "C:\\x\\y",
                "\\\\srv\\s\\x",
                "",
                "/",
                f"{root}/docs/\x00x",
                f"{root}/" + "a" * 20000,
            ]
        ),
        st.text(max_size=60).map(lambda t: f"{root}/{t}"),
        st.text(max_size=40),
    )


TOOLS = [
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Read",
    "Bash",
    "PowerShell",
    "Glob",
    "Agent",
    "Task",
    "WebFetch",
    "mcp__x__y",
    "TodoWrite",
    "Weird Tool",
    "",
]

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def valid_payloads(draw: st.DrawFn, root: str) -> dict[str, Any]:
    event = draw(st.sampled_from(["PreToolUse", "PostToolUse"]))
    tool = draw(st.sampled_from(TOOLS))
    path = draw(_paths(root))
    tool_input: dict[str, Any] = {
        "Write": {"file_path": path, "content": "x"},
        "Edit": {"file_path": path, "old_string": "a", "new_string": "b"},
        "MultiEdit": {"file_path": path, "edits": []},
        "NotebookEdit": {"notebook_path": path, "new_source": "x"},
        "Bash": {
            "command": draw(
                st.sampled_from([f"echo x > {path}", "ls", "rm -rf /", "'unclosed"])
                | st.text(max_size=40)
            )
        },
    }.get(tool, {"file_path": path})
    data: dict[str, Any] = {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": draw(st.sampled_from([root, f"{root}/src", "/", ""])),
        "permission_mode": "default",
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_x",
    }
    if draw(st.booleans()):
        data["agent_id"] = draw(st.sampled_from(["a1", "", "x" * 100]))
        data["agent_type"] = draw(st.sampled_from(["coder", "general-purpose", "", None]))
    if event == "PostToolUse":
        data["tool_response"] = draw(JSONISH)
    return data


WRONG_TYPES = st.one_of(
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.text(max_size=10),
)
FIELDS = [
    "session_id",
    "cwd",
    "hook_event_name",
    "tool_name",
    "tool_input",
    "tool_use_id",
    "agent_id",
    "agent_type",
    "permission_mode",
    "transcript_path",
]


@st.composite
def nearly_valid(draw: st.DrawFn, root: str) -> dict[str, Any]:
    data = draw(valid_payloads(root))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["drop", "retype", "extra", "huge", "deep", "input-retype"]))
        key = draw(st.sampled_from(FIELDS))
        if how == "drop":
            data.pop(key, None)
        elif how == "retype":
            data[key] = draw(WRONG_TYPES)
        elif how == "extra":
            data[draw(st.text(min_size=1, max_size=12))] = draw(JSONISH)
        elif how == "huge":
            data[key] = "\u00e9" * draw(st.integers(10_000, 300_000))
        elif how == "deep":
            depth = draw(st.integers(50, 400))
            nest: Any = "x"
            for _ in range(depth):
                nest = [nest] if draw(st.booleans()) else {"k": nest}
            data["tool_input"] = {"file_path": f"{root}/src/a.py", "nested": nest}
        elif isinstance(data.get("tool_input"), dict) and data["tool_input"]:
            ikey = draw(st.sampled_from(sorted(data["tool_input"])))
            data["tool_input"][ikey] = draw(WRONG_TYPES)
    return data


JUNK = st.one_of(
    st.binary(max_size=300),
    st.sampled_from(
        [
            b"",
            b" ",
            b"\n",
            b"null",
            b"[]",
            b"42",
            b'"str"',
            b"{",
            b"{}",
            b'{"a":}',
            b"\xff\xfe\x00",
            b"[" * 100_000 + b"]" * 100_000,
            b'{"x":' * 50_000,
            b'{"hook_event_name": "PreToolUse"}',
            b'{"hook_event_name": 1}',
            b'{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"\\ud800"}}',
            b"\xef\xbb\xbf{}",
            b"{}{}",
            b'{"hook_event_name":"PreToolUse"}\n{"a":1}',
        ]
    ),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


def _encode(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")


# --- the contract ------------------------------------------------------------------------------


def check_answer(rc: int, out: str, err: str, *, understood: bool | None, phase: str) -> None:
    assert rc in (0, 2), (rc, out, err)
    assert "Traceback" not in out
    if out:
        assert out.endswith("\n") and out.count("\n") == 1, out
        obj = json.loads(out)
        assert isinstance(obj, dict) and obj
        assert set(obj) <= {"hookSpecificOutput", "systemMessage", "decision", "reason"}, obj
        if "systemMessage" in obj:
            assert isinstance(obj["systemMessage"], str)
        if "decision" in obj:
            assert obj["decision"] == "block" and isinstance(obj["reason"], str) and obj["reason"]
        else:
            assert "reason" not in obj
        spec = obj.get("hookSpecificOutput")
        if spec is not None:
            assert spec["hookEventName"] in ("PreToolUse", "PostToolUse")
            assert set(spec) <= {
                "hookEventName",
                "permissionDecision",
                "permissionDecisionReason",
                "additionalContext",
            }
            if "permissionDecision" in spec:
                assert spec["permissionDecision"] in ("deny", "ask")  # never "allow"
                assert spec["hookEventName"] == "PreToolUse"
                assert (
                    isinstance(spec["permissionDecisionReason"], str)
                    and spec["permissionDecisionReason"]
                )
            if "additionalContext" in spec:
                assert isinstance(spec["additionalContext"], str)
        if phase == "off":
            assert "permissionDecision" not in (spec or {}) and "decision" not in obj
    if rc == 2:
        assert out == ""
        assert err.endswith("\n") and err.count("\n") == 1 and err.strip(), err
    if understood is False and phase in ("enforce", "ask"):
        assert rc == 2, (out, err)
    if understood is False and phase in ("warn", "off"):
        assert rc == 0 and out == ""


def run_in_process(raw: bytes, env: dict[str, str], event: str) -> tuple[int, str, str]:
    rc, out, err = shell.evaluate(raw, env, event=event).encoded()
    return rc, out.decode(), err.decode()


def _env(proj: dict[str, Any], phase: str, bypass: bool) -> dict[str, str]:
    env = {
        "CLAUDE_PROJECT_DIR": proj["root"],
        "HOME": proj["home"],
        "ORCHESTRATOR_BOUNDARY_PHASE": phase,
    }
    if bypass:
        env["AMPLIFIER_BYPASS_BOUNDARY"] = "1"
    return env


def _understood(raw: bytes) -> bool | None:
    """Could the payload parser make sense of it (the reference: parse_payload itself)? None
    for input nested past the parser, which has a phase rule of its own (blocked in warn too:
    tests/test_malformed.py)."""
    from orchestrator_boundary.errors import BoundaryInputError, PayloadTooDeep
    from orchestrator_boundary.payload import parse_payload

    try:
        parse_payload(raw)
    except PayloadTooDeep:
        return None
    except BoundaryInputError:
        return False
    return True


EVENTS = st.sampled_from(["PreToolUse", "PostToolUse"])


@FUZZ
@given(data=st.data(), event=EVENTS, phase=st.sampled_from(PHASES), bypass=st.booleans())
def test_valid_payloads_in_process(
    proj: dict[str, Any], data: st.DataObject, event: str, phase: str, bypass: bool
) -> None:
    raw = _encode(data.draw(valid_payloads(proj["root"])))
    rc, out, err = run_in_process(raw, _env(proj, phase, bypass), event)
    check_answer(rc, out, err, understood=_understood(raw), phase=phase)


@FUZZ
@given(data=st.data(), event=EVENTS, phase=st.sampled_from(PHASES))
def test_nearly_valid_payloads_in_process(
    proj: dict[str, Any], data: st.DataObject, event: str, phase: str
) -> None:
    raw = _encode(data.draw(nearly_valid(proj["root"])))
    rc, out, err = run_in_process(raw, _env(proj, phase, False), event)
    check_answer(rc, out, err, understood=_understood(raw), phase=phase)


@FUZZ
@given(raw=JUNK, event=EVENTS, phase=st.sampled_from(PHASES))
def test_junk_bytes_in_process(proj: dict[str, Any], raw: bytes, event: str, phase: str) -> None:
    rc, out, err = run_in_process(raw, _env(proj, phase, False), event)
    check_answer(rc, out, err, understood=_understood(raw), phase=phase)


def test_oversized_payload_is_refused_deliberately(proj: dict[str, Any]) -> None:
    raw = b'{"hook_event_name": "PreToolUse", "x": "' + b"a" * MAX_PAYLOAD_BYTES + b'"}'
    for phase in PHASES:
        rc, out, err = run_in_process(raw, _env(proj, phase, False), "PreToolUse")
        check_answer(rc, out, err, understood=False, phase=phase)
        assert "too large" in err


def test_broken_environment_is_a_deliberate_answer(proj: dict[str, Any]) -> None:
    """No usable root, an invalid phase: still a deliberate answer, and fail-closed."""
    raw = _encode(
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "cwd": "",
            "tool_input": {"file_path": "/x"},
        }
    )
    rc, out, err = run_in_process(
        raw, {"HOME": proj["home"], "ORCHESTRATOR_BOUNDARY_PHASE": "enforce"}, "PreToolUse"
    )
    check_answer(rc, out, err, understood=None, phase="enforce")
    assert rc == 2 and "no usable project root" in err
    env = {**_env(proj, "enforce", False), "ORCHESTRATOR_BOUNDARY_PHASE": "loose"}
    rc, out, err = run_in_process(
        _encode({**json.loads(raw), "cwd": proj["root"]}), env, "PreToolUse"
    )
    check_answer(rc, out, err, understood=True, phase="enforce")
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"


# --- real subprocesses --------------------------------------------------------------------


def run_subprocess(raw: bytes, env: dict[str, str], event: str) -> tuple[int, str, str]:
    full_env = {"PATH": os.environ.get("PATH", ""), **env}
    done = subprocess.run(
        [sys.executable, str(HOOK), event],
        input=raw,
        capture_output=True,
        env=full_env,
        timeout=10,
        check=False,
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


SUBPROCESS = settings(
    max_examples=6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


@SUBPROCESS
@given(
    data=st.data(),
    event=EVENTS,
    phase=st.sampled_from(["warn", "enforce"]),
    kind=st.sampled_from(["valid", "nearly", "junk"]),
)
def test_entry_points_as_real_processes(
    proj: dict[str, Any], data: st.DataObject, event: str, phase: str, kind: str
) -> None:
    if kind == "junk":
        raw = data.draw(JUNK.filter(lambda b: len(b) < 5000))
    else:
        strategy = valid_payloads(proj["root"]) if kind == "valid" else nearly_valid(proj["root"])
        raw = _encode(data.draw(strategy))
    rc, out, err = run_subprocess(raw, _env(proj, phase, False), event)
    check_answer(rc, out, err, understood=_understood(raw), phase=phase)
    assert "Traceback" not in err


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse"])
def test_entry_points_fixed_cases(proj: dict[str, Any], event: str) -> None:
    root = proj["root"]
    cases = [
        (b"", False),
        (b"not json at all", False),
        (
            _encode(
                {
                    "hook_event_name": event,
                    "tool_name": "Write",
                    "cwd": root,
                    "tool_input": {"file_path": f"{root}/.claude/settings.json", "content": ""},
                }
            ),
            True,
        ),
    ]
    for raw, understood in cases:
        rc, out, err = run_subprocess(raw, _env(proj, "enforce", False), event)
        check_answer(rc, out, err, understood=understood, phase="enforce")
        if understood:
            obj = json.loads(out)
            assert (
                (obj.get("decision") == "block")
                if event == "PostToolUse"
                else (obj["hookSpecificOutput"]["permissionDecision"] == "deny")
            )
