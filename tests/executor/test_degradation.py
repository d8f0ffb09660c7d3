"""Degradation to local rules and refusals answered as text, inside real runs of the ReAct executor."""

import pytest

from executor import AgentExecutor, ManualClock, ModelReply, RetryPolicy, ScriptedModel, Tool, create_react_agent
from executor.recovery.degradation import NoRuleMatched, Rule, RuleAction, RuleSet, looks_like_refusal
from tests.helpers.loop_builders import action, finish, kinds, run_collecting

WEATHER = Rule("weather", r"weather in (?P<city>[\w ]+?)\W*$", "get_weather", "{city}")
RULES = RuleSet([Rule("stock", r"price of (\w+)", "get_stock", "{1}"), WEATHER])


def weather_tool():
    return Tool(
        name="get_weather",
        description="get_weather(city): the weather in a city",
        func=lambda city: f"{city}: sunny, 21°C",
    )


class Down:
    model_name = "down"

    def __init__(self):
        self.calls = 0

    def generate(self, prompt, stop):
        self.calls += 1
        raise ConnectionError("connection refused")


def run(model, question="What is the weather in Paris?", **settings):
    tools = [weather_tool()]
    settings.setdefault("rules", RULES)
    executor = AgentExecutor(create_react_agent(model, tools), tools, clock=ManualClock(tick=0.001), **settings)
    return run_collecting(executor, question)


def test_three_parse_errors_in_a_row_switch_to_the_rules_which_call_the_tool():
    model = ScriptedModel(["no format", "still none", "nope"])
    result, events, error = run(model, handle_parsing_errors=True)
    assert error is None and result["output"] == "Paris: sunny, 21°C"
    assert kinds(events).count("parse_error") == 2 and len(model.prompts) == 3
    degrade = next(e for e in events if e.kind == "degrade")
    assert (degrade.rule, degrade.tool, degrade.tool_input, degrade.failures) == ("weather", "get_weather", "Paris", 3)
    assert degrade.pattern == WEATHER.pattern and degrade.question == "What is the weather in Paris?"
    assert degrade.last_error.startswith("OutputParserException: Could not parse LLM output: `nope`")
    after = kinds(events)[kinds(events).index("degrade") :]
    assert after == [
        "degrade",
        "agent_action",
        "tool_start",
        "tool_end",
        "step",
        "finish_check",
        "agent_finish",
        "finish_check",
        "chain_end",
    ]
    assert next(e for e in events if e.kind == "agent_action").log.startswith("Rule 'weather' matched")


def test_chain_start_records_the_rules_and_they_rebuild_from_it():
    _result, events, _ = run(ScriptedModel([finish("x")]), degrade_after=4)
    recorded = events[0].settings["degradation"]
    assert recorded["degrade_after"] == 4 and [r["name"] for r in recorded["rules"]] == ["stock", "weather"]
    assert RuleSet.from_description(recorded["rules"]).rules == RULES.rules
    _, plain, _ = run(ScriptedModel([finish("x")]), rules=None)
    assert "degradation" not in plain[0].settings


def test_a_success_in_between_resets_the_count():
    model = ScriptedModel(["bad", action("get_weather", "Rome"), "bad", "bad", finish("done")])
    result, events, _ = run(model, handle_parsing_errors=True)
    assert result["output"] == "done" and "degrade" not in kinds(events)


def test_model_calls_that_fail_for_good_count_too_and_each_is_a_plan_error():
    down = Down()
    result, events, error = run(down, retry_policy=RetryPolicy(max_retries=1, jitter=False))
    assert error is None and result["output"] == "Paris: sunny, 21°C" and down.calls == 6
    plan_errors = [e for e in events if e.kind == "plan_error"]
    assert [(e.failures, e.degrade_after, e.error_type) for e in plan_errors] == [
        (1, 3, "RetriesExhausted"),
        (2, 3, "RetriesExhausted"),
        (3, 3, "RetriesExhausted"),
    ]
    assert kinds(events)[:8] == [
        "chain_start",
        "llm_start",
        "retry",
        "plan_error",
        "llm_start",
        "retry",
        "plan_error",
        "llm_start",
    ]
    assert next(e for e in events if e.kind == "degrade").iteration == 1  # all within the first round


def test_degrade_after_is_configurable():
    down = Down()
    result, _events, _ = run(down, degrade_after=1)
    assert result["output"] == "Paris: sunny, 21°C" and down.calls == 1


def test_without_a_matching_rule_the_run_ends_with_a_clear_error():
    _result, events, error = run(Down(), question="Tell me a joke", degrade_after=2)
    assert isinstance(error, NoRuleMatched) and "no rule matches the question" in str(error)
    degrade = next(e for e in events if e.kind == "degrade")
    assert degrade.rule is None and degrade.tool is None and degrade.tool_input is None
    assert kinds(events)[-2:] == ["degrade", "chain_error"] and events[-1].error_type == "NoRuleMatched"


def test_without_rules_a_failing_model_still_ends_the_run():
    _result, events, error = run(Down(), rules=None)
    assert isinstance(error, ConnectionError) and "plan_error" not in kinds(events)


@pytest.mark.parametrize(
    "reply, detected_by",
    [
        (ModelReply("", finish_reason="content_filter"), "content_filter"),
        (ModelReply("", refusal="I can't help with that."), "refusal_field"),
        ("I'm sorry, but I can't help with that request.", "refusal_text"),
        ("抱歉，我无法回答这个问题。", "refusal_text"),
    ],
)
def test_a_refusal_is_answered_as_plain_text(reply, detected_by):
    result, events, error = run(ScriptedModel([reply]), handle_parsing_errors=True)
    assert error is None
    refusal = next(e for e in events if e.kind == "refusal")
    assert refusal.detected_by == detected_by and result["output"] == refusal.text
    assert kinds(events)[-4:] == ["refusal", "agent_finish", "finish_check", "chain_end"]
    assert "parse_error" not in kinds(events) and "degrade" not in kinds(events)
    end = next(e for e in events if e.kind == "llm_end")
    if isinstance(reply, ModelReply):
        assert (end.finish_reason, end.refusal) == (reply.finish_reason, reply.refusal)
        assert result["output"] == (reply.refusal or "")


def test_refusal_wording_is_only_recognised_at_the_start():
    assert looks_like_refusal("  I'm sorry, I cannot do that")
    assert not looks_like_refusal("Thought: the user is sorry about the weather")


def test_rules_templates_and_bad_rules():
    assert RULES.match("What is the price of ACME?") == (RULES.rules[0], "ACME")
    assert RULES.match("weather in  New York ?")[1] == "New York"
    assert RULES.match("hello") is None
    with pytest.raises(ValueError, match="not a valid regex"):
        Rule("bad", "(", "t")
    with pytest.raises(ValueError, match="names a group the pattern does not have"):
        Rule("r", "x", "t", "{city}").apply("x")
    with pytest.raises(ValueError, match="must be unique"):
        RuleSet([WEATHER, WEATHER])


def test_rule_actions_are_marked_and_a_tool_calling_agent_can_wrap_them():
    class ListAgent:
        return_values = ["output"]
        model = Down()
        stop = []

        def plan(self, steps, run, **inputs):
            raise ConnectionError("down")
            yield  # a generator

        def rule_output(self, action):
            return [action]

    from executor.recovery.degradation import DegradingAgent
    from executor.run_context import RunContext

    agent = DegradingAgent(ListAgent(), RULES, degrade_after=1)
    plan = agent.plan([], RunContext(ManualClock()), input="weather in Oslo")
    events = []
    try:
        while True:
            events.append(next(plan))
    except StopIteration as stop:
        output = stop.value
    assert [e.kind for e in events] == ["plan_error", "degrade"]
    assert isinstance(output, list) and isinstance(output[0], RuleAction) and output[0].tool_input == "Oslo"


def test_copying_an_executor_keeps_its_rules_without_wrapping_twice():
    tools = [weather_tool()]
    executor = AgentExecutor(create_react_agent(Down(), tools), tools, rules=RULES, degrade_after=2)
    copy = executor.with_overrides(clock=ManualClock())
    assert copy.agent.agent is executor.agent.agent and copy.rules is RULES and copy.degrade_after == 2
    assert not hasattr(copy.agent.agent, "rules")  # the ReAct agent itself, not a second wrapper
    plain = executor.with_overrides(rules=None)
    assert plain.agent is executor.agent.agent
    result, _events, _ = run_collecting(copy, "weather in Oslo")
    assert result["output"] == "Oslo: sunny, 21°C"
