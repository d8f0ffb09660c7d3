"""What TraceWriter writes for each event: its JSON line, with the prompt as base + append, and secrets redacted."""

from __future__ import annotations

import functools
import json
import typing
from collections.abc import Callable
from typing import Any, Literal

from executor.agents.prompt import prompt_lineage
from executor.events import EventBase

from .line_encoder import encode_fields, encode_line, event_fields, line_function, pydantic_json
from .redact import Redactor

# Kinds that only rearrange text an earlier line already carried (the model's reply, a tool's
# result) or text of the program itself. While no screened line has looked like it holds a
# secret, these are written unscreened; once one has, every line is screened. Every other kind,
# including kinds this list does not know yet, is screened whole: that is where outside text enters.
DERIVED = frozenset({"agent_action", "agent_finish", "tool_start", "step", "finish_check", "rate_limit_wait"})
# The busiest kinds (llm_start, llm_end, tool_end) carry outside text in a few known fields, and
# only those are screened (LineMaker._llm_start and friends), not the whole JSON line. A secret
# found there taints the maker, and the whole line is redacted as any other.


@functools.cache  # an import makes a LineMaker per trace, 5,000 of them: the classes are looked at once
def _kind_of_class(cls: type[EventBase]) -> str | None:
    """The one kind every event of this class has; None when its kind field allows several (or none)."""
    kind_field = cls.model_fields.get("kind")
    if kind_field is None:
        return None
    kinds = typing.get_args(kind_field.annotation)
    return kinds[0] if len(kinds) == 1 and isinstance(kinds[0], str) else None


class LineMaker:
    """Turns events into trace lines: `make(event)` gives the bytes to write, newline included."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self.tainted = False  # has any screened text looked like it holds a secret?
        # frames -> the last llm_start from there: (seq, its prompt's number, length, the text when
        # it has no number). Numbered prompts are not held: see executor.prompt.prompt_lineage.
        self._last_prompt: dict[tuple[str, ...], tuple[int, int | None, int, str | None]] = {}
        self._special = {"llm_start": self._llm_start, "llm_end": self._llm_end, "tool_end": self._tool_end}
        # Event class -> how its line is made while no secret was seen; kept per class rather
        # than per kind, so a derived kind goes straight to its compiled line function.
        self._by_class: dict[type[EventBase], Callable[[EventBase], bytes]] = {}
        # Texts already screened and found clean (replies, observations, messages): a chat call's
        # history repeats them, and screening each again made a long run's screening quadratic.
        self._clean_texts: set[str] = set()

    def make(self, event: EventBase) -> bytes:
        """The event's line, redacted when what it was screened by looks like it holds a secret."""
        if self.tainted:  # from now on every line is screened whole
            line = self._prompt_line(event)[0] if event.kind == "llm_start" else encode_line(event)
            return self._screened(line, True)
        make = self._by_class.get(type(event))
        if make is None:
            make = self._by_class[type(event)] = self._maker_for(event)
        return make(event)

    def _maker_for(self, event: EventBase) -> Callable[[EventBase], bytes]:
        kind = _kind_of_class(type(event))
        if kind is None:  # not one kind per class
            return self._maker_by_kind
        if kind in self._special:
            return self._special[kind]
        if kind in DERIVED:
            return line_function(type(event))
        return lambda event: self._screened(encode_line(event), True)

    def _maker_by_kind(self, event: EventBase) -> bytes:
        kind = event.kind
        if kind in self._special:
            return self._special[kind](event)
        return encode_line(event) if kind in DERIVED else self._screened(encode_line(event), True)

    def _screened(self, line: bytes, screen: Literal[True] | str) -> bytes:
        """The line, redacted if needed; `screen` is the text that can hold a secret, or True for the whole line."""
        if screen is not True and not self.tainted:
            if not self.redactor.might_contain_secret(screen):
                return line
            text = line.decode("utf-8", "replace")  # the values said so: the encoded line may hide it escaped
        else:
            text = line.decode("utf-8", "replace")
            if not self.redactor.might_contain_secret(text):
                return line
        self.tainted = True
        # Redact the decoded values, not the encoded line: a secret holding '"' or '\\' is written escaped
        # there, and a value replaced there could break the line's JSON.
        return (
            json.dumps(self.redactor.redact(json.loads(text)), ensure_ascii=False, separators=(",", ":")).encode(
                "utf-8", "replace"
            )
            + b"\n"
        )

    # -- the busiest kinds: screen the fields outside text arrives in ---------------------------
    def _llm_end(self, event: EventBase) -> bytes:
        values = event.__dict__
        if values["tool_calls"] is not None:
            line = self._screened(encode_line(event), True)
        else:
            extra = [value for value in (values["answered_by"], values["finish_reason"], values["refusal"]) if value]
            if values["usage"]:
                extra.extend(values["usage"])  # its keys came from the model's client too
            screen = "\n".join([values["text"], *extra]) if extra else values["text"]
            line = self._screened(encode_line(event), screen)
        if not self.tainted:
            self._clean_texts.add(values["text"])
        return line

    def _tool_end(self, event: EventBase) -> bytes:
        values = event.__dict__
        line = self._screened(encode_line(event), f"{values['tool']}\n{values['observation']}")
        if not self.tainted:
            self._clean_texts.add(values["observation"])
        return line

    def _llm_start(self, event: EventBase) -> bytes:
        values = event.__dict__
        line, new_text = self._prompt_line(event)
        if values["messages"] is not None or values["tools"] is not None:
            line = self._screened(line, self._chat_screen(event, new_text))
            if not self.tainted and values["messages"]:
                self._clean_texts.update(
                    message["content"] for message in values["messages"] if type(message.get("content")) is str
                )
            return line
        if new_text is values["prompt"]:
            return self._screened(line, f"{values['model']}\n{new_text}")
        # What a prompt adds to the previous one is the reply and the observation that were
        # screened in their own lines (plus the template's glue): the key that made the run is
        # still looked for in it, the shapes of other secrets already were.
        return self._screened(line, True if self.redactor.holds_known_secret(new_text) else values["model"])

    def _chat_screen(self, event: EventBase, new_text: str) -> Literal[True] | str:
        """What a chat call's line is screened by: the line itself, less the message contents screened
        clean before (each message's other fields, the tools and a first prompt are all screened).
        A prompt that appends to the previous one renders these same messages, as _llm_start says."""
        values = event.__dict__
        fields = event_fields(event)
        if fields is None:
            return True
        clean = self._clean_texts
        if values["messages"] is not None:
            fields["messages"] = [
                {**message, "content": ""}
                if type(message.get("content")) is str and message["content"] in clean
                else message
                for message in values["messages"]
            ]
        if new_text is not values["prompt"]:
            if self.redactor.holds_known_secret(new_text):
                return True
            fields["prompt"] = ""
        encoded = encode_fields(fields)
        return True if encoded is None else encoded.decode("utf-8", "replace")

    def _prompt_line(self, event: EventBase) -> tuple[bytes, str]:
        """The llm_start line, and the prompt text it is the first line to carry.

        A plan prompt is the previous one plus a step, so only the new text is written:
        "prompt_base" names the earlier llm_start from the same caller, "prompt_append"
        what follows it. Without this a long run's trace grows with the square of its length.
        """
        values = event.__dict__
        frames, prompt = values["frames"], values["prompt"]
        lineage = prompt_lineage(prompt)
        previous = self._last_prompt.get(frames)
        self._last_prompt[frames] = (
            (values["seq"], lineage[0], len(prompt), None)
            if lineage is not None
            else (values["seq"], None, len(prompt), prompt)
        )
        if previous is None:
            return encode_line(event), prompt
        base_seq, base_number, base_length, base_text = previous
        # The scratchpad says when it made this prompt by appending to that one; otherwise the
        # two are compared, a pass over the whole earlier prompt.
        if not (lineage is not None and base_number is not None and lineage[1] == base_number) and (
            base_text is None or len(prompt) <= base_length or not prompt.startswith(base_text)
        ):
            return encode_line(event), prompt
        added = prompt[base_length:]
        fields: dict[str, Any] | None = event_fields(event)
        line = None
        if fields is not None:
            del fields["prompt"]
            fields["prompt_base"], fields["prompt_append"] = base_seq, added
            line = encode_fields(fields)
        if line is None:  # pydantic writes what orjson cannot, the same way
            head = pydantic_json(event, exclude={"prompt"})[:-1]
            try:
                appended = json.dumps(added, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: escaped, as pydantic_json does
                appended = json.dumps(added).encode("ascii")
            line = b'%s,"prompt_base":%d,"prompt_append":%s}' % (head, base_seq, appended)
        return line + b"\n", added
