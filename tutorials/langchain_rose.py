"""The rose run again, executed by LangChain's own AgentExecutor and traced by LoopscopeCallbackHandler."""

from __future__ import annotations

import dataclasses
from typing import Any

from .rose_pricing import SCENARIO as ROSE_PRICING


def run_in_langchain(callbacks: list[Any], clock: Any) -> None:
    """The rose run in LangChain's AgentExecutor with these callback handlers (nothing in it waits)."""
    # Here, not at the top: LangChain is an optional extra, loaded only when the fixture is recorded.
    from .langchain_rose_agent import run

    run(callbacks, clock)


# The same question, tools and replies; the fixture was written by LangChain's run, not by ours
# (`loopscope fixtures --rerecord` runs run_in_langchain), so verify has nothing of ours to re-execute.
SCENARIO = dataclasses.replace(
    ROSE_PRICING,
    name="rose-pricing-langchain",
    title="Rose pricing in LangChain's real AgentExecutor",
    fixture_name="langchain/rose_pricing.jsonl",
    langchain_run=run_in_langchain,
)
