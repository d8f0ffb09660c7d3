"""A small OpenAI-compatible HTTP server for tests: scripted chat and Responses API replies and injectable faults."""

from __future__ import annotations

import json
import threading
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Status:
    """Answer with an HTTP error status (and, for 429/503, an optional Retry-After header)."""

    code: int
    message: str = "injected fault"
    retry_after: str | None = None


@dataclass(frozen=True)
class Slow:
    """Reply correctly, but only after `seconds` (longer than the client's timeout)."""

    seconds: float
    text: str = "too late"


@dataclass(frozen=True)
class Drop:
    """Close the connection without sending a response."""


@dataclass(frozen=True)
class Malformed:
    """Answer 200 with a body that is not JSON."""

    body: bytes = b'{"id": "chatcmpl-broken", "choices": [ {"message": '


@dataclass(frozen=True)
class Refused:
    """Answer 200 with a structured refusal: message.refusal set, content null (as OpenAI does)."""

    text: str = "I'm sorry, but I can't help with that."


@dataclass(frozen=True)
class Filtered:
    """Answer 200 with finish_reason "content_filter" (the reply was stopped by a content filter)."""

    text: str = ""


@dataclass(frozen=True)
class ToolCalls:
    """Reply with tool calls: each (id, tool name, arguments JSON text), in order, plus optional text."""

    calls: tuple[tuple[str, str, str], ...]
    text: str = ""


@dataclass(frozen=True)
class Huge:
    """Answer 200 with `size` bytes of spaces, then a completion saying `text` (spaces before JSON are
    valid JSON, so a client that reads it all gets a reply). Sent in chunked transfer without a length,
    or with a Content-Length (`declared`), or gzip-compressed (a few KB on the wire)."""

    size: int
    text: str = "a reply at the end of a huge body"
    declared: bool = False
    gzip: bool = False


Step = str | Status | Slow | Drop | Malformed | Refused | Filtered | ToolCalls | Huge


@dataclass
class ReceivedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def prompt(self) -> str:
        if "messages" not in self.body:  # a Responses API request: its text is in `input` (a string or items)
            return json.dumps(self.body.get("input", ""), ensure_ascii=False)
        return self.body["messages"][-1].get("content") or ""

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body.get("messages", [])


def cut_at_stop(text: str, stop: Sequence[str] | None) -> str:
    # What a real endpoint does with `stop`: the reply ends before the first stop sequence.
    cut = len(text)
    for marker in stop or ():
        at = text.find(marker)
        if at != -1:
            cut = min(cut, at)
    return text[:cut]


def completion_body(
    model: str,
    text: str,
    prompt: str,
    n: int,
    finish_reason: str | None = None,
    refusal: str | None = None,
    tool_calls: Sequence[tuple[str, str, str]] = (),
) -> dict[str, Any]:
    prompt_tokens, completion_tokens = len(prompt) // 4 + 1, len(text) // 4 + 1
    message: dict[str, Any] = {
        "role": "assistant",
        "content": None if refusal is not None else (text or None),
        "refusal": refusal,
    }
    if tool_calls:
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
            for call_id, name, arguments in tool_calls
        ]
    finish_reason = finish_reason or ("tool_calls" if tool_calls else "stop")
    return {
        "id": f"chatcmpl-fake-{n}",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [{"index": 0, "finish_reason": finish_reason, "message": message}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def response_body(
    request: dict[str, Any], text: str, prompt: str, n: int, tool_calls: Sequence[tuple[str, str, str]] = ()
) -> dict[str, Any]:
    """A Responses API reply (POST /v1/responses, `openai.types.responses.Response`) to `request` (its
    JSON body): the text as one assistant `message` item of `output_text`, then one `function_call` item
    per call, in order. Like the real API it echoes the request's model, `instructions` and `tools`
    (instrumentations read the instructions and tools offered from the reply, not the request)."""
    input_tokens, output_tokens = len(prompt) // 4 + 1, len(text) // 4 + 1
    output: list[dict[str, Any]] = []
    if text:
        output.append(
            {
                "id": f"msg_fake_{n}",
                "type": "message",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        )
    output.extend(
        {
            "id": f"fc_fake_{n}_{k}",
            "type": "function_call",
            "call_id": call_id,
            "name": name,
            "arguments": arguments,
            "status": "completed",
        }
        for k, (call_id, name, arguments) in enumerate(tool_calls)
    )
    return {
        "id": f"resp_fake_{n}",
        "object": "response",
        "created_at": 1_700_000_000,
        "status": "completed",
        "model": request.get("model", "?"),
        "instructions": request.get("instructions"),
        "output": output,
        "parallel_tool_calls": request.get("parallel_tool_calls", True),
        "tool_choice": request.get("tool_choice", "auto"),
        "tools": request.get("tools", []),
        "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + output_tokens,
        },
    }


class _Handler(BaseHTTPRequestHandler):
    server: FakeOpenAIServer

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        return None

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            self._send_json(
                200,
                {
                    "object": "list",
                    "data": [
                        {"id": name, "object": "model", "created": 0, "owned_by": "fake"}
                        for name in self.server.model_names
                    ],
                },
            )
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        body = json.loads(raw or b"{}")
        request = ReceivedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        step = self.server.next_step(request)
        if self.path == "/v1/responses" and isinstance(step, str | ToolCalls):
            calls = step.calls if isinstance(step, ToolCalls) else ()
            text = step.text if isinstance(step, ToolCalls) else step
            self._send_json(200, response_body(request.body, text, request.prompt, len(self.server.received), calls))
        elif self.path == "/v1/responses" and not isinstance(step, Status | Drop | Malformed):
            # The chat-shaped steps (a slow, refused, filtered or huge reply) have no Responses form here.
            self._send_json(501, {"error": {"message": f"{type(step).__name__} is chat-only", "type": "fake"}})
        elif self.path not in ("/v1/chat/completions", "/v1/responses"):
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
        elif isinstance(step, str):
            self._reply(request, step)
        elif isinstance(step, ToolCalls):
            self._send_json(
                200,
                completion_body(
                    request.body.get("model", "?"),
                    step.text,
                    request.prompt,
                    len(self.server.received),
                    tool_calls=step.calls,
                ),
            )
        elif isinstance(step, Status):
            self._send_status(step, request)
        elif isinstance(step, Slow):
            if not self.server.stopping.wait(step.seconds):
                self._reply(request, step.text)
        elif isinstance(step, Drop):
            self.close_connection = True  # returning without a response closes the socket
        elif isinstance(step, Malformed):
            self._send_raw(200, step.body)
        elif isinstance(step, Refused):
            self._reply(request, "", refusal=step.text)
        elif isinstance(step, Filtered):
            self._reply(request, step.text, finish_reason="content_filter")
        elif isinstance(step, Huge):
            self._send_huge(step, request)

    def _reply(
        self, request: ReceivedRequest, text: str, finish_reason: str = "stop", refusal: str | None = None
    ) -> None:
        text = cut_at_stop(text, request.body.get("stop"))
        self._send_json(
            200,
            completion_body(
                request.body.get("model", "?"), text, request.prompt, len(self.server.received), finish_reason, refusal
            ),
        )

    def _send_status(self, step: Status, request: ReceivedRequest) -> None:
        message = step.message
        if step.code == 401:  # like real endpoints, echo the key that was refused (here: all of it)
            refused = request.headers.get("authorization", "").removeprefix("Bearer ")
            message = f"Incorrect API key provided: {refused}. Find your key in your account settings."
        headers = {"Retry-After": step.retry_after} if step.retry_after is not None else {}
        self._send_json(
            step.code, {"error": {"message": message, "type": "fake_fault", "code": str(step.code)}}, headers
        )

    def _send_huge(self, step: Huge, request: ReceivedRequest) -> None:
        tail = json.dumps(
            completion_body(request.body.get("model", "?"), step.text, request.prompt, len(self.server.received))
        ).encode()
        spaces = step.size - len(tail)
        self.protocol_version = "HTTP/1.1"  # chunked transfer needs it
        self.close_connection = True
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if step.gzip:  # compressed a piece at a time: the server never holds the whole body
                packer = zlib.compressobj(wbits=31)
                body = b"".join([*(packer.compress(piece) for piece in _pieces(spaces, tail)), packer.flush()])
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            if step.declared:
                self.send_header("Content-Length", str(step.size))
            else:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for chunk in _pieces(spaces, tail):
                if not step.declared:
                    self.wfile.write(b"%x\r\n" % len(chunk))
                self.wfile.write(chunk)
                if not step.declared:
                    self.wfile.write(b"\r\n")
            if not step.declared:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: what a capped client does

    def _send_json(self, code: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        try:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            # Text UTF-8 cannot hold (a lone surrogate such as "\ud800") goes as a \uXXXX escape,
            # which is how it reaches a client from a real server: valid JSON, invalid text.
            data = json.dumps(payload, ensure_ascii=True).encode("ascii")
        self._send_raw(code, data, headers)

    def _send_raw(self, code: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test); nothing left to tell it


_MEGABYTE_OF_SPACES = b" " * (1 << 20)


def _pieces(spaces: int, tail: bytes):
    """`spaces` spaces a megabyte at a time (the same bytes each time: the server holds no body), then `tail`."""
    while spaces > 0:
        piece = _MEGABYTE_OF_SPACES if spaces >= len(_MEGABYTE_OF_SPACES) else b" " * spaces
        yield piece
        spaces -= len(piece)
    yield tail


class FakeOpenAIServer(ThreadingHTTPServer):
    """Serves /v1/chat/completions and /v1/responses on 127.0.0.1, one scripted step per request, in order.

    A step is reply text (cut at the request's stop sequences, as a real API does) or a
    fault. When the script runs out the server answers 400, so a test that makes more calls
    than it scripted fails fast with a message saying so. With `always` (e.g. 429 then 500),
    the server is an endpoint that is down: it answers every request with the next of those
    steps, round and round, and the script is not used.
    """

    daemon_threads = True
    block_on_close = False

    def __init__(
        self, script: Sequence[Step] = (), model_names: Sequence[str] = ("fake-model",), always: Sequence[Step] = ()
    ) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script: list[Step] = list(script)
        self.always: list[Step] = list(always)
        self.model_names = list(model_names)
        self.received: list[ReceivedRequest] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/v1"

    def push(self, *steps: Step) -> None:
        with self._lock:
            self.script.extend(steps)

    def next_step(self, request: ReceivedRequest) -> Step:
        with self._lock:
            self.received.append(request)
            if self.always:
                return self.always[(len(self.received) - 1) % len(self.always)]
            if self.script:
                return self.script.pop(0)
        return Status(400, f"fake server script exhausted at request #{len(self.received)}")

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()
        self._thread.join(timeout=5)
