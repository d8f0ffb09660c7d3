"""An AgentExecutor's settings: the retry policy its default stands for, and what chain_start records for a replay."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel

from .clock import Clock
from .recovery.degradation import RuleSet
from .recovery.model_chain import describe_model
from .recovery.retry import RetryPolicy

DEFAULT_RETRY = "default"  # retry_policy's default: the CLI's RetryPolicy for a live model, none otherwise


class Configured(Protocol):
    """What run_settings reads of an AgentExecutor (each is the constructor argument of that name)."""

    @property
    def agent(self) -> Any: ...  # its .model and .stop
    @property
    def max_iterations(self) -> int | None: ...
    @property
    def max_execution_time(self) -> float | None: ...
    @property
    def early_stopping_method(self) -> str: ...
    @property
    def handle_parsing_errors(self) -> object: ...
    @property
    def return_intermediate_steps(self) -> bool: ...
    @property
    def trim_intermediate_steps(self) -> object: ...
    @property
    def response_format(self) -> type[BaseModel] | None: ...
    @property
    def max_concurrency(self) -> int | None: ...
    @property
    def retry_policy(self) -> RetryPolicy | None: ...
    @property
    def rules(self) -> RuleSet | None: ...
    @property
    def degrade_after(self) -> int: ...
    @property
    def tools(self) -> list[Any]: ...


def run_settings(executor: Configured, clock: Clock) -> dict[str, Any]:
    """chain_start's `settings`: the executor's limits and handlers, and what a replay re-runs failures under."""
    settings = {
        "max_iterations": executor.max_iterations,
        "max_execution_time": executor.max_execution_time,
        "early_stopping_method": executor.early_stopping_method,
        "handle_parsing_errors": _describe(executor.handle_parsing_errors),
        "return_intermediate_steps": executor.return_intermediate_steps,
        "trim_intermediate_steps": _describe(executor.trim_intermediate_steps),
        "model": executor.agent.model.model_name,
        "stop": list(executor.agent.stop),
        **({"response_format": executor.response_format.__name__} if executor.response_format else {}),
        **({"max_concurrency": executor.max_concurrency} if executor.max_concurrency else {}),
        # what a replay re-runs the recorded failures under (a Python-recorded trace's header lacks it);
        # jitter left out: it is randomness in the waits, which a replay does not repeat
        **(
            {"retry_policy": {k: v for k, v in executor.retry_policy.describe().items() if k != "jitter"}}
            if executor.retry_policy
            else {}
        ),
    }
    chain = describe_model(executor.agent.model, clock)
    if chain is not None:  # fallbacks and breakers (their states now): what a replay rebuilds
        settings["model_chain"] = chain
    if executor.rules is not None:
        settings["degradation"] = {"degrade_after": executor.degrade_after, "rules": executor.rules.describe()}
    servers = mcp_servers(executor.tools)
    if servers:  # what each MCP server offered (tools/list), which a replay lists its tools from
        settings["mcp_servers"] = servers
    return settings


def mcp_servers(tools: list[Any]) -> list[dict[str, Any]]:
    """The listing of each MCP server the tools came from (mcp_tools), once each, in the tools' order."""
    listings: dict[int, dict[str, Any]] = {}
    for tool in tools:
        listing = getattr(tool, "mcp_listing", None)
        if isinstance(listing, dict):
            listings.setdefault(id(listing), listing)
    return list(listings.values())


def retry_policy_for(given: RetryPolicy | str | None, agent: Any) -> RetryPolicy | None:
    """None means never retry; the default retries a live model (`model.live`) as the CLI does."""
    if given != DEFAULT_RETRY:
        if given is not None and not isinstance(given, RetryPolicy):
            raise TypeError(f"retry_policy must be a RetryPolicy or None, got {type(given).__name__}")
        return given
    live = getattr(getattr(agent, "model", None), "live", False) is True  # ModelHooks.live
    return RetryPolicy(max_retries=6) if live else None  # the CLI's --max-retries default


def _describe(value: Any) -> Any:
    """A setting as JSON can hold it: the value itself, or a callable's name."""
    return value if isinstance(value, (bool, int, str, type(None))) else getattr(value, "__name__", repr(value))
