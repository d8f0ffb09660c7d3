"""A cassette made from a trace: recorded replies answer the model, recorded results answer
non-deterministic tools, and any departure from the recording is reported where it happens."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from executor import ModelReply, Tool, ToolError
from executor.events import EventBase

from ..trace.literal_text import scrub
from ..trace.normalise import short_diff


class ReplayDivergence(AssertionError):
    """The re-run asked for something the recording does not have (or not in that form).

    `seq` and `kind` name the recorded event where the run left the recording; `field`,
    `expected` and `actual` say what differed there.
    """

    def __init__(self, problem: str, *, seq: int | None = None, kind: str | None = None,
                 field: str | None = None, expected: Any = None, actual: Any = None) -> None:
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


@dataclass
class RecordedCall:
    """One model or tool call of the recording, with every attempt it took.

    `failures` are the errors of attempts that were retried (one `retry` event each);
    `end` is llm_end / tool_end / tool_error, or None when the run died inside the call.
    """

    start: EventBase
    end: EventBase | None = None
    failures: list[str] = field(default_factory=list)
    final_error: tuple[str, str] | None = None  # (type name, message) of a call that failed for good

    @property
    def stop(self) -> tuple[str, ...]:
        return tuple(getattr(self.start, "stop", ()))

    def attempt(self, number: int) -> Any:
        """The outcome of attempt `number` (0-based): raises the recorded error, or returns None."""
        if number < len(self.failures):
            raise failure_from_text(self.failures[number], retryable=True)
        if self.final_error is not None:
            error_type, message = self.final_error
            if error_type == "RetriesExhausted" and self.failures:
                raise failure_from_text(self.failures[-1], retryable=True)  # the retry loop gives up again
            raise recorded_exception(error_type, message)
        return None


def _close(call: RecordedCall, event: EventBase) -> None:
    if event.kind in ("llm_end", "tool_end"):
        call.end = event
        return
    # A failure. A handled tool_error keeps its event as `end`: replay raises the error again
    # and the tool's own handling turns it into the same observation.
    call.end = event if event.kind == "tool_error" else None
    call.final_error = (event.error_type, event.message)


def recorded_calls(events: Sequence[EventBase], tool: str | None = None) -> list[RecordedCall]:
    """The model calls (tool=None) or the calls of the named tool, in recorded order."""
    calls: list[RecordedCall] = []
    open_call: RecordedCall | None = None
    target = "llm" if tool is None else "tool"
    for event in events:
        kind = event.kind
        if kind == ("llm_start" if tool is None else "tool_start") and (tool is None or event.tool == tool):
            open_call = RecordedCall(event)
            calls.append(open_call)
        elif open_call is None:
            continue
        elif kind == "retry" and event.target == target and (tool is None or event.name == tool):
            open_call.failures.append(event.error)
        elif (kind == "llm_end" and tool is None) or (kind in ("tool_end", "tool_error")
                                                      and getattr(event, "tool", None) == tool):
            _close(open_call, event)
            open_call = None
        elif kind in ("tool_error", "chain_error") and tool is None:
            _close(open_call, event)  # the model call itself failed and took the tool or run with it
            open_call = None
    return calls


def check_prompt(call: RecordedCall, number: int, prompt: str) -> None:
    if prompt != call.start.prompt:
        raise ReplayDivergence(f"the prompt of model call #{number} differs from the recording",
                               seq=call.start.seq, kind="llm_start", field="prompt",
                               expected=call.start.prompt, actual=prompt)


class CallCursor:
    """Which recorded call an incoming attempt belongs to: a retried call asks again, a new call moves on."""

    def __init__(self, calls: list[RecordedCall]) -> None:
        self.calls = calls
        self.index = 0   # the call being answered
        self.tries = 0   # attempts made at it so far

    def next(self) -> tuple[int, RecordedCall | None, int]:
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
    """

    def __init__(self, events: Sequence[EventBase], strict_prompts: bool = True) -> None:
        self.calls = recorded_calls(events)
        self.model_name = self.calls[0].start.model if self.calls else "replay"
        self.callee = self.calls[0].start.callee if self.calls else None  # llm events point where recorded
        self.strict_prompts = strict_prompts
        self.prompts: list[str] = []
        self._attempts = CallCursor(self.calls)
        self._last_seq = events[-1].seq if events else 0

    def generate(self, prompt: str, stop: Sequence[str]) -> ModelReply:
        index, call, attempt = self._attempts.next()
        if attempt == 0:
            self.prompts.append(prompt)
        if call is None:
            raise ReplayDivergence(f"the re-run makes model call #{index + 1}, but the recording "
                                   f"has only {len(self.calls)} model calls", seq=self._last_seq,
                                   kind="end of recording")
        if self.strict_prompts and attempt == 0:
            check_prompt(call, index + 1, prompt)
        call.attempt(attempt)
        return ModelReply(call.end.text, call.end.usage)


# Exception types a recorded failure may name that replay can raise as themselves.
def _known_exception(name: str) -> type[Exception] | None:
    import builtins

    from executor import TransientError

    known = {"ToolError": ToolError, "TransientError": TransientError}
    found = known.get(name, getattr(builtins, name, None))
    return found if isinstance(found, type) and issubclass(found, Exception) else None


def recorded_exception(error_type: str, message: str, retryable: bool = False) -> Exception:
    """An exception that looks like the recorded one: same type name, same message.

    A type replay cannot import (a provider's RateLimitError) becomes a stand-in class of
    that name; when the recording retried it, the stand-in is a TransientError so the
    retry policy decides the same way again.
    """
    known = _known_exception(error_type)
    if known is not None:
        return known(message)
    from executor import TransientError

    base = TransientError if retryable else Exception
    return type(error_type, (base,), {"__module__": "recorded"})(message)


def failure_from_text(text: str, retryable: bool = False) -> Exception:
    """Rebuild an error from a retry event's "Type: message" text."""
    error_type, _, message = text.partition(": ")
    return recorded_exception(error_type or "Exception", message, retryable)


def recorded_tool(tool: Tool, events: Sequence[EventBase]) -> Tool:
    """A copy of `tool` whose answers come, in order, from the recording's tool_end events.

    A recorded failure is raised again (same type name and message), and so are retried
    attempts, so the executor's retry and error handling run just as they did when recording.
    """
    attempts = CallCursor(recorded_calls(events, tool=tool.name))
    last = events[-1].seq if events else 0

    def replay(tool_input: str) -> Any:
        index, call, attempt = attempts.next()
        if call is None:
            raise ReplayDivergence(f"the re-run calls tool {tool.name!r} {index + 1} times, but the "
                                   f"recording has only {index} such calls", seq=last, kind="end of recording")
        if attempt == 0 and tool_input != call.start.tool_input:
            raise ReplayDivergence(f"the input of {tool.name!r} call #{index + 1} differs from the recording",
                                   seq=call.start.seq, kind="tool_start", field="tool_input",
                                   expected=call.start.tool_input, actual=tool_input)
        call.attempt(attempt)
        return call.end.observation

    replayed = Tool(name=tool.name, description=tool.description, func=replay,
                    return_direct=tool.return_direct, handle_tool_error=tool.handle_tool_error,
                    deterministic=False, retry_policy=tool.retry_policy)
    replayed.callee = tool.callee  # tool events point at the user's function, not at replay()
    return replayed


def cassette_tools(tools: Sequence[Tool], events: Sequence[EventBase]) -> list[Tool]:
    """Deterministic tools run for real; the others answer from the recording."""
    return [tool if tool.deterministic else recorded_tool(tool, events) for tool in tools]

