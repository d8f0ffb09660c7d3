"""Reads one trace file into its RunRow and the shapes of its events, one event at a time."""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from executor.events import Event, LLMStartEvent
from executor.states import state_of

from ..report.cost.prices import PriceTable, call_costs
from ..trace.annotations import latest_by_name
from ..trace.format_error import TraceFormatError
from ..trace.header import stamp_seconds
from ..trace.kept_partial import INTERRUPTED
from ..trace.literal_text import scrub
from ..trace.reader import TraceFile
from ..trace.transitions import STOPPED_AT_CHANGE
from .run_row import WRITTEN_BY_IMPORT, EventScore, ModelUse, Outcome, RunRow, ToolCall, unreadable_row
from .token_counter import TokenCounter

# (kind, tool, iteration, function, file, line, frames, state): what an event answers to the condition
# language's index fields. A run has few distinct shapes; `--where` is decided on them, not on events.
Shape = tuple[str, str | None, int, str, str, int, tuple[str, ...], str]
SHAPE_FIELDS = ("kind", "tool", "iteration", "function", "file", "line", "frames", "state")
DETAIL_LIMIT = 300


def one_line(text: object) -> str:
    """Untrusted text as a short single line (a detail cell)."""
    flat = " ".join(scrub(text).split())
    return flat if len(flat) <= DETAIL_LIMIT else flat[: DETAIL_LIMIT - 1] + "…"


def tool_of(event: Event) -> str | None:
    """The tool an event is about, as the condition language's `tool` field names it (event_tool)."""
    if event.kind == "invalid_tool":
        return event.requested
    if event.kind == "step":
        return event.action.tool
    tool = getattr(event, "tool", None)
    return tool if isinstance(tool, str) else None


def shape_of(event: Event) -> Shape:
    source = event.source
    return (
        event.kind,
        tool_of(event),
        event.iteration,
        source.function,
        source.file,
        source.line,
        tuple(event.frames),
        state_of(event),
    )


@dataclass
class _ModelTally:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False
    failures: int = 0
    fallbacks: int = 0
    cached_tokens: int = 0
    cache_creation_tokens: int = 0
    reasoning_tokens: int = 0


@dataclass
class _OpenTool:
    tool: str
    started: float
    retries: int = 0
    failed: bool = False


@dataclass
class RunTally:
    """What a run adds up to, fed one event at a time (a million-event trace is never held whole)."""

    prices: PriceTable
    counter: TokenCounter = field(default_factory=TokenCounter)
    kinds: Counter[str] = field(default_factory=Counter)
    shapes: set[Shape] = field(default_factory=set)
    models: dict[str, None] = field(default_factory=dict)  # insertion-ordered set
    by_model: defaultdict[str, _ModelTally] = field(default_factory=lambda: defaultdict(_ModelTally))
    tools: list[ToolCall] = field(default_factory=list)
    open_tools: dict[str, list[_OpenTool]] = field(default_factory=dict)  # by call id, else tool name
    pending_call: LLMStartEvent | None = None
    iterations: int = 0
    last_t: float | None = None
    run_id: str | None = None
    ending: tuple[Outcome, str] | None = None  # chain_end / chain_error, or a limit
    limit: tuple[Outcome, str] | None = None

    def add(self, event: Event) -> None:
        self.kinds[event.kind] += 1
        self.shapes.add(shape_of(event))
        self.iterations = max(self.iterations, event.iteration)
        self.last_t = event.t
        self.run_id = self.run_id or event.run_id
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event)

    # -- model calls ------------------------------------------------------------------------------
    def _llm_start(self, event: Any) -> None:
        self.models.setdefault(event.model)
        self.pending_call = event

    def _llm_end(self, event: Any) -> None:
        if event.answered_by:
            self.models.setdefault(event.answered_by)
        if self.pending_call is None:
            return
        # cost.py pairs each llm_end with the llm_start before it: the same tokens the debugger shows.
        for call in call_costs([self.pending_call, event], self.prices, self.counter):
            tally = self.by_model[call.model]
            tally.calls += 1
            tally.prompt_tokens += call.prompt_tokens
            tally.completion_tokens += call.completion_tokens
            tally.cached_tokens += call.cached_tokens
            tally.cache_creation_tokens += call.cache_creation_tokens
            tally.reasoning_tokens += call.reasoning_tokens
            tally.estimated = tally.estimated or call.estimated
        self.pending_call = None

    def _retry(self, event: Any) -> None:
        if event.target == "llm":
            self.by_model[event.name].failures += 1
        else:
            for call in self._open_calls(event.tool_call_id, event.name)[:1]:
                call.retries += 1

    def _fallback(self, event: Any) -> None:
        failed = self.by_model[event.failed_model]
        failed.failures += 1
        failed.fallbacks += 1

    # -- tool runs --------------------------------------------------------------------------------
    def _open_calls(self, call_id: str | None, tool: str) -> list[_OpenTool]:
        return self.open_tools.get(call_id or tool, [])

    def _tool_start(self, event: Any) -> None:
        self.open_tools.setdefault(event.tool_call_id or event.tool, []).append(_OpenTool(event.tool, event.t))

    def _tool_done(self, event: Any) -> None:
        waiting = self._open_calls(event.tool_call_id, event.tool)
        if not waiting:
            return  # a tool_end after the tool_error that already closed it (parallel tool calls)
        call = waiting.pop(0)
        failed = call.failed or event.kind == "tool_error"
        self.tools.append(ToolCall(tool=call.tool, latency=event.t - call.started, failed=failed, retries=call.retries))

    # -- how it ended -----------------------------------------------------------------------------
    def _limit(self, event: Any) -> None:
        outcome: Outcome = "iteration_limit" if event.reason == "max_iterations" else "time_limit"
        self.limit = (outcome, f"{event.reason} after {event.iterations} iteration(s)")

    def _chain_end(self, event: Any) -> None:
        self.ending = ("finished", "")

    def _chain_error(self, event: Any) -> None:
        interrupted = event.error_type in ("KeyboardInterrupt", "CancelledError")
        outcome: Outcome = "interrupted" if interrupted else "error"
        if event.error_type == STOPPED_AT_CHANGE:  # the fork ended where it was asked to: no failure
            outcome = "stopped_at_change"
        self.ending = (outcome, one_line(f"{event.error_type}: {event.message}"))

    def unfinished_tools(self) -> list[ToolCall]:
        """Tool runs the trace never saw end (the run stopped while they ran)."""
        return [
            ToolCall(tool=call.tool, latency=None, failed=call.failed, retries=call.retries)
            for calls in self.open_tools.values()
            for call in calls
        ]

    def model_uses(self) -> tuple[ModelUse, ...]:
        return tuple(
            ModelUse(model=name, **vars(tally))
            for name, tally in self.by_model.items()
            if tally.calls or tally.failures
        )


_HANDLERS = {
    "llm_start": RunTally._llm_start,
    "llm_end": RunTally._llm_end,
    "retry": RunTally._retry,
    "fallback": RunTally._fallback,
    "tool_start": RunTally._tool_start,
    "tool_end": RunTally._tool_done,
    "tool_error": RunTally._tool_done,
    "limit_reached": RunTally._limit,
    "chain_end": RunTally._chain_end,
    "chain_error": RunTally._chain_error,
}


@dataclass(frozen=True)
class Summary:
    """A trace read: its row, and the distinct shapes of its events (none for an unreadable file)."""

    row: RunRow
    shapes: frozenset[Shape] = frozenset()


def summarise(path: str, prices: PriceTable, info: os.stat_result | None = None) -> Summary:
    """Read the trace at `path` (an absolute path). Never raises for what is in the file: a file that
    cannot be read is an unreadable row with its one-line reason."""
    size, recorded = (info.st_size, info.st_mtime) if info else (0, 0.0)
    try:
        return _read(path, prices, size, recorded)
    except TraceFormatError as error:
        where = f"line {error.line}: " if error.line else ""
        return Summary(unreadable_row(path, one_line(where + error.problem), size, recorded))
    except (OSError, ValueError) as error:
        return Summary(unreadable_row(path, one_line(f"cannot be read: {error}"), size, recorded))
    except (RecursionError, MemoryError, OverflowError) as error:  # a hostile file, not a crash of the listing
        return Summary(unreadable_row(path, f"cannot be read: {_HOSTILE[type(error)]}", size, recorded))


_HOSTILE = {
    RecursionError: "JSON nested too deeply",
    MemoryError: "too large to hold in memory",
    OverflowError: "a number too large",
}


def _read(path: str, prices: PriceTable, size: int, recorded: float) -> Summary:
    with TraceFile(path) as trace:
        tally = RunTally(prices)
        for position in range(len(trace)):
            tally.add(trace[position])
        header = trace.header
        outcome, detail = _outcome(tally, trace.warning, _ends_mid_line(trace.path))
        if path.endswith(INTERRUPTED):  # kept by a recording stopped with Ctrl-C, whatever its events say
            outcome, detail = "interrupted", _kept_words(outcome, detail)
        given = (header.model_extra or {}).get("imported_name")  # an import's name for its trace, untrusted
        name = header.scenario or header.agent or (given if isinstance(given, str) and given.strip() else None)
        name = name or os.path.basename(path)  # one_line below scrubs it
        began = stamp_seconds(header.recorded_at)
        row = RunRow(
            path=path,
            name=one_line(name),
            run_id=tally.run_id,
            scenario=header.scenario,
            agent=header.agent,
            parent=header.parent,
            fork_at=header.fork_at if header.parent is not None else None,
            imported=one_line(trace.import_note or _written_by_import(header.model_extra or {})) or None,
            outcome=outcome,
            detail=detail or (one_line(trace.notice) if trace.notice else ""),
            events=len(trace),
            iterations=tally.iterations,
            model_calls=tally.kinds["llm_start"],
            tool_calls=tally.kinds["tool_start"],
            tool_errors=tally.kinds["tool_error"],
            parse_errors=tally.kinds["parse_error"],
            invalid_tools=tally.kinds["invalid_tool"],
            retries=tally.kinds["retry"],
            fallbacks=tally.kinds["fallback"],
            duration=tally.last_t,
            models=tuple(tally.models),
            recorded=began if began is not None else recorded,
            recorded_from_file=began is None,
            size=size,
            kinds=dict(tally.kinds),
            tools=(*tally.tools, *tally.unfinished_tools()),
            model_uses=tally.model_uses(),
            scores=latest_by_name(trace.scores),
            event_scores=_event_scores(trace),
        )
    return Summary(row, frozenset(tally.shapes))


def _event_scores(trace: TraceFile) -> tuple[EventScore, ...]:
    """The scores given on one event (an imported child run's feedback), each with that event's kind."""
    found = []
    for score in trace.scores:
        if score.event is not None:
            kind = getattr(trace[score.event], "kind", None) if score.event < len(trace) else None
            found.append(EventScore(event=score.event, kind=kind, name=score.name, value=score.value))
    return tuple(found)


def _written_by_import(extra: dict[str, Any]) -> str:
    """What a trace written by `loopscope import` came from ("" for any other): its header's own words."""
    source, form = extra.get("imported_from"), extra.get("import_format")
    if not isinstance(source, str) or not source:
        return ""
    return f"{WRITTEN_BY_IMPORT} {os.path.basename(source)}" + (f" ({form})" if isinstance(form, str) else "")


def _outcome(tally: RunTally, warning: str | None, cut_mid_line: bool) -> tuple[Outcome, str]:
    """A limit wins over the chain_end that follows it; a run with no end was interrupted, or truncated
    when its last line was cut off in the middle."""
    if tally.limit is not None:
        return tally.limit
    if tally.ending is not None:
        return tally.ending
    return ("truncated" if cut_mid_line else "interrupted"), one_line(_without_path(warning or "no chain_end"))


def _kept_words(outcome: Outcome, detail: str) -> str:
    """The note of a run whose recording was interrupted: what the events alone would have said too."""
    ran = f"; its events end {outcome}" + (f" ({detail})" if detail else "") if outcome != "interrupted" else ""
    said = f": {detail}" if outcome == "interrupted" and detail else ""
    return one_line(f"the recording was interrupted (the partial trace it kept){said}{ran}")


def _without_path(warning: str) -> str:
    """The reader's warning starts with the file's path, which has its own column."""
    head, colon, rest = warning.partition(": ")
    return rest if colon and ("/" in head or head.endswith(".jsonl")) else warning


def _ends_mid_line(path: os.PathLike[str] | str) -> bool:
    with open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        if handle.tell() == 0:
            return False
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) != b"\n"
