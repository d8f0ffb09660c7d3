"""LangChain tools run through their own invoke; non-tools and non-listeners are refused up front."""

import asyncio

import pytest
from langchain_core.tools import BaseTool, ToolException
from langchain_core.tools import tool as lc_tool

from executor import AgentExecutor, ScriptedModel, create_react_agent
from tests.helpers.loop_builders import action, echo_tool, finish, run_collecting, scripted_executor


@lc_tool
def multiply(a: int, b: int) -> int:
    """Multiply two whole numbers."""
    return a * b


@lc_tool
async def fetch_price(flower: str) -> str:
    """Today's price of a flower."""
    await asyncio.sleep(0)
    return f"{flower} cost 25 yuan"


class Search(BaseTool):
    name: str = "Search"
    description: str = "Look things up."
    calls: list = []

    def _run(self, query: str) -> str:
        self.calls.append(query)
        return f"result for {query}"


def test_a_langchain_structured_tool_runs_through_its_invoke_with_its_schema():
    ex, model = scripted_executor([action("multiply", '{"a": 6, "b": 7}'), finish("42")], tools=[multiply])
    result, events, error = run_collecting(ex)
    assert error is None and result["output"] == "42"
    assert "Observation: 42\n" in model.prompts[1]
    assert "multiply - Multiply two whole numbers." in model.prompts[0]
    assert [e.kind for e in events].count("tool_end") == 1  # one tool_end, not one event per character
    assert ex.tools[0].json_schema()["required"] == ["a", "b"]


def test_a_langchain_tools_bad_input_is_an_observation_not_its_validation_error():
    ex, model = scripted_executor([action("multiply", '{"a": 6}'), finish("gave up")], tools=[multiply])
    result, _events, error = run_collecting(ex)
    assert error is None and result["output"] == "gave up"
    assert "b: field required" in model.prompts[1]


def test_a_basetool_subclass_gets_the_raw_action_input():
    search = Search(calls=[])
    ex, model = scripted_executor([action("Search", "rose price"), finish("25")], tools=[search])
    run_collecting(ex)
    assert search.calls == ["rose price"]
    assert "Observation: result for rose price\n" in model.prompts[1]


async def test_an_async_only_langchain_tool_works_under_invoke_and_ainvoke():
    for driver in ("invoke", "ainvoke"):
        ex, model = scripted_executor([action("fetch_price", "roses"), finish("25")], tools=[fetch_price])
        if driver == "invoke":
            ex.invoke({"input": "q"})
        else:
            await ex.ainvoke({"input": "q"})
        assert "Observation: roses cost 25 yuan\n" in model.prompts[1], driver


def test_a_langchain_tool_exception_it_handles_itself_is_its_observation():
    @lc_tool
    def closed(q: str) -> str:
        """Always closed."""
        raise ToolException("shop closed")

    closed.handle_tool_error = True

    ex, model = scripted_executor([action("closed", "x"), finish("no")], tools=[closed])
    run_collecting(ex)
    assert "Observation: shop closed\n" in model.prompts[1]


@pytest.mark.parametrize(
    "given, says",
    [
        ("Search", "tools[1] is a str ('Search'); expected an executor.Tool"),
        (len, "tools[1] is a builtin_function_or_method"),
        (Search, "tools[1] is the class Search (pass an instance, not the class)"),
    ],
)
def test_anything_that_is_not_a_tool_is_refused_at_construction(given, says):
    model = ScriptedModel([])
    with pytest.raises(TypeError) as raised:
        AgentExecutor(agent=create_react_agent(model, [echo_tool()]), tools=[echo_tool(), given])
    assert says in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_bare_function_is_refused_with_the_decorator_as_the_fix():
    def search(q):
        return q

    with pytest.raises(TypeError, match=r"tools\[0\] is the function .*search \(decorate it with @tool"):
        create_react_agent(ScriptedModel([]), [search])


class Writer:
    def __init__(self, path="x"):
        self.path = path

    def __call__(self, event):
        pass


@pytest.mark.parametrize(
    "listeners, says",
    [
        (["not callable"], "listeners[0] is a str ('not callable'), which is not callable"),
        ([Writer], "listeners[0] is the class Writer; pass an instance"),
        (Writer(), "wrap a single listener in a list"),
        ((e for e in []), "listeners must be a list of callables"),
    ],
)
async def test_bad_listeners_are_refused_at_the_call_before_the_run_starts(listeners, says):
    ex, model = scripted_executor([finish("x")])
    with pytest.raises(TypeError, match=says.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        ex.invoke({"input": "q"}, listeners)
    with pytest.raises(TypeError):
        await ex.ainvoke({"input": "q"}, listeners)
    assert model.prompts == []  # refused before any model call


def test_a_tuple_of_listeners_is_fine():
    seen = []
    ex, _ = scripted_executor([finish("x")])
    ex.invoke({"input": "q"}, (seen.append,))
    assert seen[-1].kind == "chain_end"
