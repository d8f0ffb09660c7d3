"""A model's chain of fallbacks and breakers described for chain_start, and rebuilt from that description by a replay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..clock import Clock
from ..models.chat_model import ChatModel
from .circuit_breaker import CircuitBreaker, CircuitBreakerModel
from .fallbacks import FallbackModel


def describe_model(model: ChatModel, clock: Clock) -> dict[str, Any] | None:
    """What a replay needs to rebuild a model with fallbacks or a breaker; None for a plain model
    (whose runs then read the clock no more than before)."""
    describe = getattr(model, "describe", None)
    return describe(clock.monotonic()) if callable(describe) else None


def restore_model(description: dict[str, Any], model_for: Callable[[str], ChatModel]) -> ChatModel:
    """Rebuild what `describe_model` recorded (chain_start's settings["model_chain"]) around the models
    `model_for(name)` gives, e.g. ones answering from a recording: same order, breakers in the same
    state (fresh objects, not the process's shared ones), so a re-run narrates the same events."""

    def one(link: dict[str, Any]) -> ChatModel:
        model = model_for(str(link["model"]))
        if "breaker" in link:
            model = CircuitBreakerModel(model, CircuitBreaker.restored(link["breaker"]))
        return model

    if "chain" not in description:
        return one(description)
    links = [one(link) for link in description["chain"]]
    return FallbackModel(links[0], links[1:])
