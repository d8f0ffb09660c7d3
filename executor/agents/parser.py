"""The ReAct output parser: the model's text becomes an AgentAction, an AgentFinish, or an error."""

from __future__ import annotations

import re

from ..schema import AgentAction, AgentFinish

FINAL_ANSWER = "Final Answer:"
MISSING_ACTION = "Invalid Format: Missing 'Action:' after 'Thought:'"
MISSING_ACTION_INPUT = "Invalid Format: Missing 'Action Input:' after 'Action:'"
BOTH_FINISH_AND_ACTION = "Parsing LLM output produced both a final answer and a parse-able action:"

# LangChain: ReActSingleInputOutputParser searches one regex,
#   Action\s*\d*\s*:[\s]*(.*?)[\s]*Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*)
# which backtracks for minutes on some long replies (a run of spaces, many "Action:").
# The same match in two linear steps: the first "Action ... :" head, then the first
# "Action ... Input ... :" tail after it. Possessive quantifiers (*+) never give back what
# they took; nothing is lost by that, because a digit or ':' ends a whitespace run anyway.
# tests/test_parser_fuzz.py checks the two agree on many thousands of replies.
_HEAD = re.compile(r"Action\s*+\d*+\s*+:\s*+")
_TAIL = re.compile(r"Action\s*+\d*+\s*+Input\s*+\d*+\s*+:\s*+")


class OutputParserException(ValueError):
    """The model's text could not be turned into an action or a finish.

    `observation` is the hint that can be sent back to the model; `send_to_llm` says
    whether the parser thinks it is worth sending (LangChain's same-named fields).
    """

    def __init__(
        self, error: str, observation: str | None = None, llm_output: str = "", send_to_llm: bool = False
    ) -> None:
        super().__init__(error)
        self.observation = observation
        self.llm_output = llm_output
        self.send_to_llm = send_to_llm


def parse_react_output(text: str) -> AgentAction | AgentFinish:
    # LangChain: ReActSingleInputOutputParser.parse
    includes_answer = FINAL_ANSWER in text
    head = _HEAD.search(text)
    # A later head starts after this one's end, so if no tail follows the first head, none follows any.
    tail = _TAIL.search(text, head.end()) if head else None
    if head and tail:
        if includes_answer:
            # Not sent to the model: both halves are valid, so no hint would help it.
            # LangChain's message ends in ':' and its f-string adds another: "action:: <text>".
            raise OutputParserException(f"{BOTH_FINISH_AND_ACTION}: {text}", llm_output=text)
        tool = text[head.end() : tail.start()].strip()
        tool_input = text[tail.end() :].strip(" ").strip('"')
        return AgentAction(tool, tool_input, text)
    if includes_answer:
        return AgentFinish({"output": text.rpartition(FINAL_ANSWER)[2].strip()}, text)
    if head is None:
        raise OutputParserException(
            f"Could not parse LLM output: `{text}`", MISSING_ACTION, llm_output=text, send_to_llm=True
        )
    if not _TAIL.search(text):
        raise OutputParserException(
            f"Could not parse LLM output: `{text}`", MISSING_ACTION_INPUT, llm_output=text, send_to_llm=True
        )
    raise OutputParserException(f"Could not parse LLM output: `{text}`", llm_output=text)
