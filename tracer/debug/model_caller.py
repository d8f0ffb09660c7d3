"""Which of a run's frames asked the model: the innermost of the framework's frames holding what our model was handed."""

from __future__ import annotations

from collections.abc import Callable
from inspect import CO_VARARGS, CO_VARKEYWORDS
from types import FrameType
from typing import Any

# Values that any two frames may share without one having handed them to the other: small ints, interned
# strings, None and the empty tuple are single objects in CPython, so holding the same one says nothing; a
# tuple of arguments is made for the call (its items are looked at instead).
_SHARED_ATOMS = (type(None), bool, int, float, complex, str, bytes)


def _handed(frame: FrameType) -> list[Any]:
    """The arguments the frame's function was called with (a *args' items and a **kwargs' values among them),
    less `self`: a frame holding the model is plumbing around the model (a decorator's, a retry's), not the
    frame that chose what to send it."""
    code = frame.f_code
    named = code.co_argcount + code.co_kwonlyargcount
    values = [frame.f_locals.get(name) for name in code.co_varnames[:named] if name != "self"]
    if code.co_flags & CO_VARARGS:
        values.extend(frame.f_locals.get(code.co_varnames[named], ()))
        named += 1
    if code.co_flags & CO_VARKEYWORDS:
        values.extend(frame.f_locals.get(code.co_varnames[named], {}).values())
    return [value for value in values if not isinstance(value, _SHARED_ATOMS) and value.__class__ is not tuple]


def model_caller(start: FrameType | None, ours: Callable[[str], bool], kept: Callable[[str], bool]) -> FrameType | None:
    """The frame that asked the model, walking out from `start` (a frame inside our model wrapper, which made
    the event): past our own frames to the wrapper's, then past the framework's plumbing between it and the
    frame that called it (the Agents SDK's retry loop, pydantic-ai's request decorators) to the first frame
    `kept` (the run's) whose locals hold one of the very objects the wrapper was handed (the messages list,
    the tools offered). None when no frame holds what our frames were handed."""
    frame, handed = start, set[int]()
    while frame is not None and ours(frame.f_code.co_filename):  # a wrapper's method may pass on to another
        handed.update(id(value) for value in _handed(frame))  # (stream_response to get_response)
        frame = frame.f_back
    while frame is not None and handed:
        if kept(frame.f_code.co_filename) and any(id(value) in handed for value in frame.f_locals.values()):
            return frame
        frame = frame.f_back
    return None
