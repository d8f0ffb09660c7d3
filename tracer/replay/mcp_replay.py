"""Recorded MCP calls answer a replay offline: each attempt's JSON-RPC id and raw result, or the failure it ended in.

The tool itself runs for real (its arguments checked, its answer read and probed with its extract
paths), only the server is the recording's: so a changed extract path or argument diverges where it
takes effect, and no server process starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from executor import Tool
from executor.events import Event, McpRequestEvent, McpResultEvent, ToolStartEvent
from executor.tools.mcp_errors import MCP_ERRORS
from executor.tools.mcp_tool import McpTool
from executor.tools.mcp_wire import McpAnswer, settled

from .recorded_answers import LaneCursor, ReplayDivergence
from .recorded_call import failure_from_text, recorded_exception
from .tool_lanes import follow_tool_calls

_EXHAUSTED = " attempts: "  # RetriesExhausted's message: "tool 'x' failed after 3 attempts: Type: message"


@dataclass
class McpAttempt:
    """One attempt of a call: the request sent (None when it never was) and its result, or how it failed."""

    request: McpRequestEvent | None = None
    result: McpResultEvent | None = None
    error: tuple[str, str] | None = None


@dataclass
class RecordedMcpCall:
    start: ToolStartEvent
    attempts: list[McpAttempt] = field(default_factory=lambda: [McpAttempt()])
    refused: bool = False  # its input was refused before anything was sent (ToolInputError)

    @property
    def failures(self) -> list[McpAttempt]:
        """The attempts before the last (what LaneCursor counts as retried attempts)."""
        return self.attempts[:-1]

    @property
    def arguments(self) -> dict[str, Any] | None:
        return next((a.request.arguments for a in self.attempts if a.request is not None), None)


@dataclass
class _Pending:
    sent: Any
    answer: Any


def recorded_mcp_calls(events: Sequence[Event], tool: str) -> list[RecordedMcpCall]:
    """The recorded calls of MCP tool `tool`, each with its attempts, followed in its own lane (tool_call_id)."""
    calls: list[RecordedMcpCall] = []
    for call, event in follow_tool_calls(events, tool, RecordedMcpCall, calls):
        last = call.attempts[-1]
        if event.kind == "mcp_request" and event.tool == tool:
            if last.request is not None:
                last = McpAttempt()
                call.attempts.append(last)
            last.request = event
        elif event.kind == "mcp_result":
            last.result = event
        elif event.kind == "retry" and event.target == "tool" and event.name == tool:
            error_type, _, message = event.error.partition(": ")
            last.error = (error_type, message)
            call.attempts.append(McpAttempt())
        elif event.kind == "tool_error" and event.tool == tool:  # its lane closes here (follow_tool_calls)
            call.refused = event.error_type == "ToolInputError"
            if last.result is None and last.error is None:
                last.error = _final_error(event.error_type, event.message)
    return [call for call in calls if not call.refused]


def _final_error(error_type: str, message: str) -> tuple[str, str]:
    """The error the last attempt raised: a RetriesExhausted names it at the end of its message."""
    if error_type == "RetriesExhausted" and _EXHAUSTED in message:
        inner_type, _, inner = message.split(_EXHAUSTED, 1)[1].partition(": ")
        return inner_type, inner
    return error_type, message


def mcp_error(error_type: str, message: str, retried: bool = False) -> Exception:
    """The recorded failure raised again as its own class (an MCP error, a ToolTimeout), or a stand-in."""
    known = MCP_ERRORS.get(error_type)
    if known is not None:
        return known(message)
    return (
        recorded_exception(error_type, message, retried)
        if not retried
        else failure_from_text(f"{error_type}: {message}", retryable=True)
    )


def recorded_answer(attempt: McpAttempt, retried: bool) -> tuple[Any, Any]:
    """(the request id or its failure, the answer or its failure) of one recorded attempt."""
    failure = mcp_error(*attempt.error, retried=retried) if attempt.error else None
    if attempt.request is None:
        error = failure or ReplayDivergence("the recording has no request for this MCP call")
        return error, error
    result = attempt.result
    if result is None:
        return attempt.request.request_id, failure or ReplayDivergence(
            "the recording stops inside this MCP call", seq=attempt.request.seq, kind="mcp_request"
        )
    answer = McpAnswer(result.content, result.structured_content, result.is_error, result.size)
    return attempt.request.request_id, answer


class RecordedMcpCaller:
    """Answers an MCP tool's calls with the recording's, matched by their arguments (concurrent calls in any order)."""

    def __init__(self, label: str, tool: str, calls: list[RecordedMcpCall], last_seq: int) -> None:
        self.label, self.tool, self.calls, self.last_seq = label, tool, calls, last_seq
        self.cursor = LaneCursor(calls, _asked, self._diverge)

    def start_call(self, tool: str, arguments: dict[str, Any], timeout: float) -> _Pending:
        index, call, attempt = self.cursor.next(arguments)
        if call is None:
            raise ReplayDivergence(
                f"the re-run calls MCP tool {tool!r} {index + 1} times, but the recording has only {index} such calls",
                seq=self.last_seq,
                kind="end of recording",
            )
        recorded = call.attempts[attempt]
        if recorded.request is not None and recorded.request.arguments != arguments:
            self._diverge(index, call, arguments)
        sent, answer = recorded_answer(recorded, retried=attempt < len(call.attempts) - 1)
        return _Pending(settled(sent), settled(answer))

    def _diverge(self, index: int, call: RecordedMcpCall, arguments: Any) -> None:
        raise ReplayDivergence(
            f"the arguments of MCP tool {self.tool!r} call #{index + 1} differ from the recording",
            seq=call.start.seq,
            kind="tool_start",
            field="arguments",
            expected=call.arguments,
            actual=arguments,
        )


def _asked(call: RecordedMcpCall, arguments: Any) -> bool:
    return call.arguments is None or call.arguments == arguments


def replayed_mcp_tool(tool: Tool, events: Sequence[Event]) -> Tool:
    """`tool` (an McpTool) with its calls answered by the recording: no server is started or asked."""
    assert isinstance(tool, McpTool)
    last = events[-1].seq if events else 0
    return tool.answered_by(RecordedMcpCaller(tool.server, tool.name, recorded_mcp_calls(events, tool.name), last))


class ForkMcpCaller:
    """A forked run's MCP calls: the recording answers before the fork point; at it, a substituted observation
    stands for the server's answer (the tool still probes it); after it, a recorded call with the same
    arguments answers, and a call the recording never made goes to the server (started then)."""

    def __init__(self, tool: McpTool, events: Sequence[Event], state: Any, observation: str | None) -> None:
        calls = recorded_mcp_calls(events, tool.name)
        last = events[-1].seq if events else 0
        self.label, self.state, self.observation, self.live = tool.server, state, observation, tool.caller
        self.before = RecordedMcpCaller(
            tool.server, tool.name, [c for c in calls if c.start.seq < state.fork_seq], last
        )
        forked = [c for c in calls if c.start.seq == state.fork_seq]
        self.forked_call = forked[0] if forked and observation is not None else None
        self.after = [c for c in calls if c.start.seq > state.fork_seq]

    def start_call(self, tool: str, arguments: dict[str, Any], timeout: float) -> Any:
        forked = self.forked_call
        if not self.state.forked and forked is not None and _asked(forked, arguments):
            self.state.forked = True
            request = next((a.request for a in forked.attempts if a.request is not None), None)
            substitute = McpAnswer(
                [{"type": "text", "text": self.observation}], None, False, len(self.observation or "")
            )
            return _Pending(settled(request.request_id if request else 0), settled(substitute))
        if not self.state.forked:
            return self.before.start_call(tool, arguments, timeout)
        fit = next((call for call in self.after if call.arguments == arguments), None)
        if fit is not None:
            self.after.remove(fit)
            sent, answer = recorded_answer(fit.attempts[-1], retried=False)
            return _Pending(settled(sent), settled(answer))
        return self.live.start_call(tool, arguments, timeout)


def forked_mcp_tool(tool: Tool, events: Sequence[Event], state: Any, observation: str | None) -> Tool:
    assert isinstance(tool, McpTool)
    return tool.answered_by(ForkMcpCaller(tool, events, state, observation))
