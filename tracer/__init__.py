"""Everything that consumes the executor's events: trace files, replay, reports, the debugger.

Import public names from here (`from tracer import TraceWriter, Narrator, verify_trace`); the
module paths behind them may move. Each name is imported on first use, so `import tracer`
(which every `loopscope` command runs first) loads none of them, and a script that only writes
traces never loads Rich or Textual (docs/performance.md, "Speed tricks: kept or removed").
"""

from __future__ import annotations

import importlib
from typing import Any

from executor import __version__

_PUBLIC = {
    # the trace format
    "Trace": "tracer.trace.transitions",
    "Transition": "tracer.trace.transitions",
    "TraceFile": "tracer.trace.reader",
    "TraceFormatError": "tracer.trace.reader",
    "load_trace": "tracer.trace.reader",
    "TraceHeader": "tracer.trace.header",
    "TraceWriter": "tracer.trace.writer",
    "TraceIndex": "tracer.trace.index",
    "Redactor": "tracer.trace.redact",
    "default_redactor": "tracer.trace.redact",
    # replay
    "verify_trace": "tracer.replay.verify",
    "VerifyResult": "tracer.replay.verify",
    "fork_trace": "tracer.replay.fork",
    "ForkError": "tracer.replay.fork",
    "ForkResult": "tracer.replay.fork",
    "Cassette": "tracer.replay.cassette",
    "RecordMode": "tracer.replay.cassette",
    "CassetteMissing": "tracer.replay.cassette",
    "ReplayDivergence": "tracer.replay.recorded_answers",
    "ReplayModel": "tracer.replay.recorded_answers",
    "replayed_executor": "tracer.replay.builder",
    "register_scenarios": "tracer.agents.scenario_registry",
    # reports
    "Narrator": "tracer.report.narration.narrator",
    "Ledger": "tracer.report.narration.ledger",
    "diff_traces": "tracer.report.diff",
    "render_diff": "tracer.report.diff",
    "mermaid_state_diagram": "tracer.report.mermaid",
    # bridges (need `loopscope[langchain]` / `loopscope[otel]`)
    "LoopscopeCallbackHandler": "tracer.bridges.langchain_handler",
    "OTelListener": "tracer.report.otlp.export",
    # the debugger
    "Breakpoint": "tracer.debug.breakpoints",
    "BreakpointSet": "tracer.debug.breakpoints",
    "Condition": "tracer.debug.conditions",
    "DebuggerOptions": "tracer.debug.options",
    "PriceTable": "tracer.report.cost.prices",
    "open_debugger": "tracer.tui.launch",
    # testing
    "replay_run": "tracer.testing.regression",
}

__all__ = ["__version__", *sorted(_PUBLIC)]


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'tracer' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return __all__
