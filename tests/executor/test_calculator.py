"""The LLM-to-numexpr calculator: the model writes the expression, numexpr computes, nothing else runs."""

import numexpr
import pytest

from executor import ManualClock, RunContext, ScriptedModel, ToolError, llm_math_tool
from executor.tools.calculator import check_expression, evaluate_expression


def run_tool(tool, question):
    """Drain the tool's generator outside an executor; return (observation, events)."""
    run = RunContext(ManualClock())
    events, generator = [], tool.run(question, run)
    while True:
        try:
            events.append(next(generator))
        except StopIteration as stop:
            return stop.value, events


def reply_with(expression):
    return f'```text\n{expression}\n```\n...numexpr.evaluate("{expression}")...\n'


def test_model_writes_the_expression_and_numexpr_computes_it():
    model = ScriptedModel([reply_with("25 * 1.05")])
    observation, events = run_tool(llm_math_tool(model), "25 * 1.05")
    assert observation == "Answer: 26.25"
    assert [e.kind for e in events] == ["tool_start", "llm_start", "llm_end", "calculator_eval", "tool_end"]
    assert events[1].stop == ["```output"] and "Question: 25 * 1.05" in model.prompts[0]


@pytest.mark.parametrize(
    "expression,value",
    [
        ("2**10", "1024"),
        ("sqrt(16) + abs(-2)", "6.0"),
        ("10 % 4", "2"),
        ("-(3 - 5) * 1.5", "3.0"),
        ("pi * 0", "0.0"),
        ("e ** 0", "1.0"),
    ],
)
def test_plain_arithmetic_is_evaluated(expression, value):
    assert evaluate_expression(expression) == value


INJECTIONS = [
    "__import__('os').system('id')",
    "().__class__",
    "a.b",
    "1;2",
    "open('x')",
    "(lambda: 1)()",
    "[1, 2]",
    "'text'",
    "x",
    "2 if 1 else 3",
    "9" * 40,
    "1 +" * 300 + "1",
]


@pytest.mark.parametrize("expression", INJECTIONS)
def test_anything_but_arithmetic_is_refused_before_numexpr_sees_it(expression, monkeypatch):
    seen = []
    monkeypatch.setattr(numexpr, "evaluate", lambda *a, **k: seen.append(a))
    with pytest.raises(ToolError) as caught:
        evaluate_expression(expression)
    assert seen == []
    assert "refused" in str(caught.value) and "plain arithmetic" in str(caught.value)


def test_refusal_reaches_the_model_as_the_observation():
    model = ScriptedModel([reply_with("__import__('os').system('id')")])
    observation, events = run_tool(llm_math_tool(model), "run id")
    assert observation.startswith("Calculator refused")
    assert [e.kind for e in events][-2:] == ["tool_error", "tool_end"]
    assert "calculator_eval" not in [e.kind for e in events]


def test_numexpr_errors_become_tool_errors():
    with pytest.raises(ToolError, match="numexpr could not evaluate"):
        evaluate_expression("sqrt(1, 2)")


def test_reply_with_answer_but_no_expression_is_passed_through():
    model = ScriptedModel(["Answer: 7"])
    observation, _ = run_tool(llm_math_tool(model), "3+4")
    assert observation == "Answer: 7"


def test_reply_with_neither_is_an_error_the_model_is_told_about():
    model = ScriptedModel(["I cannot do math"])
    observation, _ = run_tool(llm_math_tool(model), "3+4")
    assert "no ```text block" in observation


def test_check_expression_uses_only_a_syntax_tree(monkeypatch):
    import builtins

    monkeypatch.setattr(builtins, "eval", lambda *a: pytest.fail("eval was called"))
    assert check_expression(" 25 * 1.05 ") == "25 * 1.05"


# Powers whose exact value numexpr would fold with Python's unbounded integers, for hours.
HANGING_POWERS = ["9**9**9", "10**10**10", "(9**9)**(9**9)", "3**3**3**3"]
# Out of float range by another route: a float power, a function, inf - inf (nan) standing for 10**599.
BEYOND_FLOAT = [
    "1.5**2000",
    "-2**5000",
    "exp(1000)**2",
    "(10**300*10**300-(10**300*10**300-10**300*10**299))**(10**10)",
]


@pytest.mark.parametrize("expression", HANGING_POWERS + BEYOND_FLOAT)
def test_powers_beyond_float_range_are_refused_before_numexpr_sees_them(expression, monkeypatch):
    seen = []
    monkeypatch.setattr(numexpr, "evaluate", lambda *a, **k: seen.append(a))
    with pytest.raises(ToolError) as caught:
        evaluate_expression(expression)
    assert seen == []
    assert str(caught.value).startswith(f"Calculator refused {expression!r}: the power ")
    assert "beyond the largest number a float can hold" in str(caught.value)


@pytest.mark.parametrize(
    "expression,value",
    [
        ("2**62", str(2**62)),
        ("0**(10**18)", "0"),
        ("(-1)**(10**18)", "1"),
        ("1.5**1000", "1.2338405969061735e+176"),
        ("2**-1", "0.5"),
        ("9**9", "387420489"),
        ("10.0**308", "1e+308"),
    ],
)
def test_large_powers_within_float_range_still_evaluate(expression, value):
    assert evaluate_expression(expression) == value


ATTACK = """
import json, sys
from executor import AgentExecutor, ManualClock, ScriptedModel, create_react_agent, llm_math_tool
observations = []
for expression in json.loads(sys.argv[1]):
    math_model = ScriptedModel([f"```text\\n{expression}\\n```\\n"])
    agent_model = ScriptedModel([f" Compute it.\\nAction: Calculator\\nAction Input: {expression}",
                                 " The calculator refused.\\nFinal Answer: too big"])
    tools = [llm_math_tool(math_model)]
    executor = AgentExecutor(agent=create_react_agent(agent_model, tools), tools=tools, clock=ManualClock(),
                             return_intermediate_steps=True)
    result = executor.invoke({"input": expression})
    observations.append([result["output"], result["intermediate_steps"][0][1]])
print(json.dumps(observations))
"""


@pytest.mark.slow  # a process of its own
def test_a_model_that_asks_for_a_hanging_power_gets_a_refusal_and_the_run_goes_on():
    # The real numexpr, in a child process: a regression fails at the timeout instead of hanging the suite.
    import json
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run(
        [sys.executable, "-c", ATTACK, json.dumps(HANGING_POWERS)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    for expression, (output, observation) in zip(HANGING_POWERS, json.loads(done.stdout)):
        assert output == "too big"
        assert observation.startswith(f"Calculator refused {expression!r}: the power ")


@pytest.mark.parametrize(
    "expression, answer, why",
    [
        ("sqrt(-1)", "nan", "not a real number"),
        ("log(0)", "-inf", "infinite: a division by zero or the logarithm of 0"),
        ("arcsin(2)", "nan", "not a real number"),
        ("log(pi - pi)", "-inf", "infinite"),  # computed by numexpr's machine, which raises no flag
    ],
)
def test_an_answer_that_is_no_number_says_why_and_warns_nothing_on_stderr(expression, answer, why):
    """The attack: numexpr's RuntimeWarnings for sqrt(-1) and log(0) reached stderr, and the answer was a bare nan."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning anywhere fails the calculation
        result = evaluate_expression(expression)
    assert result.startswith(f"{answer} (") and why in result
    observation, _ = run_tool(llm_math_tool(ScriptedModel([reply_with(expression)])), expression)
    assert observation == f"Answer: {result}"


def test_an_ordinary_answer_carries_no_note():
    assert evaluate_expression("exp(-1000)") == "0.0"  # an underflow to 0 is an answer, not a problem
    assert evaluate_expression("2**0.5") == "1.4142135623730951"
