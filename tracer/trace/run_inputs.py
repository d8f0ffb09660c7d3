"""What a run was asked: the question in a chain_start's inputs, as an AgentExecutor or a LangGraph agent is given it."""

from __future__ import annotations

from typing import Any

USER_ROLES = frozenset({"user", "human"})


def question_of(inputs: dict[str, Any]) -> str:
    """`inputs["input"]` (an AgentExecutor's), else the last user message of `inputs["messages"]` (a
    LangGraph agent's state: {"role", "content"} dicts, or LangChain's ("user", text) pairs); "" if neither."""
    if "input" in inputs:
        return str(inputs["input"])
    messages = inputs.get("messages")
    for message in reversed(messages if isinstance(messages, list) else []):
        if isinstance(message, dict) and str(message.get("role", "")) in USER_ROLES:
            return _text(message.get("content"))
        if isinstance(message, (list, tuple)) and len(message) == 2 and str(message[0]) in USER_ROLES:
            return _text(message[1])
        if isinstance(message, str):  # a bare string is a human message to LangChain
            return message
    return ""


def _text(content: Any) -> str:
    """A message's content as text: a string, or the text parts of a list of content blocks."""
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) if isinstance(part, dict) else str(part) for part in content)
    return "" if content is None else str(content)


def answer_of(outputs: dict[str, Any]) -> Any:
    """What a run answered: `outputs["output"]` (an AgentExecutor's), else the content of the last
    message of `outputs["messages"]` (a LangGraph agent's final state), else the outputs as they are."""
    if "output" in outputs:
        return outputs["output"]
    messages = outputs.get("messages")
    if isinstance(messages, list) and messages and isinstance(messages[-1], dict) and "content" in messages[-1]:
        return _text(messages[-1]["content"])
    return outputs
