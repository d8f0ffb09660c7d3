"""One file's traces, each converted to events only when it is asked for (a folder of 5,000 is written one at a time)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from executor.events import EventBase

from ..annotations import Score
from ..format_error import TraceFormatError
from .framework_spans import merge_emitter_events
from .langsmith_feedback import langsmith_scores
from .run_events import event_stream_from_root
from .run_tree import rooted
from .scores import langfuse_scores
from .shape import quoted
from .spans import LLM, TOOL, Conversion, Span, TraceInfo, plain_name

TRACE_LISTED = 8  # trace ids a one-line message names; the rest are counted


class ImportProblem(TraceFormatError):
    """A file no importer can read; the message is one line naming what was recognised."""


def describe(spans: list[Span]) -> str:
    llm = sum(s.role == LLM for s in spans)
    tool = sum(s.role == TOOL for s in spans)
    return f"{len(spans)} spans, {llm} LLM, {tool} tool"


@dataclass
class Prepared:
    """A trace's spans linked into one run, before its events are made: enough to name its file."""

    spans: list[Span]  # every span of the trace (BeeAI's event spans merged into their calls)
    merged: int  # how many event spans were merged
    root: Span | None  # the run (None: the trace has no spans)
    warnings: list[str]  # what linking had to guess
    name: str | None  # the trace's name, or its run's (the first frame of its events)


@dataclass
class PendingTrace:
    """A trace of the file: its info and spans until it is converted, then its conversion."""

    info: TraceInfo
    spans: list[Span] | None = None
    conversion: Conversion | None = None
    prepared: Prepared | None = None

    @property
    def name(self) -> str | None:
        if self.conversion is not None:
            return self.conversion.name
        if self.prepared is not None:
            return self.prepared.name
        return self.info.name or next((s.name for s in self.spans or () if s.parent_id is None), None)


@dataclass
class Imported:
    """What an import made of a whole file: its traces in the file's order, converted on demand."""

    path: Path
    format: str
    label: str  # "OTLP JSON", "Langfuse trace", "LangSmith runs"
    warnings: list[str] = field(default_factory=list)  # what the file had that could not be read
    traces: list[PendingTrace] = field(default_factory=list)
    # How the raw scores a span was given become scores; by default the format's own reader's
    # (an OTLP file has none, but Phoenix's span annotations are handed to its spans).
    scorer: Callable[[Iterable[dict[str, Any]]], list[Score]] | None = None

    def __len__(self) -> int:
        return len(self.traces)

    def ids(self) -> list[str | None]:
        return [trace.info.trace_id for trace in self.traces]

    def described(self) -> str:
        """The traces as a one-line list, id (name), for messages."""
        shown = [
            quoted(t.info.trace_id or "?", 36) + (f" ({plain_name(t.name)})" if t.name else "")
            for t in self.traces[:TRACE_LISTED]
        ]
        more = f" and {len(self.traces) - TRACE_LISTED} more" if len(self.traces) > TRACE_LISTED else ""
        return ", ".join(shown) + more

    def prepared(self, index: int) -> Prepared:
        """Trace `index`'s spans linked into its run (once), and the name its conversion will have."""
        trace = self.traces[index]
        if trace.prepared is None:
            spans, merged = merge_emitter_events(trace.spans or [])
            trace.spans = None
            info = trace.info
            for span in spans:  # the session, user and tags the spans name, where the trace names none
                for key, value in (span.trace_fields or {}).items():
                    info.fields.setdefault(key, value)
            root, warnings = rooted(spans, info)
            name = info.name or (root.name if root is not None else None)
            trace.prepared = Prepared(spans, merged, root, warnings, name)
        return trace.prepared

    def converted(self, index: int, keep: bool = True) -> Conversion:
        """Trace `index` as events; without `keep`, its spans and events are let go once returned."""
        trace = self.traces[index]
        if trace.conversion is not None:
            return trace.conversion
        conversion, events = self.streamed(index)
        conversion.events = list(events)
        if keep:
            trace.conversion = conversion
        return conversion

    def streamed(self, index: int) -> tuple[Conversion, Iterator[EventBase]]:
        """Trace `index`'s conversion with no events in it, and its events made one at a time as they
        are iterated (its spans are let go after): a folder import writes a trace of a million spans
        without holding its events. Never kept (converted() keeps)."""
        trace = self.traces[index]
        if trace.conversion is not None:
            return trace.conversion, iter(trace.conversion.events)
        prepared, info = self.prepared(index), trace.info
        trace.prepared = None
        events: Iterator[EventBase] = iter(())
        plain = None
        placed: list[tuple[int, list[dict[str, Any]]]] = []
        if prepared.root:
            events, plain = event_stream_from_root(prepared.root, f"<{self.path.name}>", info, placed)
        recognised = f"{self.label}: {describe(prepared.spans)}" + (
            f" ({prepared.merged} event spans merged into their calls)" if prepared.merged else ""
        )
        warnings = self.warnings + prepared.warnings
        started = prepared.root.start if prepared.root else None
        conversion = Conversion(
            self.format, recognised, [], warnings, info.trace_id, prepared.name, plain, started=started
        )
        scores = self.scorer or {"langfuse": langfuse_scores, "langsmith": langsmith_scores}.get(self.format)
        conversion.scores = scores(info.scores) if scores else []
        if scores is None:
            return conversion, events
        return conversion, _then_placed(events, placed, scores, conversion.scores)

    def each(self) -> Iterator[Conversion]:
        """Every trace's conversion in turn, each let go as the next is made."""
        for index in range(len(self.traces)):
            yield self.converted(index, keep=False)

    @property
    def conversions(self) -> list[Conversion]:
        return [self.converted(index) for index in range(len(self.traces))]

    def pick(self, trace_id: str | None) -> Conversion:
        """The only trace, or the one `trace_id` names (its whole id or the start of it); else a
        one-line ImportProblem listing the ids."""
        if trace_id is not None:
            chosen = [i for i, t in enumerate(self.traces) if (t.info.trace_id or "").startswith(trace_id)]
            exact = [i for i in chosen if self.traces[i].info.trace_id == trace_id]
            chosen = exact or chosen
            if len(chosen) != 1:
                what = "no trace" if not chosen else f"{len(chosen)} traces"
                raise ImportProblem(self.path, None, f"{what} with id {quoted(trace_id)}; it holds {self.described()}")
            return self.converted(chosen[0])
        if len(self.traces) > 1:
            raise ImportProblem(
                self.path,
                None,
                f"holds {len(self.traces)} traces: {self.described()}; pick one with "
                "`loopscope debug FILE --trace-id ID` (import and diff take it too), or "
                "`loopscope import FILE -o FOLDER` writes each",
            )
        return self.converted(0)


def _then_placed(
    events: Iterator[EventBase],
    placed: list[tuple[int, list[dict[str, Any]]]],
    scores: Callable[[Iterable[dict[str, Any]]], list[Score]],
    into: list[Score],
) -> Iterator[EventBase]:
    """The events, and once they are all made, the scores given on one of the run's spans added to
    `into` (the conversion's scores, which every writer appends after the events), each with the seq
    of the event its span became: that seq is known only when the event is made."""
    yield from events
    for seq, raw in placed:
        into += [replace(score, event=seq) for score in scores(raw)]
