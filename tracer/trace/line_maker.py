"""What TraceWriter writes for each event: its JSON line, with the prompt as base + append, and secrets redacted."""

from __future__ import annotations

import json
from typing import Any, Callable

from executor.events import EventBase

from .line_encoder import encode_event, encode_fields, event_fields
from .redact import Redactor

# Kinds that only rearrange text an earlier line already carried (the model's reply, a tool's
# result) or text of the program itself. While no screened line has looked like it holds a
# secret, these are written unscreened; once one has, every line is screened. Every other kind,
# including kinds this list does not know yet, is screened whole: that is where outside text enters.
DERIVED = frozenset({"agent_action", "agent_finish", "tool_start", "step", "finish_check",
                     "rate_limit_wait"})
# The busiest kinds (llm_start, llm_end, tool_end) carry outside text in a few known fields, and
# only those are screened (LineMaker._llm_start and friends), not the whole JSON line. A secret
# found there taints the maker, and the whole line is redacted as any other.


class LineMaker:
    """Turns events into trace lines: `make(event)` gives the bytes to write (no newline)."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self.tainted = False  # has any screened text looked like it holds a secret?
        self._last_prompt: dict[tuple[str, ...], tuple[int, str]] = {}
        self._by_kind: dict[str, Callable[[EventBase], tuple[bytes, bool | str]]] = {
            "llm_start": self._llm_start, "llm_end": self._llm_end, "tool_end": self._tool_end}

    def make(self, event: EventBase) -> bytes:
        """The event's line, redacted when what it was screened by looks like it holds a secret."""
        line, screen = self.encode(event)
        if screen is False and not self.tainted:
            return line
        return self._screened(line, screen)

    def encode(self, event: EventBase) -> tuple[bytes, bool | str]:
        """The line, and what of it to screen: True (all of it), False (nothing), or the outside text."""
        kind = event.kind
        special = self._by_kind.get(kind)
        if special is not None:
            return special(event)
        return encode_event(event), kind not in DERIVED

    def _screened(self, line: bytes, screen: bool | str) -> bytes:
        if screen is not True and not self.tainted:
            if not self.redactor.might_contain_secret(screen):
                return line
            self.tainted = True
        text = line.decode("utf-8", "replace")
        if not self.redactor.might_contain_secret(text):
            return line
        self.tainted = True
        # Redact the decoded value, not the text, so the line stays valid JSON.
        return json.dumps(self.redactor.redact(json.loads(text)), ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8", "replace")

    # -- the busiest kinds: screen the fields outside text arrives in ---------------------------
    def _llm_end(self, event: EventBase) -> tuple[bytes, bool | str]:
        values = event.__dict__
        if values["tool_calls"] is not None:
            return encode_event(event), True
        extra = [value for value in (values["answered_by"], values["finish_reason"], values["refusal"]) if value]
        if values["usage"]:
            extra.extend(values["usage"])  # its keys came from the model's client too
        return encode_event(event), "\n".join([values["text"], *extra]) if extra else values["text"]

    def _tool_end(self, event: EventBase) -> tuple[bytes, bool | str]:
        values = event.__dict__
        return encode_event(event), f"{values['tool']}\n{values['observation']}"

    def _llm_start(self, event: EventBase) -> tuple[bytes, bool | str]:
        values = event.__dict__
        line, new_text = self._prompt_line(event)
        if values["messages"] is not None or values["tools"] is not None:
            return line, True
        if new_text is values["prompt"]:
            return line, f"{values['model']}\n{new_text}"
        # What a prompt adds to the previous one is the reply and the observation that were
        # screened in their own lines (plus the template's glue): the key that made the run is
        # still looked for in it, the shapes of other secrets already were.
        return line, True if self.redactor.holds_known_secret(new_text) else values["model"]

    def _prompt_line(self, event: EventBase) -> tuple[bytes, str]:
        """The llm_start line, and the prompt text it is the first line to carry.

        A plan prompt is the previous one plus a step, so only the new text is written:
        "prompt_base" names the earlier llm_start from the same caller, "prompt_append"
        what follows it. Without this a long run's trace grows with the square of its length.
        """
        frames, prompt = event.frames, event.prompt
        previous = self._last_prompt.get(frames)
        self._last_prompt[frames] = (event.seq, prompt)
        if previous is None or len(prompt) <= len(previous[1]) or not prompt.startswith(previous[1]):
            return encode_event(event), prompt
        base_seq, base = previous
        added = prompt[len(base):]
        fields: dict[str, Any] | None = event_fields(event)
        line = None
        if fields is not None:
            del fields["prompt"]
            fields["prompt_base"], fields["prompt_append"] = base_seq, added
            line = encode_fields(fields)
        if line is None:  # pydantic writes what orjson cannot, the same way
            head = event.__pydantic_serializer__.to_json(event, exclude={"prompt"}, fallback=repr)[:-1]
            appended = json.dumps(added, ensure_ascii=False).encode("utf-8", "replace")
            line = b"%s,\"prompt_base\":%d,\"prompt_append\":%s}" % (head, base_seq, appended)
        return line, added
