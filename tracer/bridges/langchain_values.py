"""LangChain objects read as loopscope event fields: settings, tools, prompts, replies, token counts."""

from __future__ import annotations

import json
from typing import Any

from executor.events import ToolInfo


def plain(value: Any) -> Any:
    """A JSON-safe copy of what LangChain hands a callback (messages become role/content dicts)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "type") and hasattr(value, "content"):  # a BaseMessage
        message = {"role": value.type, "content": plain(value.content)}
        if getattr(value, "tool_calls", None):
            message["tool_calls"] = plain(value.tool_calls)
        return message
    return repr(value)


def as_text(value: Any) -> str:
    """A tool input or output as the text loopscope stores (dicts as JSON, messages as content)."""
    if isinstance(value, str):
        return value
    if hasattr(value, "content"):  # a ToolMessage from a LangGraph ToolNode
        return as_text(value.content)
    if isinstance(value, (dict, list)):
        return json.dumps(plain(value), ensure_ascii=False)
    return str(value)


def model_name(serialized: dict[str, Any] | None, params: dict[str, Any] | None) -> str:
    params = params or {}
    for key in ("model_name", "model", "_type"):
        if params.get(key):
            return str(params[key])
    return str((serialized or {}).get("name") or "unknown")


def _bound_model(agent: Any) -> tuple[Any, list[str]]:
    """The language model inside an agent's runnable, and the stop words bound to it."""
    from langchain_core.language_models import BaseLanguageModel
    from langchain_core.runnables import RunnableBinding

    runnable = getattr(agent, "runnable", None)
    for step in getattr(runnable, "steps", ()) or ():
        if isinstance(step, RunnableBinding) and isinstance(step.bound, BaseLanguageModel):
            return step.bound, list(step.kwargs.get("stop") or [])
        if isinstance(step, BaseLanguageModel):
            return step, []
    return None, []


def language_model_name(model: Any) -> str:
    for attribute in ("model_name", "model"):
        value = getattr(model, attribute, None)
        if isinstance(value, str) and value:
            return value
    return getattr(model, "_llm_type", type(model).__name__)


def executor_settings(executor: Any) -> dict[str, Any]:
    """An AgentExecutor's settings, under the names loopscope's chain_start uses."""
    model, stop = _bound_model(executor.agent)
    handle = executor.handle_parsing_errors
    return {
        "max_iterations": executor.max_iterations,
        "max_execution_time": executor.max_execution_time,
        "early_stopping_method": executor.early_stopping_method,
        "handle_parsing_errors": handle if isinstance(handle, (bool, str)) else repr(handle),
        "return_intermediate_steps": executor.return_intermediate_steps,
        "trim_intermediate_steps": executor.trim_intermediate_steps,
        "model": language_model_name(model) if model is not None else "unknown",
        "stop": stop,
    }


def tool_infos(tools: Any) -> list[ToolInfo]:
    return [ToolInfo(name=t.name, description=t.description or "", return_direct=bool(t.return_direct))
            for t in tools or ()]


def graph_tools(graph: Any) -> list[ToolInfo]:
    """The tools of a LangGraph prebuilt agent: its "tools" node is a ToolNode."""
    node = getattr(graph, "nodes", {}).get("tools")
    tool_node = getattr(node, "bound", None)
    return tool_infos(getattr(tool_node, "tools_by_name", {}).values())


def reply_of(response: Any) -> tuple[str, list[dict[str, Any]], dict[str, int] | None]:
    """An LLMResult's text, its tool calls (chat models), and the token counts when reported."""
    generation = response.generations[0][0] if response.generations and response.generations[0] else None
    message = getattr(generation, "message", None)
    text = generation.text if generation is not None else ""
    if message is not None and not isinstance(message.content, str):
        text = as_text(message.content)
    calls = list(getattr(message, "tool_calls", None) or [])
    usage = getattr(message, "usage_metadata", None) or (response.llm_output or {}).get("token_usage")
    counts = {k: int(v) for k, v in (usage or {}).items() if isinstance(v, int)} or None
    return text, calls, counts
