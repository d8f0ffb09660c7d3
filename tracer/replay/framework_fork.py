"""Forking a framework agent's recorded run: its real graph re-run offline with one reply or tool result changed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from executor.events import Event, LLMEndEvent, LLMStartEvent

from ..agents.framework_agent import FrameworkAgent
from ..agents.frameworks import RecordedReply, recorded_limits, recorded_replies, state_argument
from ..trace.run_inputs import question_of
from ..trace.transitions import Trace
from .changed_prompts import ANSWERED, ChangedPrompt, PromptChanged, prompt_difference
from .fork import ForkError, ForkResult, RecordingExhausted, default_fork_path

MODEL_KINDS = ("llm_start", "llm_end")
TOOL_KINDS = ("tool_start", "tool_end", "tool_error")


@dataclass
class ForkAnswers:
    """Answers the forked run's model calls: recorded replies before the fork point, the new reply at it, and
    after it the recorded reply only where the prompt is the recorded one (else as `after_fork` says)."""

    starts: list[LLMStartEvent]
    replies: list[RecordedReply]
    fork_seq: int  # the event the change is made at
    new_reply: str | None
    after_fork: str = "recording"
    changed: list[ChangedPrompt] = field(default_factory=list)
    calls: int = 0

    def __call__(self, prompt: str) -> RecordedReply:
        self.calls += 1
        index = self.calls - 1
        if index >= len(self.starts):
            raise RecordingExhausted(
                "the fork needs a model reply the recording does not have (the graph asked the model "
                f"{self.calls} times, the recording {len(self.starts)}); the forked run ends here"
            )
        start = self.starts[index]
        if self.new_reply is not None and _call_holds(start, self.fork_seq, self.starts):
            return RecordedReply(self.new_reply)
        if start.seq > self.fork_seq and start.prompt != prompt:
            changed = ChangedPrompt(
                self.calls, start.seq, prompt_difference(start.prompt, prompt), ANSWERED[self.after_fork]
            )
            self.changed.append(changed)
            if self.after_fork == "stop":
                raise PromptChanged(changed.sentence())
        return self.replies[index]


def _call_holds(start: LLMStartEvent, seq: int, starts: Sequence[LLMStartEvent]) -> bool:
    """Is event `seq` this model call's llm_start or its llm_end (before the next call starts)?"""
    later = [s.seq for s in starts if s.seq > start.seq]
    return start.seq <= seq < (later[0] if later else float("inf"))


def _starts(events: Sequence[Event]) -> list[LLMStartEvent]:
    return [e for e in events if isinstance(e, LLMStartEvent)]


def _made_inside(events: Sequence[Event], call_id: str) -> set[int]:
    """The model calls (their places among the run's) that tool call `call_id`'s code made (an agent the tool
    delegates to), and the tool calls those asked for made in turn: given a new result, the call runs none."""
    inside, made, index, skipping = {call_id}, set(), -1, False
    for event in events:
        if isinstance(event, LLMStartEvent):
            index += 1
            skipping = event.tool_call_id in inside
            if skipping:
                made.add(index)
        elif isinstance(event, LLMEndEvent) and skipping:
            inside.update(call.id for call in event.tool_calls or ())
    return made


def _locate(events: Sequence[Event], at: int, reply: str | None, observation: str | None) -> Event:
    if (reply is None) == (observation is None):
        raise ForkError("give either a new reply (--reply) or a new observation (--observation)")
    event = next((e for e in events if e.seq == at), None)
    if event is None:
        raise ForkError(f"there is no event {at} (the run has events 0 to {len(events) - 1})")
    wanted = MODEL_KINDS if reply is not None else TOOL_KINDS
    if event.kind not in wanted:
        what = "a model call's llm_start or llm_end" if reply is not None else "a tool call's tool_start or tool_end"
        raise ForkError(f"event {at} is a {event.kind}; --{'reply' if reply else 'observation'} needs {what}")
    if observation is not None and not getattr(event, "tool_call_id", None):
        raise ForkError(f"event {at}'s tool call has no id, so the re-run cannot tell it from the others")
    return event


def fork_framework_trace(
    trace: Trace,
    at: int,
    agent: FrameworkAgent,
    *,
    reply: str | None = None,
    observation: str | None = None,
    output: str | Path | None = None,
    after_fork: str = "recording",
) -> ForkResult:
    """Re-run the user's framework agent offline with the reply or tool result at event `at` changed, and write
    the fork (its header names the parent and the fork point)."""
    event = _locate(trace.events, at, reply, observation)
    call_id = getattr(event, "tool_call_id", None)
    never = _made_inside(trace.events, str(call_id)) if observation is not None else set()
    starts = [e for i, e in enumerate(_starts(trace.events)) if i not in never]
    replies = [r for i, r in enumerate(recorded_replies(trace.events)) if i not in never]
    answers = ForkAnswers(starts, replies, at, reply, after_fork)
    observations = {str(call_id): observation} if observation is not None else None
    first = trace.events[0]
    inputs = dict(getattr(first, "inputs", {}) or {})
    question, state = question_of(inputs), state_argument(agent.adapter, inputs)
    limits = recorded_limits(agent.adapter, getattr(first, "settings", None))  # the recording's max_turns
    parent = trace.path or Path("<memory>")
    path = Path(output) if output else default_fork_path(parent, at)
    meta: dict[str, Any] = {
        **agent.header_meta(),
        "parent": str(parent),
        "parent_run_id": first.run_id,
        "fork_at": at,
        "fork": {"reply": reply} if reply is not None else {"observation": observation},
        "after_fork": after_fork,
    }
    error: BaseException | None = None
    try:
        agent.adapter.record(agent.agent, question, path, answers, meta, observations, **state, **limits)
    except Exception as raised:  # PromptChanged, RecordingExhausted, or the agent's own failure: in the trace
        error = raised
    fork = Trace.load(path)
    new_starts = [e.seq for e in fork.events if isinstance(e, LLMStartEvent)]
    for changed in answers.changed:
        changed.seq = new_starts[changed.call - 1] if changed.call <= len(new_starts) else None
    return ForkResult(path, fork, error, answers.changed)
