"""The one place a replayed executor is put together from a trace: model chain, tools, clock, retry, rules, run id."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from executor import AgentExecutor, ChatModel, ManualClock, RetryPolicy, RuleSet, Tool
from executor.clock import Clock

from ..agents.scenario_registry import find_scenario
from ..agents.trust import trusted_agent
from ..agents.user_agent import Build, load_user_agent
from ..trace.header import TraceHeader
from ..trace.transitions import Trace
from .recorded_answers import cassette_tools, is_mcp_tool, replay_model

# What `loopscope record` runs with; traces without a clock_tick in their header get it too.
DEFAULT_CLOCK_TICK = 0.001

ToolWrapper = Callable[[Sequence[Tool]], list[Tool]]


def replay_clock(header: TraceHeader) -> ManualClock:
    """A manual clock ticking as the recording's did, so time limits trip at the same point."""
    return ManualClock(tick=header.clock_tick if header.clock_tick is not None else DEFAULT_CLOCK_TICK)


def recorded_retry_policy(header: TraceHeader, events: Sequence[Any] = ()) -> RetryPolicy | None:
    """The retry policy a trace was recorded under, for re-executing it.

    A replay must run under the same policy: it re-raises the recorded failed attempts, and
    a tool's call stack includes the retry frame only when a policy is in force. The CLI
    writes it in the header; for a user's agent recorded by a TraceWriter in their own code
    (no policy in the header), chain_start's settings name it. A scenario builds its own.
    """
    described = header.retry_policy
    if not described and not header.scenario and events and events[0].kind == "chain_start":
        described = events[0].settings.get("retry_policy")
    return RetryPolicy.from_description(described) if described else None


def recorded_degradation(events: Sequence[Any]) -> dict[str, Any]:
    """The rules and degrade_after a run was recorded with (chain_start's settings["degradation"]), as
    executor settings; {} when it had none."""
    described = events[0].settings.get("degradation") if events and events[0].kind == "chain_start" else None
    if not described:
        return {}
    return {"rules": RuleSet.from_description(described["rules"]), "degrade_after": described["degrade_after"]}


def agent_builder(header: TraceHeader, agents: Sequence[str] = ()) -> Build:
    """build(model, **settings) for the agent the header names: a registered scenario, or the
    user's MODULE:FUNCTION it records, imported only when the user trusts it (`agents`, the
    --agent specs, or their pyproject.toml; see trust.py). Raises UnknownAgent in one line."""
    if header.scenario:
        return find_scenario(header.scenario).executor
    return load_user_agent(trusted_agent(header.agent, agents)).executor


def replayed_executor(
    trace: Trace,
    build: Build | None = None,
    *,
    model: ChatModel | None = None,
    tools: ToolWrapper | None = None,
    clock: Clock | None = None,
    run_id: str | None = None,
    agents: Sequence[str] = (),
) -> AgentExecutor:
    """The executor that re-executes `trace`.

    model: answers model calls (default: the recording's replies, prompts checked; a recorded
           chain of fallbacks and breakers is rebuilt around them in its recorded state).
    tools: wraps the built tools (default: non-deterministic tools answer from the recording).
    clock: default a manual clock ticking as the recording's did (waits pass instantly).
    run_id: default the recording's, so the events compare equal.
    build: build(model, **settings); default the scenario the header names, or its agent if trusted.
    agents: the agents the user trusts by name (--agent), for a header that names one.
    """
    header, events = trace.header, trace.events
    model = model if model is not None else replay_model(events, real_time=header.recorded_in_real_time)
    recorded_run = events[0].run_id if events else "replay"
    settings: dict[str, Any] = {
        "clock": clock or replay_clock(header),
        "run_id_factory": _constant(run_id or recorded_run),
    }
    settings.update(recorded_degradation(events))
    policy = recorded_retry_policy(header, events)
    if policy is not None:
        settings["retry_policy"] = policy
    build = build or agent_builder(header, agents)
    executor = _built_offline(build, model, settings, events)
    wrap = tools or (lambda built: _replay_tools(built, events))
    return executor.with_overrides(tools=wrap(executor.tools))


def _replay_tools(tools: Sequence[Tool], events: Sequence[Any]) -> list[Tool]:
    """cassette_tools, with an MCP tool's calls answered through the tool itself (its events narrated again)."""
    if not any(is_mcp_tool(tool) for tool in tools):
        return cassette_tools(tools, events)
    from .mcp_replay import replayed_mcp_tool  # late: only a run with MCP tools needs it

    return [
        replayed_mcp_tool(tool, events) if is_mcp_tool(tool) else cassette_tools([tool], events)[0] for tool in tools
    ]


def _built_offline(build: Build, model: ChatModel, settings: dict[str, Any], events: Sequence[Any]) -> AgentExecutor:
    """The agent built; its mcp_tools (if any) list their tools from the recording, so no server starts."""
    first = events[0] if events else None
    servers = first.settings.get("mcp_servers") if first is not None and first.kind == "chain_start" else None
    if not servers:
        return build(model, **settings)
    from executor.tools.mcp import offline_listings  # late: only a recording with MCP servers needs it

    with offline_listings([server for server in servers if isinstance(server, dict)]):
        return build(model, **settings)


def _constant(value: str) -> Callable[[], str]:
    return lambda: value
