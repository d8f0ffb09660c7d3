"""A LangGraph agent (what LangChain 1.x `create_agent` returns) run through loopscope's framework adapter shape.

Recording is the callback handler's. Answering from a recording hands the graph a chat model of ours: the model
a node closes over (create_agent's model node holds it in its closure) is swapped for one that gives the recorded
replies, for the length of the run, and put back after. Nothing is patched below LangChain's model interface, so
the user's tools, middleware and graph run for real.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import CellType, FunctionType
from typing import Any

from ..agents.frameworks import RecordedReply, RepliesUsedUp

try:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.runnables import RunnableBinding
    from langchain_core.tools import BaseTool
    from langchain_core.utils.function_calling import convert_to_openai_tool
except ImportError as missing:  # the [langchain] extra
    raise ImportError(
        f"a LangGraph agent needs the langchain extra ({missing.name} is not installed): "
        "pip install 'loopscope[langchain]'",
        name=missing.name,
    ) from None

from .langchain_handler import LoopscopeCallbackHandler


class RecordedChatModel(BaseChatModel):
    """Answers each call with the next recorded reply (text and tool calls with their ids), sending nothing.
    Named after the model it stands in for, so the re-run's llm_start names the same model."""

    replies: list[AIMessage]
    stands_in_for: str = "recorded"

    @property
    def _llm_type(self) -> str:
        return self.stands_in_for

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        if not self.replies:
            raise RepliesUsedUp("the re-run asked the model once more than the recording answered it")
        return ChatResult(generations=[ChatGeneration(message=self.replies.pop(0))])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        # As a real chat model does: the tools' JSON schemas ride along, so llm_start records what was offered.
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools])


def as_message(reply: RecordedReply) -> AIMessage:
    """A recorded reply as the AIMessage a chat model would have returned."""
    calls = [{"id": c.id, "name": c.name, "args": _arguments(c.arguments)} for c in reply.tool_calls]
    return AIMessage(reply.text, tool_calls=calls)


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except json.JSONDecodeError:
        return {"input": text}  # what LangChain's own parser does with arguments that are not JSON
    return value if isinstance(value, dict) else {"input": value}


def _functions_of(graph: Any) -> Iterator[FunctionType]:
    """The functions behind the graph's nodes (sync and async), whose closures hold what each node uses."""
    for node in getattr(graph, "nodes", {}).values():
        bound = getattr(node, "bound", None)
        for attribute in ("func", "afunc"):
            function = getattr(bound, attribute, None)
            function = getattr(function, "__wrapped__", function)
            if isinstance(function, FunctionType):
                yield function


def _model_cells(graph: Any) -> list[tuple[CellType, Any]]:
    """Each closure cell of a node that holds a chat model (or one bound with its tools), with what it holds."""
    cells = []
    for function in _functions_of(graph):
        for cell in function.__closure__ or ():
            try:
                held = cell.cell_contents
            except ValueError:  # a cell not yet filled
                continue
            if isinstance(held, BaseChatModel) or (
                isinstance(held, RunnableBinding) and isinstance(held.bound, BaseChatModel)
            ):
                cells.append((cell, held))
    return cells


def model_name(held: Any) -> str:
    model = held.bound if isinstance(held, RunnableBinding) else held
    for attribute in ("model_name", "model"):
        value = getattr(model, attribute, None)
        if isinstance(value, str) and value:
            return value
    return str(getattr(model, "_llm_type", type(model).__name__))


@contextmanager
def answered_from(graph: Any, replies: Sequence[RecordedReply]) -> Iterator[RecordedChatModel]:
    """The graph's model answers from `replies` inside the block, and is its own model again after it.
    ValueError when no node holds a chat model loopscope can reach (say, one built inside a node per call)."""
    cells = _model_cells(graph)
    if not cells:
        raise ValueError(
            "cannot answer this graph from a recording: none of its nodes holds a chat model "
            "(a model built inside a node on every call cannot be reached; pass it to create_agent instead)"
        )
    stand_in = RecordedChatModel(
        replies=[as_message(reply) for reply in replies], stands_in_for=model_name(cells[0][1])
    )
    for cell, held in cells:
        cell.cell_contents = stand_in.bind(**held.kwargs) if isinstance(held, RunnableBinding) else stand_in
    try:
        yield stand_in
    finally:
        for cell, held in cells:
            cell.cell_contents = held


class LangGraphAdapter:
    """The framework adapter for compiled LangGraph graphs (create_agent, create_react_agent, your own)."""

    name = "LangGraph"
    extra = "langchain"

    def record(
        self,
        agent: Any,
        question: str,
        path: Path,
        replies: Sequence[RecordedReply] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        inputs = {"messages": [{"role": "user", "content": question}]}
        with LoopscopeCallbackHandler(path, **(meta or {})) as handler:
            if replies is None:
                agent.invoke(inputs, {"callbacks": [handler]})
            else:
                with answered_from(agent, replies):
                    agent.invoke(inputs, {"callbacks": [handler]})

    def tool_functions(self, agent: Any) -> dict[str, Callable[..., Any]]:
        found: dict[str, Callable[..., Any]] = {}
        for node in getattr(agent, "nodes", {}).values():
            tools = getattr(getattr(node, "bound", None), "tools_by_name", {})
            for name, tool in tools.items():
                function = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
                if isinstance(tool, BaseTool) and callable(function):
                    found[name] = function
        return found


ADAPTER = LangGraphAdapter()
