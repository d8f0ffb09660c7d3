"""`--by tool` and `--by model`: the selected runs' tool calls and model calls added up, one row per name."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..report.cost.prices import PriceTable
from .run_row import RunRow


def percentile(values: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile (the smallest value with at least `share` of them at or below it)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True)
class ToolStats:
    """One tool over the selected runs."""

    tool: str
    calls: int
    errors: int  # calls that ended in a tool_error
    retries: int  # retry events while its calls ran
    runs: int  # runs that called it
    p50: float | None  # latency in seconds (tool_start to its end), nearest rank
    p95: float | None
    unfinished: int  # calls the run stopped during (no latency)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ModelStats:
    """One model over the selected runs."""

    model: str
    calls: int  # calls it answered
    prompt_tokens: int
    completion_tokens: int
    cost: float | None  # None when the price table has no price for it
    estimated: bool  # tokens counted here, or a free model priced as another
    failures: int  # failed attempts: its retries and the fallbacks away from it
    fallbacks: int  # times another model took over from it
    runs: int
    scores: dict[str, float] = field(default_factory=dict)  # each numeric score's mean over its scored runs

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "tokens": self.tokens}


def by_tool(rows: Iterable[RunRow]) -> list[ToolStats]:
    """Per tool: calls, errors, retries and latency percentiles, most called first."""
    latencies: defaultdict[str, list[float]] = defaultdict(list)
    counts: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # calls, errors, retries, runs, open
    for row in rows:
        for name in {call.tool for call in row.tools}:
            counts[name][3] += 1
        for call in row.tools:
            tally = counts[call.tool]
            tally[0] += 1
            tally[1] += call.failed
            tally[2] += call.retries
            if call.latency is None:
                tally[4] += 1
            else:
                latencies[call.tool].append(call.latency)
    stats = [
        ToolStats(
            name, c[0], c[1], c[2], c[3], percentile(latencies[name], 0.5), percentile(latencies[name], 0.95), c[4]
        )
        for name, c in counts.items()
    ]
    return sorted(stats, key=lambda s: (-s.calls, s.tool))


def _score_means(rows: Sequence[RunRow]) -> dict[str, dict[str, float]]:
    """model -> score name -> mean of that numeric score over the runs the model answered in (labels
    have no mean; a run counts once per model, whatever the number of its calls)."""
    values: defaultdict[str, defaultdict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        for model in {use.model for use in row.model_uses if use.calls}:
            for name, value in row.scores.items():
                if isinstance(value, float):
                    values[model][name].append(value)
    return {model: {name: sum(v) / len(v) for name, v in named.items()} for model, named in values.items()}


def score_names_of(stats: Iterable[ModelStats]) -> list[str]:
    return sorted({name for stat in stats for name in stat.scores})


def by_model(rows: Iterable[RunRow], prices: PriceTable) -> list[ModelStats]:
    """Per model: calls answered, tokens, cost, failures, fallbacks and mean scores, most called first."""
    rows = list(rows)
    # calls, prompt, completion, failures, fallbacks, runs, estimated, cached, cache written, reasoning
    sums: dict[str, list[int]] = {}
    for row in rows:
        for use in row.model_uses:
            tally = sums.setdefault(use.model, [0] * 10)
            for at, value in enumerate(
                (
                    use.calls,
                    use.prompt_tokens,
                    use.completion_tokens,
                    use.failures,
                    use.fallbacks,
                    1,
                    use.estimated,
                    use.cached_tokens,
                    use.cache_creation_tokens,
                    use.reasoning_tokens,
                )
            ):
                tally[at] += int(value)
    means = _score_means(rows)
    stats = []
    for model, (calls, prompt, completion, failures, fallbacks, runs, estimated, *parts) in sums.items():
        price = prices.price(model)
        cost = price.dollars(prompt, completion, *parts) if price else None
        priced_as = bool(price and price.priced_as)
        stats.append(
            ModelStats(
                model,
                calls,
                prompt,
                completion,
                cost,
                bool(estimated) or priced_as,
                failures,
                fallbacks,
                runs,
                means.get(model, {}),
            )
        )
    return sorted(stats, key=lambda s: (-s.calls, s.model))
