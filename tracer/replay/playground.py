"""Re-run one recorded model call, its prompt perhaps edited, without re-running the loop around it."""

from __future__ import annotations

import difflib
import time
from collections.abc import Sequence
from dataclasses import dataclass

from executor import ChatModel
from executor.events import Event
from executor.models.config import ModelConfigError
from executor.models.providers.errors import ProviderError

from .live_model import build_live_model

REPLAYED = "the recording (replayed)"


class PlaygroundError(ValueError):
    """A call that cannot be re-run as asked; the message is one line saying what to do."""


@dataclass(frozen=True)
class RecordedCall:
    """One model call as the trace has it: the llm_start and the reply its llm_end carries."""

    at: int
    caller: str
    model: str
    prompt: str
    stop: tuple[str, ...]
    reply: str


@dataclass(frozen=True)
class CallRerun:
    """What asking again gave: who answered, the reply, and how it differs from the recorded one."""

    call: RecordedCall
    prompt: str
    reply: str
    answered_by: str
    usage: dict[str, int] | None = None
    seconds: float = 0.0

    @property
    def replayed(self) -> bool:
        return self.answered_by == REPLAYED

    @property
    def prompt_changed(self) -> bool:
        return self.prompt != self.call.prompt

    def reply_diff(self) -> list[str]:
        """The recorded reply against the new one, line by line (empty when they are equal)."""
        return list(
            difflib.unified_diff(
                self.call.reply.splitlines(), self.reply.splitlines(), "recorded reply", "new reply", lineterm="", n=2
            )
        )


def recorded_call(events: Sequence[Event], at: int) -> RecordedCall:
    """The model call whose llm_start (or llm_end) is event `at`."""
    if not 0 <= at < len(events) or events[at].kind not in ("llm_start", "llm_end"):
        what = f"event {at} is {events[at].kind}" if 0 <= at < len(events) else f"there is no event {at}"
        starts = [e.seq for e in events if e.kind == "llm_start"]
        raise PlaygroundError(f"{what}; pick a model call's llm_start (events {', '.join(map(str, starts[:12]))})")
    start, first = at, events[at]
    while first.kind != "llm_start":
        start -= 1
        first = events[start]
    end = next((e for e in events[start + 1 :] if e.kind in ("llm_end", "llm_start")), None)
    reply = end.text if end is not None and end.kind == "llm_end" else ""
    caller = first.frames[-2] if len(first.frames) > 1 else first.frames[-1] if first.frames else "?"
    return RecordedCall(start, caller, first.model, first.prompt, tuple(first.stop), reply)


def configured_model(spec: str | None, base_url: str | None = None) -> tuple[str, ChatModel]:
    """(PROVIDER:NAME, model) named by `spec`, else by LOOPSCOPE_MODEL / .env; PlaygroundError if none."""
    try:
        live = build_live_model(spec, base_url, max_retries=0)
    except (ModelConfigError, ValueError) as error:
        raise PlaygroundError(f"a changed prompt needs a model to answer it: {error}") from None
    return live.spec, live.model


def rerun_call(call: RecordedCall, prompt: str | None = None, model: tuple[str, ChatModel] | None = None) -> CallRerun:
    """Ask again. The same prompt and no model: the recorded reply, replayed (no model is called).
    Otherwise `model` answers (the caller picks it: --model, or the configured live model)."""
    prompt = call.prompt if prompt is None else prompt
    if model is None:
        if prompt != call.prompt:
            raise PlaygroundError(
                "the prompt changed, so the recording cannot answer it: pass --model "
                "PROVIDER:NAME or configure LOOPSCOPE_MODEL"
            )
        return CallRerun(call, prompt, call.reply, REPLAYED)
    spec, chat_model = model
    started = time.perf_counter()
    try:
        reply = chat_model.generate(prompt, list(call.stop))
    except ProviderError as error:
        raise PlaygroundError(f"{spec} did not answer: {error}") from None
    return CallRerun(call, prompt, reply.text, spec, reply.usage, time.perf_counter() - started)
