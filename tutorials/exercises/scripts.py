"""What answers each exercise's agent offline: the scripted model replies, and the model's own limits."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from executor import ContextBudget, ModelReply, ScriptedModel
from executor.models.messages import Message, ToolCall

QUESTION = {
    "stop-sequence": "What do red roses cost wholesale today?",
    "parse-error": "What do red roses cost wholesale today?",
    "max-iterations": "What should we charge for a bunch of red roses?",
    "flaky-tool": "What does our supplier charge for red roses today?",
    "parallel-ids": "Do we have roses, and what does one cost?",
    "context-budget": "Which of the three tea houses should I visit?",
}
WINDOW = 400  # context-budget: the tokens the scripted model accepts in one request, as a provider's limit


def _search(query: str) -> str:
    return f" I need today's wholesale price.\nAction: search\nAction Input: {query}"


FINAL_PRICE = " I now know the final answer.\nFinal Answer: Red roses cost 25 yuan for a bunch of 20 today."

REACT_REPLIES: dict[str, tuple[str, ...]] = {
    # Without a stop sequence the model keeps writing: an observation of its own, then an answer from it.
    "stop-sequence": (
        _search("red roses") + "\nObservation: Red roses cost 5 yuan a bunch.\nThought: I now know the final answer."
        "\nFinal Answer: Red roses cost 5 yuan a bunch.",
        FINAL_PRICE,
    ),
    "parse-error": (
        " To price the roses I first need today's wholesale price, so I will look it up.",
        " I forgot the format.\nAction: search\nAction Input: red roses",
        FINAL_PRICE,
    ),
    "max-iterations": (
        _search("red roses"),
        " One market is not enough; I will check another source.\nAction: search\nAction Input: red roses Kunming",
        " Both say 25 yuan. Now our margin.\nAction: add_margin\nAction Input: 25",
        " I now know the final answer.\nFinal Answer: Charge 26.25 yuan for a bunch of 20 red roses.",
    ),
    "flaky-tool": (
        " Our supplier knows best.\nAction: supplier_quote\nAction Input: red roses",
        " I now know the final answer.\nFinal Answer: Our supplier charges 25 yuan for a bunch of 20 red roses.",
    ),
}
EXPECTED = {  # what the right final answer says
    "stop-sequence": "25 yuan",
    "parse-error": "25 yuan",
    "max-iterations": "26.25",
    "flaky-tool": "25 yuan",
    "parallel-ids": "2.50 yuan",
    "context-budget": "Taotaoju",
}


def _calls(*calls: tuple[str, str, dict[str, Any]]) -> ModelReply:
    return ModelReply("", tool_calls=tuple(ToolCall(i, name, json.dumps(args)) for i, name, args in calls))


TOOL_CALLING_REPLIES: dict[str, tuple[str | ModelReply, ...]] = {
    "parallel-ids": (
        _calls(("call_stock", "stock", {"item": "rose"}), ("call_price", "price", {"item": "rose"})),
        "Yes: 40 roses in stock, at 2.50 yuan each.",
    ),
    "context-budget": (
        _calls(("call_1", "read_reviews", {"place": "Lao She"})),
        _calls(("call_2", "read_reviews", {"place": "Huxinting"})),
        _calls(("call_3", "read_reviews", {"place": "Taotaoju"})),
        "Go to Taotaoju: the best food and value of the three.",
    ),
}


class ContextWindowExceeded(Exception):
    """What a provider answers to a request longer than its model's window (HTTP 400)."""


class WindowedModel(ScriptedModel):
    """A scripted chat model that, like a real one, refuses a request longer than its context window."""

    def __init__(self, replies: Sequence[str | ModelReply | Exception], window: int) -> None:
        super().__init__(replies)
        self.window = window

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        sent = request_tokens(messages)
        if sent > self.window:
            raise ContextWindowExceeded(f"this model's context window is {self.window} tokens; the request has {sent}")
        return super().generate_messages(messages, tools, tool_choice, parallel_tool_calls)


def request_tokens(messages: Sequence[Message]) -> int:
    """A request's size as the executor's own ContextBudget counts it."""
    return ContextBudget(max_tokens=1).count_tokens(messages)


def model_for(name: str) -> ScriptedModel:
    """A fresh model for one check of exercise `name`."""
    if name in REACT_REPLIES:
        return ScriptedModel(REACT_REPLIES[name])
    if name == "context-budget":
        return WindowedModel(TOOL_CALLING_REPLIES[name], WINDOW)
    return ScriptedModel(TOOL_CALLING_REPLIES[name])
