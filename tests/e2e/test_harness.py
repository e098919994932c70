"""Proves the harness itself, with small test-local hooks (not the product)."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text, marker
from harness import Agent, Harness, Hooks, python_command

pytestmark = pytest.mark.e2e

DENY_WRITE = textwrap.dedent(
    """\
    import json, sys
    payload = json.load(sys.stdin)
    if payload.get("tool_name") == "Write":
        print(json.dumps({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "nope"}}))
    """
)

RECORD = textwrap.dedent(
    """\
    import sys
    with open(sys.argv[1], "a", encoding="utf-8") as out:
        out.write(sys.stdin.read().replace("\\n", " ").strip() + "\\n")
    """
)


def _script(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return path


def test_deny_reason_reaches_the_model_and_the_file_is_not_written(
    harness: Harness, tmp_path: Path
) -> None:
    hook = python_command(_script(tmp_path, "deny_write.py", DENY_WRITE))
    project = harness.project(Hooks.commands(pre=[hook]))
    target = project.path("denied.txt")
    run = harness.run(
        project, {"main": [Call("Write", {"file_path": str(target), "content": "x\n"}), Text()]}
    )
    result = run.result_for("main", 0)
    # Not verbatim as the notes had it: 2.1.330 prefixes the reason.
    assert result.text == "PreToolUse:Write hook error: nope", run.explain("deny reason")
    assert result.is_error
    assert not target.exists()
    # The CLI reports the hook's denial like its own.
    assert [d["tool_name"] for d in run.permission_denials] == ["Write"]


def test_without_hooks_the_write_happens(harness: Harness) -> None:
    project = harness.project()
    target = project.path("written.txt")
    run = harness.run(
        project, {"main": [Call("Write", {"file_path": str(target), "content": "x\n"}), Text()]}
    )
    assert not run.result_for("main", 0).is_error
    assert target.read_text(encoding="utf-8") == "x\n"
    assert run.permission_denials == []


def test_subagent_calls_carry_agent_id(harness: Harness, tmp_path: Path) -> None:
    log = tmp_path / "payloads.jsonl"
    hook = python_command(_script(tmp_path, "record.py", RECORD), str(log))
    project = harness.project(
        Hooks.commands(pre=[hook]),
        agents=[Agent("scribe", tools=["Write", "Read"])],
    )
    main_file, sub_file, custom_file = (
        project.path(n) for n in ("main.txt", "sub.txt", "custom.txt")
    )
    run = harness.run(
        project,
        {
            "main": [
                Call("Write", {"file_path": str(main_file), "content": "m\n"}),
                Call(
                    "Agent",
                    {
                        "description": "write a file",
                        "subagent_type": "general-purpose",
                        "prompt": f"Write the file. {marker('sub')}",
                    },
                ),
                Call(
                    "Agent",
                    {
                        "description": "write another",
                        "subagent_type": "scribe",
                        "prompt": f"Write it. {marker('custom')}",
                    },
                ),
                Text(),
            ],
            "sub": [Call("Write", {"file_path": str(sub_file), "content": "s\n"}), Text()],
            "custom": [Call("Write", {"file_path": str(custom_file), "content": "c\n"}), Text()],
        },
    )
    payloads = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    writes = {p["tool_input"]["file_path"]: p for p in payloads if p["tool_name"] == "Write"}
    assert set(writes) == {str(main_file), str(sub_file), str(custom_file)}, run.explain("")
    assert "agent_id" not in writes[str(main_file)]
    assert "agent_type" not in writes[str(main_file)]
    assert writes[str(sub_file)]["agent_id"]
    assert writes[str(sub_file)]["agent_type"] == "general-purpose"
    assert writes[str(custom_file)]["agent_type"] == "scribe"
    assert writes[str(custom_file)]["agent_id"] != writes[str(sub_file)]["agent_id"]
    assert sub_file.exists() and custom_file.exists() and main_file.exists()


CONTEXT = textwrap.dedent(
    """\
    import json, sys
    payload = json.load(sys.stdin)
    event = payload["hook_event_name"]
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": event,
        "additionalContext": "ctx-" + event + "-" + payload["tool_name"]}}))
    """
)


def test_additional_context_reaches_the_model_and_the_call_runs(
    harness: Harness, tmp_path: Path
) -> None:
    hook = python_command(_script(tmp_path, "context.py", CONTEXT))
    project = harness.project(Hooks.commands(pre=[hook], post=[hook]))
    target = project.path("warned.txt")
    run = harness.run(
        project, {"main": [Call("Write", {"file_path": str(target), "content": "x\n"}), Text()]}
    )
    told = run.context_after("main", 0)
    assert "ctx-PreToolUse-Write" in told, run.explain("no pre context")
    assert "ctx-PostToolUse-Write" in told
    assert not run.result_for("main", 0).is_error
    assert target.exists()


def test_plugin_dir_route_registers_the_plugin_hooks(harness: Harness, tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / "hooks").mkdir()
    (plugin / ".claude-plugin" / "plugin.json").write_text(
        json.dumps({"name": "e2e-deny", "version": "0.0.1", "description": "test plugin"}),
        encoding="utf-8",
    )
    _script(plugin / "hooks", "deny_write.py", DENY_WRITE)
    # The plugin names its own files through ${CLAUDE_PLUGIN_ROOT}, expanded by the CLI.
    command = f'{shlex.quote(sys.executable)} "${{CLAUDE_PLUGIN_ROOT}}/hooks/deny_write.py"'
    (plugin / "hooks" / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "*", "hooks": [{"type": "command", "command": command}]}
                    ]
                }
            }
        ),
        encoding="utf-8",
    )
    project = harness.project(Hooks.plugin(plugin))
    assert not project.path(".claude/settings.json").exists()
    target = project.path("denied.txt")
    run = harness.run(
        project, {"main": [Call("Write", {"file_path": str(target), "content": "x\n"}), Text()]}
    )
    assert "nope" in run.result_for("main", 0).text, run.explain("plugin hook did not deny")
    assert not target.exists()
