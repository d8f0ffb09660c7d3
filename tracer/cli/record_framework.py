"""`loopscope record MODULE:ATTR` for a framework's agent (a LangGraph graph): run it by its own framework, traced."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from executor import ModelReply

from ..agents.framework_agent import FrameworkAgent, load_framework_agent
from ..agents.frameworks import RecordedReply, RecordedToolCall, answers_in_order, state_argument
from ..agents.scenario_registry import UnknownAgent
from ..i18n import said_of
from ..trace.literal_text import scrub
from ..trace.transitions import Trace
from .language import command_words, usage_error
from .scenarios import given_inputs, given_limits, given_replies
from .usage_error import UsageError


def framework_agent_named(spec: str, offline: bool = False) -> FrameworkAgent | None:
    """The framework agent `spec` names, or None when it names loopscope's own build(model)."""
    try:
        return load_framework_agent(spec, offline)
    except UnknownAgent as error:
        raise UsageError(error.args[0]) from None


def state_hint(graph: Any, args: argparse.Namespace) -> str:
    """What to do when a LangGraph graph asked a question has no `messages` in its state: give its state."""
    keys = [key for key in getattr(getattr(graph, "builder", None), "channels", {}) if not key.startswith("__")]
    if not keys or "messages" in keys:
        return ""
    example = json.dumps({keys[0]: "..."})
    return command_words("cli.framework.state_hint", args, keys=", ".join(keys[:6]), example=example)


def as_recorded(reply: str | ModelReply) -> RecordedReply:
    if isinstance(reply, str):
        return RecordedReply(reply)
    return RecordedReply(reply.text, tuple(RecordedToolCall(c.id, c.name, c.arguments) for c in reply.tool_calls))


def record_framework_agent(agent: FrameworkAgent, args: argparse.Namespace) -> int:
    """Run the user's framework agent on --input (its own model, or --replies offline) into -o FILE."""
    inputs = given_inputs(args)
    question = (inputs or {}).get("input")
    state = state_argument(agent.adapter, inputs)
    if not isinstance(question, str) and not state:
        ask = "cli.framework.ask_or_state" if getattr(agent.adapter, "takes_state", False) else "cli.framework.ask"
        raise usage_error(ask, args, agent=agent.spec)
    replies = given_replies(args)
    limits = given_limits(args, agent.adapter)
    output = (
        Path(args.output) if args.output else Path.cwd() / f"{agent.spec.replace(':', '_').replace('.', '_')}.jsonl"
    )
    meta = agent.header_meta()
    failed = False
    try:
        answer = None if replies is None else answers_in_order([as_recorded(r) for r in replies])
        agent.adapter.record(agent.agent, question or "", output, answer, meta, **state, **limits)
    except Exception as failure:  # the user's agent failed; the trace has recorded how
        error = said_of(failure)  # an adapter's own refusal is put in the command's language
        said = command_words("cli.framework.raised", args, error_type=type(failure).__name__, error=error)
        print(scrub(said + ("" if state else state_hint(agent.agent, args))), file=sys.stderr)
        if not output.exists():
            return 1
        failed = True
    trace = Trace.load(output)
    if failed and not trace.events:  # it failed before its first event: a file of a header alone shows nothing
        output.unlink(missing_ok=True)
        return 1
    how = command_words("cli.framework.offline" if replies is not None else "cli.framework.own_model", args)
    said = command_words(
        "cli.framework.recorded",
        args,
        count=len(trace.events),
        agent=agent.spec,
        framework=agent.adapter.name,
        how=how,
        path=output,
    )
    print(scrub(said))
    return 0  # as for loopscope's own agents: the run was recorded, its failure is in the trace (chain_error)
