"""The ReAct agent: one plan() = render the prompt, ask the model once, parse the reply."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..awaiting import Narrated
from ..models.chat_model import ChatModel, call_model
from ..run_context import RunContext
from ..schema import AgentAction, AgentFinish
from ..tools.adapters import as_tools
from ..tools.tool import Tool
from .parser import parse_react_output
from .prompt import REACT_PROMPT, PromptTemplate, Scratchpad, render_tools

STOP = ["\nObservation"]


class ReActAgent:
    """What create_react_agent builds. It asks the model once per plan(); looping is the executor's job."""

    return_values = ["output"]

    def __init__(
        self,
        model: ChatModel,
        tools: Sequence[Tool],
        prompt: PromptTemplate,
        output_parser: Callable[[str], AgentAction | AgentFinish] = parse_react_output,
        stop: Sequence[str] = tuple(STOP),
    ) -> None:
        self.model = model
        self.prompt = prompt
        self.output_parser = output_parser
        self.stop = list(stop)
        tools = as_tools(tools)
        self._tool_text = render_tools(tools)
        self._tool_names = ", ".join(tool.name for tool in tools)
        self._scratchpad = Scratchpad()

    def render_prompt(self, intermediate_steps: Sequence, **inputs: Any) -> str:
        head, tail = self.prompt.parts(
            tools=self._tool_text, tool_names=self._tool_names, **{k: str(v) for k, v in inputs.items()}
        )
        text = self._scratchpad.render(head, intermediate_steps)
        return text + tail if tail else text

    def plan(self, intermediate_steps: Sequence, run: RunContext, **inputs: Any) -> Narrated[AgentAction | AgentFinish]:
        # LangChain: RunnableAgent.plan — the steps so far become the scratchpad of one prompt.
        prompt = self.render_prompt(intermediate_steps, **inputs)
        text = yield from call_model(run, self.model, prompt, self.stop)
        return self.output_parser(text)


def create_react_agent(
    model: ChatModel, tools: Sequence[Tool], prompt: str | PromptTemplate | None = None
) -> ReActAgent:
    """LangChain: create_react_agent. `prompt` may replace the built-in ReAct template."""
    if prompt is None:
        prompt = PromptTemplate(REACT_PROMPT)
    elif isinstance(prompt, str):
        prompt = PromptTemplate(prompt)
    return ReActAgent(model, tools, prompt)
