"""The tokens a provider bills at rates of their own (cached, written to the cache, reasoning), read from every shape that records them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The names an llm_end's usage gives them (tracer/report/cost/prices.py prices them). Each is a part of
# prompt_tokens (cached, cache_creation) or of completion_tokens (reasoning).
CACHED, CACHE_CREATION, REASONING = "cached_tokens", "cache_creation_tokens", "reasoning_tokens"
_PROMPT_SIDE = (CACHED, CACHE_CREATION)

# (where the count is, which part it is, whether the shape's prompt or completion count includes it)
_USAGE_PATHS: tuple[tuple[tuple[str, ...], str, bool], ...] = (
    (("prompt_tokens_details", "cached_tokens"), CACHED, True),  # OpenAI chat completions
    (("completion_tokens_details", "reasoning_tokens"), REASONING, True),
    (("input_tokens_details", "cached_tokens"), CACHED, True),  # OpenAI Responses
    (("output_tokens_details", "reasoning_tokens"), REASONING, True),
    (("cache_read_input_tokens",), CACHED, False),  # Anthropic: input_tokens leaves the cache out
    (("cache_creation_input_tokens",), CACHE_CREATION, False),
    (("input_token_details", "cache_read"), CACHED, True),  # LangChain's usage_metadata
    (("input_token_details", "cache_creation"), CACHE_CREATION, True),
    (("output_token_details", "reasoning"), REASONING, True),
    (("prompt_details.cache_read",), CACHED, True),  # Langfuse's usageDetails, from OpenInference's counts
    (("prompt_details.cache_write",), CACHE_CREATION, True),
    (("completion_details.reasoning",), REASONING, True),
    (("input_cache_read",), CACHED, False),  # Langfuse's own keys: its `input` and `output` leave them out
    (("input_cached_tokens",), CACHED, False),
    (("input_cache_creation",), CACHE_CREATION, False),
    (("output_reasoning",), REASONING, False),
    (("output_reasoning_tokens",), REASONING, False),
)

# Span attributes: the OpenTelemetry GenAI convention (counted in gen_ai.usage.input_tokens) and OpenInference.
_ATTRIBUTE_KEYS = (
    ("gen_ai.usage.cache_read.input_tokens", CACHED),
    ("gen_ai.usage.cache_creation.input_tokens", CACHE_CREATION),
    ("llm.token_count.prompt_details.cache_read", CACHED),
    ("llm.token_count.prompt_details.cache_write", CACHE_CREATION),
    ("llm.token_count.completion_details.reasoning", REASONING),
)


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


def _at(counts: Mapping[str, Any], path: tuple[str, ...]) -> int | None:
    value: Any = counts
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return _count(value)


def with_billed_parts(found: dict[str, int], counts: Mapping[str, Any]) -> dict[str, int]:
    """`found` (prompt, completion and total tokens read from `counts`) with the parts billed apart.
    A part the shape leaves out of its prompt or completion count is added to it, so prompt_tokens is
    always every token sent; a `total` that already adds up says the parts were in the counts."""
    parts: dict[str, tuple[int, bool]] = {}
    for path, part, included in _USAGE_PATHS:
        value = _at(counts, path)
        if value is not None and part not in parts:
            parts[part] = (value, included)
    total = _count(counts.get("total"))
    if total is not None and total == found["prompt_tokens"] + found["completion_tokens"]:
        parts = {part: (value, True) for part, (value, _included) in parts.items()}
    billed = dict(found)
    for part, (value, included) in parts.items():
        side = "prompt_tokens" if part in _PROMPT_SIDE else "completion_tokens"
        if not included:
            billed[side] += value
        billed[part] = min(value, billed[side])
    billed["total_tokens"] = billed["prompt_tokens"] + billed["completion_tokens"]
    return {key: value for key, value in billed.items() if value or key not in (CACHED, CACHE_CREATION, REASONING)}


def attribute_parts(attrs: Mapping[str, Any], found: dict[str, int]) -> dict[str, int]:
    """`found` with the parts a span's attributes count (both conventions count them in the totals)."""
    billed = dict(found)
    for key, part in _ATTRIBUTE_KEYS:
        value = attrs.get(key)
        value = int(value) if isinstance(value, str) and value.isdigit() else _count(value)
        if value and part not in billed:
            side = "prompt_tokens" if part in _PROMPT_SIDE else "completion_tokens"
            billed[part] = min(value, billed[side])
    return billed
