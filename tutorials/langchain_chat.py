"""A LangChain chat model that answers from a script, tool calls included, for recording LangChain runs offline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .langchain_extra import langchain_missing

# LangChain is an optional extra (`loopscope[langchain]`): this module is imported only by what
# records a LangChain run (tutorials' recorders, tests), never when tutorials are listed or walked.
try:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.utils.function_calling import convert_to_openai_tool
except ImportError as missing:  # tests/test_extras.py hides the packages
    raise langchain_missing(missing) from None


class ScriptedChatModel(BaseChatModel):
    """Gives `replies` in order, one per call, as a real chat model's AIMessages would be (text, tool
    calls with ids and arguments). bind_tools binds the tools' JSON schemas as a real model's does, so
    each call carries the tools it was offered; nothing is sent anywhere."""

    replies: list[AIMessage]
    name_of_model: str = "scripted-chat"

    @property
    def _llm_type(self) -> str:
        return self.name_of_model

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        if not self.replies:
            raise RuntimeError("the scripted chat model has no reply left for this call")
        return ChatResult(generations=[ChatGeneration(message=self.replies.pop(0))])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools])


def tool_call_reply(*calls: tuple[str, str, dict[str, Any]], text: str = "") -> AIMessage:
    """An AIMessage asking for tool calls, each given as (call id, tool name, arguments)."""
    return AIMessage(text, tool_calls=[{"id": id_, "name": name, "args": args} for id_, name, args in calls])
