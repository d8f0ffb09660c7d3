"""The `replay` model provider: answers model calls from a recorded trace (registered as an entry point)."""

from __future__ import annotations

from executor import ChatModel
from executor.models.config import ModelConfigError
from executor.models.providers import ModelRequest

from ..trace.reader import load_trace
from .recorded_answers import ReplayModel, replay_model


def create(request: ModelRequest) -> ChatModel:
    """`--model replay:PATH`: the n-th model call gets the recording's n-th reply (prompts must match)."""
    if not request.name:
        raise ModelConfigError("name the trace to replay, e.g. --model replay:fixtures/rose_pricing.jsonl")
    header, events, _warning = load_trace(request.name)
    if not ReplayModel(events).calls:
        raise ModelConfigError(f"{request.name} has no recorded model calls to replay")
    return replay_model(
        events, real_time=header.recorded_in_real_time
    )  # a run with fallbacks and breakers gets its chain back
