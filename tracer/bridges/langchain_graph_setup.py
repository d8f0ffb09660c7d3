"""What a LangGraph agent was built with, read when its run starts: tools, model, middleware, and where its loop checks for the end."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

from executor.callee import callee_of
from executor.events import SourceRef

from .langchain_stack import find_self, line_containing
from .langchain_values import language_model_name, plain

if TYPE_CHECKING:
    from .langchain_graph import GraphLoop

# A middleware's settings that are worth a line in chain_start (LangChain's own attribute names).
MIDDLEWARE_SETTINGS = (
    "max_retries",
    "backoff_factor",
    "initial_delay",
    "max_delay",
    "jitter",
    "on_failure",
    "retry_on",
    "run_limit",
    "thread_limit",
    "exit_behavior",
    "trigger",
    "keep",
)
_CLOSURE_DEPTH = 4  # how far into wrappers' closures the middleware is looked for


def graph_on_stack(frame: FrameType | None) -> Any:
    """The LangGraph graph being invoked, if any (create_agent's or LangGraph's prebuilt agent)."""
    try:
        # Here, not at the top: langgraph is optional beside langchain-classic (a classic AgentExecutor
        # needs none, and loading it would cost its run about half a second); a graph's run has it loaded.
        from langgraph.pregel import Pregel
    except ImportError:
        return None
    return find_self(Pregel, frame)


def recursion_limit_on_stack(frame: FrameType | None) -> tuple[int | None, bool]:
    """The recursion limit the graph being invoked runs with (its config's `recursion_limit`, LangGraph's step
    limit), and whether this run's caller gave it: not LangGraph's default (marked by a subclass of int), nor
    the graph's own (create_agent's 9999), which a re-run of the same graph has anyway."""
    graph = graph_on_stack(frame)
    while frame is not None and (graph is None or frame.f_locals.get("self") is not graph):
        frame = frame.f_back
    config = frame.f_locals.get("config") if frame is not None else None
    limit = config.get("recursion_limit") if isinstance(config, dict) else None
    if not isinstance(limit, int) or isinstance(limit, bool):
        return None, False
    own = getattr(graph, "config", None)
    return int(limit), type(limit) is int and limit != (own.get("recursion_limit") if isinstance(own, dict) else None)


def graph_tools(graph: Any) -> list[Any]:
    """The tools of a LangGraph agent, as its tool nodes hold them: create_agent's node named "tools", or a
    ToolNode of your own graph by any name (`action`), each tool once."""
    found: dict[str, Any] = {}
    for node in getattr(graph, "nodes", {}).values():
        for name, tool in (getattr(getattr(node, "bound", None), "tools_by_name", None) or {}).items():
            found.setdefault(name, tool)
    return list(found.values())


def graph_settings(graph: Any, recursion_limit: int | None = None) -> dict[str, Any]:
    """What chain_start records of a graph agent: its kind, its model, the middleware it runs, and the
    recursion limit its caller gave (a re-run takes it again; LangGraph's default is not written)."""
    settings: dict[str, Any] = {"graph": type(graph).__name__ if graph is not None else "unknown"}
    if recursion_limit is not None:
        settings["recursion_limit"] = recursion_limit
    model = _closure_value(_node_function(graph, "model") or _node_function(graph, "agent"), "model")
    if model is not None and not isinstance(model, str):
        settings["model"] = language_model_name(model)
    middleware = [describe_middleware(m) for m in middleware_of(graph)]
    if middleware:
        settings["middleware"] = middleware
    return settings


def describe_middleware(middleware: Any) -> dict[str, Any]:
    """A middleware as chain_start lists it: its name and the settings it has of MIDDLEWARE_SETTINGS."""
    described: dict[str, Any] = {"name": str(getattr(middleware, "name", type(middleware).__name__))}
    for name in MIDDLEWARE_SETTINGS:
        if name in vars(middleware):
            value = vars(middleware)[name]
            described[name] = _setting(value)
    return described


def _setting(value: Any) -> Any:
    if isinstance(value, type):
        return value.__name__
    if isinstance(value, tuple) and all(isinstance(v, type) for v in value):  # retry_on=(TimeoutError,)
        return [v.__name__ for v in value]
    if callable(value):
        return f"<function {getattr(value, '__name__', type(value).__name__)}>"
    return plain(value)


def middleware_of(graph: Any) -> list[Any]:
    """The AgentMiddleware a create_agent graph runs, in order: the hooks that are nodes
    (before_model, after_model, ...) and the wrappers inside the model and tools nodes
    (wrap_model_call, wrap_tool_call), found through the functions the graph holds."""
    found: dict[int, Any] = {}
    for node in getattr(graph, "nodes", {}).values():
        bound = getattr(node, "bound", None)
        for target in (getattr(bound, "func", None), getattr(bound, "_wrap_tool_call", None)):
            for middleware in _middleware_in(target, _CLOSURE_DEPTH):
                found.setdefault(id(middleware), middleware)
    return list(found.values())


def _is_middleware(value: Any) -> bool:
    return any(cls.__name__ == "AgentMiddleware" for cls in type(value).__mro__[1:])


def _middleware_in(target: Any, depth: int) -> Iterator[Any]:
    """Middleware reachable from `target`: a hook bound to one, or a function closing over such hooks."""
    if target is None or depth < 0:
        return
    owner = getattr(target, "__self__", None)
    if _is_middleware(owner):
        yield owner
        return
    wrapped = getattr(target, "__wrapped__", None)
    if wrapped is not None:
        yield from _middleware_in(wrapped, depth - 1)
    for cell in getattr(target, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        values = value if isinstance(value, (list, tuple)) else (value,)
        for item in values:
            if callable(item) or _is_middleware(item):
                yield from (item,) if _is_middleware(item) else _middleware_in(item, depth - 1)


def _node_function(graph: Any, name: str) -> Any:
    node = getattr(graph, "nodes", {}).get(name)
    return getattr(getattr(node, "bound", None), "func", None)


def _closure_value(function: Any, name: str) -> Any:
    """The value `function` closes over under `name` (create_agent's model node holds its model so)."""
    code = getattr(function, "__code__", None)
    if code is None or name not in code.co_freevars:
        return None
    try:
        return function.__closure__[code.co_freevars.index(name)].cell_contents
    except (ValueError, IndexError, TypeError):
        return None


def graph_edges(graph: Any) -> dict[str, dict[str, Any]]:
    """Each node's conditional edges, as the graph was built: node -> {the edge's name: its routing function}."""
    branches = getattr(getattr(graph, "builder", None), "branches", None)
    found: dict[str, dict[str, Any]] = {}
    for node, specs in (branches if isinstance(branches, dict) else {}).items():
        if isinstance(specs, dict):
            found[str(node)] = {
                str(name): getattr(getattr(spec, "path", None), "func", None) for name, spec in specs.items()
            }
    return found


def finish_check_stack(graph: Any, loop: GraphLoop) -> Callable[[], tuple[SourceRef, ...]]:
    """Where a graph agent tests for the end: the edge after its model node (create_agent's
    model_to_tools: `if len(last_ai_message.tool_calls) == 0`; the prebuilt agent's should_continue; in a
    graph of your own, your routing function after the node that asked the model). step and finish_check
    events are put there, under the run's outermost frames."""
    edge = _finish_edge(graph)
    routes = graph_edges(graph)

    def stack() -> tuple[SourceRef, ...]:
        outer = loop.root_stack
        found = edge or _routing_function(routes.get(loop.deciding_node or "", {}))
        return (*outer, found) if found is not None else outer

    return stack


def _routing_function(functions: dict[str, Any]) -> SourceRef | None:
    """Where the one routing function after a node is defined (your `route`, or LangGraph's `tools_condition`)."""
    if len(functions) != 1:
        return None
    callee = callee_of(next(iter(functions.values())))
    return SourceRef(file=callee.file, line=callee.line, function=callee.function) if callee is not None else None


def _finish_edge(graph: Any) -> SourceRef | None:
    """The line of create_agent's or create_react_agent's own edge after the model, when the graph has it (a
    graph of your own with a node named `model` or `agent` has your routing function instead)."""
    routing = {getattr(f, "__qualname__", "") for edges in graph_edges(graph).values() for f in edges.values()}
    if "_make_model_to_tools_edge.<locals>.model_to_tools" in routing and "langchain.agents.factory" in sys.modules:
        factory = sys.modules["langchain.agents.factory"]
        line = line_containing(factory._make_model_to_tools_edge, "len(last_ai_message.tool_calls) == 0")
        return SourceRef(file="langchain/agents/factory.py", line=line, function="model_to_tools") if line else None
    module = sys.modules.get("langgraph.prebuilt.chat_agent_executor")
    if "create_react_agent.<locals>.should_continue" in routing and module is not None:
        line = line_containing(module.create_react_agent, "not last_message.tool_calls")
        return (
            SourceRef(file="langgraph/prebuilt/chat_agent_executor.py", line=line, function="should_continue")
            if line
            else None
        )
    return None
