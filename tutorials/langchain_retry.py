"""A weather tool that always times out, retried by LangChain's ToolRetryMiddleware (jitter on, then off) and by loopscope's RetryPolicy."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, Field

from executor import ChatModel, ModelReply, RetryPolicy, Tool, create_tool_calling_agent

from .scenario import Scenario
from .weather import tool_calls

QUESTION = "What is the weather like in Beijing today?"
SYSTEM_PROMPT = "You are a travel assistant. Look up the weather with get_weather before you answer."
TIMEOUT = "the weather service did not answer within 5 seconds"
ANSWER = (
    "Sorry, I could not get Beijing's weather: the weather service timed out on every try. "
    "Please ask again in a few minutes."
)

# The middleware's settings, as the lesson sets them: 6 retries (7 calls), waits of 1, 2, 4, 8 s,
# then capped at 10 s (LangChain's default max_delay is 60 s, where this cap would never bite).
RETRY_SETTINGS: dict[str, Any] = {
    "max_retries": 6,
    "backoff_factor": 2,
    "initial_delay": 1.0,
    "max_delay": 10.0,
    "retry_on": (TimeoutError,),
    "on_failure": "continue",
}
JITTER_SEED = 3  # LangChain draws its ±25% jitter from `random`; the recording seeds it, so it is repeatable


def get_weather(city: str) -> str:
    """Today's weather for one city (the weather service is down: every call times out)."""
    raise TimeoutError(f"{TIMEOUT} ({city})")


def run_in_langchain(jitter: bool) -> Any:
    """The lesson's agent as LangChain 1.x writes it: create_agent with ToolRetryMiddleware, a scripted
    chat model in place of a real one. Its sleeps go on `clock` and its jitter comes from a seeded
    random, so recording takes no time and gives the same waits every time."""

    def run(callbacks: list[Any], clock: Any) -> None:
        # Here, not at the top: LangChain is an optional extra, loaded only when the fixture is recorded.
        from unittest import mock

        from langchain.agents import create_agent  # the optional extra (as above)
        from langchain.agents.middleware import ToolRetryMiddleware  # the optional extra (as above)
        from langchain_core.messages import AIMessage  # the optional extra (as above)

        from .langchain_chat import ScriptedChatModel, tool_call_reply  # imports LangChain (as above)

        model = ScriptedChatModel(
            replies=[tool_call_reply(("call_bj", "get_weather", {"city": "Beijing"})), AIMessage(ANSWER)]
        )
        retry = ToolRetryMiddleware(jitter=jitter, **RETRY_SETTINGS)
        agent = create_agent(model, tools=[get_weather], system_prompt=SYSTEM_PROMPT, middleware=[retry])
        # The middleware sleeps with time.sleep and jitters with random.uniform, both module globals.
        with (
            mock.patch("langchain.agents.middleware.tool_retry.time", clock),
            mock.patch("langchain.agents.middleware._retry.random", random.Random(JITTER_SEED)),
        ):
            agent.invoke({"messages": [{"role": "user", "content": QUESTION}]}, {"callbacks": callbacks})

    return run


class City(BaseModel):
    city: str = Field(description="The city's English name, e.g. Beijing")


def loopscope_tools(model: ChatModel) -> list[Tool]:
    """The same get_weather under loopscope's own retry: RetryPolicy with the middleware's settings
    (loopscope's jitter draws from [half the delay, all of it], seeded here)."""
    policy = RetryPolicy(
        max_retries=RETRY_SETTINGS["max_retries"],
        initial_delay=RETRY_SETTINGS["initial_delay"],
        backoff_factor=RETRY_SETTINGS["backoff_factor"],
        max_delay=RETRY_SETTINGS["max_delay"],
        jitter=True,
        retry_on=(TimeoutError,),
        on_failure="continue",
        rng=random.Random(JITTER_SEED).random,
    )
    return [
        Tool(
            name="get_weather",
            description="Today's weather for one city.",
            func=get_weather,
            args_schema=City,
            retry_policy=policy,
        )
    ]


def loopscope_agent(model: ChatModel, tools: list[Tool]) -> Any:
    return create_tool_calling_agent(model, tools, SYSTEM_PROMPT)


REPLIES: list[str | ModelReply] = [tool_calls(("call_bj", "get_weather", {"city": "Beijing"})), ANSWER]

SCENARIO_JITTER = Scenario(
    name="langchain-retry-jitter",
    title="LangChain's ToolRetryMiddleware, jitter on: 1, 2, 4, 8, 10, 10 s, each spread ±25%",
    question=QUESTION,
    build_tools=loopscope_tools,
    build_agent=loopscope_agent,
    replies=REPLIES,
    fixture_name="langchain/retry_jitter.jsonl",
    langchain_run=run_in_langchain(jitter=True),
)
SCENARIO_STEADY = Scenario(
    name="langchain-retry-steady",
    title="LangChain's ToolRetryMiddleware, jitter off: exactly 1, 2, 4, 8, 10, 10 s",
    question=QUESTION,
    build_tools=loopscope_tools,
    build_agent=loopscope_agent,
    replies=REPLIES,
    fixture_name="langchain/retry_steady.jsonl",
    langchain_run=run_in_langchain(jitter=False),
)
SCENARIO_LOOPSCOPE = Scenario(
    name="langchain-retry-loopscope",
    title="The same tool retried by loopscope's own RetryPolicy",
    question=QUESTION,
    build_tools=loopscope_tools,
    build_agent=loopscope_agent,
    replies=REPLIES,
    fixture_name="langchain_retry_loopscope.jsonl",
)
