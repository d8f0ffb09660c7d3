"""What a run was asked: the question in a chain_start's inputs, as an AgentExecutor or a LangGraph agent is given it."""

from __future__ import annotations

from typing import Any

USER_ROLES = frozenset({"user", "human"})


def question_of(inputs: dict[str, Any]) -> str:
    """What the run was asked, as each framework records it; "" when its inputs hold no question.

    `inputs["input"]` as text (an AgentExecutor's), else the last user message of a list of messages:
    `inputs["messages"]` (a LangGraph agent's state: {"role", "content"} dicts, LangChain's serialised
    {"type": "human"} messages or ("user", text) pairs), `inputs["input"]` (Microsoft Agent Framework's
    {"role", "parts"}) or `inputs["new_message"]` (Google ADK); else `inputs["contents"]` as text (the
    Gemini SDK's), or the one text argument of a traced function (Langfuse's {"args": [text]})."""
    asked = inputs.get("input")
    if isinstance(asked, str):
        return asked
    for messages in (inputs.get("messages"), asked, inputs.get("new_message")):
        question = last_user_message(
            messages if isinstance(messages, list) else [messages] if isinstance(messages, dict) else []
        )
        if question:
            return question
    if isinstance(inputs.get("contents"), str):
        return inputs["contents"]
    args = inputs.get("args")
    if isinstance(args, list) and len(args) == 1 and isinstance(args[0], str) and not inputs.get("kwargs"):
        return args[0]
    if asked is not None and not isinstance(asked, (list, dict)):
        return str(asked)
    return ""


def last_user_message(messages: list[Any]) -> str:
    """The text of the last user message in `messages` (dicts, pairs or bare strings); "" if none."""
    for message in reversed(messages):
        if isinstance(message, dict) and str(message.get("role", message.get("type", ""))) in USER_ROLES:
            return _text(message.get("content", message.get("parts")))
        if isinstance(message, (list, tuple)) and len(message) == 2 and str(message[0]) in USER_ROLES:
            return _text(message[1])
        if isinstance(message, str):  # a bare string is a human message to LangChain
            return message
    return ""


def _text(content: Any) -> str:
    """A message's content as text: a string, or the text parts of a list of content blocks ("text" in
    OpenAI's and Gemini's, "content" in the GenAI conventions' parts)."""
    if isinstance(content, list):
        return " ".join(_part_text(part) for part in content)
    return "" if content is None else str(content)


def _part_text(part: Any) -> str:
    if not isinstance(part, dict):
        return str(part)
    text = part.get("text", part.get("content", ""))
    return text if isinstance(text, str) else ""


def answer_of(outputs: dict[str, Any]) -> Any:
    """What a run answered: `outputs["output"]` (an AgentExecutor's), else the content of the last
    message of `outputs["messages"]` (a LangGraph agent's final state), else the outputs as they are."""
    if "output" in outputs:
        return outputs["output"]
    messages = outputs.get("messages")
    if isinstance(messages, list) and messages and isinstance(messages[-1], dict) and "content" in messages[-1]:
        return _text(messages[-1]["content"])
    return outputs
