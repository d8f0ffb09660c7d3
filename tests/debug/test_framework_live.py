"""A framework's agent driven live one event at a time: in order, into its tool line by line (LangGraph, the Agents
SDK and pydantic-ai; sync and async tools), on the run's own time."""

from __future__ import annotations

import textwrap
import threading
import time

import pytest

from tests.debug.live_framework_agents import cli_live_run, line_of, step_into_every_tool
from tracer.agents.framework_agent import load_framework_agent
from tracer.agents.frameworks import RecordedReply, RecordedToolCall, answers_in_order
from tracer.debug.framework_live import FrameworkLiveRun
from tracer.debug.step_into import LineStop

AGENT = textwrap.dedent(
    """
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel


    def get_weather(city: str) -> str:
        \"\"\"Today's weather for one city.\"\"\"
        forecast = {"Beijing": "sunny", "Shanghai": "rain"}[city]
        return f"{city}: {forecast}"


    agent = create_agent(FakeMessagesListChatModel(responses=[]), tools=[get_weather])
    """
)
REPLIES = [
    RecordedReply(
        "",
        (
            RecordedToolCall("c1", "get_weather", '{"city": "Beijing"}'),
            RecordedToolCall("c2", "get_weather", '{"city": "Shanghai"}'),
        ),
    ),
    RecordedReply("Sunny in Beijing, rain in Shanghai."),
]


def live_run(tmp_path, monkeypatch) -> FrameworkLiveRun:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "live_app.py").write_text(AGENT, encoding="utf-8")
    agent = load_framework_agent("live_app.py:agent")
    assert agent is not None
    return FrameworkLiveRun(agent, "Weather?", tmp_path / "live.jsonl", answers_in_order(REPLIES))


def test_events_come_one_at_a_time_in_order_and_s_steps_into_the_tool_with_its_real_locals(tmp_path, monkeypatch):
    run = live_run(tmp_path, monkeypatch)
    seqs, lines = [], []
    try:
        while (got := run.pull()) is not None:
            if isinstance(got, LineStop):
                lines.append((got.frame.function, dict(got.frame.locals)))
                continue
            event, frames = got
            seqs.append(event.seq)
            if event.kind == "tool_start" and not lines and run.why_not_step_into(event) is None:
                run.step_into(event)
                city = event.tool_input
            if event.kind == "llm_start":
                assert any(f.function == "model_node" for f in frames)  # the graph's own frame, with its locals
    finally:
        run.close()
    assert seqs == list(range(len(seqs))) and str(run.outcome) == "the run finished"
    assert lines and lines[0][0] == "get_weather"
    assert repr("Beijing" if "Beijing" in city else "Shanghai") == lines[0][1]["city"]
    assert any("forecast" in seen for _, seen in lines)
    assert not run.tracing


def test_the_runs_times_leave_out_the_time_the_learner_paused(tmp_path, monkeypatch):
    run = live_run(tmp_path, monkeypatch)
    last = None
    try:
        while (got := run.pull()) is not None:
            if not isinstance(got, LineStop):
                last = got[0]
                if last.kind == "tool_end":
                    time.sleep(1.0)  # the learner reads the observation for a second
    finally:
        run.close()
    assert last is not None and last.kind == "chain_end"
    assert last.t < 1.0  # two seconds of reading are not the run's


def test_closing_mid_run_stops_it_and_keeps_the_events_so_far(tmp_path, monkeypatch):
    run = live_run(tmp_path, monkeypatch)
    for _ in range(3):
        run.pull()
    kept = run.close()
    assert run.finished and str(run.outcome) == "the run was stopped"
    assert kept is not None and len(kept.read_text(encoding="utf-8").splitlines()) >= 4  # header + 3 events


def test_a_recorded_langgraph_run_shows_real_locals_by_re_running_its_graph(capsys, tmp_path, monkeypatch):
    import json

    from tests.helpers.cli_run import loopscope
    from tracer.debug.event_store import ReplayStore
    from tracer.trace.reader import TraceFile

    monkeypatch.chdir(tmp_path)
    (tmp_path / "live_app.py").write_text(AGENT, encoding="utf-8")
    replies = [
        {
            "tool_calls": [
                {"id": c.id, "name": c.name, "arguments": json.loads(c.arguments)} for c in REPLIES[0].tool_calls
            ]
        },
        REPLIES[1].text,
    ]
    (tmp_path / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
    code, _, err = loopscope(
        capsys, "record", "live_app.py:agent", "--input", "Weather?", "--replies", "replies.json", "-o", "r.jsonl"
    )
    assert code == 0, err
    store = ReplayStore(TraceFile(tmp_path / "r.jsonl"), ["live_app.py:agent"])
    try:
        kinds = [store.event(i).kind for i in range(len(store))]
        model_call = kinds.index("llm_start")
        frames = store.reenactment.frames_at(model_call)
        assert frames is not None, store.reenactment.problem
        node = next(f for f in frames if f.function == "model_node")
        assert "Weather?" in dict(node.locals)["state"]  # the graph's state, its messages, as the node had it
        last_tool = len(kinds) - 1 - kinds[::-1].index("tool_end")
        assert store.reenactment.frames_at(last_tool) is not None, store.reenactment.problem
    finally:
        store.reenactment.close()


STEPPED = [
    ("langgraph", "get_weather"),
    ("openai_agents", "get_weather"),  # a sync tool: the SDK runs it on a worker thread (asyncio.to_thread)
    ("openai_agents", "get_time"),  # an async tool: on the event loop's thread
    ("pydantic_ai", "get_weather"),  # a sync tool: on one of anyio's worker threads
    ("pydantic_ai", "get_time"),
]


@pytest.mark.parametrize(("framework", "tool"), STEPPED)
def test_s_at_each_frameworks_tool_start_stops_at_every_line_of_the_users_tool_with_its_locals(
    framework, tool, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run, source = cli_live_run(tmp_path, framework, tool)
    kinds, stops = step_into_every_tool(run)
    assert str(run.outcome) == "the run finished"
    local = "forecast" if tool == "get_weather" else "zone"
    body = line_of(source, f"    {local} = ")
    assert [(f, line) for f, line, _ in stops] == [(tool, body), (tool, body + 1)]
    assert stops[0][2] == {"city": "'Beijing'"}
    assert stops[1][2][local] in ("'sunny'", "'UTC+8'")
    # the lines came between the tool's start and its end, not after the run went on
    assert kinds[kinds.index("tool_start") + 1] == "tool_end" and kinds[-1] == "chain_end"
    assert not run.tracing


@pytest.mark.parametrize("framework", ["langgraph", "openai_agents", "pydantic_ai"])
@pytest.mark.parametrize("city", ["Beijing", "Shanghai"])
def test_s_at_either_of_two_parallel_sync_calls_steps_into_that_call(framework, city, tmp_path, monkeypatch):
    """pydantic-ai makes both calls' tool_starts on its event loop's thread before either runs on a worker:
    the second start once took the first call's tracer away, and `s` never stopped in the tool; and of two
    calls of one function, the one whose arguments are the stepped call's is the one traced."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run, source = cli_live_run(tmp_path, framework, cities=("Beijing", "Shanghai"))
    kinds, stops = [], []
    try:
        while (got := run.pull()) is not None:
            if isinstance(got, LineStop):
                stops.append((got.frame.line, dict(got.frame.locals)))
                continue
            kinds.append(got[0].kind)
            if got[0].kind == "tool_start" and city in got[0].tool_input:  # the calls start in either order
                run.step_into(got[0])
    finally:
        run.close()
    assert str(run.outcome) == "the run finished"
    body = line_of(source, "    forecast = ")
    assert [line for line, _ in stops] == [body, body + 1]
    assert {local["city"] for _, local in stops} == {repr(city)}  # the call stepped into, not the other
    assert kinds.count("tool_start") == 2 and kinds.count("tool_end") == 2 and kinds[-1] == "chain_end"
    assert not run.tracing


def test_s_at_a_langgraph_tool_that_fails_before_its_body_runs_does_not_hang_the_run(tmp_path, monkeypatch):
    """Arguments the tool's schema refuses: the call fails before its body (ToolNode tells the model so), the
    stepped thread never makes another event, and the graph's own thread, which says the tool failed, must not
    wait for it for ever. (An async-only tool under invoke failed so too, until such a graph ran by ainvoke.)"""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "live_app.py").write_text(AGENT, encoding="utf-8")
    agent = load_framework_agent("live_app.py:agent")
    assert agent is not None
    refused = RecordedReply("", (RecordedToolCall("c1", "get_weather", '{"town": "Beijing"}'),))
    run = FrameworkLiveRun(agent, "Weather?", tmp_path / "live.jsonl", answers_in_order([refused, REPLIES[1]]))
    kinds: list[str] = []

    def drive() -> None:
        while (got := run.pull()) is not None:
            if not isinstance(got, LineStop):
                kinds.append(got[0].kind)
                if got[0].kind == "tool_start" and "tool_start" not in kinds[:-1]:
                    run.step_into(got[0])

    driver = threading.Thread(target=drive, daemon=True)
    driver.start()
    driver.join(timeout=30)
    hung = driver.is_alive()
    run.close()
    assert not hung, kinds
    assert "tool_error" in kinds and kinds[-1] == "chain_end"
    assert str(run.outcome) == "the run finished"
