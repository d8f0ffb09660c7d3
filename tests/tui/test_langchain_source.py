"""The debugger on a traced LangChain run shows LangChain's own agent.py, read-only, at the recorded lines."""

from __future__ import annotations

from tests.helpers.pilot_helpers import debugger, highlighted, settle
from tracer.debug.source_map import read_source
from tutorials import get_scenario

LANGCHAIN_ROSE = get_scenario("rose-pricing-langchain").fixture


async def test_source_pane_shows_langchains_iter_next_step_line():
    app = debugger(LANGCHAIN_ROSE)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("s")  # event 1: the first model call, inside plan()
        await settle(pilot, lambda: app.session.position == 1)
        assert highlighted(app)[0] == "langchain_classic/agents/agent.py"
        await pilot.press("u")  # up to the caller: AgentExecutor._iter_next_step
        await settle(pilot, lambda: app.session.frame_up == 1)
        file, line = highlighted(app)
        assert file == "langchain_classic/agents/agent.py"
        assert "self._action_agent.plan(" in read_source(file).lines[line - 1]
        title = str(app.screen.query_one("#source-pane").border_title)
        assert title.startswith("_iter_next_step() · ") and f"agent.py:{line}" in title and "inferred" not in title


def test_timeline_names_plan_as_the_caller_of_a_langchain_model_call():
    from tracer import Trace
    from tracer.tui.views.event_summary import summary

    events = Trace.load(LANGCHAIN_ROSE).events
    model_calls = [summary(e) for e in events if e.kind == "llm_start"]
    # the calculator's call comes from its LLMChain's Chain.invoke, under LLMMathChain._call
    assert [s.split("()")[0] for s in model_calls] == ["plan", "plan", "invoke", "plan"]
    calculator_call = [e for e in events if e.kind == "llm_start"][2]
    assert any(f.function == "_call" and "llm_math" in f.file for f in calculator_call.stack)
