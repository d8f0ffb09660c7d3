"""Where a tool's function or a model's generate lives, so events can point the debugger at the user's code."""

from __future__ import annotations

import functools
import inspect
from types import CodeType
from typing import Any

from .events import CalleeRef
from .paths import relative_path  # the same path rule as every event's `source`

# Keyed by file too: code objects compare equal across files when their bodies are the same.
_by_code: dict[tuple[str, CodeType], CalleeRef] = {}
_UNDECLARED = object()
_by_function: dict[Any, CalleeRef | None] = {}


def callee_of(target: Any) -> CalleeRef | None:
    """The source of the function `target` runs: a function, a partial, a bound method, a callable
    object (its __call__), a model (its generate), or a LangChain tool (its func or _run)."""
    function = _function_behind(target)
    code = getattr(function, "__code__", None)
    if not isinstance(code, CodeType):
        return None  # a builtin or C function: no Python source to show
    found = _by_code.get((code.co_filename, code))
    if found is None:
        found = CalleeRef(
            file=relative_path(code.co_filename),
            line=code.co_firstlineno,
            function=code.co_name,
            qualname=getattr(function, "__qualname__", code.co_name),
        )
        _by_code[(code.co_filename, code)] = found
    return found


def model_callee(model: Any) -> CalleeRef | None:
    """The model class's generate, unless the model says whose calls it stands in for.

    A replayed model declares `callee` (the recording's), so that a re-run's llm events point
    where the recorded ones did rather than at the replay machinery.
    """
    declared = getattr(model, "callee", _UNDECLARED)
    if declared is None or isinstance(declared, CalleeRef):
        return declared
    generate = getattr(model, "generate", None) or getattr(model, "agenerate", None)
    # Called once a model call: remember the answer per function (a bound method's, per class).
    key = getattr(generate, "__func__", generate)
    try:
        return _by_function[key]
    except KeyError:
        if len(_by_function) > 1024:  # models made afresh with closures: keep this from growing without end
            _by_function.clear()
        found = _by_function[key] = callee_of(generate)
        return found
    except TypeError:  # an unhashable callable
        return callee_of(generate)


def _function_behind(target: Any) -> Any:
    for _ in range(8):  # partial of a bound method of a wrapped function...: peel a few layers, no more
        if isinstance(target, functools.partial):
            target = target.func
        elif inspect.ismethod(target):
            target = target.__func__
        elif inspect.isfunction(target):
            return inspect.unwrap(target)
        elif _is_langchain_like(target):  # its function, its _run, or (a duck-typed one) its invoke
            target = (
                getattr(target, "func", None)
                or getattr(target, "coroutine", None)
                or getattr(type(target), "_run", None)
                or type(target).invoke
            )
        elif callable(target) and not isinstance(target, type):
            target = type(target).__call__
        else:
            return target
    return target


def _is_langchain_like(target: Any) -> bool:
    return not isinstance(target, type) and callable(getattr(target, "invoke", None))
