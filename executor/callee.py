"""Where a tool's function or a model's generate lives, so events can point the debugger at the user's code."""

from __future__ import annotations

import functools
import inspect
from types import CodeType
from typing import Any

from .events import SourceRef
from .run_context import _relative  # the same path rule as every event's `source`

_by_code: dict[CodeType, SourceRef] = {}
_UNDECLARED = object()


def callee_of(target: Any) -> SourceRef | None:
    """The source of the function `target` runs: a function, a partial, a bound method, a callable
    object (its __call__), a model (its generate), or a LangChain tool (its func or _run)."""
    function = _function_behind(target)
    code = getattr(function, "__code__", None)
    if not isinstance(code, CodeType):
        return None  # a builtin or C function: no Python source to show
    found = _by_code.get(code)
    if found is None:
        found = SourceRef(file=_relative(code.co_filename), line=code.co_firstlineno,
                          function=code.co_name, qualname=getattr(function, "__qualname__", code.co_name))
        _by_code[code] = found
    return found


def model_callee(model: Any) -> SourceRef | None:
    """The model class's generate, unless the model says whose calls it stands in for.

    A replayed model declares `callee` (the recording's), so that a re-run's llm events point
    where the recorded ones did rather than at the replay machinery.
    """
    declared = getattr(model, "callee", _UNDECLARED)
    if declared is None or isinstance(declared, SourceRef):
        return declared
    return callee_of(getattr(model, "generate", None) or getattr(model, "agenerate", None))


def _function_behind(target: Any) -> Any:
    for _ in range(8):  # partial of a bound method of a wrapped function...: peel a few layers, no more
        if isinstance(target, functools.partial):
            target = target.func
        elif inspect.ismethod(target):
            target = target.__func__
        elif inspect.isfunction(target):
            return inspect.unwrap(target)
        elif _is_langchain_like(target):
            target = getattr(target, "func", None) or getattr(target, "coroutine", None) or type(target)._run
        elif callable(target) and not isinstance(target, type):
            target = type(target).__call__
        else:
            return target
    return target


def _is_langchain_like(target: Any) -> bool:
    return callable(getattr(target, "invoke", None)) and hasattr(type(target), "_run")

