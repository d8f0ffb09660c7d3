"""The ReAct prompt: the template, the tool listing, and the scratchpad kept rendered incrementally."""

from __future__ import annotations

from collections.abc import Sequence

from ..schema import AgentAction

# The canonical ReAct layout, in loopscope's own words.
REACT_PROMPT = """Answer the question below as well as you can. These tools are at your disposal:

{tools}

Work in this format:

Question: the question you have to answer
Thought: think about what to do next
Action: the tool to use, exactly one of [{tool_names}]
Action Input: what to give the tool
Observation: what the tool returned
... (Thought / Action / Action Input / Observation may repeat as often as needed)
Thought: I now know the final answer
Final Answer: the final answer to the question

Begin!

Question: {input}
Thought:{agent_scratchpad}"""

REQUIRED_VARIABLES = ("tools", "tool_names", "agent_scratchpad")
OBSERVATION_PREFIX = "Observation: "
LLM_PREFIX = "Thought: "
SCRATCHPAD = "{agent_scratchpad}"


def render_tools(tools: Sequence) -> str:
    """LangChain: render_text_description, one `name - description` line per tool."""
    return "\n".join(f"{tool.name} - {tool.description}" for tool in tools)


def format_step(action: AgentAction, observation: object) -> str:
    """LangChain: format_log_to_str, for one step."""
    return f"{action.log}\n{OBSERVATION_PREFIX}{observation}\n{LLM_PREFIX}"


class Scratchpad:
    """The agent's notebook, kept rendered behind the prompt's fixed head.

    The executor only ever appends to intermediate_steps, so when the list it hands over
    still starts with the steps rendered last time, only the new ones are formatted and
    appended. Re-rendering everything every round is what makes naive loops quadratic.
    """

    def __init__(self) -> None:
        self._steps: list = []
        self._head = ""
        self._text = ""  # head + every rendered step

    def render(self, head: str, steps: Sequence) -> str:
        """`head` followed by the scratchpad for `steps`."""
        done = len(self._steps)
        same_prefix = len(steps) >= done and (
            done == 0 or (steps[0] is self._steps[0] and steps[done - 1] is self._steps[-1])
        )
        if head is not self._head or not same_prefix:
            self._steps, self._head, self._text, done = [], head, head, 0
        if len(steps) > done:
            self._text += "".join([format_step(a, o) for a, o in steps[done:]])
            self._steps.extend(steps[done:])
        return self._text


class PromptTemplate:
    """A `{name}` template split at its scratchpad slot, so the fixed parts are rendered once."""

    def __init__(self, template: str) -> None:
        missing = [v for v in REQUIRED_VARIABLES if "{" + v + "}" not in template]
        if missing:
            raise ValueError(
                f"Prompt missing required variables: {missing}; "
                f"the ReAct template needs {{tools}}, {{tool_names}} and {{agent_scratchpad}}"
            )
        self.template = template
        self._head, _, self._tail = template.partition(SCRATCHPAD)
        self._variables: dict[str, str] | None = None
        self._parts = ("", "")

    def parts(self, **variables: str) -> tuple[str, str]:
        """The text before and after the scratchpad slot, for these variables."""
        if variables != self._variables:
            try:
                self._parts = (self._head.format(**variables), self._tail.format(**variables))
            except KeyError as missing:
                raise ValueError(f"Prompt variable {missing} has no value; pass it in the inputs") from None
            self._variables = variables
        return self._parts

    def render(self, scratchpad: str, **variables: str) -> str:
        head, tail = self.parts(**variables)
        return head + scratchpad + tail
