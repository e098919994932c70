"""``doctor``'s probe: run one of our hook entries as Claude Code would, in a temporary project,
in process (no evaluator is left behind), and say whether it answers as our hook must."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping
from typing import Any

from orchestrator_boundary import registration, wire
from orchestrator_boundary.doctor_context import GUARDED
from orchestrator_boundary.phase import PHASE_ENV


def _payload(root: str, event: str, tool: str, tool_input: dict[str, Any]) -> bytes:
    data: dict[str, Any] = {
        "session_id": "doctor",
        "transcript_path": "",
        "cwd": root,
        "hook_event_name": event,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_doctor",
    }
    if event == "PostToolUse":
        data["tool_response"] = {}
    return json.dumps(data).encode()


def argv_of(hook: Mapping[str, Any]) -> list[str]:
    """How Claude Code starts a hook entry on POSIX: exec form (``args``) directly, else the
    command through ``sh -c``."""
    args = hook.get("args")
    if isinstance(args, list):
        return [str(hook.get("command")), *map(str, args)]
    return ["sh", "-c", str(hook.get("command"))]


def _run_hook(
    argv: list[str], stdin: bytes, env: dict[str, str], timeout: float, cwd: str
) -> tuple[int | None, str, str]:
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
    except OSError as exc:
        return None, "", str(exc)
    try:
        out_b, err_b = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the whole group: no orphan keeps the pipes
        proc.communicate()
        return None, "", f"no answer within {timeout:g}s"
    return proc.returncode, out_b.decode(errors="replace"), err_b.decode(errors="replace")


def probe_command(
    event: str,
    command: str | Mapping[str, Any],
    timeout: float,
    environ: Mapping[str, str],
    project: str | None = None,
    extra_env: Mapping[str, str] | None = None,
) -> str:
    """'' when the hook entry (or a plain ``command``) behaves like our hook in a temporary
    project; else what went wrong. A project launcher (ADR 0023) is copied from ``project``
    into the temporary one, so it runs as it would here."""
    hook = {"command": command} if isinstance(command, str) else command
    argv = argv_of(hook)
    with tempfile.TemporaryDirectory(prefix="ob-doctor-") as tmp:
        root = os.path.realpath(tmp)
        os.makedirs(os.path.join(root, ".claude"))
        shim = os.path.join(project or "", *registration.SHIM_RELPATH.split("/"))
        if project and registration.SHIM_RELPATH in " ".join(argv) and os.path.isfile(shim):
            copy = os.path.join(root, *registration.SHIM_RELPATH.split("/"))
            os.makedirs(os.path.dirname(copy))
            shutil.copyfile(shim, copy)
        env = {k: v for k, v in environ.items() if not k.startswith(GUARDED)}
        env.update(CLAUDE_PROJECT_DIR=root, CLAUDECODE="1", **(extra_env or {}))
        # judged in the probe's own process: a probe must leave no evaluator behind
        env["ORCHESTRATOR_BOUNDARY_NO_DAEMON"] = "1"
        # a user-scope entry would keep a trail per project under the user's Claude folder,
        # one more throwaway folder there per probe: the probe's trail stays in its project
        env[wire.AUDIT_ENV] = os.path.join(root, ".claude", "boundary", "audit.jsonl")
        target = os.path.join(root, "src", "doctor.py")
        code, out, err = _run_hook(
            argv, _payload(root, event, "Read", {"file_path": target}), env, timeout, root
        )
        if code != 0 or out.strip():
            return (
                f"main agent Read: exit {code}, stdout {out.strip()[:80]!r}, "
                f"stderr {err.strip()[:160]!r} (expected exit 0 and no output)"
            )
        if event != "PreToolUse":
            return ""
        env[PHASE_ENV] = "enforce"
        code, out, err = _run_hook(
            argv,
            _payload(root, event, "Write", {"file_path": target, "content": "x\n"}),
            env,
            timeout,
            root,
        )
        try:
            decision = json.loads(out)["hookSpecificOutput"]["permissionDecision"]
        except (ValueError, KeyError, TypeError):
            decision = None
        if code != 0 or decision != "deny":
            return (
                f"main agent Write in enforce: exit {code}, stdout {out.strip()[:80]!r}, "
                f"stderr {err.strip()[:160]!r} (expected a deny)"
            )
    return ""
