"""Which of LangChain's own frames were running when a callback fired, with their real file lines."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

from executor.events import SourceRef

# The files whose frames make up "the agent loop" a learner wants to see; every other frame
# (callback managers, runnable plumbing, pydantic) is noise between them and is left out.
LOOP_FILES = (
    "langchain_classic/chains/base.py",  # Chain.invoke -> AgentExecutor._call
    "langchain_classic/agents/",  # AgentExecutor._call/_take_next_step/_iter_next_step, plan
    "langchain_classic/chains/llm_math/",  # LLMMathChain._call, the calculator asking the model
    "langchain_core/tools/base.py",  # BaseTool.run
    "langgraph/prebuilt/",  # create_react_agent's call_model / ToolNode
    "langgraph/pregel/main.py",  # Pregel.invoke / stream
)
PACKAGES = ("langchain_classic", "langchain_core", "langgraph")

_Found = TypeVar("_Found")


@lru_cache(maxsize=1)
def _roots() -> tuple[tuple[str, str], ...]:
    """(absolute package directory + "/", its parent) for each installed LangChain package."""
    roots = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            directory = Path(next(iter(spec.submodule_search_locations))).resolve()
            roots.append((str(directory) + "/", str(directory.parent) + "/"))
    return tuple(roots)


@lru_cache(maxsize=512)
def package_relative(filename: str) -> str | None:
    """`…/site-packages/langchain_classic/agents/agent.py` -> `langchain_classic/agents/agent.py`."""
    resolved = str(Path(filename).resolve())
    for directory, parent in _roots():
        if resolved.startswith(directory):
            return resolved[len(parent) :]
    return None


@lru_cache(maxsize=512)
def _loop_file(filename: str) -> str | None:
    relative = package_relative(filename)
    if relative is None or not relative.startswith(LOOP_FILES):
        return None
    return relative


def loop_stack(start: FrameType | None = None) -> tuple[SourceRef, ...]:
    """LangChain's agent-loop frames on the current stack, outermost first, each at its current line."""
    frame: FrameType | None = start if start is not None else sys._getframe(1)
    found = []
    while frame is not None:
        relative = _loop_file(frame.f_code.co_filename)
        if relative is not None:
            found.append(SourceRef(file=relative, line=frame.f_lineno, function=frame.f_code.co_name))
        frame = frame.f_back
    found.reverse()
    return tuple(found)


def find_self(kind: type[_Found], start: FrameType | None = None) -> _Found | None:
    """The innermost `self` on the stack that is a `kind` (e.g. the AgentExecutor being invoked)."""
    frame: FrameType | None = start if start is not None else sys._getframe(1)
    while frame is not None:
        candidate = frame.f_locals.get("self") if "self" in frame.f_code.co_varnames else None
        if isinstance(candidate, kind):
            return candidate
        frame = frame.f_back
    return None


@lru_cache(maxsize=32)
def line_containing(function: Callable[..., Any], needle: str) -> int | None:
    """The first line of `function`'s source that contains `needle` (where a check really is)."""
    try:
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return None
    for offset, line in enumerate(lines):
        if needle in line:
            return first + offset
    return None


def at_line(stack: tuple[SourceRef, ...], function: str, line: int | None) -> tuple[SourceRef, ...]:
    """The stack cut at the innermost `function` frame, which is moved to `line` (a check that
    LangChain makes after the call the frame is in returns, e.g. `isinstance(..., AgentFinish)`)."""
    for depth in range(len(stack) - 1, -1, -1):
        if stack[depth].function == function:
            moved = stack[depth].model_copy(update={"line": line}) if line else stack[depth]
            return (*stack[:depth], moved)
    return stack


def local_in(function: str, name: str, start: FrameType | None = None) -> object | None:
    """A local variable of the innermost `function` frame on the stack (e.g. `_iter_next_step`'s
    caught exception `e`, which LangChain does not hand to on_agent_action)."""
    frame: FrameType | None = start if start is not None else sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == function and _loop_file(frame.f_code.co_filename):
            return frame.f_locals.get(name)
        frame = frame.f_back
    return None
