"""The LangChain rose run for tests and bench (it lives in tutorials/langchain_rose_agent.py), and its recorder."""

from __future__ import annotations

from tracer.bridges.langchain_fixtures import record_fixture
from tutorials import get_scenario
from tutorials.langchain_rose_agent import (
    REACT_PROMPT,
    ScriptedLLM,
    calculator,
    rose_executor,
    rose_inputs,
    rose_tools,
    scripted_chat_model,
    structured_tools,
    tool_calling_replies,
)

__all__ = [
    "REACT_PROMPT",
    "ScriptedLLM",
    "calculator",
    "record",
    "rose_executor",
    "rose_inputs",
    "rose_tools",
    "scripted_chat_model",
    "structured_tools",
    "tool_calling_replies",
]


def record(path: str) -> None:
    """Record the LangChain rose run (the langchain tutorial's fixture) with loopscope's handler, as
    `loopscope fixtures --rerecord` does."""
    record_fixture(get_scenario("rose-pricing-langchain"), path)


if __name__ == "__main__":  # uv run python -m tests.helpers.langchain_rose fixtures/langchain/rose_pricing.jsonl
    import sys

    record(sys.argv[1])
