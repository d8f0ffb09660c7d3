"""The ReAct parser as LangChain writes it, with backtracking regexes: the fuzz test's reference only."""

from __future__ import annotations

import re

from executor.agents.parser import (
    BOTH_FINISH_AND_ACTION,
    FINAL_ANSWER,
    MISSING_ACTION,
    MISSING_ACTION_INPUT,
    OutputParserException,
)
from executor.schema import AgentAction, AgentFinish

# LangChain: ReActSingleInputOutputParser.parse, regexes unchanged. They backtrack for seconds to
# minutes on some long inputs, so callers keep the inputs small.
# loopscope's parser before the linear rewrite used the first action regex; LangChain's current
# source has an extra [\s]* before the second "Action", which only moves spaces out of a group
# that is stripped anyway. Both are kept so the fuzz test can show the new parser agrees with each.
ACTION_LOOPSCOPE = re.compile(r"Action\s*\d*\s*:[\s]*(.*?)Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*)", re.DOTALL)
ACTION_LANGCHAIN = re.compile(r"Action\s*\d*\s*:[\s]*(.*?)[\s]*Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*)", re.DOTALL)
_ACTION_ONLY = re.compile(r"Action\s*\d*\s*:[\s]*(.*?)", re.DOTALL)
_ACTION_INPUT_ONLY = re.compile(r"[\s]*Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*)", re.DOTALL)


def parse_with_regex(text: str, action: re.Pattern[str] = ACTION_LOOPSCOPE) -> AgentAction | AgentFinish:
    includes_answer = FINAL_ANSWER in text
    match = action.search(text)
    if match:
        if includes_answer:
            raise OutputParserException(f"{BOTH_FINISH_AND_ACTION}: {text}", llm_output=text)
        tool = match.group(1).strip()
        tool_input = match.group(2).strip(" ").strip('"')
        return AgentAction(tool, tool_input, text)
    if includes_answer:
        return AgentFinish({"output": text.split(FINAL_ANSWER)[-1].strip()}, text)
    if not _ACTION_ONLY.search(text):
        raise OutputParserException(
            f"Could not parse LLM output: `{text}`", MISSING_ACTION, llm_output=text, send_to_llm=True
        )
    if not _ACTION_INPUT_ONLY.search(text):
        raise OutputParserException(
            f"Could not parse LLM output: `{text}`", MISSING_ACTION_INPUT, llm_output=text, send_to_llm=True
        )
    raise OutputParserException(f"Could not parse LLM output: `{text}`", llm_output=text)
