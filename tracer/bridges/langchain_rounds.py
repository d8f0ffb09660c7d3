"""What LangChain's agent loops decide without a callback, rebuilt as events: rounds, steps, isinstance checks, limits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from executor.events import (
    ActionRecord,
    AgentActionEvent,
    AgentFinishEvent,
    FinishCheckEvent,
    LimitReachedEvent,
    SourceRef,
    StepEvent,
)

from .langchain_recorder import TraceRecorder
from .langchain_stack import at_line, line_containing
from .langchain_values import arguments_of, plain

# LangChain runs this "tool" itself when the model names a tool the agent does not have.
INVALID_TOOL = "invalid_tool"


def plans(stack: tuple[SourceRef, ...]) -> bool:
    """A model call made to decide the next move, by a classic agent's plan() (a LangGraph agent's
    are told by the node that makes them: see GraphLoop.deciding)."""
    return any(f.function in ("plan", "aplan") for f in stack)


class LoopRounds:
    """The loop's own bookkeeping, as loopscope's executor emits it: the round number, the actions
    waiting for their tool, and the steps and `isinstance(output, AgentFinish)` check that close a
    round. LangChain's classic AgentExecutor makes these in _call and _take_next_step and fires no
    callback for them; they happened before whatever callback comes next, so that is when they are
    written."""

    def __init__(self, recorder: TraceRecorder) -> None:
        self.recorder = recorder
        self.executor: Any = None  # the classic AgentExecutor being run; None for a LangGraph agent
        # A LangGraph agent's: the frames of its finish check (the edge after the model node), made when asked.
        self.graph_check: Callable[[], tuple[SourceRef, ...]] | None = None
        self.n_steps = 0
        # Decided, waiting for their tool to return: (action, its tool call id, the order it was decided in).
        self._actions: list[tuple[ActionRecord, str | None, int]] = []
        self._pending_steps: list[tuple[ActionRecord, str, str | None, int]] = []
        self._decided = 0
        # A LangGraph agent's: the node its edge after the model node went to this round (its routing
        # function's answer), and the finish check waiting for it.
        self.went_to: str | None = None
        self._held_check: tuple[UUID, UUID | None] | None = None

    def start_round(self, run_id: UUID) -> None:
        """A plan call begins a round: the previous round's steps and isinstance check come first."""
        self.end_round(run_id)
        self.recorder.iteration += 1

    def decided(self, action: ActionRecord, tool_call_id: str | None = None) -> None:
        self._decided += 1
        self._actions.append((action, tool_call_id, self._decided))

    def tool_returned(self, tool: str, observation: str, tool_call_id: str | None = None) -> None:
        """The waiting action this tool ran for becomes a step (an invalid name runs LangChain's invalid_tool)."""
        index = self._action_for(tool, tool_call_id)
        if index is not None:
            action, call_id, order = self._actions.pop(index)
            self._pending_steps.append((action, observation, call_id, order))

    def _action_for(self, tool: str, tool_call_id: str | None) -> int | None:
        for index, (action, call_id, _order) in enumerate(self._actions):
            if (tool_call_id is not None and call_id == tool_call_id) or (tool_call_id is None and action.tool == tool):
                return index
        return 0 if self._actions and tool == INVALID_TOOL else None

    def finished(self, finish: Any, run_id: UUID, parent: UUID | None) -> None:
        """LangChain's AgentFinish: from plan (then the isinstance check says True), or made by a
        limit or return_direct after the round's steps."""
        from_plan = not self._pending_steps
        if not from_plan:
            self.end_round(run_id)
            self._limit_if_reached(run_id)
        values = plain(finish.return_values)
        self.recorder.emit(AgentFinishEvent, "on_agent_finish", run_id, parent, return_values=values, log=finish.log)
        if from_plan:
            self._finish_check(run_id, parent, "on_agent_finish", is_finish=True)

    def graph_decision(
        self, text: str, calls: list[dict[str, Any]], run_id: UUID, parent: UUID | None, stack: tuple[SourceRef, ...]
    ) -> None:
        """LangGraph's agent decides in its reply: each tool call an action (in the reply's order, with
        its id), no call the finish, which the edge after the model node then tests."""
        emit = self.recorder.emit
        for call in calls:
            action = ActionRecord(tool=str(call.get("name", "")), tool_input=arguments_of(call), log=text)
            call_id = str(call["id"]) if call.get("id") else None
            self.decided(action, call_id)
            emit(AgentActionEvent, "on_llm_end", run_id, parent, stack, tool_call_id=call_id, **action.model_dump())
        if not calls:
            emit(AgentFinishEvent, "on_llm_end", run_id, parent, stack, return_values={"output": text}, log=text)
            # The check waits for the edge's answer (edge_went), or for the next event, whichever comes first.
            self._held_check = (run_id, parent)
            self.recorder.pending = self._made_held_check

    def edge_went(self, node: str) -> None:
        """The graph's routing function after the model node answered: the node the run goes to next."""
        self.went_to = node
        if self._held_check is not None:
            self.recorder.pending = None
            self._made_held_check()

    def node_started(self, node: str) -> None:
        """A node of the graph began: when a finish check still waits, its edge (one with no routing
        function, `add_edge("triage", "answer")`) went here."""
        if self._held_check is not None:
            self.edge_went(node)

    def run_ended(self) -> None:
        """The graph's run ended well: a finish check still waiting went to END (a plain edge to it)."""
        if self._held_check is not None:
            self.edge_went("__end__")

    def _made_held_check(self) -> None:
        if self._held_check is not None:
            (run_id, parent), self._held_check = self._held_check, None
            self._finish_check(run_id, parent, "on_llm_end", is_finish=True)

    def end_round(self, run_id: UUID) -> None:
        """The steps of the round just ended, then `isinstance(output, AgentFinish)` → False."""
        if not self._pending_steps:
            return
        steps, self._pending_steps = self._pending_steps, []
        walked = self.recorder.walk() if self.graph_check is None else ()  # once for the steps and the check
        stack = self._at_call("_consume_next_step(", "_take_next_step", walked)
        steps.sort(key=lambda step: step[3])  # parallel calls finish in any order; steps follow the reply's
        for action, observation, call_id, _order in steps:
            self.n_steps += 1
            self.recorder.emit(
                StepEvent,
                "implied",
                run_id,
                None,
                stack=stack,
                action=action,
                observation=observation,
                n_steps=self.n_steps,
                tool_call_id=call_id,
            )
        self._finish_check(run_id, None, "implied", is_finish=False, walked=walked)

    def _finish_check(
        self, run_id: UUID, parent: UUID | None, callback: str, is_finish: bool, walked: tuple[SourceRef, ...] = ()
    ) -> None:
        self.recorder.emit(
            FinishCheckEvent,
            callback,
            run_id,
            parent,
            stack=self._at_call("isinstance(next_step_output, AgentFinish)", walked=walked),
            is_finish=is_finish,
            output_type="AgentFinish" if is_finish else "list[AgentStep]",
            # A graph makes no isinstance test: the edge after its model node reads the reply's tool calls.
            decided_by="graph_edge" if self.graph_check is not None else None,
            went_to=self.went_to if self.graph_check is not None else None,
        )
        self.went_to = None  # the next round's edge answers for itself

    def _limit_if_reached(self, run_id: UUID) -> None:
        executor = self.executor
        iteration = self.recorder.iteration
        if executor is not None and executor.max_iterations is not None and iteration >= executor.max_iterations:
            self.recorder.emit(
                LimitReachedEvent,
                "on_agent_finish",
                run_id,
                None,
                reason="max_iterations",
                iterations=iteration,
                elapsed=self.recorder.elapsed(),
                early_stopping_method=executor.early_stopping_method,
            )

    def _at_call(
        self, needle: str, function: str = "_call", walked: tuple[SourceRef, ...] = ()
    ) -> tuple[SourceRef, ...]:
        """LangChain's frames now (`walked`, when the caller has them), the innermost `function` moved
        to the line holding `needle`."""
        if self.graph_check is not None:
            return self.graph_check()
        stack = walked or self.recorder.walk()
        if self.executor is None:
            return stack
        if any(f.function == "_acall" for f in stack):  # ainvoke: the same checks in the async twins
            function = {"_call": "_acall", "_take_next_step": "_atake_next_step"}[function]
        method = getattr(type(self.executor), function)
        return at_line(stack, function, line_containing(method, needle))
