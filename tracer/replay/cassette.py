"""Record modes (none, once, rewrite, as in pytest-recording) and the Cassette that records or replays a run."""

from __future__ import annotations

import enum
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


class RecordMode(str, enum.Enum):
    """none: replay only, never call a live model (the default, so tests stay offline).
    once: record when the cassette is missing, otherwise replay.
    rewrite: record every time, replacing the cassette."""

    NONE = "none"
    ONCE = "once"
    REWRITE = "rewrite"

    @classmethod
    def parse(cls, value: str | RecordMode | None) -> RecordMode:
        if isinstance(value, cls):
            return value
        if not value:
            return cls.NONE
        try:
            return cls(value.lower())
        except ValueError:
            raise ValueError(f"unknown record mode {value!r}; use one of: {', '.join(m.value for m in cls)}") from None


class CassetteMissing(LookupError):
    """Record mode none was asked to replay a cassette that does not exist."""


def _hidden_when_short(excinfo: Any) -> bool:
    """pytest's __tracebackhide__ for the frames below: left out when the pytest plugin marks the failure
    as told in full by its message (pytest's default style and --tb=short; --tb=long shows them)."""
    return bool(getattr(excinfo.value, "told_by_message", False))


def should_record(mode: RecordMode, cassette: str | os.PathLike[str], record_with: str = "") -> bool:
    """True when this run must call the live model and write the cassette; False to replay it.
    `record_with`: the command that records it (default: the pytest option alone)."""
    __tracebackhide__ = _hidden_when_short
    path = Path(cassette)
    if mode is RecordMode.REWRITE:
        return True
    if path.exists():
        return False
    if mode is RecordMode.ONCE:
        return True
    raise CassetteMissing(
        f"no cassette at {shown(path)}; record it with {record_with or '--loopscope-record=once'} "
        "(or `loopscope record SCENARIO -o FILE` for a tutorial scenario)"
    )


def shown(path: Path) -> Path:
    """`path` as the user would type it: relative to the working directory when it is inside it."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except (ValueError, OSError):
        return path


def _model_from(live_model: Any) -> Any:
    """A model, or a zero-argument factory for one (so replays never even build a live client)."""
    return live_model if hasattr(live_model, "generate") else live_model()


class Cassette:
    """One trace file that a test's agent run is recorded to or replayed from.

    `run(build_executor, inputs, live_model=...)` builds the executor with a model, runs it
    and returns the run as a Trace. Replaying, the model is the recording and the tools
    that are not deterministic answer from it; the re-run must match the recording (volatile
    fields aside) or ReplayDivergence names the first event that differs. Recording, the
    live model answers and the trace is written atomically with secrets redacted.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        mode: RecordMode | str = RecordMode.NONE,
        redactor: Any = None,
        meta: dict[str, Any] | None = None,
        live_model: Any = None,
        rerun: str = "",
    ) -> None:
        self.path = Path(path)
        self.mode = RecordMode.parse(mode)
        self.redactor = redactor
        self.meta = dict(meta or {})
        self.live_model = live_model  # what run() records with when it is given none (the plugin's configured one)
        self.rerun = rerun  # the command that runs this test again, e.g. "pytest 'tests/test_a.py::test_b'"
        self.recorded: bool | None = None  # after run(): True if it recorded, False if it replayed

    def record_with(self, mode: str) -> str:
        """The command (or, outside pytest, the option) that records this cassette in `mode`."""
        return f"`{self.rerun} --loopscope-record={mode}`" if self.rerun else f"--loopscope-record={mode}"

    def run(self, build_executor: Callable[[Any], Any], inputs: dict[str, Any], live_model: Any = None) -> Any:
        __tracebackhide__ = _hidden_when_short
        if should_record(self.mode, self.path, self.record_with("once")):
            live_model = live_model if live_model is not None else self.live_model
            if live_model is None:
                raise CassetteMissing(
                    f"record mode {self.mode.value} wants to record {shown(self.path)}, "
                    "but no live_model was given to run()"
                )
            return self._record(build_executor(_model_from(live_model)), inputs)
        return self._replay(build_executor, inputs)

    def run_agent(self, agent: Any, question: str | dict[str, Any], max_turns: int | None = None) -> Any:
        """Run a framework's agent (a compiled LangGraph graph, an Agents SDK or pydantic-ai Agent) on `question`
        as a cassette: recording, its own model answers and the trace is written; replaying, its graph and tools
        run for real with every model call answered from the recording, and ReplayDivergence names the first
        event that differs. `max_turns` is the agent's own turn limit as the app sets it (the Agents SDK's
        max_turns, pydantic-ai's request_limit, LangGraph's recursion_limit). What the agent raised is the
        returned trace's `error`, recording and replaying alike, as `run` does for loopscope's own agents."""
        __tracebackhide__ = _hidden_when_short
        from ..agents.framework_agent import FrameworkAgent
        from ..agents.frameworks import adapter_for, state_argument
        from ..trace.transitions import Trace  # late: see _record
        from .framework_rerun import compare_framework_runs, rerun_framework_agent
        from .recorded_answers import ReplayDivergence

        adapter = adapter_for(agent)
        if adapter is None:
            raise TypeError(
                "run_agent takes a framework's agent (a compiled LangGraph graph, an Agents SDK or pydantic-ai "
                f"Agent), not {type(agent).__name__}; "
                "for loopscope's own agents use run(build, inputs)"
            )
        framework_agent = FrameworkAgent(self.meta.get("agent", type(agent).__name__), agent, adapter)
        state = state_argument(adapter, question)  # a LangGraph graph may be run on its input state
        if isinstance(question, dict) and not state:
            raise TypeError(f"run_agent takes a question (text) for a {adapter.name} agent, not a dict")
        limits = _turn_limit(adapter, max_turns)
        if should_record(self.mode, self.path, self.record_with("once")):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            asked = question if isinstance(question, str) else ""
            meta = {**self.meta, "framework": adapter.name}
            error: BaseException | None = None
            try:
                adapter.record(agent, asked, self.path, None, meta, **state, **limits)
            except Exception as failure:  # the agent failed: its trace has recorded how, as a replay will
                if not self.path.exists():  # refused before its first event (no model, say): nothing recorded
                    raise
                error = failure
            self.recorded = True
            written = Trace.load(self.path)
            return Trace(written.header, written.events, self.path, written.warning, error=error)
        recorded = Trace.load(self.path)
        if recorded.warning:
            raise CassetteMissing(f"{recorded.warning}; record it again with {self.record_with('rewrite')}")
        events, rerun_error = rerun_framework_agent(framework_agent, recorded, limits=limits)
        difference = compare_framework_runs(recorded.events, events)
        if difference is not None:
            raise ReplayDivergence(
                f"the run no longer matches its cassette {shown(self.path)}\n{difference.explain()}\n"
                f"if the change is intended, record it again: {self.record_with('rewrite')}"
            )
        self.recorded = False
        return Trace(recorded.header, events, self.path, error=rerun_error)

    def _record(self, executor: Any, inputs: dict[str, Any]) -> Any:
        # Late, here and in _replay: the pytest plugin imports this module on every test run, and the
        # executor and the replay machinery behind these load only when a test runs a cassette.
        from ..trace.transitions import Trace
        from ..trace.writer import TraceWriter
        from .verify import run_collecting

        tick = getattr(executor.clock, "tick", None)
        meta = {**self.meta, **({"clock_tick": tick} if isinstance(tick, (int, float)) else {})}
        with TraceWriter(self.path, redactor=self.redactor, **meta) as writer:
            rerun = run_collecting(executor, inputs, [writer])
        self.recorded = True
        return Trace(Trace.load(self.path).header, rerun.events, self.path, result=rerun.result, error=rerun.error)

    def _replay(self, build_executor: Callable[[Any], Any], inputs: dict[str, Any]) -> Any:
        __tracebackhide__ = _hidden_when_short
        from ..agents.user_agent import user_build
        from ..trace.transitions import Trace  # late: see _record
        from .builder import replayed_executor
        from .recorded_answers import ReplayDivergence
        from .verify import compare_runs, run_collecting

        recorded = Trace.load(self.path)
        if recorded.warning:
            raise CassetteMissing(f"{recorded.warning}; record it again with {self.record_with('rewrite')}")
        rerun = run_collecting(replayed_executor(recorded, user_build(build_executor)), inputs)
        difference = compare_runs(
            recorded.events, rerun.events, self.redactor, ignore_timing=recorded.header.recorded_in_real_time
        )
        if difference is not None:
            raise ReplayDivergence(
                f"the run no longer matches its cassette {shown(self.path)}\n{difference.explain()}\n"
                f"if the change is intended, record it again: {self.record_with('rewrite')}"
            )
        self.recorded = False
        return Trace(recorded.header, rerun.events, self.path, result=rerun.result, error=rerun.error)


def _turn_limit(adapter: Any, max_turns: Any) -> dict[str, Any]:
    """run_agent's max_turns as the adapter's record takes it; one line for a value or an agent that cannot."""
    if max_turns is None:
        return {}
    if type(max_turns) is not int or max_turns < 1:
        raise ValueError(f"run_agent's max_turns is a whole number of turns, 1 or more, not {max_turns!r}")
    if not getattr(adapter, "takes_max_turns", False):
        raise TypeError(f"run_agent's max_turns is not a turn limit a {adapter.name} agent has")
    return {"max_turns": max_turns}
