"""Events for calls into user code say where that code is: the tool's function, the model's generate."""

import inspect
from functools import partial

from langchain_core.tools import BaseTool
from langchain_core.tools import tool as lc_tool

from executor import ScriptedModel, Tool, llm_math_tool, tool
from executor.callee import callee_of
from executor.events import LLMStartEvent, event_from_json
from tests.helpers.loop_builders import action, finish, run_collecting, scripted_executor

HERE = __file__


@tool
def shout(text: str) -> str:
    """Say it louder."""
    return text.upper()


@lc_tool
def whisper(text: str) -> str:
    """Say it softer."""
    return text.lower()


class Lookup(BaseTool):
    name: str = "Lookup"
    description: str = "Look up."

    def _run(self, query: str) -> str:
        return query


class Shop:
    def price(self, item):
        return "25"

    def __call__(self, item):
        return "26"


def where(events, kind):
    return [(e.callee.file.rsplit("/", 1)[-1], e.callee.line, e.callee.qualname) for e in events if e.kind == kind]


def test_tool_events_point_at_the_users_function_with_its_first_line():
    ex, _ = scripted_executor([action("shout", "hi"), finish("HI")], tools=[shout])
    _, events, _ = run_collecting(ex)
    line = inspect.getsourcelines(shout.func)[1]
    assert where(events, "tool_start") == where(events, "tool_end") == [("test_callee.py", line, "shout")]
    start = next(e for e in events if e.kind == "tool_start")
    assert start.source.file == "executor/tools/tool.py"  # source stays the executor's yield


def test_langchain_tools_point_at_their_function_or_run_method():
    assert callee_of(whisper).qualname == "whisper"
    assert callee_of(Lookup()).qualname == "Lookup._run"
    ex, _ = scripted_executor([action("whisper", "HI"), finish("hi")], tools=[whisper])
    _, events, _ = run_collecting(ex)
    assert where(events, "tool_end")[0][2] == "whisper"


def test_methods_partials_and_callable_objects_are_followed_to_their_code():
    shop = Shop()
    assert callee_of(shop.price).qualname == "Shop.price"
    assert callee_of(partial(shop.price, "x")).qualname == "Shop.price"
    assert callee_of(shop).qualname == "Shop.__call__"
    assert callee_of(len) is None  # a builtin has no source to show


def test_a_tool_error_carries_the_callee_too():
    def broken(q):
        raise ValueError("no")

    ex, _ = scripted_executor([action("B", "x")], tools=[Tool("B", "Breaks.", broken)])
    _, events, error = run_collecting(ex)
    assert isinstance(error, ValueError)
    assert where(events, "tool_error")[0][2].endswith("broken")


def test_model_events_point_at_the_model_classes_generate():
    class MyModel(ScriptedModel):
        def generate(self, prompt, stop):
            return super().generate(prompt, stop)

    model = MyModel([finish("x")])
    ex, _ = scripted_executor([], tools=[shout])
    ex.agent.model = model
    _, events, _ = run_collecting(ex)
    assert where(events, "llm_start") == where(events, "llm_end")
    assert where(events, "llm_start")[0][2].endswith("MyModel.generate")


def test_the_calculator_and_scripted_model_point_at_loopscopes_own_code():
    model = ScriptedModel([action("Calculator", "2+2"), "```text\n2+2\n```", finish("4")])
    ex, _ = scripted_executor([], tools=[llm_math_tool(model)])
    ex.agent.model = model
    _, events, _ = run_collecting(ex)
    assert {e.callee.file for e in events if e.kind == "llm_start"} == {"executor/models/chat_model.py"}
    assert {e.callee.qualname for e in events if e.kind == "tool_start"} == {"llm_math_tool.<locals>.calculate"}


def test_an_old_trace_without_callee_still_loads():
    old = (
        '{"kind": "llm_start", "seq": 1, "run_id": "r", "t": 0.0, "iteration": 1, "frames": ["plan"], '
        '"source": {"file": "executor/models/chat_model.py", "line": 70, "function": "call_model"}, '
        '"model": "m", "prompt": "p", "stop": []}'
    )
    event = event_from_json(old)
    assert isinstance(event, LLMStartEvent) and event.callee is None
