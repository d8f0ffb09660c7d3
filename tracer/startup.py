"""A command's start-up: the cyclic garbage collector waits until the command is under way, and
what start-up need not import."""

from __future__ import annotations

import gc
import sys

# Why: start-up makes most of the objects a command keeps for its whole life (module code, pydantic
# schemas, Textual's styles); collecting cycles while they are being made scanned them again and
# again, a large part of the debugger's first frame (bench/bench_startup.py). Nothing made during
# start-up is garbage worth collecting that early, so collection waits and then runs as usual.
_paused = False


def pause_collection() -> None:
    """Stop automatic collection until resume_collection() (the command line calls this first)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collection() -> None:
    """Collect as usual again, if pause_collection() stopped it: the debugger calls this once its
    first frame is on the screen, the command line when any other command starts its work."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def is_trace_write_error(error: BaseException) -> bool:
    """Whether `error` is a TraceWriteError (a recording that failed), known without importing the
    writer, which loads orjson, which the debugger does not need: only a process that has
    loaded the writer can have raised one."""
    writer = sys.modules.get("tracer.trace.writer")
    return writer is not None and isinstance(error, writer.TraceWriteError)
