"""The lists OpenInference and OpenLLMetry flatten into `prefix.N.field` attribute keys, gathered back into items and messages."""

from __future__ import annotations

import re
from typing import Any

from .messages import Message

# The prefixes of those lists.
INDEXED = ("llm.input_messages", "llm.output_messages", "llm.tools", "gen_ai.prompt", "gen_ai.completion")
Indexed = dict[str, dict[int, dict[str, Any]]]  # prefix -> item number -> the item's fields, flat


_INDEXED_KEY = re.compile("(" + "|".join(re.escape(p) for p in INDEXED) + r")\.([0-9]{1,8})\.(.+)", re.DOTALL)


# The same keys come back in every span of a file (`llm.input_messages.3.message.content`): each is
# taken apart once (a regex, groups and int() a key, 45 keys a model call with its history).
# The files are untrusted: a file of ever new keys only empties the memo now and then.
_MAX_REMEMBERED = 4096
_INDEXED_PARTS: dict[str, tuple[str, int, str] | None] = {}


def _indexed_parts(key: str) -> tuple[str, int, str] | None:
    found = _INDEXED_KEY.match(key)
    if found is None:
        return None
    prefix, number, rest = found.groups()
    return prefix, int(number), rest


def indexed(attrs: dict[str, Any]) -> Indexed:
    """The span's flattened lists, gathered in one pass over its attributes."""
    groups: Indexed = {}
    remembered = _INDEXED_PARTS
    for key, value in attrs.items():
        parts = remembered.get(key)
        if parts is None:
            if key in remembered:  # seen: not a flattened list's
                continue
            parts = _remember(remembered, key, _indexed_parts(key))
            if parts is None:
                continue
        prefix, number, rest = parts
        groups.setdefault(prefix, {}).setdefault(number, {})[rest] = value
    return groups


def _remember(
    memo: dict[str, tuple[str, int, str] | None], key: str, parts: tuple[str, int, str] | None
) -> tuple[str, int, str] | None:
    if len(memo) >= _MAX_REMEMBERED:
        memo.clear()
    memo[key] = parts
    return parts


def unflattened(groups: Indexed, prefix: str) -> list[Any]:
    """A flattened list's items, in number order, each as nested objects (`message.role` -> {"message": {"role"}})."""
    items = groups.get(prefix)
    if not items:
        return []
    return [_nested(items[number]) for number in sorted(items)]


def _nested(flat: dict[str, Any]) -> Any:
    root: dict[str, Any] = {}
    for key, value in flat.items():
        holder, parts = root, key.split(".")
        for part in parts[:-1]:
            inner = holder.get(part)
            holder = holder.setdefault(part, {}) if not isinstance(inner, dict) else inner
        holder[parts[-1]] = value
    return _listed(root)


def _listed(value: Any) -> Any:
    """Objects whose keys are all digits become lists, in number order."""
    if not isinstance(value, dict):
        return value
    if value and all(key.isdigit() for key in value):
        return [_listed(value[key]) for key in sorted(value, key=int)]
    return {key: _listed(inner) for key, inner in value.items()}


_PLAIN_FIELDS = frozenset({"message.role", "message.content", "message.tool_call_id"})


_MESSAGE_ROUTES: dict[str, tuple[str, int, str] | None] = {}


def _message_route(key: str) -> tuple[str, int, str] | None:
    """Where a message's flat field goes: ("", 0, "role") for `message.role`, ("tool_calls", 0,
    "function.name") for `message.tool_calls.0.tool_call.function.name`; None for a field read nowhere."""
    field = key[len("message.") :] if key.startswith("message.") else key
    head, _, rest = field.partition(".")
    if not rest:
        return "", 0, field
    if head in ("contents", "tool_calls"):
        number, _, sub = rest.partition(".")
        if number.isdecimal():  # not isdigit(): int() refuses "²", which isdigit() takes
            return head, int(number), sub.partition(".")[2] or sub
    return None


def _openinference_message(flat: dict[str, Any]) -> Message:
    """One OpenInference message from its flat fields (`message.role`, `message.contents.0.message_content.text`,
    `message.tool_calls.0.tool_call.function.name` ...) as an OpenAI-shaped one, read field by field."""
    if flat.keys() <= _PLAIN_FIELDS:  # most are a role and a text: taken at once
        return {key[len("message.") :]: value for key, value in flat.items()}
    message: Message = {}
    contents: dict[int, dict[str, Any]] = {}
    calls: dict[int, dict[str, Any]] = {}
    remembered = _MESSAGE_ROUTES
    for key, value in flat.items():
        route = remembered.get(key)
        if route is None:
            if key in remembered:  # seen: a field read nowhere
                continue
            route = _remember(remembered, key, _message_route(key))
            if route is None:
                continue
        head, number, field = route
        if not head:
            message[field] = value
        else:
            (contents if head == "contents" else calls).setdefault(number, {})[field] = value
    if contents:
        message["content"] = [
            {"type": "text", "text": part["text"]} if "text" in part else part
            for part in (contents[n] for n in sorted(contents))
        ]
    if calls:
        message["tool_calls"] = [
            {
                "id": call.get("id"),
                "function": {"name": call.get("function.name"), "arguments": call.get("function.arguments")},
            }
            for call in (calls[n] for n in sorted(calls))
        ]
    return message


def flattened_messages(groups: Indexed, side: str) -> list[Any] | None:
    """The message list under OpenInference's or OpenLLMetry's flattened keys, if the span has one."""
    oi = groups.get("llm.input_messages" if side == "input" else "llm.output_messages")
    if oi:
        return [_openinference_message(oi[number]) for number in sorted(oi)]
    old = unflattened(groups, "gen_ai.prompt" if side == "input" else "gen_ai.completion")
    return old or None
