"""One run as a row of `loopscope runs`: what it was, how it ended, what it did and what it cost."""

from __future__ import annotations

import os
from datetime import datetime
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict

from ..report.cost.prices import Price, PriceTable
from ..trace.literal_text import scrub

# stopped_at_change: a `fork --stop-at-change` that ended, as asked, at the first model call whose prompt changed
Outcome = Literal[
    "finished", "error", "iteration_limit", "time_limit", "stopped_at_change", "interrupted", "truncated", "unreadable"
]
OUTCOMES: tuple[str, ...] = get_args(Outcome)


class ToolCall(BaseModel):
    """One tool run: from tool_start to its tool_end or tool_error."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tool: str
    latency: float | None  # seconds; None when the run stopped before the tool answered
    failed: bool  # a tool_error ended it (handled or not)
    retries: int  # retry events for it while it ran


class ModelUse(BaseModel):
    """One model's share of a run: the calls it answered, their tokens, and how often it failed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str
    calls: int  # calls it answered (the model billed, as tracer/report/cost/prices.py counts them)
    prompt_tokens: int
    completion_tokens: int
    estimated: bool  # some tokens were counted here because the endpoint reported no usage
    failures: int  # its failed attempts: retries of its calls and fallbacks away from it
    fallbacks: int  # times another model took over from it
    # Parts of the prompt and completion tokens the provider bills at rates of their own.
    cached_tokens: int = 0
    cache_creation_tokens: int = 0
    reasoning_tokens: int = 0

    def dollars(self, price: Price) -> float:
        return price.dollars(
            self.prompt_tokens,
            self.completion_tokens,
            self.cached_tokens,
            self.cache_creation_tokens,
            self.reasoning_tokens,
        )


class EventScore(BaseModel):
    """A score given on one event of the run (an imported child run's feedback), not on the run: kept out
    of `scores` (what the columns and --where read), listed by --json with the event it belongs to."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event: int  # the event's seq
    kind: str | None  # that event's kind (llm_end, tool_end ...); None when the trace has no such event
    name: str
    value: float | str


WRITTEN_BY_IMPORT = "written by loopscope import from"  # how `imported` begins for a trace file an import wrote


class RunRow(BaseModel):
    """What `loopscope runs` knows of one trace file. The catalogue stores it without prices: `cost`
    is filled by `priced` when a listing is made, so a changed price table needs no re-read."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str  # absolute
    name: str  # the scenario, the agent, or the file's name
    run_id: str | None = None
    scenario: str | None = None
    agent: str | None = None
    parent: str | None = None  # a fork's parent trace
    fork_at: int | None = None  # a fork's event whose reply or observation was changed
    imported: str | None = None  # what an import recognised: another tool's export, or a trace `loopscope import` wrote
    outcome: Outcome
    detail: str = ""  # one line: the error, the limit, the warning, or why the file is unreadable
    events: int = 0
    iterations: int = 0
    model_calls: int = 0  # llm_start events
    tool_calls: int = 0  # tool_start events
    tool_errors: int = 0
    parse_errors: int = 0
    invalid_tools: int = 0
    retries: int = 0
    fallbacks: int = 0
    duration: float | None = None  # the last event's t (seconds since the run began)
    models: tuple[str, ...] = ()  # first asked first; fallbacks that answered included
    recorded: float = 0.0  # when the run began (epoch seconds): the header's recorded_at, else the file's time
    recorded_from_file: bool = False  # no recorded_at in the header (an older trace): the file's modification time
    size: int = 0
    kinds: dict[str, int] = {}
    tools: tuple[ToolCall, ...] = ()
    model_uses: tuple[ModelUse, ...] = ()
    cost: float | None = None  # dollars, set by `priced`; None when no call could be priced
    cost_estimated: bool = False  # tokens counted here, or a free model priced as a real one
    unpriced: tuple[str, ...] = ()  # models that answered but have no price
    scores: dict[str, float | str] = {}  # each score name's latest value (tracer/trace/annotations.py)
    event_scores: tuple[EventScore, ...] = ()  # scores given on one of its events, in the file's order

    @property
    def converted(self) -> bool:
        """Another tool's export, read as it was opened (listed only with --imports); not an imported trace file."""
        return self.imported is not None and not self.imported.startswith(WRITTEN_BY_IMPORT)

    @property
    def errors(self) -> int:
        """Tool errors, parse errors, invalid tools, retries and fallbacks together."""
        return self.tool_errors + self.parse_errors + self.invalid_tools + self.retries + self.fallbacks

    @property
    def prompt_tokens(self) -> int:
        return sum(use.prompt_tokens for use in self.model_uses)

    @property
    def completion_tokens(self) -> int:
        return sum(use.completion_tokens for use in self.model_uses)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def cached_tokens(self) -> int:
        return sum(use.cached_tokens for use in self.model_uses)

    @property
    def cache_creation_tokens(self) -> int:
        return sum(use.cache_creation_tokens for use in self.model_uses)

    @property
    def reasoning_tokens(self) -> int:
        return sum(use.reasoning_tokens for use in self.model_uses)

    @property
    def tokens_estimated(self) -> bool:
        return any(use.estimated for use in self.model_uses)

    @property
    def model(self) -> str:
        """The model asked first ("" when the run made no model call)."""
        return self.models[0] if self.models else ""

    @property
    def readable(self) -> bool:
        return self.outcome != "unreadable"

    @property
    def recorded_at(self) -> str:
        """When the run began, local time, ISO 8601: compares as text (`recorded >= "2026-12-01"`)."""
        return datetime.fromtimestamp(self.recorded).astimezone().isoformat(timespec="seconds")

    def to_json(self) -> dict[str, Any]:
        """The row as `loopscope runs --json` prints it: the stored fields and the derived totals."""
        data = self.model_dump(mode="json")
        data.update(
            recorded=self.recorded_at,
            recorded_epoch=self.recorded,
            recorded_from="file" if self.recorded_from_file else "trace",
            model=self.model,
            errors=self.errors,
            tokens=self.tokens,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cached_tokens=self.cached_tokens,
            cache_creation_tokens=self.cache_creation_tokens,
            reasoning_tokens=self.reasoning_tokens,
            tokens_estimated=self.tokens_estimated,
        )
        return data


def priced(row: RunRow, prices: PriceTable) -> RunRow:
    """`row` with its cost: each model's tokens at that model's price (cost.py's CallCost, summed)."""
    dollars: list[float] = []
    estimated, unpriced = row.tokens_estimated, []
    for use in row.model_uses:
        if not use.calls:
            continue
        price = prices.price(use.model)
        if price is None:
            unpriced.append(use.model)
            continue
        dollars.append(use.dollars(price))
        estimated = estimated or bool(price.priced_as)
    return row.model_copy(
        update={"cost": sum(dollars) if dollars else None, "cost_estimated": estimated, "unpriced": tuple(unpriced)}
    )


def one_line_name(path: str) -> str:
    """A file's name as a name cell: a name may hold a newline or an escape, shown as scrub shows it."""
    return " ".join(scrub(os.path.basename(path)).split())


def unreadable_row(path: str, reason: str, size: int = 0, recorded: float = 0.0) -> RunRow:
    """The row of a file that cannot be read as a run: its one-line reason and nothing else."""
    return RunRow(
        path=path,
        name=one_line_name(path),
        outcome="unreadable",
        detail=reason,
        size=size,
        recorded=recorded,
        recorded_from_file=True,
    )
