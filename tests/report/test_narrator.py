"""The Rich narrator: LangChain-style verbose output, with model and tool text shown literally."""

import io

import pytest
from rich.console import Console

from executor import ManualClock, ScriptedModel, Tool
from tests.helpers.loop_builders import action, finish, scripted_executor
from tests.helpers.paths import FIXTURES, ROOT
from tracer.report.narration.narrator import Narrator
from tracer.report.text.literal import literal
from tracer.trace.literal_text import scrub
from tracer.trace.reader import load_trace
from tutorials import get_scenario

HOSTILE = "[bold red]pwned[/] \x1b[31mred\x1b[0m \x1b]0;evil title\x07 \x9b2J bell\x07"


def narrate(executor, question="q"):
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=200)
    try:
        executor.invoke({"input": question}, [Narrator(console)])
    except Exception:  # a failing run is still narrated up to its chain_error; the output is what we check
        return buffer.getvalue()
    return buffer.getvalue()


def test_rose_run_reads_like_langchain_verbose_mode():
    scenario = get_scenario("rose-pricing")
    out = narrate(scenario.executor(ScriptedModel(scenario.replies), clock=ManualClock()), scenario.question)
    for needle in [
        "> Entering new AgentExecutor chain...",
        "Action: Search",
        "Observation: ",
        "Action Input: 25 * 1.05",
        "numexpr computed",
        "26.25",
        "> Finished chain.",
    ]:
        assert needle in out
    checks = [line for line in out.splitlines() if "isinstance(output, AgentFinish)" in line]
    assert len(checks) == 3 and "True" in checks[2] and "False" in checks[0]


def test_hostile_tool_and_model_text_cannot_style_or_control_the_terminal():
    tool = Tool(name="Evil", description="d", func=lambda text: HOSTILE)
    executor, _ = scripted_executor([action("Evil", "x", thought=HOSTILE), finish(HOSTILE)], tools=[tool])
    out = narrate(executor)
    assert "[bold red]pwned[/]" in out  # markup is shown, not applied
    assert "\x1b]" not in out and "\x07" not in out and "\x9b" not in out  # no OSC, BEL or CSI from the text
    assert "␛[31mred" in out  # the escape is visible instead
    # Every escape left in the output is one Rich wrote itself (SGR colour codes).
    import re

    assert all(m.endswith("m") for m in re.findall(r"\x1b\[[0-9;]*[A-Za-z]", out))


def test_scrub_keeps_newlines_and_tabs_and_shows_other_controls():
    assert scrub("a\tb\nc\x00d\x1be\x7f") == "a\tb\nc\\x00d␛e\\x7f"


def test_a_lone_surrogate_is_shown_as_its_escape_and_measured_as_what_is_printed():
    from rich.cells import cell_len

    shown = scrub("bad \udc00 text \ud800")
    assert shown == "bad \\udc00 text \\ud800" and cell_len(shown) == len(shown)
    shown.encode("utf-8")  # a terminal can print it
    assert literal("[b]x[/b]").plain == "[b]x[/b]"


def test_every_narrated_field_of_a_hostile_trace_is_literal(tmp_path):
    """Fields the narrator used to print with f-strings (model, tool, output_type, ...) from a trace file."""
    from tests.helpers.paths import FIXTURES
    from tracer.trace.reader import load_trace

    _, events, _ = load_trace(FIXTURES / "tool_error_handled.jsonl")
    evil = "\x1b]0;owned\x07\x1b[2J\u202eevil"
    hostile = []
    for event in events:
        update = {
            name: evil
            for name in (
                "model",
                "tool",
                "output_type",
                "target",
                "name",
                "reason",
                "early_stopping_method",
                "error_type",
            )
            if hasattr(event, name)
        }
        hostile.append(event.model_copy(update=update))
    buffer = io.StringIO()
    narrator = Narrator(Console(file=buffer, color_system=None, width=200))
    for event in hostile:
        narrator(event)
    out = buffer.getvalue()
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "␛]0;owned\\x07␛[2J\\u202eevil" in out


def test_narration_redacts_what_the_trace_redacts(monkeypatch):
    monkeypatch.setenv("ROSE_SHOP_API_KEY", "hunter2-very-secret")
    steps = [action("Search", "price"), finish("done")]
    tools = [Tool(name="Search", description="d", func=lambda q: "key hunter2-very-secret and sk-abcdefghijklmnop0123")]
    out = narrate(scripted_executor(steps, tools=tools)[0])
    assert "hunter2-very-secret" not in out and "sk-abcdefghijklmnop0123" not in out
    assert "[REDACTED:ROSE_SHOP_API_KEY]" in out and "[REDACTED:openai-style-key]" in out


def test_each_handler_is_typed_as_the_event_class_its_kind_dispatches_to():
    """Narrator finds `_on_<kind>` by name, so mypy cannot see that the kind and the handler's
    annotation agree: a handler typed for another kind would read fields its events do not have."""
    import inspect
    import typing

    from executor.events import CLASS_BY_KIND

    handlers = {
        name.removeprefix("_on_"): method
        for name, method in inspect.getmembers(Narrator, inspect.isfunction)
        if name.startswith("_on_")
    }
    assert set(handlers) <= set(CLASS_BY_KIND), set(handlers) - set(CLASS_BY_KIND)  # no handler for a made-up kind
    assert len(handlers) >= 20
    for kind, method in handlers.items():
        assert typing.get_type_hints(method)["e"] is CLASS_BY_KIND[kind], kind


def narrate_trace(path):
    buffer = io.StringIO()
    narrator = Narrator(Console(file=buffer, width=300, color_system=None))
    for event in load_trace(path)[1]:
        narrator(event)
    return buffer.getvalue()


def test_a_langgraph_run_is_named_for_what_it_is_and_says_its_answer():
    out = narrate_trace(FIXTURES / "langchain" / "retry_jitter.jsonl")
    assert "> Entering new CompiledStateGraph run (LangGraph)..." in out
    assert "AgentExecutor" not in out
    # The graph's calls carry no text of their own: said as LangChain's tool agents say them.
    assert '[call_bj] Invoking: `get_weather` with `{"city": "Beijing"}`' in out
    # Its answer is the last message of the final state, not an empty "output" key.
    assert "Output: Sorry, I could not get Beijing's weather" in out


def test_an_imported_run_whose_inputs_name_no_question_is_asked_its_first_calls():
    out = narrate_trace(ROOT / "tests" / "data" / "langfuse" / "openai-agents-2025-09-30.json")
    assert "> Entering an imported run..." in out
    assert "Question: What's the weather in Tokyo?   (the first model call's user message)" in out
    assert out.count("Question:") == 1


SAMPLES = sorted((ROOT / "tests" / "data").glob("lang*/*.json"))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_real_export_narrates_a_question_and_an_answer(path):
    out = narrate_trace(path)
    question = [line for line in out.splitlines() if line.startswith("Question: ")]
    output = [line for line in out.splitlines() if line.startswith("Output: ")]
    assert len(question) == 1 and question[0].removeprefix("Question: ").strip()
    assert len(output) == 1 and output[0].removeprefix("Output: ").strip()
    # Not a dict of the SDK's response (Gemini's candidates, a chat completion's choices): its text.
    assert "'candidates'" not in output[0] and "'choices'" not in output[0] and "'parts'" not in output[0]
