"""Which of LangChain's own frames were running when a callback fired, with their real file lines."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from types import CodeType, FrameType
from typing import Any, TypeVar

from executor.events import SourceRef

# The files whose frames make up "the agent loop" a learner wants to see; every other frame
# (callback managers, runnable plumbing, pydantic) is noise between them and is left out.
LOOP_FILES = (
    "langchain_classic/chains/base.py",  # Chain.invoke -> AgentExecutor._call
    "langchain_classic/agents/",  # AgentExecutor._call/_take_next_step/_iter_next_step, plan
    "langchain_classic/chains/llm_math/",  # LLMMathChain._call, the calculator asking the model
    "langchain_core/tools/base.py",  # BaseTool.run
    "langchain/agents/factory.py",  # LangChain 1.x create_agent: model_node, _execute_model_sync
    "langchain/agents/middleware/",  # the middleware hooks that ran (wrap_tool_call, before_model, ...)
    "langgraph/prebuilt/",  # create_react_agent's call_model / ToolNode
    "langgraph/pregel/main.py",  # Pregel.invoke / stream
    "langgraph/pregel/_retry.py",  # run_with_retry: where LangGraph runs one node (shown under the node's name)
)
PACKAGES = ("langchain_classic", "langchain_core", "langchain", "langgraph")
# The frame in which LangGraph runs a node's task; it is named after the node (`model`, `tools`, ...).
NODE_RUNNERS = frozenset({"run_with_retry", "arun_with_retry"})
NODE_RUNNER_FILE = "langgraph/pregel/_retry.py"

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


def _loop_file(filename: str) -> str | None:
    relative = package_relative(filename)
    if relative is None or not relative.startswith(LOOP_FILES):
        return None
    return relative


# Per code object: its loop file (or None), and the SourceRef of each instruction a frame of it was
# seen at. A stack walk runs for every event: a frame's line (which f_lineno works out from the code's
# line table) is found only the first time a frame of that code stops at that instruction, and the
# events of one line share one record.
_code_info: dict[CodeType, tuple[str | None, dict[int, SourceRef]]] = {}
_MAX_REFS = 50_000  # lines of code are few; this only bounds a pathological run
_ref_count = [0]


def _info(code: CodeType) -> tuple[str | None, dict[int, SourceRef]]:
    known = _code_info.get(code)
    if known is None:
        known = _code_info[code] = (_loop_file(code.co_filename), {})
    return known


def loop_stack(
    start: FrameType | None = None, stop: FrameType | None = None, foreign: bool = False
) -> tuple[SourceRef, ...]:
    """LangChain's agent-loop frames on the current stack, outermost first, each at its current line.
    The walk ends at `stop` (the run's outermost loop frame): what called the run is not shown.
    `foreign`: `start` is another thread's, which runs on while it is walked (see thread_stack)."""
    frame: FrameType | None = start if start is not None else sys._getframe(1)
    found = []
    while frame is not None:
        if foreign and type(frame) is not FrameType:
            break  # the other thread moved on under the walk: what was read so far is its stack
        relative, refs = _info(frame.f_code)
        if relative is not None:
            ref = refs.get(frame.f_lasti)  # a node runner's is never kept: it names its task
            found.append(ref if ref is not None else _ref(frame, relative, refs))
        if frame is stop:
            break
        frame = frame.f_back
    found.reverse()
    return tuple(found)


def outermost_loop_frame(start: FrameType) -> FrameType | None:
    """The outermost frame of LangChain's loop on the stack (the run's Chain.invoke or Pregel.invoke)."""
    frame: FrameType | None = start
    found = None
    while frame is not None:
        if _info(frame.f_code)[0] is not None:
            found = frame
        frame = frame.f_back
    return found


def _ref(frame: FrameType, relative: str, refs: dict[int, SourceRef]) -> SourceRef:
    code = frame.f_code
    line = frame.f_lineno
    if code.co_name in NODE_RUNNERS and relative == NODE_RUNNER_FILE:  # named after its task: never kept
        return SourceRef(file=relative, line=line, function=node_name(frame))
    if _ref_count[0] > _MAX_REFS:
        for _relative, kept in _code_info.values():
            kept.clear()
        _ref_count[0] = 0
    # Instructions on one line share its SourceRef: a run's events then share a few records.
    same_line = next((ref for ref in refs.values() if ref.line == line), None)
    refs[frame.f_lasti] = same_line or SourceRef(file=relative or "", line=line, function=code.co_name)
    _ref_count[0] += 1
    return refs[frame.f_lasti]


def node_name(frame: FrameType) -> str:
    """The LangGraph node whose task this run_with_retry frame runs (its own name if unreadable)."""
    task = frame.f_locals.get("task")
    name = getattr(task, "name", None)
    return name if isinstance(name, str) and name else frame.f_code.co_name


def rooted(stack: tuple[SourceRef, ...], root: tuple[SourceRef, ...]) -> bool:
    """True when `stack` reaches down to the run's outermost frame (it was walked on the run's thread)."""
    return bool(stack) and bool(root) and stack[0].file == root[0].file and stack[0].function == root[0].function


def thread_stack(thread_id: int | None) -> tuple[SourceRef, ...]:
    """The loop frames another thread is in right now (the run's own thread, waiting on its workers)."""
    frame = sys._current_frames().get(thread_id) if thread_id is not None else None
    # That thread runs on while its frames are read: on CPython 3.11 a frame's f_back, read then, was
    # once another object altogether (an Event; CI, one run in several). The walk stops there.
    return loop_stack(frame, foreign=True) if frame is not None else ()


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
            return (*stack[:depth], _moved(stack[depth], line) if line else stack[depth])
    return stack


# A frame moved to a check's line, made once per frame and line: every round's step and finish_check
# then share one record (and its written form) rather than copying the frame each time.
_moved_refs: dict[tuple[SourceRef, int], SourceRef] = {}


def _moved(ref: SourceRef, line: int) -> SourceRef:
    moved = _moved_refs.get((ref, line))
    if moved is None:
        if len(_moved_refs) > _MAX_REFS:
            _moved_refs.clear()
        moved = _moved_refs[(ref, line)] = ref.model_copy(update={"line": line})
    return moved


def local_in(function: str, name: str, start: FrameType | None = None) -> object | None:
    """A local variable of the innermost `function` frame on the stack (e.g. `_iter_next_step`'s
    caught exception `e`, which LangChain does not hand to on_agent_action)."""
    frame: FrameType | None = start if start is not None else sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == function and _loop_file(frame.f_code.co_filename):
            return frame.f_locals.get(name)
        frame = frame.f_back
    return None
