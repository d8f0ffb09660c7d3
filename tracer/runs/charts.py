"""What the charts across runs show: each tool's latencies, each run's cost and tokens by when it ran, failures per model."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..report.cost.prices import PriceTable
from .aggregates import by_model
from .run_row import RunRow

MAX_TOOLS = 12  # the most called; a box plot of more is unreadable in a terminal


@dataclass(frozen=True)
class RunPoint:
    recorded: float  # epoch seconds: when the run began (or the file's time, for an older trace)
    name: str
    cost: float | None
    tokens: int
    outcome: str


@dataclass(frozen=True)
class ModelFailures:
    model: str
    failures: int  # failed attempts: retries of its calls and fallbacks away from it
    fallbacks: int
    calls: int


@dataclass(frozen=True)
class RunCharts:
    latencies: list[tuple[str, list[float]]]  # (tool, its calls' latencies in seconds), most called first
    runs: list[RunPoint]  # readable runs, oldest first
    failures: list[ModelFailures]  # every model that answered or failed, most failures first

    @property
    def empty(self) -> bool:
        return not (self.latencies or self.runs or self.failures)


def run_charts(rows: Sequence[RunRow], prices: PriceTable) -> RunCharts:
    readable = [row for row in rows if row.readable]
    latencies: defaultdict[str, list[float]] = defaultdict(list)
    calls: defaultdict[str, int] = defaultdict(int)
    for row in readable:
        for call in row.tools:
            calls[call.tool] += 1
            if call.latency is not None:
                latencies[call.tool].append(call.latency)
    tools = sorted(calls, key=lambda name: (-calls[name], name))[:MAX_TOOLS]
    points = sorted(
        (RunPoint(row.recorded, row.name, row.cost, row.tokens, row.outcome) for row in readable),
        key=lambda point: (point.recorded, point.name),
    )
    models = [ModelFailures(m.model, m.failures, m.fallbacks, m.calls) for m in by_model(readable, prices)]
    return RunCharts(
        [(tool, sorted(latencies[tool])) for tool in tools if latencies[tool]],
        points,
        sorted(models, key=lambda m: (-m.failures, m.model)),
    )


def quartiles(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    """(min, 25%, median, 75%, max) of sorted values, by linear interpolation."""

    def at(share: float) -> float:
        place = share * (len(values) - 1)
        low = int(place)
        high = min(low + 1, len(values) - 1)
        return values[low] + (values[high] - values[low]) * (place - low)

    return values[0], at(0.25), at(0.5), at(0.75), values[-1]
