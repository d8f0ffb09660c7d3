"""The HTML report's timeline: one line per event that opens into its detail (prompts, replies, tokens and cost)."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

import orjson

from ...i18n import say
from ...trace.event_time import time_problem
from ...trace.literal_text import scrub
from ...trace.redact import Redactor
from ...trace.run_inputs import answer_of, question_of
from ..cost.prices import CallCost
from ..graph_edge import edge_target

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


def _asked(inputs: Any) -> Any:
    """The question (an AgentExecutor's input, a LangGraph agent's last user message), else the inputs."""
    return (question_of(inputs) or inputs) if isinstance(inputs, dict) else inputs


def _answered(outputs: Any) -> Any:
    return (answer_of(outputs) or outputs) if isinstance(outputs, dict) else outputs


def _seconds(value: Any) -> str:
    """A wait as a person reads it (0.18 s, not 0.17951401900000974 s); anything else as it was written."""
    return f"{value:.3f}".rstrip("0").rstrip(".") if isinstance(value, (int, float)) else str(value or "")


def _finish_check(event: dict[str, Any]) -> str:
    if event.get("decided_by") == "graph_edge":  # a LangGraph agent: the edge after its model node decided
        went_to = event.get("went_to")
        target = edge_target(went_to if isinstance(went_to, str) else None, bool(event.get("is_finish")))
        return f"→ {target} (the reply has no tool calls)" if event.get("is_finish") else "→ model (the tools ran)"
    return f"isinstance(output, AgentFinish) → {event.get('is_finish', '')}"


SUMMARIES: dict[str, Callable[[dict[str, Any]], str]] = {
    "chain_start": lambda e: _line(_asked(e.get("inputs", ""))),
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
        f"waits {_seconds(e.get('delay'))} s: {e.get('error', '')}"
    ),
    "rate_limit_wait": lambda e: f"waited {_seconds(e.get('waited'))} s",
    "step": lambda e: _line(e.get("observation", "")),
    "finish_check": lambda e: _finish_check(e),
    "fallback": lambda e: _line(f"{e.get('failed_model', '')} → {e.get('next_model', '')}: {e.get('error', '')}"),
    "chain_end": lambda e: _line(_answered(e.get("outputs", ""))),
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


# Where an event's detail points at another event: (that event, the words before the link).
Link = tuple[int, str]


class EventPages:
    """Renders events one by one: a summary line each (HTML) and its detail as data the page's
    script draws when the line is opened (as text, never as markup). Every text of the details is
    kept once in a table (a run repeats its stacks, tool lists and prompts), and a message history
    that only grew shows the new messages after a link to the call that sent the rest."""

    def __init__(self, run: str, costs: dict[int, CallCost], redactor: Redactor, lang: str = "en") -> None:
        self.run, self.costs, self.redactor, self.lang = run, costs, redactor, lang
        self.details: dict[str, list[list[int]]] = {}  # anchor -> [label, text(, event, words)] as table indexes
        self.strings: list[str] = []
        self._string_ids: dict[str, int] = {}
        self._messages: tuple[int, list[Any]] | None = None  # (event, messages) of the last llm_start

    def _id(self, value: str) -> int:
        found = self._string_ids.get(value)
        if found is None:
            found = self._string_ids[value] = len(self.strings)
            self.strings.append(scrub(value))
        return found

    def _add(self, anchor: str, label: str, shown: str, link: Link | None = None) -> None:
        entry = [self._id(label), self._id(shown)]
        if link is not None:
            entry += [link[0], self._id(link[1])]
        self.details.setdefault(anchor, []).append(entry)

    def row(self, position: int, raw: bytes) -> str:
        anchor = f"{self.run}e{position}"
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            try:  # valid JSON that orjson refuses: a lone surrogate written as a \\u escape
                data = json.loads(raw)
            except ValueError:
                return self._unreadable(anchor, position, str(error), raw)
        if not isinstance(data, dict):
            return self._unreadable(anchor, position, say("html.unreadable.not_object", self.lang), raw)
        if self.redactor.might_contain_secret(raw.decode("utf-8", "replace")):
            data = self.redactor.redact(data)
        kind = str(data.get("kind", "?"))
        t = data.get("t")
        problem = time_problem(t)
        if problem:  # NaN, Infinity, 1e308: shown as what it is, not as a 300-digit time
            return self._unreadable(anchor, position, problem, raw)
        when = f"{t:.3f}s" if isinstance(t, (int, float)) and not isinstance(t, bool) else ""
        self._detail(anchor, position, data)
        return (
            f'<details id="{anchor}"{" class=err" if kind in ERRORS else ""}><summary><i>{text(data.get("iteration", ""))}'
            f"</i><b>{when}</b><u>{text(kind)}</u>{text(summary(data))}</summary></details>"
        )

    def _unreadable(self, anchor: str, position: int, problem: str, raw: bytes) -> str:
        self._add(anchor, "line", raw[:2000].decode("utf-8", "replace"))
        unreadable = text(say("html.unreadable", self.lang))
        said = text(say("html.unreadable.line", self.lang, seq=position, problem=problem))
        return f"<details id={anchor} class=err><summary><u>{unreadable}</u>{said}</summary></details>"

    def _detail(self, anchor: str, position: int, data: dict[str, Any]) -> None:
        seq = data.get("seq")
        if seq != position:
            self._add(anchor, "seq", str(seq))
        cost = self.costs.get(seq) if isinstance(seq, int) and data.get("kind") == "llm_end" else None
        if cost is not None:
            self._add(anchor, say("html.detail.cost", self.lang), cost.describe(self.lang))
        source = data.get("source")
        if isinstance(source, dict):
            where = f"{source.get('file')}:{source.get('line')} {source.get('function')}()"
            self._add(anchor, "source", where + " · " + " › ".join(map(str, data.get("frames") or [])))
        for key, value in data.items():
            if key in ENVELOPE or key in ("source", "frames") or value is None:
                continue
            if key == "prompt_base" and isinstance(value, int):
                self._add(anchor, "prompt", "", (value, say("html.detail.same_prompt", self.lang)))
            elif key == "messages" and isinstance(value, list) and data.get("kind") == "llm_start":
                self._messages_entry(anchor, position, value)
            else:
                self._add(anchor, key, _shown(value))

    def _messages_entry(self, anchor: str, position: int, messages: list[Any]) -> None:
        earlier = self._messages
        self._messages = (position, messages)
        if earlier is not None and 0 < len(earlier[1]) <= len(messages) and messages[: len(earlier[1])] == earlier[1]:
            new = "\n\n".join(map(_message, messages[len(earlier[1]) :]))
            words = say("html.detail.earlier_messages", self.lang, count=len(earlier[1]))
            self._add(anchor, "messages", new, (earlier[0], words))
        else:
            self._add(anchor, "messages", "\n\n".join(map(_message, messages)))

    def data_block(self) -> str:
        """The details, as JSON inside a data block the browser never runs: every <, > and & is a
        \\u escape, so no text from the trace can end the block or open a tag."""
        raw = json.dumps({"s": self.strings, "e": self.details}, ensure_ascii=False, separators=(",", ":"))
        safe = raw.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        return f'<script type="application/json" class="ev-data">{safe}</script>'


def text(value: object) -> str:
    """Trace text as HTML text (quotes need no escape outside attributes, and a page is full of them)."""
    return html.escape(scrub(value), quote=False)


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=1)


def _message(message: Any) -> str:
    if isinstance(message, dict) and isinstance(message.get("content"), str):
        rest = {k: v for k, v in message.items() if k not in ("role", "content")}
        extra = f" {json.dumps(rest, ensure_ascii=False)}" if rest else ""
        return f"[{message.get('role', '')}]{extra}\n{message['content']}"
    return json.dumps(message, ensure_ascii=False)
