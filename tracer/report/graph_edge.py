"""Where a LangGraph agent's edge after its model node went, as the reports say it (END, tools, or your node)."""

from __future__ import annotations

END_NODE = "__end__"  # LangGraph's name for END


def edge_target(went_to: str | None, is_finish: bool) -> str:
    """The node a graph_edge finish check's edge went to: the one its routing function named ("END" for
    LangGraph's end), else what create_agent's edge does (END with no tool calls, the tools otherwise)."""
    if went_to:
        return "END" if went_to == END_NODE else went_to
    return "END" if is_finish else "tools"
