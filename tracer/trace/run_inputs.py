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
    """What a run answered: its text where the outputs hold one (`outputs["output"]`, an AgentExecutor's;
    the last message of `outputs["messages"]`, a LangGraph agent's final state; the shapes real exports
    record: a chat completion's choices, Gemini's candidates, GenAI parts), else the outputs as they are."""
    found = answer_text(outputs)
    if found is not None:
        return found
    return outputs.get("output", outputs)


def answer_text(value: Any, depth: int = 0) -> str | None:
    """The answer's text inside an output of any of those shapes; None when there is none to find."""
    if depth > 8:  # deep enough for every shape above; a hostile one stops here
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        # A list of messages: the last that says something (not a tool call's). A list of anything
        # else (an agent that answered with a list) is the answer as it is.
        for item in reversed(value):
            found = answer_text(item, depth + 1) if isinstance(item, dict) else None
            if found:
                return found
        return None
    if not isinstance(value, dict):
        return None
    for key in ("output", "messages"):
        if key in value:
            return answer_text(value[key], depth + 1)
    for key, inner in (("choices", "message"), ("candidates", "content")):
        options = value.get(key)
        if isinstance(options, list) and options and isinstance(options[0], dict):
            return answer_text(options[0].get(inner), depth + 1)
    content = value.get("content", value.get("parts", value.get("text")))
    if isinstance(content, list):
        text = " ".join(_part_text(part) for part in content).strip()
        return text or None
    return answer_text(content, depth + 1) if content is not None else None
