"""Graceful degradation: refusals become plain answers, and after N failures in a row a local rule engine plans."""

# A retry is for a moment's failure, a fallback for a model that is down, a breaker for an endpoint
# that is down. Degradation is for when no model gives a usable action at all: the agent stops asking
# and maps the question to a tool call by patterns it was given ("weather in X" -> get_weather("X")).
# It answers fewer questions, worse, but it answers. LangChain has no counterpart; the nearest thing is
# wrapping an agent in a RunnableBranch.

from __future__ import annotations

import re
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from ..agents.parser import OutputParserException
from ..events import DegradeEvent, EventBase, PlanErrorEvent, RefusalEvent
from ..models.chat_model import ModelRefused
from ..models.providers.errors import ProviderError
from ..run_context import RunContext
from ..schema import AgentAction, AgentFinish, AgentStep
from .circuit_breaker import CircuitOpenError
from .retry import RetriesExhausted, TransientError, describe_error

# Errors that mean "the model call failed for good" (after its retries and fallbacks); anything
# else (a bug, a replay divergence) is not the model's failure and still ends the run.
MODEL_FAILURES: tuple[type[BaseException], ...] = (
    RetriesExhausted,
    CircuitOpenError,
    ProviderError,
    TransientError,
    ConnectionError,
    TimeoutError,
)
PARSE_ERROR_TOOL = "_Exception"  # the tool name the executor gives a handled parse error's step

# Typical openings of a refusal, for endpoints that send neither a refusal field nor "content_filter".
_REFUSAL = re.compile(
    r"^\W*(?:I'?m sorry|I am sorry|I apologi[sz]e|sorry, (?:but )?I can|I (?:can ?not|can't|won't|am unable to|"
    r"'m unable to|'m not able to) (?:help|assist|comply|provide|do that|answer)|As an AI\b|"
    r"抱歉|对不起|很抱歉|我无法|我不能)",
    re.IGNORECASE,
)


def looks_like_refusal(text: str) -> bool:
    """Does the reply open like a refusal? Only asked of a reply that did not parse."""
    return bool(_REFUSAL.search(text.strip()[:200]))


@dataclass(frozen=True)
class Rule:
    """When `pattern` (a regex, case-insensitive) is found in the question, call `tool` with `tool_input`.

    `tool_input` is a str.format template over the match: {0} is the whole match, {1}... the groups,
    {city} a named group, e.g. Rule("weather", r"weather in (?P<city>[\\w ]+?)\\W*$", "get_weather", "{city}").
    """

    name: str
    pattern: str
    tool: str
    tool_input: str = "{0}"

    def __post_init__(self) -> None:
        try:
            re.compile(self.pattern)
        except re.error as error:
            raise ValueError(
                f"rule {self.name!r}: the pattern {self.pattern!r} is not a valid regex ({error})"
            ) from None

    def apply(self, question: str) -> str | None:
        """The tool input this rule makes of the question, or None when it does not match."""
        match = re.search(self.pattern, question, re.IGNORECASE)
        if match is None:
            return None
        groups = [match.group(0), *(value or "" for value in match.groups())]
        named = {key: (value or "").strip() for key, value in match.groupdict().items()}
        try:
            return self.tool_input.format(*(value.strip() for value in groups), **named)
        except (IndexError, KeyError) as error:
            raise ValueError(
                f"rule {self.name!r}: tool_input {self.tool_input!r} names a group the pattern does not have ({error})"
            ) from None


class RuleAction(AgentAction):
    """An AgentAction that a rule produced, not a model; `log` says which rule."""

    __slots__ = ()


class RuleSet:
    """Rules tried in order; the first that matches wins."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        names = [rule.name for rule in rules]
        if len(set(names)) != len(names):
            raise ValueError(f"rule names must be unique, got {names}")
        self.rules = list(rules)

    def describe(self) -> list[dict[str, str]]:
        """The rules as data (chain_start records them; from_description rebuilds them for a replay)."""
        return [{"name": r.name, "pattern": r.pattern, "tool": r.tool, "tool_input": r.tool_input} for r in self.rules]

    @classmethod
    def from_description(cls, described: Sequence[dict[str, str]]) -> RuleSet:
        return cls([Rule(**rule) for rule in described])

    def match(self, question: str) -> tuple[Rule, str] | None:
        for rule in self.rules:
            tool_input = rule.apply(question)
            if tool_input is not None:
                return rule, tool_input
        return None


class NoRuleMatched(RuntimeError):
    """The agent degraded to its rules and none of them matched the question."""


class DegradingAgent:
    """Wraps any agent's plan(): what an AgentExecutor built with `rules=` runs.

    - A refusal (ModelRefused from the endpoint, or a reply that did not parse and reads like one)
      is answered as the final answer, as plain text.
    - Failures to get a usable action are counted: handled parse errors (the executor's
      `_Exception` steps at the end of intermediate_steps) and model calls that failed for good
      (each a `plan_error` event; plan() asks again). At `degrade_after` the rules plan instead.
    - Once a rule's tool has run, its observation is the final answer.
    An agent whose plan() returns a list of actions (tool calling) defines `rule_output(action)`
    to wrap the rule's action its way (e.g. `[action]`); by default the action is returned as is.
    Whatever it returns, the action in the step must stay a RuleAction (a subclass with a
    tool_call_id is fine): that is how a later plan() knows the run has degraded.
    """

    def __init__(self, agent: Any, rules: RuleSet, degrade_after: int = 3, input_key: str = "input") -> None:
        if degrade_after < 1:
            raise ValueError(f"degrade_after must be at least 1, got {degrade_after}")
        self.agent, self.rules, self.degrade_after, self.input_key = agent, rules, degrade_after, input_key

    def __getattr__(self, name: str) -> Any:  # model, stop, return_values...: the wrapped agent's
        return getattr(self.agent, name)

    def plan(
        self, intermediate_steps: Sequence[AgentStep], run: RunContext, **inputs: Any
    ) -> Generator[EventBase, None, Any]:
        rule_step = next((s for s in intermediate_steps if isinstance(s.action, RuleAction)), None)
        if rule_step is not None:  # degraded earlier in this run: the rule's observation is the answer
            return AgentFinish({self.agent.return_values[0]: str(rule_step.observation)}, rule_step.action.log)
        failures = _trailing_parse_failures(intermediate_steps)
        while True:
            try:
                return (yield from self.agent.plan(intermediate_steps, run, **inputs))
            except ModelRefused as refused:
                return (yield from self._answer_refusal(run, refused.text, refused.detected_by))
            except OutputParserException as error:
                if looks_like_refusal(error.llm_output):
                    return (yield from self._answer_refusal(run, error.llm_output.strip(), "refusal_text"))
                failures += 1
                if failures < self.degrade_after:
                    raise  # the executor narrates it (parse_error) and handles it as it is told
                last_error = describe_error(error)
            except MODEL_FAILURES as error:
                failures += 1
                yield run.emit(PlanErrorEvent, error_type=type(error).__name__, message=str(error), failures=failures,
                               degrade_after=self.degrade_after)  # fmt: skip
                if failures < self.degrade_after:
                    continue
                last_error = describe_error(error)
            return (yield from self._plan_by_rules(run, inputs, failures, last_error))

    def _answer_refusal(self, run: RunContext, text: str, detected_by: str) -> Generator[EventBase, None, AgentFinish]:
        yield run.emit(RefusalEvent, text=text, detected_by=detected_by)
        return AgentFinish({self.agent.return_values[0]: text}, text)

    def _plan_by_rules(
        self, run: RunContext, inputs: dict[str, Any], failures: int, last_error: str
    ) -> Generator[EventBase, None, Any]:
        question = str(inputs.get(self.input_key, ""))
        found = self.rules.match(question)
        rule, tool_input = found if found is not None else (None, None)
        yield run.emit(DegradeEvent, failures=failures, last_error=last_error, question=question,
                       rule=rule.name if rule else None, pattern=rule.pattern if rule else None,
                       tool=rule.tool if rule else None, tool_input=tool_input)  # fmt: skip
        if rule is None or tool_input is None:
            raise NoRuleMatched(
                f"no usable action after {failures} failures in a row (last: {last_error}) and "
                f"no rule matches the question; add a Rule whose pattern matches it"
            )
        action = RuleAction(
            rule.tool, tool_input, f"Rule {rule.name!r} matched /{rule.pattern}/: {rule.tool}({tool_input!r})"
        )
        rule_output = getattr(self.agent, "rule_output", None)
        return rule_output(action) if rule_output is not None else action


def with_rules(agent: Any, rules: RuleSet | None, degrade_after: int = 3) -> Any:
    """`agent` planning with `rules` as its last resort (itself when rules is None). An agent that is
    already a DegradingAgent is unwrapped first, so copying an executor never wraps twice."""
    base = agent.agent if isinstance(agent, DegradingAgent) else agent
    return base if rules is None else DegradingAgent(base, rules, degrade_after)


def _trailing_parse_failures(steps: Sequence[AgentStep]) -> int:
    count = 0
    for step in reversed(steps):
        if step.action.tool != PARSE_ERROR_TOOL:
            break
        count += 1
    return count
