"""Tools: a name, a description and a function, run with LangChain's tool-error handling."""

from __future__ import annotations

import inspect
import json
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import BaseModel

from ..awaiting import Narrated, call_either
from ..callee import callee_of
from ..events import ToolEndEvent, ToolErrorEvent, ToolStartEvent
from ..recovery.retry import RetriesExhausted, RetryPolicy
from ..recovery.retry_loop import with_retries
from ..run_context import RunContext
from .args import ToolInputError, parse_tool_input, single_string_schema

ErrorHandler = bool | str | Callable[["ToolError"], str]


class ToolError(Exception):
    """Raised by a tool to say "this went wrong" in a way the agent may be told about.

    LangChain: ToolException. Only this type is turned into an observation by
    handle_tool_error; any other exception ends the run.
    """


class ToolTimeout(ToolError, TimeoutError):
    """A tool did not answer within its `timeout`; the loop stopped waiting for it.

    A ToolError, so handle_tool_error decides whether the agent is told or the run ends;
    a TimeoutError, so a RetryPolicy retries it by default.
    """


def invalid_tool_observation(requested: str, available: list[str]) -> str:
    """LangChain: InvalidTool, the observation for a tool name the agent does not have."""
    return f"{requested} is not a valid tool, try one of [{', '.join(available)}]."


class Tool:
    """A tool the agent can call by name.

    `func` takes the tool input string and returns the observation; it may be a coroutine
    function (it is awaited), and `coroutine` may give an async form that ainvoke/aiter_events
    prefer (LangChain: Tool(func=..., coroutine=...)). A generator function
    is also accepted: it is called as `func(tool_input, run)` and may yield events of its
    own (the calculator narrates its nested model call this way).
    `deterministic=False` marks tools whose answers a replay must take from the recording.
    `retry_policy` overrides the executor's policy for this tool; with on_failure="continue"
    the final error of a failed retry becomes the observation instead of ending the run.
    With `args_schema` (a pydantic model) `func` is called with keyword arguments validated by
    it: a one-str-field schema takes the Action Input as it is, any other a JSON object. Without
    one, `func` gets the raw Action Input and `args_schema` is a one-field `tool_input` schema.
    `timeout` (seconds) bounds each attempt: a plain function runs in a worker thread and the
    loop stops waiting after `timeout`, raising ToolTimeout (Python cannot stop the thread, so a
    hung function is left running in the background and its answer ignored). A generator tool
    runs on the loop's own thread, so that its events keep the real call stack; its deadline is
    checked each time it hands out an event and when it returns.
    """

    def __init__(
        self,
        name: str,
        description: str,
        func: Callable[..., Any],
        return_direct: bool = False,
        handle_tool_error: ErrorHandler = False,
        deterministic: bool = True,
        retry_policy: RetryPolicy | None = None,
        args_schema: type[BaseModel] | None = None,
        coroutine: Callable[..., Any] | None = None,
        timeout: float | None = None,
    ) -> None:
        if not name or not name.strip():
            raise ValueError("Tool name must be a non-empty string")
        if not callable(func):
            raise TypeError(f"Tool {name!r}: func must be callable, got {type(func).__name__}")
        if timeout is not None and not 0 < timeout < float("inf"):
            raise ValueError(f"Tool {name!r}: timeout must be a positive number of seconds, got {timeout!r}")
        if inspect.isasyncgenfunction(func):
            raise TypeError(f"Tool {name!r}: func is an async generator; a tool returns (or awaits) one observation")
        if args_schema is not None and not (isinstance(args_schema, type) and issubclass(args_schema, BaseModel)):
            raise TypeError(
                f"Tool {name!r}: args_schema must be a pydantic model class, got {type(args_schema).__name__}"
            )
        self.name = name
        self.description = description
        self.func = func
        self.return_direct = return_direct
        self.handle_tool_error = handle_tool_error
        self.deterministic = deterministic
        self.retry_policy = retry_policy
        self.coroutine = coroutine
        self.timeout = timeout
        self.callee = callee_of(func)  # events point the debugger at the user's function
        self.emits_events = inspect.isgeneratorfunction(func)
        self.takes_keywords = args_schema is not None  # func(**arguments) rather than func(tool_input)
        self.args_schema = args_schema or single_string_schema(name)

    def __repr__(self) -> str:
        return f"Tool(name={self.name!r})"

    def json_schema(self) -> dict[str, Any]:
        """The arguments as JSON Schema: what a tool-calling model is sent as `parameters`."""
        return self.args_schema.model_json_schema()

    def openai_tool(self) -> dict[str, Any]:
        """LangChain: convert_to_openai_tool. The entry for an OpenAI request's `tools` list."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.json_schema()},
        }

    def invoke(self, tool_input: str | dict[str, Any]) -> Any:
        """LangChain: BaseTool.invoke. Call the tool on its own, outside a run (e.g. in a unit test):
        the input parsed as in a run, an awaitable awaited, no events; a bad input raises ToolInputError."""
        steps = self._bind(tool_input, RunContext())()
        while True:
            try:
                next(steps)  # an event-yielding tool's own events, which nobody is listening to
            except StopIteration as stop:
                return stop.value

    def run(self, tool_input: str | dict[str, Any], run: RunContext) -> Narrated[Any]:
        # LangChain: BaseTool.run
        shown = tool_input if isinstance(tool_input, str) else json.dumps(tool_input, ensure_ascii=False)
        yield run.emit(ToolStartEvent, tool=self.name, tool_input=shown, callee=self.callee)
        policy = self.retry_policy or run.retry_policy
        try:
            attempt = self._bind(tool_input, run)
        except ToolInputError as error:  # LangChain: handle_validation_error; the loop goes on
            return (yield from self._refuse_input(error, run))
        try:
            # Without a policy the tool runs directly, so the call stack shows no retry frame.
            attempts = with_retries(run, policy, "tool", self.name, attempt) if policy else attempt()
            observation = yield from attempts
        except RetriesExhausted as error:
            if policy is None or policy.on_failure != "continue":
                yield run.emit(ToolErrorEvent, **self._error_fields(error, handled=False))
                raise
            observation = str(error)
            yield run.emit(ToolErrorEvent, **self._error_fields(error, True, observation))
        except ToolError as error:
            if not self.handle_tool_error:
                yield run.emit(ToolErrorEvent, **self._error_fields(error, handled=False))
                raise
            observation = self._observation_for(error)
            yield run.emit(ToolErrorEvent, **self._error_fields(error, True, observation))
        except Exception as error:
            yield run.emit(ToolErrorEvent, **self._error_fields(error, handled=False))
            raise
        yield run.emit(ToolEndEvent, tool=self.name, observation=str(observation), callee=self.callee)
        return observation

    def _refuse_input(self, error: ToolInputError, run: RunContext) -> Narrated[str]:
        """The arguments did not fit: tell the model what to write instead (always handled)."""
        observation = f"Invalid input for tool {self.name!r}: {error}"
        yield run.emit(ToolErrorEvent, **self._error_fields(error, True, observation))
        yield run.emit(ToolEndEvent, tool=self.name, observation=observation, callee=self.callee)
        return observation

    def _bind(self, tool_input: str | dict[str, Any], run: RunContext) -> Callable[[], Narrated[Any]]:
        """One attempt of the call, its arguments parsed from the input (ToolInputError if they do not fit)."""
        if self.emits_events:
            steps = partial(self.func, tool_input, run)
            return steps if self.timeout is None else partial(_within_deadline, self.name, self.timeout, steps)
        func = self.func if self.timeout is None else partial(call_with_timeout, self.func, self.timeout, self.name)
        if isinstance(tool_input, str) and not self.takes_keywords:
            return partial(_plain_call, run, func, self.coroutine, (tool_input,), {})
        arguments = parse_tool_input(self.args_schema, tool_input)
        if self.takes_keywords:
            return partial(_plain_call, run, func, self.coroutine, (), arguments)
        return partial(_plain_call, run, func, self.coroutine, tuple(arguments.values()), {})

    def _observation_for(self, error: ToolError) -> str:
        handler = self.handle_tool_error
        if isinstance(handler, bool):
            return str(error.args[0]) if error.args else "Tool execution error"
        if isinstance(handler, str):
            return handler
        return str(handler(error))

    def _error_fields(self, error: BaseException, handled: bool, observation: str | None = None) -> dict[str, Any]:
        return {
            "tool": self.name,
            "error_type": type(error).__name__,
            "message": str(error),
            "handled": handled,
            "observation": observation,
            "callee": self.callee,
        }


def _plain_call(
    run: RunContext,
    func: Callable[..., Any],
    coroutine: Callable[..., Any] | None,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Narrated[Any]:
    """A plain function's call as a generator (yielding only to have an awaitable awaited),
    so every tool can be `yield from`-ed."""
    return (yield from call_either(run, func, coroutine, *args, **kwargs))


def _within_deadline(name: str, timeout: float, steps: Callable[[], Narrated[Any]]) -> Narrated[Any]:
    """One attempt of an event-yielding tool that gives up after `tool.timeout` seconds (see Tool)."""
    deadline = time.monotonic() + timeout
    running = steps()
    while True:
        try:
            event = next(running)
        except StopIteration as stop:
            _check_deadline(deadline, name, timeout)
            return stop.value
        _check_deadline(deadline, name, timeout)
        yield event


def _check_deadline(deadline: float, name: str, timeout: float) -> None:
    if time.monotonic() > deadline:
        raise ToolTimeout(f"Tool {name!r} did not finish within {timeout:g} seconds.")


def call_with_timeout(func: Callable[..., Any], timeout: float, name: str, *args: Any, **kwargs: Any) -> Any:
    """`func(*args, **kwargs)` in a daemon worker thread; ToolTimeout if it has not returned in time.

    A daemon thread, so a function that never returns cannot keep the process from exiting.
    """
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = func(*args, **kwargs)
        except BaseException as error:  # handed to the loop's thread, which decides
            outcome["error"] = error

    worker = threading.Thread(target=work, name=f"tool {name}", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise ToolTimeout(f"Tool {name!r} did not answer within {timeout:g} seconds; the loop stopped waiting for it.")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
