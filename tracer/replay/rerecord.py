"""Writing a trace anew from its own re-execution: the same run, with the lines and paths today's code has."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..trace.transitions import Trace
from ..trace.writer import TraceWriter
from .builder import replayed_executor
from .verify import recorded_entry, recorded_inputs, run_collecting

# Header fields a writer sets itself; everything else the old header said is kept.
WRITER_FIELDS = frozenset({"format", "schema_version", "loopscope_version", "executor_hashes", "prompt_encoding"})


def rewrite_from_rerun(path: str | Path, agents: Sequence[str] = ()) -> int:
    """Re-execute the trace at `path` against its own recording and write the re-run over it (atomically:
    the writer renames its finished file into place); the number of events written.

    Call it only for a trace whose re-run verify found equal: the new file then differs from the old
    in what does not count as behaviour (source lines and paths, the header's loopscope version)."""
    trace = Trace.load(path)
    kept: dict[str, Any] = {
        k: v for k, v in trace.header.model_dump().items() if k not in WRITER_FIELDS and v is not None
    }
    with TraceWriter(path, **kept) as writer:
        run_collecting(
            replayed_executor(trace, agents=agents), recorded_inputs(trace), [writer], recorded_entry(trace.events)
        )
    return writer.count
