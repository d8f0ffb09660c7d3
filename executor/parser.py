"""The ReAct output parser: the model's text becomes an AgentAction, an AgentFinish, or an error."""

from __future__ import annotations

import re

from .schema import AgentAction, AgentFinish

FINAL_ANSWER = "Final Answer:"
MISSING_ACTION = "Invalid Format: Missing 'Action:' after 'Thought:'"
MISSING_ACTION_INPUT = "Invalid Format: Missing 'Action Input:' after 'Action:'"
BOTH_FINISH_AND_ACTION = "Parsing LLM output produced both a final answer and a parse-able action:"

# LangChain: ReActSingleInputOutputParser
_ACTION = re.compile(r"Action\s*\d*\s*:[\s]*(.*?)Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*)", re.DOTALL)
_ACTION_ONLY = re.compile(r"Action\s*\d*\s*:[\s]*(.*?)", re.DOTALL)
_ACTION_INPUT_ONLY = re.compile(r"[\s]*Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*)", re.DOTALL)


class OutputParserException(ValueError):
    """The model's text could not be turned into an action or a finish.

    `observation` is the hint that can be sent back to the model; `send_to_llm` says
    whether the parser thinks it is worth sending (LangChain's same-named fields).
    """

    def __init__(self, error: str, observation: str | None = None, llm_output: str = "",
                 send_to_llm: bool = False) -> None:
        super().__init__(error)
        self.observation = observation
        self.llm_output = llm_output
        self.send_to_llm = send_to_llm


def parse_react_output(text: str) -> AgentAction | AgentFinish:
    includes_answer = FINAL_ANSWER in text
    match = _ACTION.search(text)
    if match:
        if includes_answer:
            # Not sent to the model: both halves are valid, so no hint would help it.
            raise OutputParserException(f"{BOTH_FINISH_AND_ACTION} {text}", llm_output=text)
        tool = match.group(1).strip()
        tool_input = match.group(2).strip(" ").strip('"')
        return AgentAction(tool, tool_input, text)
    if includes_answer:
        return AgentFinish({"output": text.split(FINAL_ANSWER)[-1].strip()}, text)
    if not _ACTION_ONLY.search(text):
        raise OutputParserException(f"Could not parse LLM output: `{text}`", MISSING_ACTION,
                                    llm_output=text, send_to_llm=True)
    if not _ACTION_INPUT_ONLY.search(text):
        raise OutputParserException(f"Could not parse LLM output: `{text}`", MISSING_ACTION_INPUT,
                                    llm_output=text, send_to_llm=True)
    raise OutputParserException(f"Could not parse LLM output: `{text}`", llm_output=text)
