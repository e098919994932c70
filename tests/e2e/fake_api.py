"""A scripted stand-in for the Anthropic Messages API, for driving the real CLI offline.

Standard library only. It listens on 127.0.0.1 (an ephemeral port), in a daemon thread, and
plays *scripts*: a script is a list of steps, each step being one assistant turn, either a
tool call (``Call``), several tool calls in one turn (a list of ``Call``) or a final text
(``Text``).

Which script a request belongs to is read from the conversation: the first ``[[script:NAME]]``
marker found in the text of a user message selects script ``NAME``. The main prompt carries the
main script's marker; an ``Agent`` call's ``prompt`` carries the subagent's marker, since the
CLI starts the subagent's conversation with that prompt. Which step comes next is the number of
``tool_result`` blocks already in the conversation. Nothing is kept per connection, so parallel
and sequential requests are equally fine.

Any request that is not a scripted turn (title generation, quota probes, a follow-up turn after
the script is over, unknown paths) gets a short ``end_turn`` text, so the CLI never hangs on the
stand-in. Every request is recorded, with the tool calls answered to it, so tests can read what
the hooks made of each call (deny reasons, additional context) from the next request.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MARKER_RE = re.compile(r"\[\[script:([A-Za-z0-9_.-]+)\]\]")
FALLBACK_TEXT = "Done."
# A hard bound on scripted turns: past it every request gets the fallback text, so a CLI
# that keeps asking (a retry loop, a misread script) cannot spin forever.
MAX_REQUESTS = 400


@dataclass(frozen=True)
class Call:
    """One tool call the model makes."""

    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Text:
    """A final text answer: ends the (sub)agent's turn."""

    text: str = FALLBACK_TEXT


Step = Call | Text | Sequence[Call]


def marker(name: str) -> str:
    """The marker that, put in a prompt, selects script ``name``."""
    return f"[[script:{name}]]"


@dataclass
class Answered:
    """A tool call that the stand-in sent in answer to a request."""

    script: str
    step: int
    tool_use_id: str
    call: Call


@dataclass
class Recorded:
    """One request the CLI made, and what the stand-in did with it."""

    index: int
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    script: str | None = None
    step: int | None = None
    answered: list[Answered] = field(default_factory=list)

    @property
    def messages(self) -> list[dict[str, Any]]:
        if isinstance(self.body, dict) and isinstance(self.body.get("messages"), list):
            return self.body["messages"]
        return []


@dataclass(frozen=True)
class ToolResult:
    """A ``tool_result`` block as the CLI sent it back, content flattened to text."""

    tool_use_id: str
    text: str
    is_error: bool
    block: dict[str, Any]
    # Text the model got beside the results, up to its next turn: where the CLI puts extra
    # context (hook additionalContext, system reminders).
    siblings: tuple[str, ...] = ()


def _block_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for item in content:
            if isinstance(item, dict) and item.get("type") == "text":
                parts.append(str(item.get("text", "")))
            elif isinstance(item, str):
                parts.append(item)
        return "\n".join(parts)
    return ""


def user_texts(messages: Iterable[dict[str, Any]]) -> list[str]:
    """All text of user messages (not tool results), in order."""
    texts = []
    for message in messages:
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "text":
                    texts.append(str(block.get("text", "")))
    return texts


def find_script(messages: list[dict[str, Any]]) -> str | None:
    for text in user_texts(messages):
        found = MARKER_RE.search(text)
        if found:
            return found.group(1)
    return None


def count_tool_results(messages: list[dict[str, Any]]) -> int:
    count = 0
    for message in messages:
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            count += sum(
                1 for b in content if isinstance(b, dict) and b.get("type") == "tool_result"
            )
    return count


def _script_is_over(messages: list[dict[str, Any]]) -> bool:
    """True once the agent gave a turn without tool calls: later user turns (such as the
    notification that a background agent finished) do not restart the script."""
    turns = [m for m in messages if m.get("role") == "assistant"]
    if not turns:
        return False
    content = turns[-1].get("content")
    return not (
        isinstance(content, list)
        and any(isinstance(b, dict) and b.get("type") == "tool_use" for b in content)
    )


def _texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [
        str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text"
    ]


def tool_results_in(messages: list[dict[str, Any]]) -> list[ToolResult]:
    results = []
    for position, message in enumerate(messages):
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, list):
            continue
        # Text given to the model beside the results: text blocks of the same message and the
        # messages after it up to the next assistant turn. On 2.1.330 hook additionalContext
        # arrives as a following {"role": "system"} message ("PreToolUse:Write hook additional
        # context: ...").
        beside = _texts(message)
        for later in messages[position + 1 :]:
            if later.get("role") == "assistant":
                break
            beside += _texts(later)
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                results.append(
                    ToolResult(
                        tool_use_id=str(block.get("tool_use_id")),
                        text=_block_text(block.get("content")),
                        is_error=bool(block.get("is_error", False)),
                        block=block,
                        siblings=tuple(beside),
                    )
                )
    return results


def _steps_as_batches(script: Sequence[Step]) -> list[list[Call] | Text]:
    batches: list[list[Call] | Text] = []
    for step in script:
        if isinstance(step, Call):
            batches.append([step])
        elif isinstance(step, Text):
            batches.append(step)
        else:
            batch = list(step)
            if not batch or not all(isinstance(c, Call) for c in batch):
                raise ValueError(f"a step must be a Call, a Text or a list of Calls: {step!r}")
            batches.append(batch)
    return batches


class FakeAPI:
    """The stand-in server. Use as a context manager; ``url`` is its base URL."""

    def __init__(self, scripts: dict[str, Sequence[Step]] | None = None) -> None:
        self._scripts = {name: _steps_as_batches(s) for name, s in (scripts or {}).items()}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.requests: list[Recorded] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripts -------------------------------------------------------------------------
    def add_script(self, name: str, steps: Sequence[Step]) -> str:
        """Add (or replace) a script; returns its marker for use in a prompt."""
        with self._lock:
            self._scripts[name] = _steps_as_batches(steps)
        return marker(name)

    # -- lifecycle -----------------------------------------------------------------------
    def start(self) -> FakeAPI:
        api = self

        class Handler(_Handler):
            fake = api

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="fake-messages-api", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeAPI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._server is not None, "FakeAPI not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # -- what tests read -----------------------------------------------------------------
    def answered(self, script: str | None = None) -> list[Answered]:
        """Tool calls the stand-in made, in order (optionally only those of one script)."""
        with self._lock:
            out = [a for r in self.requests for a in r.answered]
        return [a for a in out if script is None or a.script == script]

    def tool_results(self) -> dict[str, ToolResult]:
        """Every tool_result the CLI sent back, by tool_use_id (latest copy wins)."""
        with self._lock:
            requests = list(self.requests)
        results: dict[str, ToolResult] = {}
        for request in requests:
            for result in tool_results_in(request.messages):
                results[result.tool_use_id] = result
        return results

    def result_for(self, script: str, step: int, position: int = 0) -> ToolResult | None:
        """The tool_result of the call made at ``step`` of ``script`` (None if never sent).

        ``position`` counts the calls of that step that got a result: the calls of one
        parallel turn, or the same step played by several subagents of one script. A turn the
        CLI asked for twice (a retry) leaves an unanswered copy, which is passed over."""
        results = self.tool_results()
        answered = [
            results[a.tool_use_id]
            for a in self.answered(script)
            if a.step == step and a.tool_use_id in results
        ]
        return answered[position] if position < len(answered) else None

    def scripted_requests(self, script: str | None = None) -> list[Recorded]:
        with self._lock:
            return [
                r
                for r in self.requests
                if r.script is not None and (script is None or r.script == script)
            ]

    # -- answering -----------------------------------------------------------------------
    def _record(self, method: str, path: str, headers: dict[str, str], body: Any) -> Recorded:
        with self._lock:
            recorded = Recorded(len(self.requests), method, path, headers, body)
            self.requests.append(recorded)
            return recorded

    def _plan(self, recorded: Recorded) -> tuple[list[Call] | Text, list[str]]:
        """Decide the assistant turn for a /v1/messages request; returns (turn, tool ids)."""
        body = recorded.body if isinstance(recorded.body, dict) else {}
        messages = recorded.messages
        script_name = find_script(messages)
        with self._lock:
            script = self._scripts.get(script_name) if script_name else None
            too_many = len(self.requests) > MAX_REQUESTS
        # Only real agent turns play scripts: they offer tools. Side requests (titles, topic
        # detection, summaries) quote the prompt too, but come without tools.
        if script is None or not body.get("tools") or too_many:
            return Text(), []
        done = count_tool_results(messages)
        if _script_is_over(messages):
            recorded.script = script_name
            return Text(), []
        seen = 0
        for index, batch in enumerate(script):
            if seen == done:
                recorded.script, recorded.step = script_name, index
                if isinstance(batch, Text):
                    return batch, []
                ids = []
                for call in batch:
                    tool_use_id = f"toolu_fake{next(self._ids):04d}_{script_name}_{index}"
                    ids.append(tool_use_id)
                    recorded.answered.append(Answered(script_name, index, tool_use_id, call))
                return batch, ids
            seen += 1 if isinstance(batch, Text) else len(batch)
            if seen > done:
                break
        recorded.script = script_name
        return Text(), []


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _message_id() -> str:
    return f"msg_fake{threading.get_ident():x}{next(_MSG_IDS):06d}"


_MSG_IDS = itertools.count(1)


class _Handler(BaseHTTPRequestHandler):
    fake: FakeAPI
    protocol_version = "HTTP/1.1"
    timeout = 60

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def _read_body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_fake")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self.fake._record("GET", self.path, dict(self.headers), None)
        self._send_json(
            404, {"type": "error", "error": {"type": "not_found_error", "message": "not here"}}
        )

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        body = self._read_body()
        recorded = self.fake._record("POST", self.path, dict(self.headers), body)
        path = self.path.split("?", 1)[0]
        if path.endswith("/count_tokens"):
            self._send_json(200, {"input_tokens": 42})
            return
        if not path.endswith("/v1/messages"):
            self._send_json(
                404, {"type": "error", "error": {"type": "not_found_error", "message": "not here"}}
            )
            return
        turn, ids = self.fake._plan(recorded)
        model = body.get("model", "claude-fake") if isinstance(body, dict) else "claude-fake"
        stream = isinstance(body, dict) and bool(body.get("stream"))
        if stream:
            self._stream(model, turn, ids)
        else:
            self._send_json(200, self._message(model, turn, ids))

    @staticmethod
    def _message(model: str, turn: list[Call] | Text, ids: list[str]) -> dict[str, Any]:
        if isinstance(turn, Text):
            content: list[dict[str, Any]] = [{"type": "text", "text": turn.text}]
            stop = "end_turn"
        else:
            content = [
                {"type": "tool_use", "id": i, "name": c.name, "input": c.input}
                for c, i in zip(turn, ids, strict=True)
            ]
            stop = "tool_use"
        return {
            "id": _message_id(),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }

    def _stream(self, model: str, turn: list[Call] | Text, ids: list[str]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("request-id", "req_fake")
        self.end_headers()
        self.close_connection = True
        out = [
            _sse(
                "message_start",
                {
                    "type": "message_start",
                    "message": {
                        "id": _message_id(),
                        "type": "message",
                        "role": "assistant",
                        "model": model,
                        "content": [],
                        "stop_reason": None,
                        "stop_sequence": None,
                        "usage": {"input_tokens": 10, "output_tokens": 1},
                    },
                },
            )
        ]
        if isinstance(turn, Text):
            out += [
                _sse(
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {"type": "text", "text": ""},
                    },
                ),
                _sse(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "text_delta", "text": turn.text},
                    },
                ),
                _sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ]
            stop = "end_turn"
        else:
            for index, (call, tool_use_id) in enumerate(zip(turn, ids, strict=True)):
                out += [
                    _sse(
                        "content_block_start",
                        {
                            "type": "content_block_start",
                            "index": index,
                            "content_block": {
                                "type": "tool_use",
                                "id": tool_use_id,
                                "name": call.name,
                                "input": {},
                            },
                        },
                    ),
                    _sse(
                        "content_block_delta",
                        {
                            "type": "content_block_delta",
                            "index": index,
                            "delta": {
                                "type": "input_json_delta",
                                "partial_json": json.dumps(call.input),
                            },
                        },
                    ),
                    _sse("content_block_stop", {"type": "content_block_stop", "index": index}),
                ]
            stop = "tool_use"
        out += [
            _sse(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 5},
                },
            ),
            _sse("message_stop", {"type": "message_stop"}),
        ]
        try:
            self.wfile.write(b"".join(out))
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
