"""What a trace answers in a replay: recorded replies answer the model, recorded results answer tools."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar, overload

from executor import ChatModel, ModelReply, Tool, reply_from_llm_end
from executor.events import Event, ToolEndEvent, ToolErrorEvent
from executor.models.messages import Message, render_messages
from executor.recovery.model_chain import restore_model
from executor.tools.args import ToolInputError, parse_tool_input

from ..trace.literal_text import scrub
from ..trace.normalise import short_diff
from .model_calls import calls_by_model, model_calls_in_order
from .recorded_breaker import use_recorded_breakers
from .recorded_call import End, ModelCall, RecordedCall, ToolCall, failure_from_text, recorded_exception
from .tool_lanes import follow_tool_calls

__all__ = [
    "CallCursor",
    "LaneCursor",
    "RecordedCall",
    "ReplayDivergence",
    "ReplayModel",
    "answered_calls",
    "cassette_tools",
    "check_prompt",
    "failure_from_text",
    "recorded_calls",
    "recorded_exception",
    "recorded_tool",
    "replay_model",
    "same_input",
    "tool_call_cursor",
    "tool_copy",
]


class ReplayDivergence(AssertionError):
    """The re-run asked for something the recording does not have (or not in that form).

    `seq` and `kind` name the recorded event where the run left the recording; `field`,
    `expected` and `actual` say what differed there.
    """

    def __init__(
        self,
        problem: str,
        *,
        seq: int | None = None,
        kind: str | None = None,
        field: str | None = None,
        expected: Any = None,
        actual: Any = None,
    ) -> None:
        self.problem, self.seq, self.kind = problem, seq, kind
        self.field, self.expected, self.actual = field, expected, actual
        super().__init__(self._message())

    def _message(self) -> str:
        where = f"event {self.seq} ({self.kind}): " if self.seq is not None else ""
        text = where + self.problem
        if isinstance(self.expected, str) and isinstance(self.actual, str):
            text += "\n" + short_diff(self.expected, self.actual)
        elif self.field is not None:
            text += f"\n  recorded: {self.expected!r}\n  re-run:   {self.actual!r}"
        return scrub(text)


def _close(call: ToolCall, event: ToolEndEvent | ToolErrorEvent) -> None:
    if event.kind == "tool_end":
        call.end = event
        return
    # A failure. A handled tool_error keeps its event as `end`: replay raises the error again
    # and the tool's own handling turns it into the same observation.
    call.end = event
    call.final_error = (event.error_type, event.message)


@overload
def recorded_calls(events: Sequence[Event], tool: None = None) -> list[ModelCall]: ...
@overload
def recorded_calls(events: Sequence[Event], tool: str) -> list[ToolCall]: ...
@overload
def recorded_calls(events: Sequence[Event], tool: str | None) -> list[ModelCall] | list[ToolCall]: ...
def recorded_calls(events: Sequence[Event], tool: str | None = None) -> list[ModelCall] | list[ToolCall]:
    """The model calls (tool=None: every model's, in recorded order) or the calls of the named tool.

    Concurrent tool calls interleave their events, so a tool call is followed in its own lane:
    the events carrying its tool_call_id (None for the calls of a sequential run).
    """
    if tool is None:
        return model_calls_in_order(events)
    calls: list[ToolCall] = []
    for open_call, event in follow_tool_calls(events, tool, RecordedCall, calls):
        if event.kind == "retry" and event.target == "tool" and event.name == tool:
            open_call.failures.append(event.error)
        elif (event.kind == "tool_end" or event.kind == "tool_error") and event.tool == tool:
            _close(open_call, event)
    return calls


def check_prompt(call: ModelCall, number: int, prompt: str) -> None:
    if prompt != call.start.prompt:
        if getattr(call.start, "messages", None) is not None:
            raise ReplayDivergence(
                f"the messages of model call #{number} differ from the recording",
                seq=call.start.seq,
                kind="llm_start",
                field="messages",
                expected=call.start.prompt,
                actual=prompt,
            )
        raise ReplayDivergence(
            f"the prompt of model call #{number} differs from the recording",
            seq=call.start.seq,
            kind="llm_start",
            field="prompt",
            expected=call.start.prompt,
            actual=prompt,
        )


class CallCursor:
    """Which recorded call an incoming attempt belongs to: a retried call asks again, a new call moves on."""

    def __init__(self, calls: list[ModelCall]) -> None:
        self.calls = calls
        self.index = 0  # the call being answered
        self.tries = 0  # attempts made at it so far

    def next(self) -> tuple[int, ModelCall | None, int]:
        """(call number 0-based, the call or None when the recording ran out, attempt number)."""
        index = self.index
        if index >= len(self.calls):
            return index, None, 0
        call, attempt = self.calls[index], self.tries
        if attempt >= len(call.failures):
            self.index, self.tries = index + 1, 0
        else:
            self.tries += 1
        return index, call, attempt


class ReplayModel:
    """Answers model call n with the text of the recording's n-th llm_end.

    The prompt must equal the recorded llm_start prompt; otherwise the loop has changed and
    the run diverges at that event. Recorded failed attempts fail again, so retries replay.
    With `model_name`, only that model's calls of a run with fallbacks (see replay_model).
    """

    def __init__(self, events: Sequence[Event], strict_prompts: bool = True, model_name: str | None = None) -> None:
        self.calls = recorded_calls(events) if model_name is None else calls_by_model(events).get(model_name, [])
        starts = [event for event in events if event.kind == "llm_start"]
        self.model_name = model_name or (starts[0].model if starts else "replay")
        self.callee = starts[0].callee if starts else None  # llm events point where recorded
        self.strict_prompts = strict_prompts
        self.prompts: list[str] = []
        # Strict: a call is matched by its prompt, so nested calls of concurrent tools replay in any order.
        self._attempts: LaneCursor[ModelCall] | CallCursor = (
            LaneCursor(
                self.calls,
                lambda call, prompt: call.start.prompt == prompt,
                lambda index, call, prompt: check_prompt(call, index + 1, prompt),
            )
            if strict_prompts
            else CallCursor(self.calls)
        )
        self._last_seq = events[-1].seq if events else 0
        self._whose = f" of {model_name!r}" if model_name else ""

    def __repr__(self) -> str:
        return f"ReplayModel({self.model_name!r}, {len(self.calls)} calls)"

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        if isinstance(self._attempts, LaneCursor):
            index, call, attempt = self._attempts.next(prompt)
        else:
            index, call, attempt = self._attempts.next()
        if attempt == 0:
            self.prompts.append(prompt)
        if call is None:
            raise ReplayDivergence(
                f"the re-run makes model call #{index + 1}{self._whose}, but the recording "
                f"has only {len(self.calls)} model calls{self._whose}",
                seq=self._last_seq,
                kind="end of recording",
            )
        if self.strict_prompts and attempt == 0:
            check_prompt(call, index + 1, prompt)
        end = answer_of(call, attempt, f"model call #{index + 1}{self._whose}")
        if end.tool_calls:
            return reply_from_llm_end(end)
        return ModelReply(
            end.text,
            end.usage,
            finish_reason=end.finish_reason,
            refusal=end.refusal,
            replaced_surrogates=end.replaced_surrogates,
        )

    def generate_messages(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict],
        tool_choice: str = "auto",
        parallel_tool_calls: bool = True,
    ) -> ModelReply:
        """The tool-calling path: the recorded llm_end answers (its tool calls and ids included).

        The messages are checked as prompts are, through their rendering (the llm_start `prompt`
        field), so a changed history diverges at the call whose messages differ.
        """
        return self.generate(render_messages(messages), [])


def replay_model(events: Sequence[Event], strict_prompts: bool = True, real_time: bool = False) -> ChatModel:
    """The model that re-executes a recording: a ReplayModel, or, when the run had fallbacks or
    breakers (chain_start's settings["model_chain"]), the same chain rebuilt around one ReplayModel
    per model, with new breakers in the recorded states (never the process's shared ones).

    real_time: the run was recorded on the system clock (a live run), so the breakers decide as
    recorded instead of by the replay's clock (see recorded_breaker.py).
    """
    first = events[0] if events else None
    chain = first.settings.get("model_chain") if first is not None and first.kind == "chain_start" else None
    if not chain:
        return ReplayModel(events, strict_prompts)
    model = restore_model(chain, lambda name: ReplayModel(events, strict_prompts, model_name=name))
    return use_recorded_breakers(model, events) if real_time else model


def answered_calls(events: Sequence[Event], tool: Tool) -> list[ToolCall]:
    """The recorded calls of `tool` that reached its function: a refused input (ToolInputError)
    never did, and a replayed copy refuses that input again by itself."""
    return [
        call
        for call in recorded_calls(events, tool=tool.name)
        if getattr(call.end, "error_type", None) != "ToolInputError"
    ]


def same_input(tool: Tool, recorded: str, given: str | dict[str, Any]) -> bool:
    """Whether a re-run's call has the recorded input: the text, or for a structured tool the
    validated arguments (so `{"a":1}` and `{"a": 1}` are the same call)."""
    if isinstance(given, str):
        return given == recorded
    try:
        return parse_tool_input(tool.args_schema, recorded) == given
    except ToolInputError:
        return False


def tool_copy(tool: Tool, answer: Callable[[Any], Any], deterministic: bool) -> Tool:
    """A Tool like `tool` (schema, error handling, retry policy, callee) whose calls go to
    `answer(tool_input or the arguments dict)`, which may return an awaitable."""
    call: Callable[..., Any]  # one name, two signatures: a structured tool takes keywords, the others a text
    if tool.takes_keywords:

        def call(**arguments: Any) -> Any:
            return answer(arguments)
    else:

        def call(tool_input: str) -> Any:
            return answer(tool_input)

    copy = Tool(
        name=tool.name,
        description=tool.description,
        func=call,
        return_direct=tool.return_direct,
        handle_tool_error=tool.handle_tool_error,
        deterministic=deterministic,
        retry_policy=tool.retry_policy,
        args_schema=tool.args_schema if tool.takes_keywords else None,
    )
    copy.callee = tool.callee  # tool events point at the user's function, not at the copy
    return copy


def answer_of(call: RecordedCall[Any, End], attempt: int, what: str) -> End:
    """Attempt `attempt` of a recorded call: its recorded error raised again, or the event that ended it.
    A recording that stops inside the call (the run was killed there) has no answer to give."""
    call.attempt(attempt)
    if call.end is None:
        raise ReplayDivergence(
            f"the recording stops inside {what}, so it has no answer for it",
            seq=call.start.seq,
            kind="end of recording",
        )
    return call.end


class _Attempted(Protocol):
    """A recorded call as LaneCursor counts it: the attempts that failed and were tried again."""

    @property
    def failures(self) -> Sequence[Any]: ...


Call = TypeVar("Call", bound=_Attempted)


class LaneCursor(Generic[Call]):
    """Which recorded call an incoming attempt belongs to, when calls may run concurrently.

    Calls of one reply run at once, so their attempts (and the model calls nested in them)
    arrive in any order: an attempt goes to the earliest unfinished recorded call that was
    asked the same thing (a retried call asks again, a new one moves on). When none was, the
    run has left the recording at the earliest unfinished call: `diverge` raises there.
    Sequential runs get the recorded order, as with CallCursor.
    """

    def __init__(
        self,
        calls: list[Call],
        asked: Callable[[Call, Any], bool],
        diverge: Callable[[int, Call, Any], None],
    ) -> None:
        self.calls, self.asked, self.diverge = calls, asked, diverge
        self.tries = [0] * len(calls)
        self.done = [False] * len(calls)
        self._lock = threading.Lock()  # concurrent calls ask from their worker threads

    def next(self, question: Any) -> tuple[int, Call | None, int]:
        """(call number 0-based, the call or None when the recording ran out, attempt number)."""
        with self._lock:
            open_calls = [i for i, done in enumerate(self.done) if not done]
            if not open_calls:
                return len(self.calls), None, 0
            index = next((i for i in open_calls if self.asked(self.calls[i], question)), None)
            if index is None:
                self.diverge(open_calls[0], self.calls[open_calls[0]], question)
                index = open_calls[0]  # diverge did not object: take the calls in order
            call, attempt = self.calls[index], self.tries[index]
            self.tries[index] += 1
            if attempt >= len(call.failures):
                self.done[index] = True
            return index, call, attempt


def tool_call_cursor(calls: list[ToolCall], tool: Tool) -> LaneCursor[ToolCall]:
    """A tool's recorded calls, matched by input (validated arguments for a structured tool)."""

    def diverge(index: int, call: ToolCall, tool_input: Any) -> None:
        raise ReplayDivergence(
            f"the input of {call.start.tool!r} call #{index + 1} differs from the recording",
            seq=call.start.seq,
            kind="tool_start",
            field="tool_input",
            expected=call.start.tool_input,
            actual=tool_input if isinstance(tool_input, str) else json.dumps(tool_input, ensure_ascii=False),
        )

    return LaneCursor(calls, lambda call, given: same_input(tool, call.start.tool_input, given), diverge)


def recorded_tool(tool: Tool, events: Sequence[Event]) -> Tool:
    """A copy of `tool` whose answers come from the recording's tool_end events.

    A recorded failure is raised again (same type name and message), and so are retried
    attempts, so the executor's retry and error handling run just as they did when recording.
    The copy keeps the tool's argument schema, so a structured tool's input is validated (and a
    bad one refused) just as it was.
    """
    attempts = tool_call_cursor(answered_calls(events, tool), tool)
    last = events[-1].seq if events else 0

    def replay(given: str | dict[str, Any]) -> Any:
        index, call, attempt = attempts.next(given)
        if call is None:
            raise ReplayDivergence(
                f"the re-run calls tool {tool.name!r} {index + 1} times, but the recording has only {index} such calls",
                seq=last,
                kind="end of recording",
            )
        return answer_of(call, attempt, f"call #{index + 1} of tool {tool.name!r}").observation

    return tool_copy(tool, replay, deterministic=False)


def cassette_tools(tools: Sequence[Tool], events: Sequence[Event]) -> list[Tool]:
    """Deterministic tools run for real; the others answer from the recording. (An MCP tool's calls are
    answered through the tool itself, by mcp_replay.replayed_mcp_tool: replayed_executor does that.)"""
    return [tool if tool.deterministic else recorded_tool(tool, events) for tool in tools]


def is_mcp_tool(tool: Tool) -> bool:
    """An mcp_tools tool. Without its module loaded no tool can be one, so a replay of plain tools loads none of it."""
    module = sys.modules.get("executor.tools.mcp_tool")
    return module is not None and isinstance(tool, module.McpTool)
