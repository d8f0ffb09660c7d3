"""What an AgentExecutor run needs beside the lesson: its RunContext, and the gate a debugger plugs in."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import Any, Protocol

from .call_gate import ToolCallGate
from .clock import Clock
from .recovery.rate_limit import RateLimiter
from .recovery.retry import RetryPolicy
from .run_context import RunContext

# Executor -> the gate its driver plugged in. Not a constructor argument: the gate belongs to
# whoever drives the run (the debugger, a replay), not to the agent's configuration, and so it
# is kept here rather than on the executor a learner reads. Weak: it goes with its executor;
# a copy made by with_overrides has none until its driver plugs one in.
_GATES: weakref.WeakKeyDictionary[Any, ToolCallGate] = weakref.WeakKeyDictionary()


class LoopConfig(Protocol):
    """What new_run reads of an AgentExecutor (each is the constructor argument of that name)."""

    @property
    def clock(self) -> Clock | None: ...
    @property
    def run_id_factory(self) -> Callable[[], str] | None: ...
    @property
    def retry_policy(self) -> RetryPolicy | None: ...
    @property
    def rate_limiter(self) -> RateLimiter | None: ...


def use_tool_call_gate(executor: object, gate: ToolCallGate | None) -> None:
    """Pace the parallel tool calls of `executor`'s runs from now on with `gate` (see call_gate.py); None: freely."""
    if gate is None:
        _GATES.pop(executor, None)
    else:
        _GATES[executor] = gate


def new_run(executor: LoopConfig, awaits_in_driver: bool = False) -> RunContext:
    """A RunContext for one run of `executor` (LangChain: the run_manager that Chain.invoke opens).

    Its call stacks end at the executor's `iter_events` (the run's outermost generator), or one
    further out at `invoke` when the user's call drove it. awaits_in_driver: the run is driven
    from asyncio (aiter_events, ainvoke), which awaits what the loop yields up to it.
    """
    loop = type(executor)  # its own methods: a subclass that overrides them bounds the stack there
    return RunContext(
        executor.clock,
        executor.run_id_factory() if executor.run_id_factory else None,
        outermost=_code(loop, "iter_events"),
        retry_policy=executor.retry_policy,
        rate_limiter=executor.rate_limiter,
        awaits_in_driver=awaits_in_driver,
        caller=_code(loop, "invoke"),
        tool_call_gate=_GATES.get(executor),
    )


def _code(loop: type, method: str) -> CodeType:
    function: FunctionType = getattr(loop, method)
    return function.__code__
