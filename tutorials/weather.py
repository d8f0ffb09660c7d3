"""A weather tool whose cities answer at different speeds, one of them not at all, for the tool-calling tutorials."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from executor import ManualClock, ModelReply, Tool, ToolCall, ToolError
from executor.clock import Clock

SYSTEM_PROMPT = (
    "You are a travel assistant. Look up the weather with get_weather, one call per city; "
    "when several cities are asked about, call the tool for all of them in the same reply."
)
FORECASTS = {
    "Beijing": "Beijing: sunny, 18°C, light wind from the north, air quality good",
    "Shanghai": "Shanghai: light rain, 16°C, humidity 85%",
    "Guangzhou": "Guangzhou: cloudy, 24°C",
}
LATENCY = {"Beijing": 0.3, "Shanghai": 2.0, "Guangzhou": 0.5}  # seconds the weather service takes per city
DOWN = {"Guangzhou"}  # the service for this city times out


class City(BaseModel):
    city: str = Field(description="The city's English name, e.g. Beijing")


@dataclass
class ServiceTimeline:
    """Makes concurrent lookups take their latency on the run's clock.

    On a real clock each lookup just sleeps. On a manual clock (recordings, replays) sleeping
    would be instant and the threads would finish in any order, so the lookups first wait
    until all of them have started, then finish one by one, fastest first, each moving the
    clock to its own finish time: the lanes overlap and end at the recorded moments.
    """

    clock: Clock
    calls: int = 3
    _started: float | None = None
    _finished: int = 0
    _turn: threading.Condition = field(default_factory=threading.Condition)
    _barrier: threading.Barrier = field(init=False)

    def __post_init__(self) -> None:
        self._barrier = threading.Barrier(self.calls, timeout=2.0)

    def take(self, city: str) -> None:
        seconds = LATENCY.get(city, 0.1)
        if not isinstance(self.clock, ManualClock):
            self.clock.sleep(seconds)
            return
        try:
            self._barrier.wait()  # every call has emitted its tool_start
        except threading.BrokenBarrierError:  # fewer calls at once (max_concurrency): no overlap to stage
            pass
        rank = sorted(LATENCY.values()).index(seconds) if seconds in LATENCY.values() else 0
        with self._turn:
            self._started = self.clock.now if self._started is None else self._started
            self._turn.wait_for(lambda: self._finished >= rank, timeout=2.0)
            time.sleep(0.05)  # let the previous call's tool_end be emitted at its own time
            self.clock.now = max(self.clock.now, self._started + seconds)
            self._finished += 1
            self._turn.notify_all()


def weather_tool(clock: Clock | None = None) -> Tool:
    """get_weather; given a clock, the lookups take their latency on it (three at once, staged as above)."""
    timeline = ServiceTimeline(clock) if clock is not None else None

    def get_weather(city: str) -> str:
        if timeline is not None:
            timeline.take(city)
        if city in DOWN:
            raise ToolError(f"the weather service for {city} timed out after {LATENCY[city]:.1f}s")
        if city not in FORECASTS:
            raise ToolError(f"no forecast for {city!r}; known cities: {', '.join(FORECASTS)}")
        return FORECASTS[city]

    return Tool(
        name="get_weather",
        description="Today's weather for one city.",
        func=get_weather,
        args_schema=City,
        handle_tool_error=True,
    )


def tool_calls(*specs: tuple[str, str, dict], text: str = "") -> ModelReply:
    """A scripted reply asking for tool calls: each spec is (call id, tool name, arguments)."""
    return ModelReply(
        text,
        tool_calls=tuple(
            ToolCall(call_id, name, json.dumps(arguments, ensure_ascii=False)) for call_id, name, arguments in specs
        ),
    )
