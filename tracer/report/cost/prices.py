"""Tokens and dollars per model call: the endpoint's usage when recorded, else an estimate; a price table."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from executor.events import EventBase, LLMEndEvent, LLMStartEvent

from ...i18n import say
from .tokens import estimate_tokens

ENV_PRICES = "LOOPSCOPE_PRICES"


class PriceTableError(ValueError):
    """A price file that cannot be read or has the wrong shape."""


@dataclass(frozen=True)
class Price:
    input: float  # dollars per million prompt tokens
    output: float  # dollars per million completion tokens
    entry: str  # the table entry that priced it ("gpt-4o-mini" for "gpt-4o-mini-2024-07-18")
    priced_as: str = ""  # set when a free model is priced as a real one (the scripted model)


class PriceTable:
    """Model name -> Price; a name matches its entry or a dated variant ("gpt-4o-2024-08-06")."""

    def __init__(self, entries: Mapping[str, Mapping[str, float | str]]) -> None:
        # An entry is {input, output} (numbers) or {priced_as: "another entry"}; _read_override checks a user's.
        self.entries = {name: dict(entry) for name, entry in entries.items()}

    @classmethod
    def load(cls, override: str | os.PathLike[str] | None = None) -> PriceTable:
        """The shipped table, overlaid by the file `override` names. $LOOPSCOPE_PRICES is the user's,
        read by the command (tracer/cli/options.py) and handed down as `override`, never read here."""
        shipped = tomllib.loads(resources.files(__package__).joinpath("prices.toml").read_text("utf-8"))
        entries = dict(shipped["models"])
        if override:
            entries.update(_read_override(Path(override)))
        return cls(entries)

    def price(self, model: str) -> Price | None:
        entry_name = self._entry_name(model.split(":", 1)[-1])
        if entry_name is None:
            return None
        entry = self.entries[entry_name]
        if "priced_as" in entry:
            target = self.price(str(entry["priced_as"]))
            return Price(target.input, target.output, target.entry, entry_name) if target else None
        return Price(float(entry["input"]), float(entry["output"]), entry_name)

    def _entry_name(self, model: str) -> str | None:
        if model in self.entries:
            return model
        # Longest entry first, so "gpt-4o-mini-2024-07-18" is priced as gpt-4o-mini, not gpt-4o.
        for name in sorted(self.entries, key=len, reverse=True):
            if model.startswith(name + "-") and model[len(name) + 1 :][:1].isdigit():
                return name
        return None


def _read_override(path: Path) -> dict[str, dict[str, float | str]]:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise PriceTableError(f"price file {path}: {error}") from None
    models = data.get("models")
    if not isinstance(models, dict):
        raise PriceTableError(
            f'price file {path}: expected [models."NAME"] tables with input and output (dollars per million tokens)'
        )
    for name, entry in models.items():
        ok = isinstance(entry, dict) and (
            "priced_as" in entry or all(isinstance(entry.get(k), (int, float)) for k in ("input", "output"))
        )
        if not ok:
            raise PriceTableError(
                f'price file {path}: [models."{name}"] needs numbers input and output (dollars per million tokens)'
            )
    return models


@dataclass(frozen=True)
class CallCost:
    """One model call's tokens and price."""

    start_seq: int
    end_seq: int
    iteration: int
    model: str
    prompt_tokens: int
    completion_tokens: int
    estimated: bool  # True when the endpoint reported no usage and the counter estimated it
    price: Price | None

    @property
    def dollars(self) -> float | None:
        if self.price is None:
            return None
        return (self.prompt_tokens * self.price.input + self.completion_tokens * self.price.output) / 1e6

    def describe(self, lang: str = "en") -> str:
        """One line: tokens, where they came from, and the price."""
        return say(
            "cost.call",
            lang,
            prompt=f"{self.prompt_tokens:,}",
            completion=f"{self.completion_tokens:,}",
            source=say("cost.source.estimated" if self.estimated else "cost.source.endpoint", lang),
            dollars=format_dollars(self.dollars, lang),
            note=price_note(self.price, self.model, lang),
        )


def price_note(price: Price | None, model: str, lang: str = "en") -> str:
    if price is None:
        return say("cost.note.no_price", lang, model=model, variable=ENV_PRICES)
    if price.priced_as:
        return say("cost.note.estimate", lang, model=price.priced_as, entry=price.entry)
    return ""


def format_dollars(dollars: float | None, lang: str = "en") -> str:
    return say("cost.no_price", lang) if dollars is None else f"${dollars:.6f}"


def _usage_tokens(usage: Mapping[str, int] | None) -> tuple[int, int] | None:
    if not usage:
        return None
    prompt = usage.get("prompt_tokens", usage.get("input_tokens"))
    completion = usage.get("completion_tokens", usage.get("output_tokens"))
    if prompt is None or completion is None:
        return None
    return int(prompt), int(completion)


def call_costs(
    events: Iterable[EventBase], prices: PriceTable, estimate: Callable[[str], int] = estimate_tokens
) -> list[CallCost]:
    """Each llm_end paired with the llm_start before it, counted and priced. `estimate` counts the
    tokens of a call that reported no usage (a caller reading many growing prompts passes a faster
    counter that gives the same numbers, tracer/runs/token_counter.py)."""
    calls: list[CallCost] = []
    start: LLMStartEvent | None = None
    for event in events:
        if isinstance(event, LLMStartEvent):
            start = event
        elif isinstance(event, LLMEndEvent) and start is not None:
            reported = _usage_tokens(event.usage)
            tokens = reported or (estimate(start.prompt), estimate(event.text))
            # A fallback model that answered is the one billed, not the one llm_start named.
            model = event.answered_by or start.model
            calls.append(
                CallCost(
                    start.seq,
                    event.seq,
                    start.iteration,
                    model,
                    *tokens,
                    estimated=reported is None,
                    price=prices.price(model),
                )
            )
            start = None
    return calls


@dataclass(frozen=True)
class CostTotal:
    """Tokens and dollars summed over some calls (an iteration, a run)."""

    calls: int
    prompt_tokens: int
    completion_tokens: int
    dollars: float | None  # None when no call could be priced
    estimated: bool  # any part of it estimated (tokens counted here, or a free model priced as another)
    unpriced: int = 0  # calls whose model has no price

    @classmethod
    def of(cls, calls: list[CallCost]) -> CostTotal:
        priced = [c.dollars for c in calls if c.dollars is not None]
        estimated = any(c.estimated or (c.price is not None and c.price.priced_as) for c in calls)
        return cls(
            len(calls),
            sum(c.prompt_tokens for c in calls),
            sum(c.completion_tokens for c in calls),
            sum(priced) if priced else None,
            estimated,
            len(calls) - len(priced),
        )

    def compact(self) -> str:
        """`2,000 tok $0.000400` (no estimate mark: the caller adds one for the whole line)."""
        return f"{self.prompt_tokens + self.completion_tokens:,} tok {format_dollars(self.dollars)}"

    def short(self, lang: str = "en") -> str:
        """`1,234+56 tok · $0.000123 (est.)` for a status line."""
        mark = say("cost.short.estimated", lang) if self.estimated else ""
        prompt, completion = f"{self.prompt_tokens:,}", f"{self.completion_tokens:,}"
        dollars = format_dollars(self.dollars, lang)
        return say("cost.short", lang, prompt=prompt, completion=completion, dollars=dollars, mark=mark)


def totals_by_iteration(calls: list[CallCost]) -> dict[int, CostTotal]:
    iterations: dict[int, list[CallCost]] = {}
    for call in calls:
        iterations.setdefault(call.iteration, []).append(call)
    return {number: CostTotal.of(group) for number, group in sorted(iterations.items())}
