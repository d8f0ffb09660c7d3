"""A reply's tool calls run concurrently: one worker thread per call, results in call order."""

from __future__ import annotations

import functools
import queue
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

from ..awaiting import AwaitRequest, Narrated, run_to_completion
from ..call_gate import ToolCallGate
from ..call_stack import CallScope
from ..daemon_threads import in_daemon_thread, start_daemon_workers
from ..events import InvalidToolEvent, ToolErrorEvent
from ..run_context import RunContext
from ..schema import AgentStep, ToolAgentAction
from .schema import ToolArgumentsError, parse_tool_arguments
from .tool import Tool, invalid_tool_observation

_DONE = object()  # a worker's last word on the outbox: its call has returned or raised


def perform_tool_calls(
    name_to_tool_map: dict[str, Tool],
    actions: Sequence[ToolAgentAction],
    run: RunContext,
    max_concurrency: int | None = None,
) -> Narrated[list[AgentStep]]:
    """Run every call at once and hand out their events as they happen; return the steps in call order.

    LangChain: AgentExecutor._aiter_next_step, which awaits asyncio.gather over
    _aperform_agent_action. Here each call runs on a worker thread (the tools are synchronous);
    the workers' events reach this generator through a queue in `seq` order, so a consumer
    pulling one event at a time sees the calls interleave as they really did. A call that
    raises does not stop the others: the first error, in call order, is raised once all are done.
    The workers are daemon threads: on Ctrl-C the loop stops waiting at once, and a call that
    never returns is abandoned on its thread rather than keeping the process alive. The run's
    tool_call_gate (a debugger's, a replay's) may hold each call at its events; see call_gate.py.
    """
    prefix, gate = run.stack_here(), run.tool_call_gate
    outbox: queue.Queue[Any] = queue.Queue()
    with run.concurrent_calls():  # from before the first worker starts until the last is done
        jobs = [
            functools.partial(
                _run_call,
                name_to_tool_map,
                action,
                run,
                CallScope(action.tool_call_id, prefix, _run_call.__code__, outbox.put, gate),
            )
            for action in actions
        ]
        calls: list[Future[AgentStep]] = start_daemon_workers(jobs, max_concurrency or len(jobs), "tool-call")
        for call, action in zip(calls, actions):
            call.add_done_callback(lambda _: outbox.put(_DONE))
            if gate is not None:  # after the line above: the loop is told first, then the gate
                call.add_done_callback(functools.partial(_done, gate, action.tool_call_id))
        running = len(calls)
        while running:
            if run.awaits_in_driver:  # under ainvoke: wait in a thread, so the caller's event loop keeps running
                item = yield AwaitRequest(in_daemon_thread(outbox.get))
            else:
                item = outbox.get()
            if item is _DONE:
                running -= 1
            else:
                yield item
    return [call.result() for call in calls]  # raises the first failed call's error, in call order


def _run_call(
    name_to_tool_map: dict[str, Tool], action: ToolAgentAction, run: RunContext, scope: CallScope
) -> AgentStep:
    """A worker: drive one call's generator to its end (its events go to the outbox as they are emitted).

    An AwaitRequest is an async tool (under ainvoke) asking its driver to await something: the
    worker has it awaited on the awaiting module's shared loop (as a sync run does) and sends the
    result back in, so async tools of one reply run concurrently too.
    """
    with run.call_scope(scope):
        steps = perform_tool_call(name_to_tool_map, action, run)
        reply: Any = None
        error: BaseException | None = None
        while True:
            try:
                item = steps.send(reply) if error is None else steps.throw(error)
            except StopIteration as stop:
                return stop.value
            reply, error = None, None
            if isinstance(item, AwaitRequest):
                try:
                    reply = run_to_completion(item.awaitable)
                except Exception as failure:
                    error = failure
            elif scope.gate is not None:  # an event this call emitted: the gate may hold the call here
                scope.gate.after_event(item)


def _done(gate: ToolCallGate, call_id: str, _call: Future[AgentStep]) -> None:
    gate.call_done(call_id)


def perform_tool_call(
    name_to_tool_map: dict[str, Tool], action: ToolAgentAction, run: RunContext
) -> Narrated[AgentStep]:
    # LangChain: _perform_agent_action, plus the argument parsing LangChain does in its output parser.
    tool = name_to_tool_map.get(action.tool)
    if tool is None:
        available = list(name_to_tool_map)
        observation = invalid_tool_observation(action.tool, available)
        yield run.emit(InvalidToolEvent, requested=action.tool, available=available, observation=observation)
        return AgentStep(action, observation)
    try:
        tool_input = parse_tool_arguments(tool, action.tool_input)
    except ToolArgumentsError as error:
        observation = f"Error: {error}"
        yield run.emit(ToolErrorEvent, tool=tool.name, error_type=type(error).__name__, message=str(error),
                       handled=True, observation=observation)  # fmt: skip
        return AgentStep(action, observation)
    observation = yield from tool.run(tool_input, run)
    return AgentStep(action, observation)
