"""A LangGraph agent (what LangChain 1.x `create_agent` returns) run through loopscope's framework adapter shape.

Recording is the callback handler's. Answering from a recording hands the graph a chat model of ours: the model
a node closes over (create_agent's model node holds it in its closure) is swapped for one that gives the recorded
replies, for the length of the run, and put back after. Nothing is patched below LangChain's model interface, so
the user's tools, middleware and graph run for real.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import FunctionType, MethodType
from typing import Any

from pydantic import BaseModel, ValidationError

from executor.events import EventBase
from executor.models.messages import render_messages

from ..agents.frameworks import Answerer, RecordedReply

try:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.runnables import RunnableBinding
    from langchain_core.tools import BaseTool, StructuredTool
    from langchain_core.utils.function_calling import convert_to_openai_tool
except ImportError as missing:  # the [langchain] extra
    raise ImportError(
        f"a LangGraph agent needs the langchain extra ({missing.name} is not installed): "
        "pip install 'loopscope[langchain]'",
        name=missing.name,
    ) from None

from .async_run import run_to_end
from .langchain_handler import LoopscopeCallbackHandler
from .langchain_values import openai_messages
from .langgraph_models import held_model, model_places, node_functions, substituted
from .recorded_errors import recorded_error


class RecordedChatModel(BaseChatModel):
    """Answers each call with what `answer` gives for its prompt (text and tool calls with their ids), sending
    nothing. Named after the model it stands in for, so the re-run's llm_start names the same model."""

    answer: Any  # an Answerer: the prompt as loopscope renders the messages -> the RecordedReply to give
    stands_in_for: str = "recorded"

    @property
    def _llm_type(self) -> str:
        return self.stands_in_for

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        reply = self.answer(render_messages(openai_messages(messages)))
        if reply.error is not None:
            raise recorded_error(reply.error, reply.error_class)
        message = as_message(reply)
        schema = kwargs.get("response_format")
        if schema is not None:  # with_structured_output's json_schema way: its parser reads what the client parsed
            message.additional_kwargs["parsed"] = parsed_as(schema, reply.text)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        # As a real chat model does: the tools' JSON schemas ride along, so llm_start records what was offered.
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools])


def as_message(reply: RecordedReply) -> AIMessage:
    """A recorded reply as the AIMessage a chat model would have returned."""
    calls = [{"id": c.id, "name": c.name, "args": _arguments(c.arguments)} for c in reply.tool_calls]
    return AIMessage(reply.text, tool_calls=calls)


def parsed_as(schema: Any, text: str) -> Any:
    """The recorded reply's JSON as the openai client's `parse` gave it to ChatOpenAI: an instance of the
    schema's pydantic class, else the JSON value; None (what the client gives a reply it cannot parse,
    for the parser to refuse as it did) when the text is no such JSON."""
    try:
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            return schema.model_validate_json(text)
        return json.loads(text)
    except (ValueError, ValidationError):
        return None


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except json.JSONDecodeError:
        return {"input": text}  # what LangChain's own parser does with arguments that are not JSON
    return value if isinstance(value, dict) else {"input": value}


def _middleware_of(graph: Any) -> list[Any]:
    """The middleware objects the graph's nodes reach through their closures (create_agent composes their
    wrap_model_call hooks into the model node), each once."""
    # Late: a graph built with langgraph alone (create_react_agent) may have no langchain package.
    try:
        from langchain.agents.middleware import AgentMiddleware  # late: see above
    except ImportError:
        return []

    found: list[Any] = []
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(function, 0) for function in node_functions(graph)]
    while stack:
        held, depth = stack.pop()
        if id(held) in seen or depth > 8:
            continue
        seen.add(id(held))
        if isinstance(held, AgentMiddleware):
            found.append(held)
        elif isinstance(held, FunctionType):
            for cell in held.__closure__ or ():
                try:
                    stack.append((cell.cell_contents, depth + 1))
                except ValueError:  # a cell not yet filled
                    continue
        elif isinstance(held, MethodType):
            stack.append((held.__self__, depth + 1))
    return found


def _middleware_models(graph: Any) -> list[tuple[Any, str, int | None, BaseChatModel]]:
    """Each chat model a middleware holds (ModelFallbackMiddleware's fallbacks, a summarizer's model), as
    (middleware, attribute, index in a list or None, model)."""
    held: list[tuple[Any, str, int | None, BaseChatModel]] = []
    for middleware in _middleware_of(graph):
        for attribute, value in vars(middleware).items():
            if isinstance(value, BaseChatModel):
                held.append((middleware, attribute, None, value))
            elif isinstance(value, list):
                held += [(middleware, attribute, i, m) for i, m in enumerate(value) if isinstance(m, BaseChatModel)]
    return held


def _put(middleware: Any, attribute: str, index: int | None, model: Any) -> None:
    if index is None:
        setattr(middleware, attribute, model)
    else:
        getattr(middleware, attribute)[index] = model


def model_name(held: Any) -> str:
    model = held.bound if isinstance(held, RunnableBinding) else held
    for attribute in ("model_name", "model"):
        value = getattr(model, attribute, None)
        if isinstance(value, str) and value:
            return value
    return str(getattr(model, "_llm_type", type(model).__name__))


@contextmanager
def answered_by(graph: Any, answer: Answerer) -> Iterator[RecordedChatModel]:
    """The graph's model is answered by `answer` inside the block, and is its own model again after it.
    ValueError when no node holds a chat model loopscope can reach (say, one built inside a node per call)."""
    places = model_places(graph)
    if not places:
        raise ValueError(
            "cannot answer this graph from a recording: no node reaches a chat model loopscope can swap "
            "(one built inside a node on every call cannot be reached; build it once, at the top of your "
            "module or in the function that builds the graph, and use it in the node)"
        )
    stand_in = RecordedChatModel(answer=answer, stands_in_for=model_name(held_model(places[0].held)))
    for place in places:
        place.put(substituted(place.held, stand_in))
    # The models middleware holds answer from the same recording, in turn (each named for the one it replaces):
    # a fallback after the recorded failure, a summary call; none of them may reach the network.
    others = _middleware_models(graph)
    for middleware, attribute, index, model in others:
        _put(middleware, attribute, index, RecordedChatModel(answer=answer, stands_in_for=model_name(model)))
    try:
        yield stand_in
    finally:
        for place in places:
            place.put(place.held)
        for middleware, attribute, index, model in others:
            _put(middleware, attribute, index, model)


class _GivenResult(BaseTool):
    """Stands in for one of the graph's tools: the calls whose ids it was given get the given text as their
    result (the tool does not run), every other call runs the real tool."""

    real: BaseTool
    results: dict[str, str]

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        call_id = input.get("id") if isinstance(input, dict) else None
        if call_id in self.results:
            given = self.results[call_id]
            substitute = StructuredTool.from_function(
                func=lambda **_: given,
                name=self.real.name,
                description=self.real.description,
                args_schema=self.real.args_schema,
            )
            return substitute.invoke(input, config, **kwargs)
        return self.real.invoke(input, config, **kwargs)

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        return self.real._run(*args, **kwargs)


@contextmanager
def tool_results_given(graph: Any, results: dict[str, str]) -> Iterator[None]:
    """Inside the block, the tool calls with these ids get these results; their tools are themselves after."""
    swapped: list[tuple[dict[str, BaseTool], str, BaseTool]] = []
    for node in getattr(graph, "nodes", {}).values():
        tools = getattr(getattr(node, "bound", None), "tools_by_name", None)
        if isinstance(tools, dict):
            for name, tool in list(tools.items()):
                tools[name] = _GivenResult(name=name, description=tool.description, real=tool, results=results)
                swapped.append((tools, name, tool))
    try:
        yield
    finally:
        for tools, name, tool in swapped:
            tools[name] = tool


def needs_async(graph: Any) -> bool:
    """Whether a node of the graph, or a tool of its tool nodes, is `async def` only: LangGraph runs such a
    graph by ainvoke alone (invoke says "StructuredTool does not support sync invocation")."""
    for node in getattr(graph, "nodes", {}).values():
        bound = getattr(node, "bound", None)
        if getattr(bound, "afunc", None) is not None and getattr(bound, "func", None) is None:
            return True
        for tool in (getattr(bound, "tools_by_name", None) or {}).values():
            if getattr(tool, "coroutine", None) is not None and getattr(tool, "func", None) is None:
                return True
    return False


def run_config(graph: Any, handler: LoopscopeCallbackHandler, recursion_limit: int | None = None) -> dict[str, Any]:
    """The config a run is invoked with: loopscope's handler, the recursion limit the app gives (if any), and
    for a graph compiled with a checkpointer (memory) a thread of its own, new for each run, so that a recording
    and its re-run both begin with an empty conversation, not one a checkpointer kept from an earlier run."""
    config: dict[str, Any] = {"callbacks": [handler]}
    if recursion_limit is not None:
        config["recursion_limit"] = recursion_limit
    if getattr(graph, "checkpointer", None) not in (None, False):
        config["configurable"] = {"thread_id": f"loopscope-{uuid.uuid4().hex}"}
    return config


class LangGraphAdapter:
    """The framework adapter for compiled LangGraph graphs (create_agent, create_react_agent, your own)."""

    name = "LangGraph"
    extra = "langchain"
    takes_state = True  # a graph may be run on its own input state, not only a question (see state_of)
    takes_max_turns = True  # record(max_turns=N): the app's config={"recursion_limit": N}, LangGraph's step limit
    limit_setting = "recursion_limit"  # where chain_start keeps it (only when given)

    def record(
        self,
        agent: Any,
        question: str,
        path: Path,
        answer: Answerer | None = None,
        meta: dict[str, Any] | None = None,
        observations: dict[str, str] | None = None,
        listener: Callable[[EventBase], None] | None = None,
        clock: Callable[[], float] | None = None,
        state: dict[str, Any] | None = None,
        max_turns: int | None = None,
    ) -> None:
        inputs = state if state is not None else {"messages": [{"role": "user", "content": question}]}
        with ExitStack() as substitutions:
            # First: a graph loopscope cannot answer is said before a trace file is made.
            if answer is not None:
                substitutions.enter_context(answered_by(agent, answer))
            if observations:
                substitutions.enter_context(tool_results_given(agent, observations))
            clock = clock or time.monotonic
            handler = LoopscopeCallbackHandler(path, clock=clock, listener=listener, **(meta or {}))
            try:
                with handler:
                    config = run_config(agent, handler, max_turns)
                    if needs_async(agent):
                        run_to_end(agent.ainvoke(inputs, config))
                    else:
                        agent.invoke(inputs, config)
            except KeyboardInterrupt:  # the handler kept the events so far: the one-line message says where
                raise KeyboardInterrupt(handler.interrupted) from None

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
