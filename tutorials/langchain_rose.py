"""The rose run again, executed by LangChain's own AgentExecutor and traced by LoopscopeCallbackHandler."""

from __future__ import annotations

import dataclasses

from .rose_pricing import SCENARIO as ROSE_PRICING

# The same question, tools and replies; the fixture was written by LangChain's run, not by ours
# (tests/helpers/langchain_rose.py records it), so verify has nothing of ours to re-execute.
SCENARIO = dataclasses.replace(
    ROSE_PRICING,
    name="rose-pricing-langchain",
    title="Rose pricing in LangChain's real AgentExecutor",
    fixture_name="langchain/rose_pricing.jsonl",
)
