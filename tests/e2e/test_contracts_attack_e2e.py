"""ADR 0059 on the real CLI: where an MCP server reads a relative path argument. The contract
rules place it in the hook payload's ``cwd``; this shows Claude Code 2.1.330 starts a stdio
server in that folder, so the file the server writes is the one the rules judged."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from e2e_fixtures import claude_bin_fixture, harness_fixture  # noqa: F401 - fixtures
from fake_api import Call, Text
from harness import Harness, Hooks, python_command

pytestmark = pytest.mark.e2e

# A minimal stdio MCP server: one tool, write_file(path, content), written as given.
SERVER = textwrap.dedent(
    """\
    import json, os, sys
    log = sys.argv[1]
    def send(obj):
        sys.stdout.write(json.dumps(obj) + "\\n")
        sys.stdout.flush()
    with open(log, "a") as f:
        f.write(json.dumps({"cwd": os.getcwd()}) + "\\n")
    schema = {"type": "object", "properties": {"path": {"type": "string"},
              "content": {"type": "string"}}, "required": ["path", "content"]}
    for line in sys.stdin:
        msg = json.loads(line)
        mid, method = msg.get("id"), msg.get("method")
        if method == "initialize":
            version = msg["params"].get("protocolVersion", "2024-11-05")
            send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": version,
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "fs", "version": "1"}}})
        elif method == "tools/list":
            tool = {"name": "write_file", "description": "write", "inputSchema": schema}
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [tool]}})
        elif method == "tools/call":
            args = msg["params"]["arguments"]
            with open(args["path"], "w") as f:
                f.write(args["content"])
            text = {"type": "text", "text": "ok"}
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [text]}})
        elif mid is not None:
            send({"jsonrpc": "2.0", "id": mid, "result": {}})
    """
)

RECORD = textwrap.dedent(
    """\
    import sys
    with open(sys.argv[1], "a", encoding="utf-8") as out:
        out.write(sys.stdin.read().replace("\\n", " ").strip() + "\\n")
    """
)


def test_a_stdio_mcp_server_reads_relative_paths_in_the_payloads_cwd(
    harness: Harness, tmp_path: Path
) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    (tmp_path / "record.py").write_text(RECORD, encoding="utf-8")
    payloads, log = tmp_path / "payloads.jsonl", tmp_path / "server.log"
    hook = python_command(tmp_path / "record.py", str(payloads))
    project = harness.project(Hooks.commands(pre=[hook]))
    config = tmp_path / "mcp.json"
    server = {"command": sys.executable, "args": [str(tmp_path / "server.py"), str(log)]}
    config.write_text(json.dumps({"mcpServers": {"fs": server}}), encoding="utf-8")
    tool = "mcp__fs__write_file"
    run = harness.run(
        project,
        {"main": [Call(tool, {"path": "placed.txt", "content": "x"}), Text()]},
        extra_args=["--mcp-config", str(config), "--strict-mcp-config", "--allowedTools", tool],
    )
    assert run.result_for("main", 0).text == "ok", run.explain("the MCP call")
    seen = [json.loads(line) for line in payloads.read_text().splitlines()]
    cwd = next(p["cwd"] for p in seen if p.get("tool_name") == tool)
    assert json.loads(log.read_text().splitlines()[0])["cwd"] == cwd
    assert (Path(cwd) / "placed.txt").read_text() == "x"
