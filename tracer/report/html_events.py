"""The HTML report's timeline: one line per event that opens into its detail (prompts, replies, tokens and cost)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson

from ..trace.redact import Redactor
from .cost import CallCost
from .html_page import esc

ENVELOPE = {"seq", "run_id", "t", "iteration", "kind"}
ERRORS = {"tool_error", "chain_error", "parse_error", "invalid_tool", "plan_error", "retry", "fallback", "refusal"}
SUMMARY_CHARS = 160


def _line(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


def _tail(text: Any) -> str:
    """The end of a prompt: what is new in it."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= SUMMARY_CHARS else "…" + flat[-(SUMMARY_CHARS - 1) :]


SUMMARIES: dict[str, Callable[[dict[str, Any]], str]] = {
    "chain_start": lambda e: _line(e.get("inputs", "")),
    "llm_start": lambda e: f"{e.get('model', '')} · {_tail(e.get('prompt_append') or e.get('prompt', ''))}",
    "llm_end": lambda e: _line(
        e.get("text") or ", ".join(str((c or {}).get("name", "")) for c in e.get("tool_calls") or []) or ""
    ),
    "agent_action": lambda e: _line(f"{e.get('tool', '')}({e.get('tool_input', '')})"),
    "agent_finish": lambda e: _line(e.get("return_values", "")),
    "tool_start": lambda e: _line(f"{e.get('tool', '')}({e.get('tool_input', '')})"),
    "tool_end": lambda e: _line(f"{e.get('tool', '')} → {e.get('observation', '')}"),
    "tool_error": lambda e: _line(f"{e.get('tool', '')}: {e.get('error_type', '')}: {e.get('message', '')}"),
    "retry": lambda e: _line(
        f"{e.get('target', '')} {e.get('name', '')} attempt {e.get('attempt', '')}, "
        f"waits {e.get('delay', '')} s: {e.get('error', '')}"
    ),
    "rate_limit_wait": lambda e: f"waited {e.get('waited', '')} s",
    "step": lambda e: _line(e.get("observation", "")),
    "finish_check": lambda e: f"isinstance(output, AgentFinish) → {e.get('is_finish', '')}",
    "fallback": lambda e: _line(f"{e.get('failed_model', '')} → {e.get('next_model', '')}: {e.get('error', '')}"),
    "chain_end": lambda e: _line(e.get("outputs", "")),
    "chain_error": lambda e: _line(f"{e.get('error_type', '')}: {e.get('message', '')}"),
    "parse_error": lambda e: _line(e.get("error", "")),
    "limit_reached": lambda e: _line(f"{e.get('reason', '')} after {e.get('iterations', '')} iterations"),
}


def summary(data: dict[str, Any]) -> str:
    describe = SUMMARIES.get(str(data.get("kind")))
    if describe is not None:
        try:
            return describe(data)
        except (AttributeError, TypeError):  # a hostile line's fields of the wrong shape: shown in the detail
            pass
    payload = {k: v for k, v in data.items() if k not in ENVELOPE | {"frames", "source", "stack", "origin"}}
    return _line(next(iter(payload.values()), "")) if payload else ""


class EventPages:
    """Renders events one by one, remembering what the previous model call sent, so that a call
    shows only the messages and tools that changed (a long run resends its whole history)."""

    def __init__(self, run: str, costs: dict[int, CallCost], redactor: Redactor) -> None:
        self.run, self.costs, self.redactor = run, costs, redactor
        self._messages: tuple[int, list[Any]] | None = None  # (event, messages) of the last llm_start
        self._tools: tuple[int, Any] | None = None

    def rows(self, raw_lines: Iterable[tuple[int, bytes]]) -> Iterator[str]:
        for position, raw in raw_lines:
            yield self.row(position, raw)

    def row(self, position: int, raw: bytes) -> str:
        anchor = f"{self.run}e{position}"
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            return _unreadable(anchor, position, str(error), raw)
        if not isinstance(data, dict):
            return _unreadable(anchor, position, "not a JSON object", raw)
        if self.redactor.might_contain_secret(raw.decode("utf-8", "replace")):
            data = self.redactor.redact(data)
        kind = str(data.get("kind", "?"))
        t = data.get("t")
        when = f"{t:.3f}s" if isinstance(t, (int, float)) and not isinstance(t, bool) else ""
        failed = " err" if kind in ERRORS else ""
        head = (
            f'<span class="it">{esc(data.get("iteration", ""))}</span><span class="t">{when}</span>'
            f'<span class="k">{esc(kind)}</span>{esc(summary(data))}'
        )
        return f'<details class="ev{failed}" id="{anchor}"><summary>{head}</summary>{self._detail(position, data)}</details>'

    def _detail(self, position: int, data: dict[str, Any]) -> str:
        parts = [f"<dt>event</dt><dd class=mono>{position} · seq {esc(data.get('seq', ''))}</dd>"]
        seq = data.get("seq")
        cost = self.costs.get(seq) if isinstance(seq, int) else None
        if cost is not None:
            parts.append(f'<dt>tokens and cost</dt><dd class="cost">{esc(cost.describe())}</dd>')
        for key, value in data.items():
            if key in ENVELOPE:
                continue
            parts.append(f"<dt>{esc(key)}</dt><dd>{self._value(position, data, key, value)}</dd>")
        return f"<dl>{''.join(parts)}</dl>"

    def _value(self, position: int, data: dict[str, Any], key: str, value: Any) -> str:
        if key == "frames" and isinstance(value, list):
            return f"<code>{esc(' › '.join(map(str, value)))}</code>"
        if key == "source" and isinstance(value, dict):
            return f"<code>{esc(value.get('file'))}:{esc(value.get('line'))} {esc(value.get('function'))}()</code>"
        if key == "prompt_base" and isinstance(value, int):
            return (
                f'the prompt of <a href="#{self.run}e{value}">event {value}</a>, '
                "then what prompt_append adds (the whole prompt is that one's plus this)"
            )
        if key == "messages" and isinstance(value, list) and data.get("kind") == "llm_start":
            return self._messages_value(position, value)
        if key == "tools" and data.get("kind") == "llm_start":
            same = self._tools is not None and self._tools[1] == value
            earlier = self._tools
            self._tools = (position, value)
            if same and earlier is not None:
                return f'the same as <a href="#{self.run}e{earlier[0]}">event {earlier[0]}</a>'
        if isinstance(value, str):
            return f"<pre>{esc(value)}</pre>"
        return f"<pre>{esc(json.dumps(value, ensure_ascii=False, indent=1))}</pre>"

    def _messages_value(self, position: int, messages: list[Any]) -> str:
        earlier = self._messages
        self._messages = (position, messages)
        if earlier is not None and 0 < len(earlier[1]) <= len(messages) and messages[: len(earlier[1])] == earlier[1]:
            kept, new = len(earlier[1]), messages[len(earlier[1]) :]
            note = f'the {kept} messages of <a href="#{self.run}e{earlier[0]}">event {earlier[0]}</a>, then:'
            return note + "".join(_message(m) for m in new)
        return "".join(_message(m) for m in messages)


def _unreadable(anchor: str, position: int, problem: str, raw: bytes) -> str:
    return (
        f'<details class="ev err" id="{anchor}"><summary><span class="k">unreadable</span>'
        f"line of event {position}: {esc(problem)}</summary><pre>{esc(raw[:2000].decode('utf-8', 'replace'))}"
        "</pre></details>"
    )


def _message(message: Any) -> str:
    if isinstance(message, dict) and isinstance(message.get("content"), str):
        rest = {k: v for k, v in message.items() if k not in ("role", "content")}
        extra = f" {json.dumps(rest, ensure_ascii=False)}" if rest else ""
        return f"<div class=mono>[{esc(message.get('role', ''))}]{esc(extra)}</div><pre>{esc(message['content'])}</pre>"
    return f"<pre>{esc(json.dumps(message, ensure_ascii=False))}</pre>"
