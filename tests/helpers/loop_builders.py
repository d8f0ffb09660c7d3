"""Small builders for executor tests: a scripted executor with given replies and tools."""

from __future__ import annotations

from executor import AgentExecutor, ManualClock, ScriptedModel, Tool, create_react_agent


def echo_tool(name: str = "Echo", **kwargs) -> Tool:
    return Tool(name=name, description=f"{name} repeats its input", func=lambda text: f"echo:{text}", **kwargs)


def action(tool: str, tool_input: str, thought: str = "I should use a tool.") -> str:
    return f" {thought}\nAction: {tool}\nAction Input: {tool_input}"


def finish(answer: str) -> str:
    return f" I now know the final answer.\nFinal Answer: {answer}"


def scripted_executor(replies, tools=None, **settings):
    """(executor, model, events list) for a scripted run; events fill up as the run goes."""
    model = ScriptedModel(replies)
    tools = tools if tools is not None else [echo_tool()]
    agent = create_react_agent(model, tools)
    settings.setdefault("clock", ManualClock(tick=0.001))
    executor = AgentExecutor(agent=agent, tools=tools, **settings)
    return executor, model


def run_collecting(executor, question: str = "q?"):
    events = []
    try:
        result = executor.invoke({"input": question}, [events.append])
    except Exception as error:  # the caller asserts on the error and the events
        return None, events, error
    return result, events, None


def kinds(events) -> list[str]:
    return [e.kind for e in events]
