"""Short reprs of a paused frame's locals: bounded, without memory addresses, each unchanging value made once."""

from __future__ import annotations

import re
import reprlib
from typing import Any

from pydantic import BaseModel

_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


class _AddresslessRepr(reprlib.Repr):
    """reprlib's bounded repr, with memory addresses taken out before a long repr is cut in the middle
    (cut first, `<partial at 0x7f…>` keeps half an address, which differs on every run)."""

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            text = _ADDRESS.sub("", repr(x))
        except Exception:
            return f"<{type(x).__name__} instance>"
        if len(text) > self.maxother:
            head = max(0, (self.maxother - 3) // 2)
            tail = max(0, self.maxother - 3 - head)
            text = text[:head] + "..." + text[len(text) - tail :]
        return text


class _BoundedRepr(_AddresslessRepr):
    """The same text made with less work where the work was most of a snapshot's: a value that cannot
    change is repr'd once (at each depth), then found again (_KEPT_REPRS)."""

    def repr1(self, x: Any, level: int) -> str:
        if type(x) in _ATOMS or not _unchanging(x):  # an atom's repr is cheap (a string's is cut first)
            return super().repr1(x, level)
        key = (id(x), level)
        kept = _KEPT_REPRS.get(key)
        if kept is not None and kept[0] is x:
            return kept[1]
        text = super().repr1(x, level)
        if len(_KEPT_REPRS) >= KEPT_REPRS_LIMIT:
            _KEPT_REPRS.clear()
        _KEPT_REPRS[key] = (x, text)  # the value is kept with it, so its id is not reused meanwhile
        return text

    def repr_method(self, x: Any, level: int) -> str:
        # The listener invoke was given by the debugger (a LiveRun's, a re-enactment's RunAhead's):
        # the same words for both, so a re-executed recording shows exactly the locals a live run had.
        if getattr(x, "__name__", "") == "_hand_over" and type(x.__self__).__module__.startswith("tracer.debug."):
            return "<the debugger's listener>"
        return self.repr_instance(x, level)

    def repr_instance(self, x: Any, level: int) -> str:
        if getattr(type(x), "__repr__", None) is _PYDANTIC_REPR:
            try:
                return _model_repr_cut(x, self.maxother, self.fillvalue)
            except Exception:  # a model whose fields fail to repr: reprlib's own way says so
                pass
        return super().repr_instance(x, level)


def _model_repr_cut(model: Any, limit: int, fill: str) -> str:
    """repr(model) cut as reprlib cuts it (its start and end around `fill`), without making the middle:
    an llm_start's repr holds its whole prompt, which took most of a re-executed event's time."""
    pairs = list(model.__repr_args__())

    def piece(k: int) -> str:  # as pydantic's __repr_str__ writes each field, without addresses (see above)
        name, value = pairs[k]
        return _ADDRESS.sub("", repr(value) if name is None else f"{name}={value!r}")

    keep_start = max(0, (limit - 3) // 2)
    keep_end = max(0, limit - 3 - keep_start)
    head: list[str] = []  # pieces[:low], made
    tail: list[str] = []  # pieces[high:], made
    low, high = 0, len(pairs)
    start, end = f"{model.__repr_name__()}(", ")"
    while low < high and (len(start) < keep_start or len(end) < keep_end or len(start) + len(end) <= limit):
        if len(start) < keep_start or len(end) >= keep_end:
            head.append(piece(low))
            low += 1
            start = f"{model.__repr_name__()}(" + ", ".join(head) + ", "
        else:
            high -= 1
            tail.insert(0, piece(high))
            end = ", " + ", ".join(tail) + ")"
    if low < high:  # the middle is left out, and the whole is surely longer than the limit
        return start[:keep_start] + fill + end[len(end) - keep_end :]
    whole = f"{model.__repr_name__()}(" + ", ".join(head + tail) + ")"
    if len(whole) > limit:
        return whole[:keep_start] + fill + whole[len(whole) - keep_end :]
    return whole


def _repr_limits() -> reprlib.Repr:
    limits = _BoundedRepr()  # Python 3.11's Repr takes no keyword arguments
    limits.maxstring = limits.maxother = 160
    limits.maxlist = limits.maxdict = 8
    limits.maxlevel = 3
    return limits


_PYDANTIC_REPR: object = BaseModel.__repr__
# The reprs of values that cannot change, by (id, depth), kept from one snapshot to the next: a re-executed
# recording hands out thousands of events whose frames hold the same prompts, events and steps, and making
# their reprs again was most of its time (bench/bench_debugger.py).
_KEPT_REPRS: dict[tuple[int, int], tuple[Any, str]] = {}
KEPT_REPRS_LIMIT = 4_096  # the values are kept alive with their reprs: forget_kept_reprs() lets them go


def forget_kept_reprs() -> None:
    """Let the kept values go (a re-execution that ended calls this: the next run's values are new)."""
    _KEPT_REPRS.clear()


_ATOMS = frozenset({str, bytes, int, float, complex, bool, type(None)})


def _unchanging(value: Any) -> bool:
    """Whether `value` (and so its repr) can never change: an atom, a frozen pydantic model (the events)
    or dataclass (AgentAction), or a tuple of such (AgentStep)."""
    kind = type(value)
    if kind in _ATOMS:
        return True
    if isinstance(value, tuple):
        return all(_unchanging(item) for item in value)
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None:
        return bool(params.frozen)
    config = getattr(kind, "model_config", None)
    return isinstance(config, dict) and config.get("frozen") is True


_REPR = _repr_limits()


def short_repr(value: Any) -> str:
    """A bounded repr without memory addresses (they differ on every run and teach nothing)."""
    try:
        return _ADDRESS.sub("", _REPR.repr(value))
    except Exception as error:  # a user object whose __repr__ fails must not stop the debugger
        return f"<repr failed: {type(error).__name__}>"


def kept_repr(value: Any, seen: dict[int, str]) -> str:
    """short_repr, once per value in one snapshot (`seen`): the frames of one moment share their lists."""
    key = id(value)
    text = seen.get(key)
    if text is None:
        text = seen[key] = short_repr(value)
    return text
