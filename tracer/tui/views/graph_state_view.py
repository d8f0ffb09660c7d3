"""The variables pane of a framework's agent (a LangGraph graph, an Agents SDK or pydantic-ai agent): its messages at this event, rebuilt from the trace."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from executor.events import ChainStartEvent, LLMEndEvent, LLMStartEvent, ToolEndEvent

from ...debug.session import DebugSession
from ...i18n import say
from ...report.text.literal import literal
from ...trace.index import TraceIndex
from .clipped_text import first_line
from .typed_events import event_as
from .variable_table import VariableTable

SHOWN_MESSAGES = 6
NODE_RUNNER_FILE = "langgraph/pregel/_retry.py"  # the frame a traced LangGraph node runs in, named after it


def graph_run(session: DebugSession, index: TraceIndex) -> ChainStartEvent | None:
    """The run's chain_start when the trace is a framework's agent, which has no _call: a LangGraph graph's
    (its settings name the graph), or an adapter's (its settings name the framework)."""
    start = index.last_before("chain_start", session.position)
    chain_start = event_as(session, start, ChainStartEvent) if start is not None else None
    if chain_start is None or not ({"graph", "framework"} & set(chain_start.settings)):
        return None
    return chain_start


def graph_state(session: DebugSession, index: TraceIndex, chain_start: ChainStartEvent, lang: str) -> VariableTable:
    """The messages as the agent had them at this event (a graph's state["messages"]), the node running,
    and the calls still out."""
    event = session.event()
    framework = chain_start.settings.get("framework") if "graph" not in chain_start.settings else None
    if framework is None:
        header, name = say("panes.graph_state", lang), 'state["messages"]'
    else:
        header, name = say("panes.framework_state", lang, framework=literal(str(framework)).plain), "messages"
    table = VariableTable(Text(header, style="dim"))
    table.add("iteration", literal(str(getattr(event, "iteration", 0))))
    node = _node(event)
    if node:
        table.add("node", literal(node))
    listed = chain_start.settings.get("middleware")  # a trace's own value: a list only when it is one
    middleware = [str(m.get("name", "?")) for m in listed if isinstance(m, dict)] if isinstance(listed, list) else []
    if middleware:
        table.add("middleware", literal(", ".join(middleware)))
    messages, pending = state_messages(session, index, chain_start)
    table.add(name, literal(f"[{len(messages)} message{'s' * (len(messages) != 1)}]"))
    if len(messages) > SHOWN_MESSAGES:
        table.add("", Text(say("panes.earlier", lang, count=len(messages) - SHOWN_MESSAGES), style="dim"))
    for number in range(max(0, len(messages) - SHOWN_MESSAGES), len(messages)):
        table.add("", literal(f"[{number}] {describe_message(messages[number])}"))
    if pending:
        table.add("tool calls out", literal(", ".join(pending)))
    return table


def _node(event: Any) -> str | None:
    """The LangGraph node the event happened in: the innermost node frame of its recorded stack."""
    for frame in reversed(getattr(event, "stack", None) or ()):
        if frame.file == NODE_RUNNER_FILE:
            return str(frame.function)
    return None


def state_messages(
    session: DebugSession, index: TraceIndex, chain_start: ChainStartEvent
) -> tuple[list[dict[str, Any]], list[str]]:
    """The messages at this event: those the latest model call was sent (the state then), its reply
    once it came, and each tool result since; and the ids of the reply's calls with no result yet."""
    position = session.position
    asked = index.last_before("llm_start", position)
    start = event_as(session, asked, LLMStartEvent) if asked is not None else None
    if start is None or start.messages is None:
        initial = chain_start.inputs.get("messages")
        return [m for m in (initial if isinstance(initial, list) else []) if isinstance(m, dict)], []
    messages = [m for m in start.messages if m.get("role") != "system"]  # create_agent's prompt is not state
    pending: dict[str, str] = {}
    results: dict[str, dict[str, Any]] = {}
    asked_for: list[str] = []
    for seq in range((asked or 0) + 1, position + 1):
        event = session.event(seq)
        if isinstance(event, LLMEndEvent):
            calls = event.tool_calls or []
            messages.append({"role": "assistant", "content": event.text, "tool_calls": [c.name for c in calls]})
            pending = {c.id: f"{c.name} [{c.id}]" for c in calls}
            asked_for = [c.id for c in calls]
        elif isinstance(event, ToolEndEvent) and event.tool_call_id in pending:
            results[event.tool_call_id] = {
                "role": "tool",
                "content": event.observation,
                "tool_call_id": event.tool_call_id,
            }
            pending.pop(event.tool_call_id)
    # Tools run at once may end in any order; the next model call gets their results in the order it asked.
    messages += [results[call] for call in asked_for if call in results]
    return messages, list(pending.values())


def describe_message(message: dict[str, Any]) -> str:
    """One message on one line: its role, the tool calls it asks for, or the first line of its text."""
    role = str(message.get("role", "?"))
    if role == "tool":
        role = f"tool {message.get('tool_call_id', '?')}"
    calls = message.get("tool_calls") or []
    if calls:
        names = [c if isinstance(c, str) else str(c.get("function", {}).get("name", "?")) for c in calls]
        return f"{role}: → {', '.join(names)}"
    return f"{role}: {first_line(str(message.get('content') or ''), 70)}"
