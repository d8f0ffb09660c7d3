"""Where a LangGraph graph's chat models live: a node's closure, a module global its node uses, a node object's attribute."""

from __future__ import annotations

import sysconfig
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import CodeType, FunctionType, MethodType
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableBinding, RunnableParallel, RunnableSequence

# Functions a node calls are followed this deep (the node, a helper of yours, the helper's helper).
MAX_DEPTH = 3
# Code in these folders is a library's (LangChain's, LangGraph's), not the graph's own: never followed.
_LIBRARIES = tuple(
    str(Path(sysconfig.get_path(kind)).resolve()) for kind in ("purelib", "platlib", "stdlib", "platstdlib")
)
_LOOPSCOPE = str(Path(__file__).resolve().parents[1])


@dataclass(frozen=True)
class ModelPlace:
    """One place a graph's chat model (or that model bound with its tools) is held, and how to put another there."""

    held: Any
    put: Callable[[Any], None]


def is_chat_model(value: Any, depth: int = 0) -> bool:
    """A chat model, that model bound (with its tools), or a chain that begins with one: what
    `llm.with_structured_output(Schema)` returns (the model bound to the schema, then its parser;
    with include_raw, the model inside a parallel step)."""
    if isinstance(value, BaseChatModel) or (
        isinstance(value, RunnableBinding) and isinstance(value.bound, BaseChatModel)
    ):
        return True
    if depth >= 3:
        return False
    if isinstance(value, RunnableSequence):
        return is_chat_model(value.first, depth + 1)
    if isinstance(value, RunnableParallel):
        return any(is_chat_model(step, depth + 1) for step in value.steps__.values())
    return False


def substituted(held: Any, stand_in: BaseChatModel) -> Any:
    """`held` with its chat model replaced by `stand_in` (bound as the model was: its tools, its schema)."""
    if isinstance(held, BaseChatModel):
        return stand_in
    if isinstance(held, RunnableBinding) and isinstance(held.bound, BaseChatModel):
        return stand_in.bind(**held.kwargs)
    if isinstance(held, RunnableSequence):
        return RunnableSequence(substituted(held.first, stand_in), *held.middle, held.last)
    if isinstance(held, RunnableParallel):
        steps = {
            name: substituted(step, stand_in) if is_chat_model(step) else step for name, step in held.steps__.items()
        }
        return RunnableParallel(steps)
    return held


def held_model(held: Any) -> Any:
    """The chat model (or binding) inside what `is_chat_model` accepted: the one to name a stand-in after."""
    if isinstance(held, RunnableSequence):
        return held_model(held.first)
    if isinstance(held, RunnableParallel):
        return next((held_model(step) for step in held.steps__.values() if is_chat_model(step)), held)
    return held


def node_functions(graph: Any) -> Iterator[FunctionType | MethodType]:
    """The functions behind the graph's nodes (sync and async), whose closures hold what each node uses."""
    for node in getattr(graph, "nodes", {}).values():
        bound = getattr(node, "bound", None)
        for attribute in ("func", "afunc"):
            function = getattr(bound, attribute, None)
            function = getattr(function, "__wrapped__", function)
            if isinstance(function, (FunctionType, MethodType)):
                yield function


def tool_functions(graph: Any) -> Iterator[FunctionType]:
    """The functions behind the tools of the graph's tool nodes: a tool may ask a model of its own (an expert, a
    summariser, an agent it delegates to), which a re-run must answer from the recording too."""
    for node in getattr(graph, "nodes", {}).values():
        for tool in (getattr(getattr(node, "bound", None), "tools_by_name", None) or {}).values():
            for attribute in ("func", "coroutine"):
                function = getattr(tool, attribute, None)
                if isinstance(function, FunctionType) and _is_users(function):
                    yield function


def model_places(graph: Any) -> list[ModelPlace]:
    """Every place the graph's nodes (and their tools) reach a chat model from, each once: a closure cell
    (create_agent's model node), a module global a node or a helper of yours it calls names (`llm = ChatOpenAI(...)` at the top of
    the file, as LangGraph's own tutorials write it), an attribute of the object whose method is the node."""
    places: list[ModelPlace] = []
    seen: set[tuple[int, str]] = set()
    followed: set[int] = set()
    stack: list[tuple[Any, int]] = [(function, 0) for function in (*node_functions(graph), *tool_functions(graph))]
    while stack:
        function, depth = stack.pop()
        if isinstance(function, MethodType):
            _attributes_of(function.__self__, places, seen)
            function = function.__func__
        if not isinstance(function, FunctionType) or id(function) in followed or depth > MAX_DEPTH:
            continue
        followed.add(id(function))
        for cell in function.__closure__ or ():
            try:
                held = cell.cell_contents
            except ValueError:  # a cell not yet filled
                continue
            if is_chat_model(held):
                _add(places, seen, (id(cell), ""), held, partial(setattr, cell, "cell_contents"))
            elif _is_users(held):
                stack.append((held, depth + 1))
        module = function.__globals__
        for name in _names_used(function.__code__):
            held = module.get(name)
            if is_chat_model(held):
                _add(places, seen, (id(module), name), held, partial(module.__setitem__, name))
            elif _is_users(held):
                stack.append((held, depth + 1))
    return places


def _attributes_of(owner: Any, places: list[ModelPlace], seen: set[tuple[int, str]]) -> None:
    for name, held in list(getattr(owner, "__dict__", {}).items()):
        if is_chat_model(held):
            _add(places, seen, (id(owner), name), held, partial(setattr, owner, name))


def _add(
    places: list[ModelPlace], seen: set[tuple[int, str]], key: tuple[int, str], held: Any, put: Callable[[Any], None]
) -> None:
    if key not in seen:
        seen.add(key)
        places.append(ModelPlace(held, put))


def _names_used(code: CodeType) -> Iterator[str]:
    """The global names a function's code (and the code nested in it: a lambda, a comprehension) reads."""
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from _names_used(constant)


def _is_users(value: Any) -> bool:
    """A function (or bound method) of the graph's own code, not a library's: one a node may reach its model through."""
    function = value.__func__ if isinstance(value, MethodType) else value
    if not isinstance(function, FunctionType):
        return False
    file = str(Path(function.__code__.co_filename).resolve())
    return not file.startswith(_LIBRARIES) and not file.startswith(_LOOPSCOPE)
