"""A primary model that stays down: retries run out, its breaker opens, a fallback answers; then rules answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from executor import ChatModel, RetryPolicy, Rule, RuleSet, ScriptedModel, Tool, with_fallbacks
from executor.recovery.circuit_breaker import CircuitBreaker, CircuitBreakerModel

from .flower_shop import final_answer, thought
from .scenario import Scenario

QUESTION = "What's the weather in Hangzhou today? Do I need an umbrella?"
WEATHER = {"hangzhou": "Hangzhou today: light rain, 12-16°C, north-east wind force 3."}
ANSWER = "Light rain in Hangzhou today, 12-16°C: yes, take an umbrella."

# 3 attempts per model call (2 retries), 1 s then 2 s apart; the breaker opens at the 3rd failure in a minute.
RETRY = RetryPolicy(max_retries=2, initial_delay=1.0, backoff_factor=2.0, jitter=False)
BREAKER: dict[str, Any] = {"failure_threshold": 3, "window": 60.0, "cool_down": 30.0}  # CircuitBreaker keywords
RULES = RuleSet([Rule("weather", r"weather in (?P<city>[a-z]+)", "get_weather", "{city}")])


class TooManyRequests(Exception):
    """HTTP 429: the key's quota is used up for now."""

    status_code = 429


class ServerError(Exception):
    """HTTP 500: the endpoint itself is failing."""

    status_code = 500


def failing_endpoint(name: str, first_429: bool = True) -> ScriptedModel:
    """An endpoint that answers 429 (optionally), then 500 to every attempt after it."""
    head: list[Exception] = [TooManyRequests("HTTP 429 Too Many Requests")] if first_429 else []
    return ScriptedModel(head + [ServerError("HTTP 500 Internal Server Error")] * 20, model_name=name)


def get_weather(city: str) -> str:
    return WEATHER.get(city.strip().lower(), f"No weather report for {city!r}.")


def weather_tools(model: ChatModel) -> list[Tool]:
    # Marked non-deterministic like a real weather API: a replay answers it from the recording.
    return [
        Tool(
            name="get_weather",
            func=get_weather,
            deterministic=False,
            description="Today's weather for a city. Input: the city's name.",
        )
    ]


def _guarded(model: ChatModel) -> CircuitBreakerModel:
    """Each model behind a breaker of its own, made for this run: runs never share breaker state."""
    return CircuitBreakerModel(model, CircuitBreaker(model.model_name, **BREAKER))


def primary_down(backup: ChatModel) -> ChatModel:
    """Part 1: the primary is down; the scripted replies are the fallback model's."""
    backup.model_name = "backup"
    return with_fallbacks(_guarded(failing_endpoint("primary")), [_guarded(backup)])


def everything_down(_scripted: ChatModel) -> ChatModel:
    """Part 2: both endpoints are down; only the rules are left."""
    return with_fallbacks(_guarded(failing_endpoint("primary")), [_guarded(failing_endpoint("backup", False))])


def _scenario(name: str, title: str, replies: Sequence[str], endpoint, **settings) -> Scenario:
    return Scenario(
        name=name,
        title=title,
        question=QUESTION,
        build_tools=weather_tools,
        replies=replies,
        settings={"retry_policy": RETRY, **settings},
        scripted_endpoint=endpoint,
    )


SCENARIO_FALLBACK = _scenario(
    "fallback-model",
    "Fallback: the primary model is down, its breaker opens, the backup answers",
    [
        thought("I need today's weather in Hangzhou.", "get_weather", "Hangzhou"),
        final_answer("I now know the final answer.", ANSWER),
    ],
    primary_down,
)

SCENARIO_DEGRADED = _scenario(
    "fallback-rules",
    "Degradation: every model is down, a local rule answers the weather question",
    [],
    everything_down,
    rules=RULES,
    degrade_after=3,
)
