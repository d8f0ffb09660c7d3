"""`loopscope debug --live MODULE:ATTR` for a framework's agent (a LangGraph graph): its run, driven one event at a time."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from ..agents.agent_spec import is_agent_spec
from ..debug.framework_live import FrameworkLiveRun
from .language import usage_error
from .record_framework import as_recorded, framework_agent_named
from .scenarios import given_inputs, given_limits, given_replies
from .usage_error import UsageError


def framework_live_run(args: argparse.Namespace) -> FrameworkLiveRun | None:
    """The live run of the framework agent --live names; None when it names a scenario or loopscope's own agent.

    Its model answers: from a recording (--model replay:TRACE.jsonl), from --replies FILE.json, or, with neither,
    the agent's own model (its key and endpoint as you set them)."""
    if not is_agent_spec(args.live):
        return None
    from ..agents.frameworks import answers_in_order, recorded_limits, recorded_replies, state_of  # late: the agent
    from ..trace.run_inputs import question_of
    from ..trace.transitions import Trace

    model = args.model or ""
    replies = given_replies(args)
    offline = replies is not None or model.startswith("replay:")
    agent = framework_agent_named(args.live, offline=offline)
    if agent is None:
        return None
    if model and not model.startswith("replay:"):
        raise UsageError(
            f"{args.live} is a {agent.adapter.name} agent: it runs with its own model (set its key), "
            "or from a recording with --model replay:TRACE.jsonl, or from --replies FILE.json"
        )
    answer, asked, recorded_inputs = None, None, None
    limits = given_limits(args, agent.adapter)
    if model.startswith("replay:"):
        recorded = Trace.load(model.removeprefix("replay:"))
        answer = answers_in_order(recorded_replies(recorded.events))
        first = recorded.events[0] if recorded.events else None
        recorded_inputs = dict(getattr(first, "inputs", {}) or {})
        asked = question_of(recorded_inputs)
        limits = limits or recorded_limits(agent.adapter, getattr(first, "settings", None))
    elif replies is not None:
        answer = answers_in_order([as_recorded(reply) for reply in replies])
    given = given_inputs(args)
    question = (given or {}).get("input") or asked
    state = state_of(agent.adapter, given) or (None if given else state_of(agent.adapter, recorded_inputs))
    if (not isinstance(question, str) or not question) and state is None:
        ask = "cli.framework.ask_or_state" if getattr(agent.adapter, "takes_state", False) else "cli.framework.ask"
        raise usage_error(ask, args, agent=args.live)
    safe_name = "".join(c if c.isalnum() or c in "-_" else "_" for c in args.live)
    record = (
        Path(args.record) if args.record else Path(tempfile.mkdtemp(prefix="loopscope-")) / f"{safe_name}.live.jsonl"
    )
    return FrameworkLiveRun(agent, question or "", record, answer, state, limits)
