"""A LangChain callback handler that writes a loopscope trace of a real LangChain run."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any
from uuid import UUID

from executor.events import (
    ActionRecord,
    AgentActionEvent,
    AgentFinishEvent,
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    EventBase,
    FinishCheckEvent,
    InvalidToolEvent,
    LimitReachedEvent,
    LLMEndEvent,
    LLMStartEvent,
    ParseErrorEvent,
    RetryEvent,
    SourceRef,
    StepEvent,
    ToolEndEvent,
    ToolErrorEvent,
    ToolStartEvent,
)

from ..trace.redact import Redactor
from ..trace.writer import TraceWriteError, TraceWriter
from .callback_guard import DROPPED_KEY, DroppedCallbacks, guarded, logger
from .langchain_stack import at_line, find_self, line_containing, local_in, loop_stack
from .langchain_values import (
    as_text,
    executor_settings,
    graph_tools,
    model_name,
    plain,
    reply_of,
    safe_text,
    tool_infos,
)

try:
    from langchain_classic.agents import AgentExecutor
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.messages import get_buffer_string
except ImportError as missing:  # pragma: no cover - exercised by a test that hides the package
    raise ImportError(
        f"LoopscopeCallbackHandler needs LangChain ({missing.name} is not installed): "
        "pip install 'loopscope[langchain]'"
    ) from missing

# LangChain runs these "tools" itself to turn a mistake into an observation; loopscope has events for both.
PARSE_ERROR_TOOL, INVALID_TOOL = "_Exception", "invalid_tool"


class LoopscopeCallbackHandler(BaseCallbackHandler):
    """`executor.invoke(inputs, {"callbacks": [LoopscopeCallbackHandler("run.jsonl")]})`.

    Classic AgentExecutor runs (ReAct, tool-calling) and LangGraph's prebuilt agent become
    loopscope events; each keeps LangChain's run_id and parent_run_id (in `origin`) and the real
    frames of LangChain's loop at that moment (in `stack`). Where the classic loop makes a check
    without a callback, the handler emits it too (step, finish_check), so transitions compare
    with loopscope's executor. The file is complete when the outermost chain ends, or on close().

    The trace never stops the run. A file that cannot be written (a full disk when the handler is
    made or closed) leaves the run going untraced: `problem` says why in one line (close() returns
    it too), and `events` still holds every event. A callback that fails on what LangChain hands it
    loses its own events and nothing else: the trace's last event counts the callbacks dropped, and
    every reader says so (`raise_error=True` raises such a failure instead, as LangChain means it).
    """

    # Called in the run's own thread (also under ainvoke, where LangChain would otherwise hand a sync
    # handler to a worker thread), so the stack walk sees the loop's frames.
    run_inline = True

    def __init__(
        self,
        path: str | os.PathLike[str],
        redactor: Redactor | None = None,
        clock: Callable[[], float] = time.monotonic,
        raise_error: bool = False,
        **meta: Any,
    ) -> None:
        versions = {name: _version(name) for name in ("langchain-classic", "langchain-core", "langgraph")}
        self.problem: str | None = None  # why the trace file is missing or incomplete (one line)
        self.writer: TraceWriter | None = None
        try:
            self.writer = TraceWriter(path, redactor, source="langchain", langchain=versions, **meta)
        except TraceWriteError as error:
            self._could_not_write(f"{error}; the run goes on untraced (handler.events holds its events)")
        self.path = self.writer.path if self.writer is not None else Path(path)
        self.raise_error = raise_error  # a failing callback raises into the run instead of being dropped
        self.dropped = DroppedCallbacks()
        self._ended = False  # the outermost chain's end (or error) was written
        self._clock = clock
        self._lock = threading.Lock()  # LangGraph runs tools in worker threads
        self._start = clock()
        self._seq = self.iteration = self.n_steps = 0
        self._root: UUID | None = None
        self._root_inputs: set[str] = set()
        self._parents: dict[UUID, UUID | None] = {}  # nested chain run -> its parent run
        self._executor: Any = None
        self._names: dict[UUID, str] = {}  # tool / model runs by id
        self._started: dict[UUID, float] = {}
        self._failed: dict[UUID, tuple[int, str, float, float]] = {}  # parent run -> its failed model call
        self._attempts: dict[UUID, int] = {}
        self._tool_inputs: dict[UUID, Any] = {}
        self._actions: list[ActionRecord] = []  # decided, waiting for their tool to return
        self._pending_steps: list[tuple[ActionRecord, str]] = []
        self.events: list[EventBase] = []

    # -- writing ------------------------------------------------------------------------------
    def _emit(
        self,
        cls: type[EventBase],
        callback: str,
        run_id: UUID | None,
        parent: UUID | None,
        stack: tuple[SourceRef, ...] | None = None,
        **payload: Any,
    ) -> None:
        stack = loop_stack(sys._getframe(2)) if stack is None else stack
        source = stack[-1] if stack else SourceRef(file="(langchain)", line=0, function=callback)
        origin: dict[str, Any] = {
            "callback": callback,
            "run_id": str(run_id) if run_id else None,
            "parent_run_id": str(parent) if parent else None,
        }
        if cls in (ChainEndEvent, ChainErrorEvent):
            self._ended = True
            if self.dropped.count:  # the last event says what is missing, so no reader takes it for a cut run
                origin[DROPPED_KEY] = self.dropped.note()
        with self._lock:
            event = cls(
                seq=self._seq,
                run_id=str(self._root),
                t=self._clock() - self._start,
                iteration=self.iteration,
                frames=tuple(f.function for f in stack) or (callback,),
                source=source,
                stack=stack or None,
                origin=origin,
                **payload,
            )
            self._seq += 1
            self.events.append(event)
            if self.writer is not None:
                self.writer(event)  # a closed writer ignores it

    def close(self) -> str | None:
        """Finish the trace file. Never raises: returns why the trace is missing or incomplete (one
        line, also in `problem`), or None when it was written whole."""
        writer, self.writer = self.writer, None
        if writer is not None:
            try:
                writer.close()
            except TraceWriteError as error:
                self._could_not_write(str(error))
        return self.problem

    def _could_not_write(self, problem: str) -> None:
        self.problem = problem
        logger.warning("loopscope: %s", problem)

    def callback_failed(self, callback: str, error: BaseException, run_id: UUID | None) -> None:
        """A callback raised: its events are dropped and counted. The run's own start and end are
        still written (without what could not be read), so the trace stays a whole run."""
        self.dropped.add(callback, error)
        if run_id is None or run_id != self._root:
            return
        try:
            if callback == "on_chain_start" and not self.events:
                self._emit(ChainStartEvent, callback, run_id, None, stack=(), inputs={}, tools=[], settings={})
            elif callback in ("on_chain_end", "on_chain_error") and not self._ended:
                if callback == "on_chain_end":
                    self._emit(ChainEndEvent, callback, run_id, None, stack=(), outputs={})
                else:
                    self._emit(
                        ChainErrorEvent,
                        callback,
                        run_id,
                        None,
                        stack=(),
                        error_type="unknown",
                        message="(the error could not be recorded)",
                    )
                self.close()
        except Exception as again:  # the bare event failed too: what is written stays, nothing is raised
            self.dropped.add(callback, again)

    def __enter__(self) -> LoopscopeCallbackHandler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the run ------------------------------------------------------------------------------
    @guarded
    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: dict[str, Any],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        if parent_run_id is not None or self._root is not None:
            self._parents[run_id] = parent_run_id  # nested chains (the agent's runnable, LLMMathChain)
            return  # are not loop states; who called whom still tells a plan from a tool's model call
        self._root, self._root_inputs = run_id, set(inputs) if isinstance(inputs, dict) else set()
        self._executor = find_self(AgentExecutor, sys._getframe(1))
        if self._executor is not None:
            tools, settings = tool_infos(self._executor.tools), executor_settings(self._executor)
        else:
            graph = _graph_on_stack(sys._getframe(1))
            tools, settings = graph_tools(graph), {"graph": type(graph).__name__ if graph else "unknown"}
        self._emit(
            ChainStartEvent, "on_chain_start", run_id, None, inputs=plain(inputs), tools=tools, settings=settings
        )

    @guarded
    def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        if run_id != self._root:
            return
        self._flush_steps(run_id)
        if self._executor is not None and isinstance(outputs, dict):  # Chain.invoke hands back the inputs too
            outputs = {k: v for k, v in outputs.items() if k not in self._root_inputs}
        elif not isinstance(outputs, dict):
            outputs = {"output": outputs}
        self._emit(ChainEndEvent, "on_chain_end", run_id, None, outputs=plain(outputs))
        self.close()

    @guarded
    def on_chain_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        if run_id == self._root:
            self._emit(
                ChainErrorEvent, "on_chain_error", run_id, None, error_type=type(error).__name__, message=str(error)
            )
            self.close()

    # -- the model ----------------------------------------------------------------------------
    @guarded
    def on_llm_start(
        self,
        serialized: dict[str, Any] | None,
        prompts: list[str],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        invocation_params: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self._model_start(
            serialized, prompts[0] if prompts else "", run_id, parent_run_id, invocation_params, "on_llm_start"
        )

    @guarded
    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[Any]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        invocation_params: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        prompt = get_buffer_string(messages[0]) if messages else ""
        self._model_start(serialized, prompt, run_id, parent_run_id, invocation_params, "on_chat_model_start")

    def _model_start(
        self,
        serialized: Any,
        prompt: str,
        run_id: UUID,
        parent: UUID | None,
        params: dict[str, Any] | None,
        callback: str,
    ) -> None:
        stack = loop_stack(sys._getframe(2))
        name = model_name(serialized, params)
        failed = self._failed.pop(parent, None) if parent is not None else None
        if failed is not None:  # the same caller asks again: the failed attempt is being retried
            self._retried(failed, name, run_id, parent, stack)
            return
        if _plans(stack) or (not stack and self._asked_by_agent(parent)):  # a new round: the previous
            # round's steps and isinstance check come first
            self._flush_steps(run_id)
            self.iteration += 1
        self._names[run_id], self._started[run_id] = name, self._clock()
        stop = [safe_text(word) for word in ((params if isinstance(params, dict) else {}).get("stop") or [])]
        self._emit(LLMStartEvent, callback, run_id, parent, stack, model=name, prompt=prompt, stop=stop)

    def _asked_by_agent(self, parent: UUID | None) -> bool:
        """The model call comes from the agent's runnable, a direct child of the executor run (under
        ainvoke, where asyncio.gather hides the frames; a tool's model call sits under the tool run)."""
        return self._executor is not None and parent in self._parents and self._parents[parent] == self._root

    def _retried(
        self, failed: tuple[int, str, float, float], name: str, run_id: UUID, parent: UUID, stack: tuple[SourceRef, ...]
    ) -> None:
        """LangChain's with_retry() fires no on_retry: a model call that errored and is asked again by
        the same parent run is a retry (loopscope's shape: one llm_start, retry events, one llm_end)."""
        attempt, error, failed_at, started = failed
        self._names[run_id], self._started[run_id], self._attempts[run_id] = name, started, attempt + 1
        self._emit(
            RetryEvent,
            "on_llm_start",
            run_id,
            parent,
            stack,
            target="llm",
            name=name,
            attempt=attempt,
            error=error,
            delay=self._clock() - failed_at,
        )

    @guarded
    def on_llm_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        """Remembered, not written: a retry or the run's chain_error says what the failure led to."""
        if parent_run_id is not None:
            self._failed[parent_run_id] = (
                self._attempts.pop(run_id, 1),
                f"{type(error).__name__}: {error}",
                self._clock(),
                self._started.pop(run_id, self._clock()),
            )

    @guarded
    def on_llm_end(self, response: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        text, calls, usage = reply_of(response)
        duration = self._clock() - self._started.pop(run_id, self._clock())
        stack = loop_stack(sys._getframe(1))
        self._emit(LLMEndEvent, "on_llm_end", run_id, parent_run_id, stack, text=text, usage=usage, duration=duration)
        if self._executor is None and _plans(stack):  # LangGraph: the reply itself is the decision
            self._graph_decision(text, calls, run_id, parent_run_id, stack)

    def _graph_decision(
        self, text: str, calls: list[dict[str, Any]], run_id: UUID, parent: UUID | None, stack: tuple[SourceRef, ...]
    ) -> None:
        for call in calls:
            action = ActionRecord(tool=call.get("name", ""), tool_input=as_text(call.get("args", {})), log=text)
            self._actions.append(action)
            self._emit(AgentActionEvent, "on_llm_end", run_id, parent, stack, **action.model_dump())
        if not calls:
            self._emit(AgentFinishEvent, "on_llm_end", run_id, parent, stack, return_values={"output": text}, log=text)
            self._emit(FinishCheckEvent, "on_llm_end", run_id, parent, stack, is_finish=True, output_type="AgentFinish")

    @guarded
    def on_retry(self, retry_state: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        outcome = getattr(retry_state, "outcome", None)
        error = outcome.exception() if outcome is not None and outcome.failed else None
        delay = getattr(getattr(retry_state, "next_action", None), "sleep", 0.0) or 0.0
        target = "llm" if run_id in self._started else "tool"
        self._emit(
            RetryEvent,
            "on_retry",
            run_id,
            parent_run_id,
            target=target,
            name=self._names.get(run_id, "unknown"),
            attempt=int(retry_state.attempt_number),
            error=f"{type(error).__name__}: {error}" if error else "unknown",
            delay=float(delay),
        )

    # -- the agent's decisions ----------------------------------------------------------------
    @guarded
    def on_agent_action(self, action: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        record = ActionRecord(tool=action.tool, tool_input=as_text(action.tool_input), log=action.log)
        self._actions.append(record)
        if action.tool == PARSE_ERROR_TOOL:
            caught = local_in("_iter_next_step", "e", sys._getframe(1))  # the OutputParserException
            error = str(caught) if isinstance(caught, Exception) else "the reply could not be parsed"
            # langchain_core appends a help link to the parser's message; the error is the part before it
            error = error.split("\nFor troubleshooting, visit:")[0]
            self._emit(
                ParseErrorEvent,
                "on_agent_action",
                run_id,
                parent_run_id,
                error=error,
                llm_output=action.log,
                observation=as_text(action.tool_input),
                handled=True,
            )
            return
        self._emit(AgentActionEvent, "on_agent_action", run_id, parent_run_id, **record.model_dump())

    @guarded
    def on_agent_finish(self, finish: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        from_plan = not self._pending_steps  # else a limit or return_direct made this finish
        if not from_plan:
            self._flush_steps(run_id)
            self._limit_if_reached(run_id)
        self._emit(
            AgentFinishEvent,
            "on_agent_finish",
            run_id,
            parent_run_id,
            return_values=plain(finish.return_values),
            log=finish.log,
        )
        if from_plan:
            self._emit(
                FinishCheckEvent,
                "on_agent_finish",
                run_id,
                parent_run_id,
                stack=self._at_call("isinstance(next_step_output, AgentFinish)"),
                is_finish=True,
                output_type="AgentFinish",
            )

    def _limit_if_reached(self, run_id: UUID) -> None:
        executor = self._executor
        if executor is not None and executor.max_iterations is not None and self.iteration >= executor.max_iterations:
            self._emit(
                LimitReachedEvent,
                "on_agent_finish",
                run_id,
                None,
                reason="max_iterations",
                iterations=self.iteration,
                elapsed=self._clock() - self._start,
                early_stopping_method=executor.early_stopping_method,
            )

    def _flush_steps(self, run_id: UUID) -> None:
        """The steps of the round just ended, then `isinstance(output, AgentFinish)` → False.

        LangChain makes both in _call and _take_next_step without a callback; they happened
        before whatever callback comes next, so that is when they are written."""
        if not self._pending_steps:
            return
        steps, self._pending_steps = self._pending_steps, []
        for action, observation in steps:
            self.n_steps += 1
            self._emit(
                StepEvent,
                "implied",
                run_id,
                None,
                stack=self._at_call("_consume_next_step(", "_take_next_step"),
                action=action,
                observation=observation,
                n_steps=self.n_steps,
            )
        self._emit(
            FinishCheckEvent,
            "implied",
            run_id,
            None,
            stack=self._at_call("isinstance(next_step_output, AgentFinish)"),
            is_finish=False,
            output_type="list[AgentStep]",
        )

    def _at_call(self, needle: str, function: str = "_call") -> tuple[SourceRef, ...]:
        stack = loop_stack(sys._getframe(2))
        if self._executor is None:
            return stack
        if any(f.function == "_acall" for f in stack):  # ainvoke: the same checks in the async twins
            function = {"_call": "_acall", "_take_next_step": "_atake_next_step"}[function]
        method = getattr(type(self._executor), function)
        return at_line(stack, function, line_containing(method, needle))

    # -- tools --------------------------------------------------------------------------------
    @guarded
    def on_tool_start(
        self,
        serialized: dict[str, Any] | None,
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = (serialized if isinstance(serialized, dict) else {}).get("name") or kwargs.get("name") or "unknown"
        self._names[run_id], self._tool_inputs[run_id] = name, inputs if inputs is not None else input_str
        if name not in (PARSE_ERROR_TOOL, INVALID_TOOL):
            self._emit(ToolStartEvent, "on_tool_start", run_id, parent_run_id, tool=name, tool_input=as_text(input_str))

    @guarded
    def on_tool_end(self, output: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        name, observation = self._names.get(run_id, "unknown"), as_text(output)
        if name == INVALID_TOOL:
            asked = self._tool_inputs.get(run_id) or {}
            asked = asked if isinstance(asked, dict) else {}
            self._emit(
                InvalidToolEvent,
                "on_tool_end",
                run_id,
                parent_run_id,
                requested=str(asked.get("requested_tool_name", "")),
                available=list(asked.get("available_tool_names", [])),
                observation=observation,
            )
        elif name != PARSE_ERROR_TOOL:
            self._emit(ToolEndEvent, "on_tool_end", run_id, parent_run_id, tool=name, observation=observation)
        action = self._action_for(name)
        if action is not None:
            self._pending_steps.append((action, observation))

    def _action_for(self, tool: str) -> ActionRecord | None:
        """The waiting action this tool ran for (an invalid name runs LangChain's invalid_tool)."""
        for index, action in enumerate(self._actions):
            if action.tool == tool:
                return self._actions.pop(index)
        return self._actions.pop(0) if self._actions and tool == INVALID_TOOL else None

    @guarded
    def on_tool_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        self._emit(
            ToolErrorEvent,
            "on_tool_error",
            run_id,
            parent_run_id,
            tool=self._names.get(run_id, "unknown"),
            error_type=type(error).__name__,
            message=str(error),
            handled=False,
        )


def _plans(stack: tuple[SourceRef, ...]) -> bool:
    """A model call made to decide the next move: from an agent's plan(), or LangGraph's agent node."""
    return any(f.function in ("plan", "aplan") for f in stack) or any(
        f.file.startswith("langgraph/prebuilt/") and "model" in f.function for f in stack
    )


def _graph_on_stack(frame: Any) -> Any:
    try:
        from langgraph.pregel import Pregel
    except ImportError:
        return None
    return find_self(Pregel, frame)


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None
