"""A LangGraph agent's run (LangChain 1.x create_agent, langgraph's create_react_agent) told as loopscope's tool-calling loop."""

from __future__ import annotations

import sys
import threading
from typing import Any
from uuid import UUID

from executor.events import AgentFinishEvent, LimitReachedEvent, SourceRef

from .langchain_attempts import FailedAttempts
from .langchain_recorder import TraceRecorder
from .langchain_rounds import LoopRounds
from .langchain_stack import rooted, thread_stack
from .langchain_values import as_text, plain, safe_text

# The node that asks the model for the next move: create_agent's `model`, create_react_agent's `agent`.
DECIDING_NODES = frozenset({"model", "agent"})
TOOL_NODES = frozenset({"tools"})
# A middleware hook that runs before the model belongs to the round it opens (SummarizationMiddleware,
# ModelCallLimitMiddleware): `<Middleware>.before_model`.
BEFORE_MODEL = ".before_model"
AFTER_MODEL = ".after_model"  # ... and one after it decides where the run goes (its conditional edge)


class GraphLoop:
    """Which LangGraph node each callback came from, the rounds they make, and the frames of each
    node (a node runs on a worker thread when LangGraph runs several at once, as it does for parallel
    tool calls: its events get the frames of the run's thread that dispatched it, then their own)."""

    def __init__(self, recorder: TraceRecorder, rounds: LoopRounds, attempts: FailedAttempts) -> None:
        self.recorder, self.rounds, self.attempts = recorder, rounds, attempts
        self.nodes: dict[UUID, str] = {}  # node run -> the node's name
        self.stacks: dict[UUID, tuple[SourceRef, ...]] = {}  # node run -> its frames when it started
        self.parents: dict[UUID, UUID | None] = {}
        self.root_stack: tuple[SourceRef, ...] = ()
        self.root_thread: int | None = None
        self.in_round = False  # a round has begun since the tools last ran
        self.tool_nodes: set[str] = set()  # nodes a tool ran under (a ToolNode by any name)
        self.edges: dict[str, frozenset[str]] = {}  # node -> the names of its routing functions (the graph's)
        self.edge_runs: set[UUID] = set()  # runs of a routing function after the model node: their answer
        self.deciding_node: str | None = None  # the node that asked the model this round
        self.limit_hit = False
        self.recursion_limit: int | None = None  # the config's, given or LangGraph's default

    def begin(self, stack: tuple[SourceRef, ...]) -> None:
        self.root_stack, self.root_thread = stack, threading.get_ident()

    def failed(self, run_id: UUID, error: BaseException) -> None:
        """The run is ending in `error`: LangGraph's step limit is told as the loop's limit, before chain_error."""
        if type(error).__name__ == "GraphRecursionError":  # by name: langgraph is loaded late, if at all
            self.recorder.emit(
                LimitReachedEvent,
                "on_chain_error",
                run_id,
                None,
                self.root_stack,
                reason="max_iterations",
                iterations=self.recorder.iteration,
                elapsed=self.recorder.elapsed(),
                early_stopping_method=f"raise GraphRecursionError (recursion_limit={self.recursion_limit})",
            )

    # -- nodes --------------------------------------------------------------------------------
    def chain_started(self, run_id: UUID, parent: UUID | None, name: str | None) -> None:
        """A nested chain run began: a node of the graph (named in LangChain's callback) or something inside one."""
        self.parents[run_id] = parent
        node = self.nodes.get(parent) if parent is not None else None
        if node is not None and name in self.edges.get(node, ()) and self._after_model(node):
            self.edge_runs.add(run_id)  # LangGraph runs a node's conditional edge as a run inside the node
        if parent != self.recorder.root or not name:
            return
        self.rounds.node_started(name)  # a static edge after the model node says where it went by the next node
        self.nodes[run_id] = name
        walked = self.recorder.walk(sys._getframe(1))
        self.stacks[run_id] = walked if rooted(walked, self.root_stack) else thread_stack(self.root_thread) + walked
        if name in TOOL_NODES:
            self.in_round = False
        elif (name in DECIDING_NODES or name.endswith(BEFORE_MODEL)) and not self.in_round:
            self.in_round = True
            self.rounds.start_round(run_id)

    def node_of(self, run_id: UUID | None) -> str | None:
        """The node a run belongs to: its own name if it is a node, else the nearest node above it."""
        for _ in range(64):  # a run's ancestry is short; the bound keeps a cycle from looping
            if run_id is None or run_id in self.nodes:
                break
            run_id = self.parents.get(run_id)
        return self.nodes.get(run_id) if run_id is not None else None

    def deciding(self, parent: UUID | None) -> bool:
        """A model call made by the node that decides the next move (not a summary or a tool's own call):
        create_agent's and create_react_agent's by name; in a graph of your own, any node of it that is
        no middleware hook (`Middleware.hook`) and has run no tool (LangGraph's quickstart's `chatbot`)."""
        node = self.node_of(parent)
        return node in DECIDING_NODES or (node is not None and "." not in node and node not in self.tool_nodes)

    def _after_model(self, node: str) -> bool:
        """The node whose edge decides after the model: the model's own, or a middleware's after_model hook."""
        return node == self.deciding_node or node in DECIDING_NODES or node.endswith(AFTER_MODEL)

    def model_asked(self, run_id: UUID, parent: UUID | None) -> bool:
        """A model call began: whether it decides the next move. A node of your own opens its round here
        (it is known to decide only when it asks the model); create_agent's opened it when it started."""
        deciding = self.deciding(parent)
        if deciding:
            self.deciding_node = self.node_of(parent)
        if deciding and self.node_of(parent) not in DECIDING_NODES and not self.in_round:
            self.in_round = True
            self.rounds.start_round(run_id)
        return deciding

    def tool_started(self, parent: UUID | None) -> None:
        """A tool began: its node runs tools (whatever it is named), and the next model call opens a round."""
        node = self.node_of(parent)
        if node is not None:
            self.tool_nodes.add(node)
        self.in_round = False

    def stack(self, parent: UUID | None) -> tuple[SourceRef, ...]:
        """The frames for an event of a run under `parent`: this thread's, after the frames of the
        nearest node above it when this thread is one of LangGraph's workers."""
        walked = self.recorder.walk(sys._getframe(1))
        if not self.root_stack or rooted(walked, self.root_stack):
            return walked
        ancestor = parent
        for _ in range(64):  # a run's ancestry is short; the bound keeps a cycle from looping
            if ancestor is None or ancestor in self.stacks:
                break
            ancestor = self.parents.get(ancestor)
        prefix = self.stacks.get(ancestor) if ancestor is not None else None
        return (prefix if prefix is not None else self.root_stack) + walked

    def chain_ended(self, run_id: UUID, outputs: Any) -> None:
        """A node's end says what became of a failed tool call, and whether a middleware ended the run; a
        routing function's end says where the edge after the model went."""
        if run_id in self.edge_runs:
            self.edge_runs.discard(run_id)
            went = destination(outputs)
            if went:
                self.rounds.edge_went(went)
            return
        name = self.nodes.get(run_id)
        if name is None:
            return
        update = _update_of(outputs)
        for message in _messages_of(update):
            call_id = getattr(message, "tool_call_id", None)
            if isinstance(call_id, str) and self.attempts.tool_gave_up(call_id, as_text(message)):
                self.rounds.tool_returned(getattr(message, "name", "") or "", as_text(message), call_id)
        if isinstance(update, dict) and update.get("jump_to") == "end" and name != "model":
            self._ended_by(name, run_id, update)

    def _ended_by(self, node: str, run_id: UUID, update: dict[str, Any]) -> None:
        """A middleware hook jumped to the end (ModelCallLimitMiddleware's exit_behavior="end"): a limit,
        answered by the message it added, as the classic loop's early stop is."""
        message = next(iter(_messages_of(update)), None)
        text = as_text(message) if message is not None else ""
        stack = self.stacks.get(run_id, ())
        self.rounds.end_round(run_id)
        if "CallLimit" in node:
            self.recorder.emit(
                LimitReachedEvent,
                "on_chain_end",
                run_id,
                None,
                stack,
                reason="max_iterations",
                iterations=self.recorder.iteration,
                elapsed=self.recorder.elapsed(),
                early_stopping_method=f"{node.split('.')[0]}: end",
            )
        self.recorder.emit(
            AgentFinishEvent, "on_chain_end", run_id, None, stack, return_values={"output": text}, log=text
        )
        self.limit_hit = True


def destination(answer: Any) -> str | None:
    """A routing function's answer as the node it names: a name, "__end__", or a list of names or `Send`s
    (create_agent sends each tool call to the tools node: one name for them all), joined by commas."""
    items = answer if isinstance(answer, (list, tuple)) else [answer]
    names = [item if isinstance(item, str) else getattr(item, "node", None) for item in items]
    kept = list(dict.fromkeys(name for name in names if isinstance(name, str) and name))
    return safe_text(", ".join(kept))[:200] if kept else None


def _update_of(outputs: Any) -> Any:
    """What a node wrote to the state: its dict, or the `update` of the Command(s) it returned."""
    if isinstance(outputs, list):
        merged: dict[str, Any] = {"messages": []}
        for item in outputs:
            part = _update_of(item)
            if isinstance(part, dict):
                merged["messages"] += list(_messages_of(part))
                merged.update({k: v for k, v in part.items() if k != "messages"})
        return merged
    update = getattr(outputs, "update", None)
    if update is not None and not isinstance(outputs, dict):  # a langgraph Command
        return update
    return outputs


def _messages_of(update: Any) -> list[Any]:
    messages = update.get("messages") if isinstance(update, dict) else None
    if messages is None:
        return []
    return list(messages) if isinstance(messages, (list, tuple)) else [messages]


def state_messages(inputs: Any) -> list[Any]:
    """The messages a graph run was invoked with, as plain role/content dicts."""
    return plain(_messages_of(inputs))
