"""Re-run one recorded model call, its prompt (or message list) perhaps edited, without re-running the loop around it."""

from __future__ import annotations

import difflib
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from executor import ChatModel
from executor.events import Event
from executor.models.config import ModelConfigError
from executor.models.messages import Message, render_messages
from executor.models.providers.errors import ProviderError

from .live_model import build_live_model

REPLAYED = "the recording (replayed)"
_JSON_LIST = re.compile(r"\s*\[\s*[{\]]")


class PlaygroundError(ValueError):
    """A call that cannot be re-run as asked; the message is one line saying what to do."""


@dataclass(frozen=True)
class RecordedCall:
    """One model call as the trace has it: the llm_start (a chat call's messages and tools too) and what its
    llm_end says: the reply (a chat reply's tool calls as `-> name(arguments)` lines) and the usage reported."""

    at: int
    caller: str
    model: str
    prompt: str
    stop: tuple[str, ...]
    reply: str
    messages: list[Message] | None = None
    tools: list[dict[str, Any]] | None = None
    usage: dict[str, int] | None = None

    @property
    def request_text(self) -> str:
        """What `loopscope prompt` writes and `call --prompt-file` reads back: the exact prompt, or a chat
        call's messages as a JSON list (the same value: json.loads gives the messages that were sent)."""
        if self.messages is None:
            return self.prompt
        return json.dumps(self.messages, ensure_ascii=False, indent=2) + "\n"


@dataclass(frozen=True)
class CallRerun:
    """What asking again gave: who answered, the reply, and how it differs from the recorded one."""

    call: RecordedCall
    prompt: str
    reply: str
    answered_by: str
    usage: dict[str, int] | None = None
    seconds: float = 0.0
    prompt_changed: bool = False  # the prompt (or the message list) sent differs from the recorded one

    @property
    def replayed(self) -> bool:
        return self.answered_by == REPLAYED

    def reply_diff(self) -> list[str]:
        """The recorded reply against the new one, line by line (empty when they are equal)."""
        return list(
            difflib.unified_diff(
                self.call.reply.splitlines(), self.reply.splitlines(), "recorded reply", "new reply", lineterm="", n=2
            )
        )


class _Named(Protocol):
    name: str
    arguments: str


def reply_text(text: str, tool_calls: Sequence[_Named] | None) -> str:
    """A reply as one text: its words, then each tool call it asks for. The call ids are left out: a
    provider makes up new ones every time, so they would differ in every comparison."""
    calls = [f"-> {call.name}({call.arguments})" for call in tool_calls or ()]
    return "\n".join(([text] if text else []) + calls)


def recorded_call(events: Sequence[Event], at: int) -> RecordedCall:
    """The model call whose llm_start (or llm_end) is event `at`."""
    if not 0 <= at < len(events) or events[at].kind not in ("llm_start", "llm_end"):
        what = f"event {at} is {events[at].kind}" if 0 <= at < len(events) else f"there is no event {at}"
        starts = [e.seq for e in events if e.kind == "llm_start"]
        raise PlaygroundError(f"{what}; pick a model call's llm_start (events {', '.join(map(str, starts[:12]))})")
    start, first = at, events[at]
    while first.kind != "llm_start":
        start -= 1
        first = events[start]
    end = next((e for e in events[start + 1 :] if e.kind in ("llm_end", "llm_start")), None)
    answered = end if end is not None and end.kind == "llm_end" else None
    reply = reply_text(answered.text, answered.tool_calls) if answered else ""
    caller = first.frames[-2] if len(first.frames) > 1 else first.frames[-1] if first.frames else "?"
    return RecordedCall(
        start,
        caller,
        first.model,
        first.prompt,
        tuple(first.stop),
        reply,
        first.messages,
        first.tools,
        answered.usage if answered else None,
    )


def configured_model(spec: str | None, base_url: str | None = None) -> tuple[str, ChatModel]:
    """(PROVIDER:NAME, model) named by `spec`, else by LOOPSCOPE_MODEL / .env; PlaygroundError if none."""
    try:
        live = build_live_model(spec, base_url, max_retries=0)
    except (ModelConfigError, ValueError) as error:
        raise PlaygroundError(f"a changed prompt needs a model to answer it: {error}") from None
    return live.spec, live.model


@dataclass(frozen=True)
class Request:
    """What to send: the prompt text, or a chat call's messages (with `prompt` their rendering)."""

    prompt: str
    messages: list[Message] | None
    changed: bool


def read_request(call: RecordedCall, text: str | None) -> Request:
    """The request `text` stands for: None, the recorded one; a chat call's messages as a JSON list (what
    `loopscope prompt` writes); else a prompt text. The one newline an editor ends a file with is not
    taken as an edit of a prompt that has none."""
    if text is None or text == call.prompt:
        return Request(call.prompt, call.messages, False)
    if call.messages is not None and _JSON_LIST.match(text):  # not a rendering, which opens with "[system]"
        messages = _messages(text)
        return Request(render_messages(messages), messages, messages != call.messages)
    if text.endswith("\n") and not call.prompt.endswith("\n"):
        text = text[:-1]
    return Request(text, None, text != call.prompt)


def _messages(text: str) -> list[Message]:
    try:
        value = json.loads(text)
    except ValueError as error:
        raise PlaygroundError(f"the message list is not valid JSON ({error})") from None
    if not (isinstance(value, list) and all(isinstance(m, dict) and isinstance(m.get("role"), str) for m in value)):
        raise PlaygroundError('a message list is a JSON list of objects with a "role", as `loopscope prompt` writes')
    return value


def rerun_call(call: RecordedCall, prompt: str | None = None, model: tuple[str, ChatModel] | None = None) -> CallRerun:
    """Ask again. The same request and no model: the recorded reply and usage, replayed (no model is called).
    Otherwise `model` answers (the caller picks it: --model, or the configured live model); a chat call's
    messages go to its generate_messages with the recorded tools."""
    request = read_request(call, prompt)
    if model is None:
        if request.changed:
            raise PlaygroundError(
                "the prompt changed, so the recording cannot answer it: pass --model "
                "PROVIDER:NAME or configure LOOPSCOPE_MODEL"
            )
        return CallRerun(call, request.prompt, call.reply, REPLAYED, call.usage)
    spec, chat_model = model
    started = time.perf_counter()
    try:
        if request.messages is not None:
            generate_messages = getattr(chat_model, "generate_messages", None)
            if generate_messages is None:
                raise PlaygroundError(f"{spec} takes a prompt, not a message list: pick a chat model for this call")
            reply = generate_messages(request.messages, call.tools or [])
        else:
            reply = chat_model.generate(request.prompt, list(call.stop))
    except ProviderError as error:
        raise PlaygroundError(f"{spec} did not answer: {error}") from None
    text = reply_text(reply.text, reply.tool_calls)
    return CallRerun(call, request.prompt, text, spec, reply.usage, time.perf_counter() - started, request.changed)
