"""Ids a provider or a foreign runtime makes up, renamed call_1, call_2… and run_1, run_2… in order of first appearance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from executor.models.messages import Message, render_messages

# A provider names each tool call anew on every run (`call_0_1`, `call_Xq3…`, `toolu_…`) and a LangChain
# run is a fresh UUID, so a snapshot storing them would change at every re-record although the run did
# not. In a snapshot they become names by order of first appearance; the trace keeps the real ones.
TOOL_CALL_NAME = "call_{}"
RUN_NAME = "run_{}"
_RUN_KEYS = ("run_id", "parent_run_id")  # in `origin`: where a LangChain callback's event came from


class _Names:
    """One id -> its stable name, handed out in the order ids are first seen."""

    def __init__(self, template: str) -> None:
        self.template = template
        self.names: dict[str, str] = {}

    def __call__(self, value: Any) -> Any:
        if not isinstance(value, str):  # None: an event outside any tool call
            return value
        return self.names.setdefault(value, self.template.format(len(self.names) + 1))


def with_stable_ids(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events (as dicts, e.g. normalise_event's) with every tool-call id and foreign run id renamed,
    the same id to the same name throughout; a prompt rendered from messages is rendered again from
    the renamed ones, so the id is not left in its text."""
    calls, runs = _Names(TOOL_CALL_NAME), _Names(RUN_NAME)
    return [_renamed(event, calls, runs) for event in events]


def _renamed(event: dict[str, Any], calls: _Names, runs: _Names) -> dict[str, Any]:
    out = dict(event)
    if "tool_call_id" in out:
        out["tool_call_id"] = calls(out["tool_call_id"])
    if isinstance(out.get("tool_calls"), list):  # llm_end: the calls the model asked for
        out["tool_calls"] = [_with_id(call, calls) for call in out["tool_calls"]]
    messages = out.get("messages")
    if isinstance(messages, list):
        renamed = [_message(message, calls) for message in messages]
        if out.get("prompt") == render_messages(messages):
            out["prompt"] = render_messages(renamed)
        out["messages"] = renamed
    origin = out.get("origin")
    if isinstance(origin, dict):
        out["origin"] = {key: runs(value) if key in _RUN_KEYS else value for key, value in origin.items()}
    return out


def _with_id(call: Any, calls: _Names) -> Any:
    return {**call, "id": calls(call.get("id"))} if isinstance(call, dict) and "id" in call else call


def _message(message: Message, calls: _Names) -> Message:
    if not isinstance(message, dict):
        return message
    out = dict(message)
    if "tool_call_id" in out:  # a tool's answer
        out["tool_call_id"] = calls(out["tool_call_id"])
    if isinstance(out.get("tool_calls"), list):  # the assistant's request
        out["tool_calls"] = [_with_id(call, calls) for call in out["tool_calls"]]
    return out
