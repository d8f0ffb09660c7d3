"""Forking a recorded run: replay it up to one model reply or tool result, change that, and run on."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from executor import AgentExecutor, ChatModel, ModelReply, Tool, reply_from_llm_end
from executor.events import Event, LLMEndEvent
from executor.models.messages import Message, render_messages

from ..agents.scenario_registry import UnknownAgent
from ..agents.user_agent import user_build
from ..trace.transitions import Trace
from ..trace.writer import TraceWriter
from .builder import replayed_executor
from .changed_prompts import AFTER_FORK, ANSWERED, ChangedPrompt, PromptChanged, prompt_difference
from .recorded_answers import (
    CallCursor,
    ReplayDivergence,
    answer_of,
    answered_calls,
    check_prompt,
    is_mcp_tool,
    recorded_calls,
    same_input,
    tool_call_cursor,
    tool_copy,
)
from .recorded_call import ModelCall, ToolCall
from .verify import Rerun, recorded_entry, recorded_inputs, run_collecting

MODEL_KINDS = ("llm_start", "llm_end")
TOOL_KINDS = ("tool_start", "tool_end", "tool_error")


class ForkError(ValueError):
    """The fork cannot be made as asked (wrong event, both or neither substitution given)."""


class RecordingExhausted(RuntimeError):
    """After the fork point the run asked for a model reply the recording no longer has."""


@dataclass
class ForkState:
    """Shared by the forked model and tools: has the run reached the substituted point yet?"""

    fork_seq: int  # the recorded llm_start / tool_start of the substituted call
    forked: bool = False


def _locate(
    events: Sequence[Event], at: int, reply: str | None, observation: str | None
) -> tuple[ModelCall | ToolCall, str | None]:
    """The recorded call event `at` belongs to, and the tool name for an observation fork."""
    if (reply is None) == (observation is None):
        raise ForkError("give exactly one of a new reply (--reply) or a new observation (--observation)")
    if not 0 <= at < len(events):
        raise ForkError(f"there is no event {at}; this trace has events 0..{len(events) - 1}")
    event = events[at]
    kinds, tool = (MODEL_KINDS, None) if reply is not None else (TOOL_KINDS, getattr(event, "tool", None))
    if event.kind not in kinds:
        wanted = (
            "a model call (llm_start or llm_end)"
            if reply is not None
            else "a tool call (tool_start, tool_end or tool_error)"
        )
        options = ", ".join(str(e.seq) for e in events if e.kind == kinds[0])
        raise ForkError(
            f"event {at} is {event.kind}; {'--reply' if reply is not None else '--observation'} "
            f"needs {wanted}; such calls start at events {options or 'none'}"
        )
    lane = getattr(event, "tool_call_id", None)  # concurrent calls overlap: the event's own call
    for call in recorded_calls(events, tool=tool):
        if (
            call.start.seq <= at
            and (call.end is None or at <= _last_seq(events, call.end))
            and getattr(call.start, "tool_call_id", None) == lane
        ):
            return call, tool
    raise ForkError(f"event {at} belongs to no complete recorded call; pick another event")


def _last_seq(events: Sequence[Event], end: Event) -> int:
    """The seq of a call's last event: its end, or the tool_end that follows a handled tool_error (its
    observation is the error's), which the loop emits right after it in the same lane."""
    if end.kind != "tool_error" or not end.handled:
        return end.seq
    lane = getattr(end, "tool_call_id", None)
    for later in events[end.seq + 1 :]:
        if getattr(later, "tool_call_id", None) == lane:
            return later.seq if later.kind == "tool_end" and later.tool == end.tool else end.seq
    return end.seq


def change_for(kind: str) -> str | None:
    """What a fork at an event of this kind replaces: "reply", "observation", or None (no fork there)."""
    return "reply" if kind in MODEL_KINDS else "observation" if kind in TOOL_KINDS else None


def recorded_answer(events: Sequence[Event], at: int) -> tuple[str, str]:
    """("reply" or "observation", the recorded text) that a fork at event `at` would replace.

    The text is "" when the run died inside that call. Raises ForkError like fork_trace would.
    """
    change = change_for(events[at].kind) if 0 <= at < len(events) else None
    if change is None:
        where = f"event {at} is {events[at].kind}" if 0 <= at < len(events) else f"there is no event {at}"
        raise ForkError(
            f"{where}; a fork replaces a model reply ({', '.join(MODEL_KINDS)}) "
            f"or a tool observation ({', '.join(TOOL_KINDS)})"
        )
    call, _tool = _locate(events, at, "" if change == "reply" else None, "" if change == "observation" else None)
    text = getattr(call.end, "text" if change == "reply" else "observation", None) if call.end else None
    return change, text if isinstance(text, str) else ""


def _recorded_reply(end: LLMEndEvent) -> ModelReply:
    """What the recorded call answered: its text, or its tool calls (ids and all) for a tool-calling run."""
    if end.tool_calls:
        return reply_from_llm_end(end)
    return ModelReply(end.text, end.usage, replaced_surrogates=end.replaced_surrogates)


class ForkModel:
    """Strict replay before the fork, the new reply at it, then recorded replies while they fit.

    A recorded reply after the fork point fits a call when it answered the very same prompt
    (a calculator asked the same question). Plan calls are matched in order instead: the next
    recorded plan call stands for this one. When its prompt is the recorded one, its recorded
    reply answers. When it changed (the scratchpad now holds the new reply or observation),
    `after_fork` decides, and `changed` keeps a ChangedPrompt for each: "live" asks
    `live_model`, "stop" raises PromptChanged (the fork ends there), "recording" answers with the
    recorded reply, which was given to another prompt (the fork's outcome may then be stale).
    When nothing is recorded, `live_model` answers, or the run stops with RecordingExhausted.
    """

    def __init__(
        self,
        events: Sequence[Event],
        state: ForkState,
        reply: str | None,
        live_model: ChatModel | None = None,
        after_fork: str = "recording",
    ) -> None:
        calls = recorded_calls(events)
        self.model_name = calls[0].start.model if calls else "fork"
        self.callee = calls[0].start.callee if calls else None  # llm events point where recorded
        self.state, self.reply, self.live_model = state, reply, live_model
        self.after_fork = "live" if live_model is not None and after_fork != "stop" else after_fork
        self.changed: list[ChangedPrompt] = []
        self.calls_made = 0
        self._before = CallCursor([c for c in calls if c.start.seq < state.fork_seq])
        later = [(c.start, c.end) for c in calls if c.start.seq > state.fork_seq and c.end is not None]
        self._plans = deque((start, end) for start, end in later if "plan" in start.frames)
        self._others = [(start, end) for start, end in later if "plan" not in start.frames]
        self._plan_stops = {c.stop for c in calls if "plan" in c.start.frames}

    def _after_fork(self, prompt: str, stop: Sequence[str]) -> LLMEndEvent | None:
        """The recorded reply that answers a call after the fork (None: the live model's turn, or none left)."""
        for index, (start, end) in enumerate(self._others):
            if start.prompt == prompt:
                del self._others[index]
                return end
        if tuple(stop) not in self._plan_stops or not self._plans:
            return None
        start, end = self._plans.popleft()
        if start.prompt == prompt:
            return end
        changed = ChangedPrompt(
            self.calls_made, start.seq, prompt_difference(start.prompt, prompt), ANSWERED[self.after_fork]
        )
        self.changed.append(changed)
        if self.after_fork == "stop":
            raise PromptChanged(changed.sentence())
        return None if self.after_fork == "live" else end

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        self.calls_made += 1
        if not self.state.forked:
            index, call, attempt = self._before.next()
            if call is not None:
                if attempt == 0:
                    check_prompt(call, index + 1, prompt)
                return _recorded_reply(answer_of(call, attempt, f"model call #{index + 1}"))
            if self.reply is None:
                raise ReplayDivergence(
                    "the run left the recording before reaching the fork point",
                    seq=self.state.fork_seq,
                    kind="fork point",
                )
            self.state.forked = True
            return ModelReply(self.reply)
        fit = self._after_fork(prompt, stop)
        if fit is not None:
            return _recorded_reply(fit)
        if self.live_model is not None:
            return self.live_model.generate(prompt, stop)
        raise RecordingExhausted(
            "the fork needs a model reply the recording does not have (no "
            "recorded call was asked this); pass --model to let a live model "
            "answer, or the forked run ends here"
        )

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        """A tool-calling run forks the same way; its recorded llm_start prompt is the rendered messages."""
        if self.live_model is not None and self.state.forked and hasattr(self.live_model, "generate_messages"):
            self.calls_made += 1
            fit = self._after_fork(render_messages(messages), [])
            return (
                _recorded_reply(fit)
                if fit
                else self.live_model.generate_messages(messages, tools, tool_choice, parallel_tool_calls)
            )
        return self.generate(render_messages(messages), [])


class ForkedToolAnswers:
    """Where a tool's answers come from in a forked run: the recording before the fork (for a
    non-deterministic tool), the new observation at it, remaining recorded results after it."""

    def __init__(self, tool: Tool, events: Sequence[Event], state: ForkState, observation: str | None) -> None:
        calls = answered_calls(events, tool)
        self.tool, self.state, self.observation = tool, state, observation
        recorded = not tool.deterministic
        earlier = [c for c in calls if c.start.seq < state.fork_seq]
        self.before = tool_call_cursor(earlier, tool) if recorded else None
        forked_call = next((c for c in calls if c.start.seq == state.fork_seq), None)
        # Concurrent calls of one tool arrive in any order: the substitute goes to the call with the forked
        # input. None when this tool is not the one substituted.
        self.fork_input = forked_call.start.tool_input if observation is not None and forked_call is not None else None
        self.after = deque(
            c.end
            for c in calls
            if recorded and c.start.seq > state.fork_seq and c.end is not None and c.end.kind == "tool_end"
        )

    def answer(self, tool_input: str | dict[str, Any]) -> tuple[bool, Any]:
        """(True, observation) when the cassette or the fork answers; (False, None) to run the tool."""
        if not self.state.forked and self.before is not None:
            index, call, attempt = self.before.next(tool_input)  # a different input diverges here
            if call is not None:
                return True, answer_of(call, attempt, f"call #{index + 1} of tool {self.tool.name!r}").observation
        if not self.state.forked and self.fork_input is not None and same_input(self.tool, self.fork_input, tool_input):
            self.state.forked = True
            return True, self.observation
        if self.state.forked and self.after:
            return True, self.after.popleft().observation
        return False, None


def fork_tool(tool: Tool, events: Sequence[Event], state: ForkState, observation: str | None) -> Tool:
    """`tool` for a forked run; the real tool runs whenever the recording has no answer for it."""
    if is_mcp_tool(tool):
        from .mcp_replay import forked_mcp_tool  # late: only an MCP tool needs it (see cassette_tools)

        return forked_mcp_tool(tool, events, state, observation)
    answers = ForkedToolAnswers(tool, events, state, observation)
    if not tool.emits_events:

        def answer(given: str | dict[str, Any]) -> Any:
            answered, value = answers.answer(given)
            # The real tool through its own invoke: arguments bound, an async tool awaited.
            return value if answered else tool.invoke(given)

        return tool_copy(tool, answer, deterministic=tool.deterministic)

    def forked_keywords(**arguments: Any) -> Any:  # a structured tool gets its validated arguments
        answered, value = answers.answer(arguments)
        return value if answered else tool.func(**arguments)

    def forked(tool_input: str, run: Any = None) -> Any:
        answered, value = answers.answer(tool_input)
        # Hand back the tool's own generator rather than delegating to it from a generator of
        # ours: an extra frame would show up in every event's recorded call stack.
        return _returning(value) if answered else tool.func(tool_input, run)

    copy = Tool(
        name=tool.name,
        description=tool.description,
        func=forked_keywords if tool.takes_keywords else forked,
        return_direct=tool.return_direct,
        handle_tool_error=tool.handle_tool_error,
        deterministic=tool.deterministic,
        retry_policy=tool.retry_policy,
        args_schema=tool.args_schema if tool.takes_keywords else None,
    )
    copy.emits_events = tool.emits_events
    copy.callee = tool.callee  # tool events point at the user's function, not at forked()
    return copy


def _returning(value: Any) -> Any:
    """A generator that yields nothing and returns `value`, for a generator tool's substituted answer."""
    return value
    yield  # makes this a generator function


@dataclass
class ForkResult:
    path: Path
    trace: Trace
    error: BaseException | None  # what the forked run ended with, if it raised
    changed: list[ChangedPrompt] = field(default_factory=list)  # later model calls whose prompt changed

    @property
    def stale(self) -> list[ChangedPrompt]:
        """The changed calls the recording answered anyway: the fork's outcome may be the old one."""
        return [changed for changed in self.changed if changed.answered == "recording"]


def default_fork_path(parent: Path, at: int) -> Path:
    """Next to where the user is, not in fixtures/ (a fork is an experiment, not a fixture)."""
    return Path.cwd() / f"{parent.stem}.fork-{at}.jsonl"


def fork_trace(
    parent: str | os.PathLike[str] | Trace,
    at: int,
    *,
    reply: str | None = None,
    observation: str | None = None,
    output: str | os.PathLike[str] | None = None,
    live_model: ChatModel | None = None,
    redactor: Any = None,
    build_executor: Callable[[ChatModel], AgentExecutor] | None = None,
    agents: Sequence[str] = (),
    after_fork: str = "recording",
) -> ForkResult:
    """Re-run `parent` with the reply or observation of the call at event `at` replaced,
    write the new trace (its header names the parent and the fork point) and return it.

    The agent is `build_executor`, else the scenario the header names, else the header's agent
    if the user trusts it (`agents`: their --agent specs; or their pyproject.toml).
    `after_fork` says what answers a later model call whose prompt changed (see ForkModel):
    "recording" (the default: the recorded reply, and a ChangedPrompt in the result says so),
    "stop", or "live" (implied by `live_model`)."""
    if after_fork not in AFTER_FORK:
        raise ForkError(f"after_fork must be one of {', '.join(AFTER_FORK)}, not {after_fork!r}")
    trace = Trace.of(parent)
    call, _tool = _locate(trace.events, at, reply, observation)
    state = ForkState(call.start.seq)
    parent_run = trace.events[0].run_id if trace.events else "run"
    model = ForkModel(trace.events, state, reply, live_model, after_fork)
    try:
        executor = replayed_executor(
            trace,
            user_build(build_executor) if build_executor else None,
            model=model,
            run_id=f"{parent_run}.fork-{at}",
            tools=lambda tools: [fork_tool(t, trace.events, state, observation) for t in tools],
            agents=agents,
        )
    except UnknownAgent as error:  # an unknown scenario, an untrusted agent, a build that raised
        raise ForkError(error.args[0]) from None
    parent_path = trace.path or Path("<memory>")
    path = Path(output) if output else default_fork_path(parent_path, at)
    header = trace.header
    meta: dict[str, Any] = {
        "scenario": header.scenario,
        "agent": header.agent,
        "agent_hash": header.agent_hash,
        "clock_tick": header.clock_tick,
    }
    change = {"reply": reply} if reply is not None else {"observation": observation}
    if live_model is not None:
        meta["live_after_fork"] = getattr(live_model, "model_name", "live")
    meta["after_fork"] = model.after_fork
    with TraceWriter(
        path, redactor=redactor, **meta, parent=str(parent_path), parent_run_id=parent_run, fork_at=at, fork=change
    ) as writer:
        rerun: Rerun = run_collecting(executor, recorded_inputs(trace), [writer], recorded_entry(trace.events))
    starts = [event.seq for event in rerun.events if event.kind == "llm_start"]
    for changed in model.changed:  # the n-th model call of the fork is its n-th llm_start
        changed.seq = starts[changed.call - 1] if changed.call <= len(starts) else None
    return ForkResult(path, Trace(writer.header, rerun.events, path), rerun.error, model.changed)
