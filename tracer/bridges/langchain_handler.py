"""A LangChain callback handler that writes a loopscope trace of a real LangChain run."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

from executor.events import (
    ActionRecord,
    AgentActionEvent,
    ChainEndEvent,
    ChainErrorEvent,
    ChainStartEvent,
    EventBase,
    InvalidToolEvent,
    LLMEndEvent,
    LLMStartEvent,
    ParseErrorEvent,
    RetryEvent,
    SourceRef,
    ToolEndEvent,
    ToolErrorEvent,
    ToolStartEvent,
)

from ..extras import missing_extra
from ..trace.redact import Redactor
from .callback_guard import DroppedCallbacks, guarded
from .langchain_recorder import TraceRecorder
from .langchain_rounds import INVALID_TOOL, LoopRounds, plans
from .langchain_stack import find_self, local_in, loop_stack
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
except ImportError as missing:  # tests/test_extras.py hides the packages
    raise missing_extra("langchain", "LoopscopeCallbackHandler", missing) from None

# LangChain runs this "tool" itself to turn a reply that did not parse into an observation (and
# INVALID_TOOL for a tool the agent does not have); loopscope has an event for each instead.
PARSE_ERROR_TOOL = "_Exception"


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
        self.recorder = TraceRecorder(path, redactor, clock, **meta)
        self.rounds = LoopRounds(self.recorder)
        self.raise_error = raise_error  # a failing callback raises into the run instead of being dropped
        self._clock = clock
        self._root_inputs: set[str] = set()
        self._parents: dict[UUID, UUID | None] = {}  # nested chain run -> its parent run
        self._names: dict[UUID, str] = {}  # tool / model runs by id
        self._started: dict[UUID, float] = {}
        self._failed: dict[UUID, tuple[int, str, float, float]] = {}  # parent run -> its failed model call
        self._attempts: dict[UUID, int] = {}
        self._tool_inputs: dict[UUID, Any] = {}

    @property
    def path(self) -> Path:
        return self.recorder.path

    @property
    def problem(self) -> str | None:
        """Why the trace file is missing or incomplete (one line), or None."""
        return self.recorder.problem

    @property
    def events(self) -> list[EventBase]:
        """Every event of the run, written or not."""
        return self.recorder.events

    @property
    def dropped(self) -> DroppedCallbacks:
        return self.recorder.dropped

    def close(self) -> str | None:
        """Finish the trace file. Never raises: returns why the trace is missing or incomplete (one
        line, also in `problem`), or None when it was written whole."""
        return self.recorder.close()

    def callback_failed(self, callback: str, error: BaseException, run_id: UUID | None) -> None:
        """Called by `guarded` when a callback raised: see TraceRecorder.callback_failed."""
        self.recorder.callback_failed(callback, error, run_id)

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
        if parent_run_id is not None or self.recorder.root is not None:
            self._parents[run_id] = parent_run_id  # nested chains (the agent's runnable, LLMMathChain)
            return  # are not loop states; who called whom still tells a plan from a tool's model call
        self.recorder.root, self._root_inputs = run_id, set(inputs) if isinstance(inputs, dict) else set()
        executor = self.rounds.executor = find_self(AgentExecutor, sys._getframe(1))
        if executor is not None:
            tools, settings = tool_infos(executor.tools), executor_settings(executor)
        else:
            graph = _graph_on_stack(sys._getframe(1))
            tools, settings = graph_tools(graph), {"graph": type(graph).__name__ if graph else "unknown"}
        self.recorder.emit(
            ChainStartEvent, "on_chain_start", run_id, None, inputs=plain(inputs), tools=tools, settings=settings
        )

    @guarded
    def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        if run_id != self.recorder.root:
            return
        self.rounds.end_round(run_id)
        if self.rounds.executor is not None and isinstance(outputs, dict):  # Chain.invoke hands back the inputs too
            outputs = {k: v for k, v in outputs.items() if k not in self._root_inputs}
        elif not isinstance(outputs, dict):
            outputs = {"output": outputs}
        self.recorder.emit(ChainEndEvent, "on_chain_end", run_id, None, outputs=plain(outputs))
        self.close()

    @guarded
    def on_chain_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        if run_id == self.recorder.root:
            self.recorder.emit(
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
        # The same caller asking again after a failed call: the failed attempt is being retried.
        if parent is not None and (failed := self._failed.pop(parent, None)) is not None:
            self._retried(failed, name, run_id, parent, stack)
            return
        if plans(stack) or (not stack and self._asked_by_agent(parent)):
            self.rounds.start_round(run_id)
        self._names[run_id], self._started[run_id] = name, self._clock()
        stop = [safe_text(word) for word in ((params if isinstance(params, dict) else {}).get("stop") or [])]
        self.recorder.emit(LLMStartEvent, callback, run_id, parent, stack, model=name, prompt=prompt, stop=stop)

    def _asked_by_agent(self, parent: UUID | None) -> bool:
        """The model call comes from the agent's runnable, a direct child of the executor run (under
        ainvoke, where asyncio.gather hides the frames; a tool's model call sits under the tool run)."""
        root = self.recorder.root
        return self.rounds.executor is not None and parent in self._parents and self._parents[parent] == root

    def _retried(
        self, failed: tuple[int, str, float, float], name: str, run_id: UUID, parent: UUID, stack: tuple[SourceRef, ...]
    ) -> None:
        """LangChain's with_retry() fires no on_retry: a model call that errored and is asked again by
        the same parent run is a retry (loopscope's shape: one llm_start, retry events, one llm_end)."""
        attempt, error, failed_at, started = failed
        self._names[run_id], self._started[run_id], self._attempts[run_id] = name, started, attempt + 1
        self.recorder.emit(
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
        self.recorder.emit(
            LLMEndEvent, "on_llm_end", run_id, parent_run_id, stack, text=text, usage=usage, duration=duration
        )
        if self.rounds.executor is None and plans(stack):  # LangGraph: the reply itself is the decision
            self.rounds.graph_decision(text, calls, run_id, parent_run_id, stack)

    @guarded
    def on_retry(self, retry_state: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        outcome = getattr(retry_state, "outcome", None)
        error = outcome.exception() if outcome is not None and outcome.failed else None
        delay = getattr(getattr(retry_state, "next_action", None), "sleep", 0.0) or 0.0
        target = "llm" if run_id in self._started else "tool"
        self.recorder.emit(
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
        self.rounds.decided(record)
        if action.tool == PARSE_ERROR_TOOL:
            caught = local_in("_iter_next_step", "e", sys._getframe(1))  # the OutputParserException
            error = str(caught) if isinstance(caught, Exception) else "the reply could not be parsed"
            # langchain_core appends a help link to the parser's message; the error is the part before it
            error = error.split("\nFor troubleshooting, visit:")[0]
            self.recorder.emit(
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
        self.recorder.emit(AgentActionEvent, "on_agent_action", run_id, parent_run_id, **record.model_dump())

    @guarded
    def on_agent_finish(self, finish: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        self.rounds.finished(finish, run_id, parent_run_id)

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
            self.recorder.emit(
                ToolStartEvent, "on_tool_start", run_id, parent_run_id, tool=name, tool_input=as_text(input_str)
            )

    @guarded
    def on_tool_end(self, output: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        name, observation = self._names.get(run_id, "unknown"), as_text(output)
        if name == INVALID_TOOL:
            asked = self._tool_inputs.get(run_id) or {}
            asked = asked if isinstance(asked, dict) else {}
            self.recorder.emit(
                InvalidToolEvent,
                "on_tool_end",
                run_id,
                parent_run_id,
                requested=str(asked.get("requested_tool_name", "")),
                available=list(asked.get("available_tool_names", [])),
                observation=observation,
            )
        elif name != PARSE_ERROR_TOOL:
            self.recorder.emit(ToolEndEvent, "on_tool_end", run_id, parent_run_id, tool=name, observation=observation)
        self.rounds.tool_returned(name, observation)

    @guarded
    def on_tool_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        self.recorder.emit(
            ToolErrorEvent,
            "on_tool_error",
            run_id,
            parent_run_id,
            tool=self._names.get(run_id, "unknown"),
            error_type=type(error).__name__,
            message=str(error),
            handled=False,
        )


def _graph_on_stack(frame: Any) -> Any:
    """The LangGraph graph being invoked, if any (LangGraph's prebuilt agent, not a classic AgentExecutor)."""
    try:
        # Here, not at the top: langgraph is optional beside langchain-classic (a classic AgentExecutor
        # needs none, and loading it would cost its run about half a second); a graph's run has it loaded.
        from langgraph.pregel import Pregel
    except ImportError:
        return None
    return find_self(Pregel, frame)
