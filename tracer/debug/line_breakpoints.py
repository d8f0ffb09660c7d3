"""Line breakpoints in a user's own files: which tool functions contain the line, or why no event can reach it."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..i18n import Message
from ..trace.numpy_on_use import np
from ..trace.reader import TraceFormatError
from .source_map import read_user_source
from .step_into import LOOPSCOPE_PACKAGES

TOOL_KINDS = ("tool_start", "tool_end", "tool_error")
Callees = Callable[[], Mapping[str, Any]]  # tool name -> CalleeRef (file, line = first line, function)


def is_user_file(file: str) -> bool:
    """A line breakpoint on loopscope's own files watches events' source lines; any other file is the user's."""
    return not file.removeprefix("./").startswith(LOOPSCOPE_PACKAGES)


def same_file(recorded: str, wanted: str) -> bool:
    """`wanted` (as the user wrote it: absolute, or relative to the agent's folder) names `recorded`."""
    wanted = wanted.removeprefix("./")
    return recorded == wanted or recorded.endswith("/" + wanted)


@lru_cache(maxsize=256)
def function_extent(file: str, first_line: int) -> tuple[int, int] | None:
    """(first, last) line of the function defined at `first_line` of `file` (its first decorator's line
    when decorated, as a code object's co_firstlineno is); None when the file cannot be read or parsed."""
    source = read_user_source(file)
    if source.problem:
        return None
    try:
        tree = ast.parse("\n".join(source.lines))
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if start == first_line:
                return start, node.end_lineno or node.lineno
    return None


@dataclass(frozen=True)
class Reach:
    """What a user-file line breakpoint can stop at: the tools whose function holds the line."""

    tools: frozenset[str]
    problem: Message | None = None  # set when no event can reach the line (shown instead of "hits 0")
    traced: frozenset[str] = frozenset()  # live: tools whose calls stop on the line itself, not at their events

    def mask(self, index: Any, lo: int, hi: int) -> np.ndarray:
        """The tool events (start, end, error) of the calls that run the line's function, except the calls
        a live run traces (they stop on the line itself, a tool-calling agent's parallel calls too)."""
        tools, traced = self.tools, self.traced
        return index.shape_mask(lambda s: s.kind in TOOL_KINDS and s.tool in tools and s.tool not in traced, lo, hi)


def reach(file: str, line: int, callees: Mapping[str, Any]) -> Reach:
    """The tools (by name) whose function contains `file`:`line`, among the functions the loop calls."""
    functions = {
        name: callee for name, callee in callees.items() if callee is not None and same_file(callee.file, file)
    }
    where = f"{file}:{line}"
    if not callees:
        return Reach(frozenset())  # nothing known yet (no tool has run): not a verdict
    if not functions:
        return Reach(frozenset(), Message("debugger.unreachable_file", {"where": where, "file": file}))
    inside = frozenset(
        name
        for name, callee in functions.items()
        if (extent := function_extent(callee.file, callee.line)) and extent[0] <= line <= extent[1]
    )
    if inside:
        return Reach(inside)
    return Reach(inside, Message("debugger.unreachable_outside", {"where": where}))


def lines_in_call(breakpoints: Any, callee: Any) -> frozenset[int]:
    """Enabled user-file line breakpoints inside the function `callee` (a tool_start's): the lines a
    live run's tracer stops at."""
    extent = function_extent(callee.file, callee.line) if callee is not None else None
    if extent is None:
        return frozenset()
    return frozenset(
        bp.value[1]
        for bp in breakpoints
        if bp.enabled
        and bp.target == "line"
        and is_user_file(bp.value[0])
        and same_file(callee.file, bp.value[0])
        and extent[0] <= bp.value[1] <= extent[1]
    )


def callee_book(store: Any) -> Callees:
    """tool name -> callee for the breakpoints: a live run's executor tools (known before they run), or
    for a recording the callee of each tool's first tool_start (cached until the index grows)."""
    run = getattr(store, "run", None)
    if run is not None:
        # A framework agent's run knows its tools' functions itself; loopscope's own run, its executor's tools.
        known = getattr(run, "tool_callees", None)
        tools = known() if known is not None else {tool.name: tool.callee for tool in run.executor.tools}
        return lambda: tools
    cache: dict[str, Any] = {"size": -1, "callees": {}}

    def callees() -> Mapping[str, Any]:
        index = store.index
        if index is None:
            return {}
        if cache["size"] != len(index):
            cache["size"], cache["callees"] = len(index), _recorded_callees(store, index)
        return cache["callees"]

    return callees


def _recorded_callees(store: Any, index: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for code, shape in enumerate(index.shapes):
        if shape.kind != "tool_start" or shape.tool in found:
            continue
        first = index.first_with_code(code)
        if first is not None:
            try:
                found[shape.tool] = getattr(store.event(first), "callee", None)
            except TraceFormatError:  # a broken line: that tool's function stays unknown
                continue
    return found


def line_hit(breakpoints: Any, file: str, line: int, resolve: Callable[[str], Any]) -> list[Any]:
    """A live run's traced function reached `file`:`line`: count the hits there, like first_stop
    does for events (ignore counts, temporary ones; a condition reads the call's tool_start)."""
    stopping = []
    for bp in list(breakpoints.items):
        if not (bp.enabled and bp.target == "line" and bp.value[1] == line and same_file(file, bp.value[0])):
            continue
        if bp.condition is not None and not bp.condition.matches(resolve):
            continue
        bp.hits += 1
        if bp.ignore > 0:
            bp.ignore -= 1
            continue
        stopping.append(bp)
        if bp.temporary:
            breakpoints.items.remove(bp)
    if any(bp.temporary for bp in stopping):
        breakpoints.save()
    return stopping
