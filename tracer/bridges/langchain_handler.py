"""A LangChain callback handler that writes a loopscope trace of a real LangChain run."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

from executor.callee import callee_of
from executor.events import (
    ActionRecord,
    AgentActionEvent,
    CalleeRef,
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
    ToolStartEvent,
)
from executor.models.messages import render_messages

from ..agents.frameworks import RunClosed
from ..extras import missing_extra
from ..trace.redact import Redactor
from .callback_guard import DroppedCallbacks, guarded
from .langchain_attempts import FailedAttempts, Failure
from .langchain_graph import GraphLoop
from .langchain_graph_setup import (
    finish_check_stack,
    graph_edges,
    graph_on_stack,
    graph_settings,
    graph_tools,
    recursion_limit_on_stack,
)
from .langchain_recorder import TraceRecorder
from .langchain_rounds import INVALID_TOOL, LoopRounds, plans
from .langchain_stack import find_self, local_in, package_relative
from .langchain_values import (
    as_text,
    call_records,
    executor_settings,
    model_name,
    offered_tools,
    openai_messages,
    plain,
    reply_of,
    safe_text,
    tool_infos,
)
from .recorded_errors import class_path

try:
    from langchain_classic.agents import AgentExecutor
    from langchain_core.callbacks import BaseCallbackHandler
except ImportError as missing:  # tests/test_extras.py hides the packages
    raise missing_extra("langchain", "LoopscopeCallbackHandler", missing) from None

# LangChain runs this "tool" itself to turn a reply that did not parse into an observation (and
# INVALID_TOOL for a tool the agent does not have); loopscope has an event for each instead.
PARSE_ERROR_TOOL = "_Exception"


class LoopscopeCallbackHandler(BaseCallbackHandler):
    """`agent.invoke(inputs, {"callbacks": [LoopscopeCallbackHandler("run.jsonl")]})`.

    Classic AgentExecutor runs (ReAct, tool-calling), LangChain 1.x create_agent (with its
    middleware) and LangGraph's prebuilt agent become loopscope events; each keeps LangChain's
    run_id and parent_run_id (in `origin`) and the real frames of LangChain's loop at that moment
    (in `stack`; a LangGraph node's frames are named after the node). Where the loop makes a check
    without a callback, the handler emits it too (step, finish_check), and a retrying middleware's
    attempts become retry events, so transitions compare with loopscope's executor. The file is
    complete when the outermost chain ends, or on close().

    The trace never stops the run. A file that cannot be written (a full disk when the handler is
    made or closed) leaves the run going untraced: `problem` says why in one line (close() returns
    it too), and `events` still holds every event. A callback that fails on what LangChain hands it
    loses its own events and nothing else: the trace's last event counts the callbacks dropped, and
    every reader says so (`raise_error=True` raises such a failure instead, as LangChain means it).

    Lines reach the file before the run next waits (a model call, a tool), so a killed process
    leaves every event up to its wait; at the end the file is flushed to the disk (fsync) before it
    takes its name, as every loopscope trace is. `sync=False` skips that fsync (its cost a run
    depends on the disk): the trace is still whole when the run ends and survives the process
    being killed, but a power cut or an OS crash soon after may leave it empty or cut short.
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
        sync: bool = True,
        listener: Callable[[EventBase], None] | None = None,
        **meta: Any,
    ) -> None:
        self.recorder = TraceRecorder(path, redactor, clock, sync=sync, **meta)
        self.recorder.listener = listener  # e.g. a live debugger's, which pauses the run at each event
        self.rounds = LoopRounds(self.recorder)
        self.attempts = FailedAttempts(self.recorder)
        self.graph: GraphLoop | None = None  # set when the run is a LangGraph agent's
        self.raise_error = raise_error  # a failing callback raises into the run instead of being dropped
        self._root_inputs: set[str] = set()
        self._parents: dict[UUID, UUID | None] = {}  # nested chain run -> its parent run
        self._names: dict[UUID, str] = {}  # tool / model runs by id
        self._started: dict[UUID, float] = {}
        self._deciding: set[UUID] = set()  # model runs that decide a LangGraph agent's next move
        self._tool_inputs: dict[UUID, Any] = {}
        self._call_ids: dict[UUID, str | None] = {}  # tool run -> the model's id for the call it runs
        self._tools: dict[str, Any] = {}  # the run's tools by name: where each one's function is
        self._callees: dict[str, CalleeRef | None] = {}

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

    @property
    def interrupted(self) -> str:
        """After Ctrl-C: where the events so far were kept, in words ("" when the run was not interrupted)."""
        return self.recorder.kept

    def close(self) -> str | None:
        """Finish the trace file. Never raises: returns why the trace is missing or incomplete (one
        line, also in `problem`), or None when it was written whole."""
        return self.recorder.close()

    def callback_failed(self, callback: str, error: BaseException, run_id: UUID | None) -> None:
        """Called by `guarded` when a callback raised: see TraceRecorder.callback_failed."""
        self.recorder.callback_failed(callback, error, run_id)

    def __enter__(self) -> LoopscopeCallbackHandler:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None or issubclass(kind, (Exception, RunClosed)):
            self.close()  # an agent's error is in the trace (chain_error), as a debugger's stop is
        else:  # Ctrl-C: the file named is left as it was, the events so far kept as `<name>.interrupted`
            self.recorder.abandon()  # (nothing more to do if on_chain_error did it already)

    def _stack(self, parent: UUID | None) -> tuple[SourceRef, ...]:
        """The loop's frames for an event of a run under `parent` (a LangGraph worker's after its node's)."""
        return self.graph.stack(parent) if self.graph is not None else self.recorder.walk(sys._getframe(1))

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
            self._parents[run_id] = parent_run_id  # nested chains (the agent's runnable, LLMMathChain,
            if self.graph is not None:  # a graph's nodes) are not loop states; who called whom still tells
                self.graph.chain_started(run_id, parent_run_id, kwargs.get("name"))  # a plan from a tool's call
            return
        self.recorder.begin(run_id, sys._getframe(1))
        self._root_inputs = set(inputs) if isinstance(inputs, dict) else set()
        executor = self.rounds.executor = find_self(AgentExecutor, sys._getframe(1))
        if executor is not None:
            tools, settings = executor.tools, executor_settings(executor)
        else:
            graph = graph_on_stack(sys._getframe(1))
            limit, given = recursion_limit_on_stack(sys._getframe(1))
            tools, settings = graph_tools(graph), graph_settings(graph, limit if given else None)
            self.graph = GraphLoop(self.recorder, self.rounds, self.attempts)
            self.graph.recursion_limit = limit
            self.graph.begin(self.recorder.walk(sys._getframe(1)))
            self.rounds.graph_check = finish_check_stack(graph, self.graph)
            self.graph.edges = {node: frozenset(edges) for node, edges in graph_edges(graph).items()}
        self._tools = {safe_text(getattr(t, "name", "")): t for t in tools or ()}
        self.recorder.emit(
            ChainStartEvent,
            "on_chain_start",
            run_id,
            None,
            inputs=plain(inputs),
            tools=tool_infos(tools),
            settings=settings,
        )

    @guarded
    def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        if run_id != self.recorder.root:
            if self.graph is not None:
                self.graph.chain_ended(run_id, outputs)
            return
        self.rounds.run_ended()
        self.attempts.tools_ended(handled=True)
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
            if not isinstance(error, (Exception, RunClosed)):  # Ctrl-C: not the run's end, as for our own loop
                self.recorder.abandon()
                return
            self.attempts.tools_ended(handled=False)  # a tool's error that nothing handled is what ended the run
            if self.graph is not None:
                self.graph.failed(run_id, error)
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
        prompt = prompts[0] if prompts else ""
        self._model_start(serialized, prompt, None, run_id, parent_run_id, invocation_params, "on_llm_start")

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
        sent = openai_messages(messages[0]) if messages else []
        self._model_start(
            serialized, render_messages(sent), sent, run_id, parent_run_id, invocation_params, "on_chat_model_start"
        )

    def _model_start(
        self,
        serialized: Any,
        prompt: str,
        messages: list[dict[str, Any]] | None,
        run_id: UUID,
        parent: UUID | None,
        params: dict[str, Any] | None,
        callback: str,
    ) -> None:
        stack = self._stack(parent)
        name = model_name(serialized, params)
        # The same caller asking again after a failed call: the failed attempt is retried, or another model takes over.
        failure = self.attempts.model_asked_again(parent, name, run_id, stack)
        if failure is not None:
            self._names[run_id], self._started[run_id] = name, failure.started
            self._deciding.update({run_id} if failure.run_id in self._deciding else ())
            return
        if self.graph is not None:
            if self.graph.model_asked(run_id, parent):
                self._deciding.add(run_id)
        elif plans(stack) or (not stack and self._asked_by_agent(parent)):
            self.rounds.start_round(run_id)
        self._names[run_id], self._started[run_id] = name, self.recorder.elapsed()
        stop = [safe_text(word) for word in ((params if isinstance(params, dict) else {}).get("stop") or [])]
        self.recorder.emit(
            LLMStartEvent,
            callback,
            run_id,
            parent,
            stack,
            model=name,
            prompt=prompt,
            stop=stop,
            messages=messages,
            tools=offered_tools(params) if messages is not None else None,
            tool_call_id=self._tool_call_around(parent),
        )

    def _asked_by_agent(self, parent: UUID | None) -> bool:
        """The model call comes from the agent's runnable, a direct child of the executor run (under
        ainvoke, where asyncio.gather hides the frames; a tool's model call sits under the tool run)."""
        root = self.recorder.root
        return self.rounds.executor is not None and parent in self._parents and self._parents[parent] == root

    def _tool_call_around(self, parent: UUID | None) -> str | None:
        """The id of the tool call whose code makes this model call (an agent or chain the tool runs), if any."""
        seen: set[UUID] = set()
        while parent is not None and parent not in seen:
            if parent in self._call_ids:
                return self._call_ids[parent]
            seen.add(parent)
            parent = self._parents.get(parent)
        return None

    @guarded
    def on_llm_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        """Remembered, not written: a retry, a fallback or the run's chain_error says what the failure led to."""
        if parent_run_id is not None:
            failure = self._failure(self._names.get(run_id, "unknown"), error, run_id, parent_run_id)
            failure.started = self._started.pop(run_id, failure.at)
            self.attempts.model_failed(parent_run_id, failure)

    def _failure(self, name: str, error: BaseException, run_id: UUID, parent: UUID | None) -> Failure:
        return Failure(
            name=name,
            attempt=1,
            error_type=type(error).__name__,
            message=safe_text(error),
            error_class=class_path(type(error)),
            at=self.recorder.elapsed(),
            stack=self._stack(parent),
            run_id=run_id,
            parent=parent,
            tool_call_id=self._call_ids.get(run_id),
        )

    @guarded
    def on_llm_end(self, response: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        text, calls, usage = reply_of(response)
        duration = self.recorder.elapsed() - self._started.pop(run_id, self.recorder.elapsed())
        stack = self._stack(parent_run_id)
        self.recorder.emit(
            LLMEndEvent,
            "on_llm_end",
            run_id,
            parent_run_id,
            stack,
            text=text,
            usage=usage,
            duration=duration,
            tool_calls=call_records(calls),
            answered_by=self.attempts.answered_by.pop(parent_run_id, None) if parent_run_id else None,
            tool_call_id=self._tool_call_around(parent_run_id),
        )
        if run_id in self._deciding:  # LangGraph: the reply itself is the decision
            self._deciding.discard(run_id)
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
            error_class=class_path(type(error)) if error else None,
            delay=float(delay),
        )

    # -- the agent's decisions ----------------------------------------------------------------
    @guarded
    def on_agent_action(self, action: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        record = ActionRecord(tool=action.tool, tool_input=as_text(action.tool_input), log=action.log)
        call_id = getattr(action, "tool_call_id", None)  # a tool-calling agent's ToolAgentAction
        self.rounds.decided(record, call_id)
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
        self.recorder.emit(
            AgentActionEvent,
            "on_agent_action",
            run_id,
            parent_run_id,
            tool_call_id=call_id,
            tool=record.tool,
            tool_input=record.tool_input,
            log=record.log,
        )

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
        call_id = kwargs.get("tool_call_id")
        call_id = call_id if isinstance(call_id, str) else None
        self._names[run_id], self._tool_inputs[run_id] = name, inputs if inputs is not None else input_str
        self._call_ids[run_id] = call_id
        if name in (PARSE_ERROR_TOOL, INVALID_TOOL):
            return
        if self.graph is not None:
            self.graph.tool_started(parent_run_id)
        stack = self._stack(parent_run_id)
        if self.attempts.tool_retried(call_id or str(parent_run_id), run_id, parent_run_id, stack):
            return  # one tool_start for the call, as loopscope's own retries have; the attempt is the retry event
        self.recorder.emit(
            ToolStartEvent,
            "on_tool_start",
            run_id,
            parent_run_id,
            stack,
            tool=name,
            tool_input=as_text(inputs if isinstance(inputs, dict) else input_str),
            callee=self._callee(name),
            tool_call_id=call_id,
        )

    def _callee(self, tool: str) -> CalleeRef | None:
        """The user's function behind the tool (its func or coroutine): where the Source pane shows it.
        None for a tool whose function is LangChain's own (LLMMathChain.run): its frames are the loop's."""
        if tool not in self._callees:
            found = self._tools.get(tool)
            callee = callee_of(found) if found is not None else None
            inside_langchain = callee is not None and package_relative(callee.file) is not None
            self._callees[tool] = None if inside_langchain else callee
        return self._callees[tool]

    @guarded
    def on_tool_end(self, output: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        name, observation = self._names.get(run_id, "unknown"), as_text(output)
        call_id = getattr(output, "tool_call_id", None) or self._call_ids.get(run_id)
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
            self.recorder.emit(
                ToolEndEvent,
                "on_tool_end",
                run_id,
                parent_run_id,
                self._stack(parent_run_id),
                tool=name,
                observation=observation,
                callee=self._callee(name),
                tool_call_id=call_id,
            )
        self.rounds.tool_returned(name, observation, call_id)

    @guarded
    def on_tool_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        """Held, not written: the call's next attempt, the message it ends with, or the run's error says what it led to."""
        failure = self._failure(self._names.get(run_id, "unknown"), error, run_id, parent_run_id)
        failure.callee = self._callee(failure.name)
        self.attempts.tool_failed(failure.tool_call_id or str(parent_run_id), failure)
