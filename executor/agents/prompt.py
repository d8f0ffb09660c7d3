"""The ReAct prompt: the template, the tool listing, and the scratchpad kept rendered incrementally."""

from __future__ import annotations

import itertools
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


# id(prompt text) -> (the text, its number, the number of the text it was made from by appending).
# The scratchpad knows what it appended, so a trace writer that noted an earlier prompt's number
# and length writes only the new part, without holding the earlier text or comparing the two (by
# round 1,000 a prompt is some 70 KB; holding it also stops the next one growing in place).
# A number stands for one text value: a text grown in place is a new value with a new number.
# Kept because tracing may add at most 1.8x to an untraced run, and comparing and copying the
# prompts instead took that guard over (docs/performance.md, "Speed tricks: kept or removed").
_TEXTS: dict[int, tuple[str, int, int | None]] = {}
_MAX_TEXTS = 32  # one entry per scratchpad; agents no longer running leave one each
_numbers = itertools.count(1)


def prompt_lineage(prompt: str) -> tuple[int, int | None] | None:
    """(this prompt text's number, the number of the text a Scratchpad appended to to make it);
    None for a text no Scratchpad made (or one it has appended to since)."""
    entry = _TEXTS.get(id(prompt))
    return (entry[1], entry[2]) if entry is not None and entry[0] is prompt else None


def _numbered(text: str, base: int | None) -> int:
    if len(_TEXTS) >= _MAX_TEXTS:
        _TEXTS.clear()
    number = next(_numbers)
    _TEXTS[id(text)] = (text, number, base)
    return number


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
        self._number = 0  # the text's number (see prompt_lineage)

    def render(self, head: str, steps: Sequence) -> str:
        """`head` followed by the scratchpad for `steps`."""
        done = len(self._steps)
        same_prefix = len(steps) >= done and (
            done == 0 or (steps[0] is self._steps[0] and steps[done - 1] is self._steps[-1])
        )
        if head is not self._head or not same_prefix:
            self._steps, self._head, self._text, done = [], head, head, 0
            self._number = _numbered(head, None)
        if len(steps) > done:
            # Detach before appending: a str held only by a local name grows in place, so when
            # nobody kept the previous prompt the append costs the new text, not the whole prompt.
            text, self._text = self._text, ""
            _TEXTS.pop(id(text), None)
            text += "".join([format_step(a, o) for a, o in steps[done:]])
            self._text = text
            self._steps.extend(steps[done:])
            self._number = _numbered(text, self._number)
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
