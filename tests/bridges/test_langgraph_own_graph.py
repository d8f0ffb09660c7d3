"""A LangGraph graph of the user's own, built as LangGraph's tutorials build one: the chat model made once at the
top of the module (or held by a helper or an object), a model node named `chatbot`, a ToolNode named `action`.
It is recorded with its rounds (each tool call an agent_action, each reply a round) and re-run offline by
verify, exactly as a create_agent graph is; a graph whose model cannot be reached says so before any file is made."""

from __future__ import annotations

import argparse
import importlib
import json
import socket
import sys
import textwrap

import pytest

from tests.debug.live_framework_agents import step_into_every_tool
from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import ToolCalls
from tests.helpers.framework_e2e import (
    ANSWER,
    KEY,
    OBSERVATIONS,
    PARALLEL_CALLS,
    QUESTION,
    check_verify_is_offline,
    check_verify_names_the_changed_tool,
    forked_at,
    narrated,
    start_project,
    tool_messages,
)
from tracer import Trace
from tracer.cli.live_framework import framework_live_run
from tracer.cli.usage_error import UsageError
from tracer.replay.cassette import Cassette
from tracer.tui.views.event_summary import summary


def event_line(event) -> str:
    """What the debugger's event list says of the event."""
    return summary(event, lang="en")


HEAD = """
import os
from typing import Annotated, TypedDict

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition

FORECASTS = {"Beijing": "sunny, 18°C", "Shanghai": "light rain, 16°C"}


@tool
def get_weather(city: str) -> str:
    \"\"\"Today's weather for one city.\"\"\"
    forecast = FORECASTS[city]
    return f"{city}: {forecast}"


class State(TypedDict):
    messages: Annotated[list, add_messages]


def new_model():
    return ChatOpenAI(model="fake-model", base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")
"""

TAIL = """
def build():
    graph = StateGraph(State)
    graph.add_node("chatbot", chatbot)
    graph.add_node("action", ToolNode([get_weather]))
    graph.add_edge(START, "chatbot")
    graph.add_conditional_edges("chatbot", tools_condition, {"tools": "action", END: END})
    graph.add_edge("action", "chatbot")
    return graph.compile()
"""

# Where the node finds its model: the three ways people write it.
NODES = {
    "a module global": """
llm_with_tools = new_model().bind_tools([get_weather])


def chatbot(state: State) -> dict:
    return {"messages": [llm_with_tools.invoke(state["messages"])]}
""",
    "a helper of the node": """
llm = new_model().bind_tools([get_weather])


def ask(messages):
    return llm.invoke(messages)


def chatbot(state: State) -> dict:
    return {"messages": [ask(state["messages"])]}
""",
    "an object whose method is the node": """
class Assistant:
    def __init__(self):
        self.llm = new_model().bind_tools([get_weather])

    def __call__(self, state: State) -> dict:
        return {"messages": [self.llm.invoke(state["messages"])]}

    def node(self, state: State) -> dict:
        return self(state)


chatbot = Assistant().node
""",
    "an async node": """
llm_with_tools = new_model().bind_tools([get_weather])


async def chatbot(state: State) -> dict:
    return {"messages": [await llm_with_tools.ainvoke(state["messages"])]}
""",
}
SPEC = "my_app.py:build"


@pytest.fixture(params=list(NODES))
def project(request, tmp_path, monkeypatch):
    source = textwrap.dedent(HEAD) + textwrap.dedent(NODES[request.param]) + textwrap.dedent(TAIL)
    project = start_project(tmp_path, monkeypatch, source, "LangGraph", [PARALLEL_CALLS, ANSWER])
    yield project
    project.server.stop()


def test_the_graph_is_recorded_in_rounds_and_re_run_offline(capsys, monkeypatch, project):
    trace = project.record(capsys, SPEC)
    assert len(project.server.received) == 2  # both model calls went over HTTP
    actions = [e for e in trace.events if e.kind == "agent_action"]
    assert [(a.tool, a.tool_call_id, a.iteration) for a in actions] == [
        ("get_weather", "call_b", 1),
        ("get_weather", "call_s", 1),
    ]
    assert {e.tool_call_id: e.observation for e in trace.events if e.kind == "tool_end"} == OBSERVATIONS
    checks = [(e.is_finish, e.iteration) for e in trace.events if e.kind == "finish_check"]
    assert checks == [(False, 1), (True, 2)]  # the tools ran, then the answer: two rounds
    second = [e for e in trace.events if e.kind == "llm_start"][1]
    assert list(tool_messages(second.messages)) == ["call_b", "call_s"]
    assert trace.events[-1].kind == "chain_end" and KEY not in (project.folder / "run.jsonl").read_text("utf-8")
    check_verify_is_offline(capsys, monkeypatch, SPEC)
    check_verify_names_the_changed_tool(capsys, project, SPEC)


ASKS_AN_EXPERT = """
expert = new_model()


@tool
def ask_expert(question: str) -> str:
    \"\"\"Ask the shipping expert.\"\"\"
    return expert.invoke(question).content


llm = new_model().bind_tools([ask_expert])


def chatbot(state: State) -> dict:
    return {"messages": [llm.invoke(state["messages"])]}

"""


def test_a_tool_that_asks_a_model_of_its_own_is_answered_offline_and_forked_past(capsys, tmp_path, monkeypatch):
    # The expert's model call is made by call_e's code and says so; verify answers it from the recording (it
    # reached for the network and DIVERGED); a fork giving call_e a new result skips the expert's reply.
    ask = ToolCalls((("call_e", "ask_expert", json.dumps({"question": "When does A1 ship?"})),))
    replies = [ask, "A1 ships tomorrow.", "Your order ships tomorrow."]
    project = start_project(
        tmp_path,
        monkeypatch,
        textwrap.dedent(HEAD)
        + textwrap.dedent(ASKS_AN_EXPERT)
        + textwrap.dedent(TAIL).replace("get_weather", "ask_expert"),
        "LangGraph",
        replies,
    )
    try:
        trace = project.record(capsys, SPEC, question="When does my order A1 ship?")
    finally:
        project.server.stop()
    assert [e.tool_call_id for e in trace.events if e.kind == "llm_start"] == [None, "call_e", None]
    check_verify_is_offline(capsys, monkeypatch, SPEC)
    at = next(e.seq for e in trace.events if e.kind == "tool_end")
    fork = forked_at(capsys, tmp_path, at, "A1 ships on Friday.", SPEC)
    assert [e.observation for e in fork.events if e.kind == "tool_end"] == ["A1 ships on Friday."]
    assert fork.events[-1].kind == "chain_end"
    assert [e.text for e in fork.events if e.kind == "llm_end"][-1] == "Your order ships tomorrow."


ASYNC_TOOL = HEAD.replace("def get_weather(city: str) -> str:", "async def get_weather(city: str) -> str:")


@pytest.fixture
def async_tool(tmp_path, monkeypatch):
    """The graph with `get_weather` an `async def` tool, held by a ToolNode named `action`."""
    assert ASYNC_TOOL != HEAD
    source = textwrap.dedent(ASYNC_TOOL) + textwrap.dedent(NODES["a module global"]) + textwrap.dedent(TAIL)
    project = start_project(tmp_path, monkeypatch, source, "LangGraph", [PARALLEL_CALLS, ANSWER])
    yield project
    project.server.stop()


def test_a_graph_with_an_async_only_tool_is_run_by_ainvoke_and_names_the_tools_function(
    capsys, monkeypatch, async_tool
):
    # Run by invoke, ToolNode said "StructuredTool does not support sync invocation" after the first reply; and a
    # ToolNode not named "tools" left every tool event without its function (no Source, no `s`).
    trace = async_tool.record(capsys, SPEC)
    assert {e.tool_call_id: e.observation for e in trace.events if e.kind == "tool_end"} == OBSERVATIONS
    starts = [e for e in trace.events if e.kind == "tool_start"]
    assert {s.callee.function for s in starts} == {"get_weather"}
    assert trace.events[-1].kind == "chain_end"
    check_verify_is_offline(capsys, monkeypatch, SPEC)


def test_s_at_an_async_tools_start_steps_through_its_lines_live(async_tool):
    (async_tool.folder / "replies.json").write_text(
        json.dumps(
            [{"tool_calls": [{"id": "call_b", "name": "get_weather", "arguments": {"city": "Beijing"}}]}, ANSWER]
        ),
        "utf-8",
    )
    args = argparse.Namespace(
        live=SPEC, model=None, replies="replies.json", input=QUESTION, inputs=None, record="live.jsonl"
    )
    run = framework_live_run(args)
    assert run is not None
    _, stops = step_into_every_tool(run)
    assert str(run.outcome) == "the run finished"
    assert [f for f, _, _ in stops] == ["get_weather", "get_weather"]
    assert stops[0][2] == {"city": "'Beijing'"} and stops[1][2]["forecast"] == "'sunny, 18°C'"


MADE_PER_CALL = """
def chatbot(state: State) -> dict:
    return {"messages": [new_model().bind_tools([get_weather]).invoke(state["messages"])]}
"""


def test_a_model_made_inside_the_node_on_every_call_is_one_line_and_no_trace(capsys, tmp_path, monkeypatch):
    source = textwrap.dedent(HEAD) + textwrap.dedent(MADE_PER_CALL) + textwrap.dedent(TAIL)
    project = start_project(tmp_path, monkeypatch, source, "LangGraph", [])
    try:
        (tmp_path / "replies.json").write_text('["hello"]', "utf-8")
        argv = ["record", SPEC, "--input", "hi", "--replies", "replies.json", "-o", "run.jsonl"]
        code, out, err = loopscope(capsys, *argv)
    finally:
        project.server.stop()
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "build it once, at the top of your module" in err
    assert not (tmp_path / "run.jsonl").exists()  # said before a trace file was made
    assert not project.server.received


def test_a_run_the_agent_fails_in_keeps_its_trace(capsys, tmp_path, monkeypatch):
    source = textwrap.dedent(HEAD) + textwrap.dedent(NODES["a module global"]) + textwrap.dedent(TAIL)
    source = source.replace('return f"{city}: {forecast}"', 'raise RuntimeError("the weather service is down")')
    source = source.replace("ToolNode([get_weather])", "ToolNode([get_weather], handle_tool_errors=False)")
    project = start_project(tmp_path, monkeypatch, source, "LangGraph", [PARALLEL_CALLS, ANSWER])
    try:
        code, out, err = loopscope(capsys, "record", SPEC, "--input", "weather?", "-o", "run.jsonl")
    finally:
        project.server.stop()
    assert code == 0 and "the agent raised RuntimeError: the weather service is down" in err  # as own agents
    assert out.startswith("recorded ") and "to run.jsonl" in out
    assert Trace.load(tmp_path / "run.jsonl").events[-1].kind == "chain_error"  # how it failed is kept


# A routing function of the user's own: an answer that names an order goes to a review node first.
REVIEWED = """
llm = new_model().bind_tools([get_weather])


def chatbot(state: State) -> dict:
    return {"messages": [llm.invoke(state["messages"])]}


def review(state: State) -> dict:
    return {"messages": [{"role": "assistant", "content": "Reviewed: " + state["messages"][-1].content}]}


def route(state: State) -> str:
    last = state["messages"][-1]
    if last.tool_calls:
        return "action"
    return "review" if "umbrella" in last.content else END


def build():
    graph = StateGraph(State)
    graph.add_node("chatbot", chatbot)
    graph.add_node("action", ToolNode([get_weather]))
    graph.add_node("review", review)
    graph.add_edge(START, "chatbot")
    graph.add_conditional_edges("chatbot", route, ["action", "review", END])
    graph.add_edge("action", "chatbot")
    graph.add_edge("review", END)
    return graph.compile()
"""


@pytest.fixture
def reviewed(tmp_path, monkeypatch):
    project = start_project(tmp_path, monkeypatch, textwrap.dedent(HEAD) + textwrap.dedent(REVIEWED), "LangGraph", [])
    yield project
    project.server.stop()


def test_the_finish_check_names_the_node_the_users_routing_function_chose(capsys, monkeypatch, reviewed):
    reviewed.server.push(PARALLEL_CALLS, ANSWER)  # the answer mentions an umbrella: route sends it to review
    trace = reviewed.record(capsys, SPEC)
    checks = [e for e in trace.events if e.kind == "finish_check"]
    assert [(c.is_finish, c.went_to) for c in checks] == [(False, "action"), (True, "review")]
    assert checks[-1].source.function == "route" and checks[-1].source.file.endswith("my_app.py")
    assert trace.events[-1].outputs["messages"][-1]["content"] == "Reviewed: " + ANSWER  # the state, as it ended
    told = narrated(trace)
    assert "the edge after the model node goes to review" in told and "goes to END" not in told
    assert event_line(checks[-1]) == "→ review ← the reply has no tool calls"
    check_verify_is_offline(capsys, monkeypatch, SPEC)


def test_an_answer_the_route_ends_says_end_and_an_older_trace_without_the_node_still_verifies(
    capsys, monkeypatch, reviewed
):
    reviewed.server.push(PARALLEL_CALLS, "Beijing is sunny and Shanghai is wet.")  # no umbrella: to END
    trace = reviewed.record(capsys, SPEC)
    final = [e for e in trace.events if e.kind == "finish_check"][-1]
    assert (final.is_finish, final.went_to) == (True, "__end__")
    assert "goes to END" in narrated(trace)
    run = reviewed.folder / "run.jsonl"
    lines = run.read_text("utf-8").splitlines()  # as loopscope wrote it before finish checks named the node
    older = [json.dumps({k: v for k, v in json.loads(line).items() if k != "went_to"}) for line in lines]
    run.write_text("\n".join(older) + "\n", "utf-8")
    assert "went_to" not in run.read_text("utf-8")
    check_verify_is_offline(capsys, monkeypatch, SPEC)


# A triage node that asks for structured output, then an answer node, joined by a plain edge.
TRIAGE = """
from typing import Literal

from pydantic import BaseModel


class Triage(BaseModel):
    team: Literal["billing", "shipping"]
    urgent: bool


class Ticket(TypedDict):
    messages: Annotated[list, add_messages]
    team: str


llm = new_model()
triager = llm.with_structured_output(Triage{include_raw})


def triage(state: Ticket) -> dict:
    verdict = triager.invoke(state["messages"])
    verdict = verdict["parsed"] if isinstance(verdict, dict) else verdict
    return {{"team": verdict.team}}


def answer(state: Ticket) -> dict:
    return {{"messages": [llm.invoke([("system", "You are the " + state["team"] + " team.")] + state["messages"])]}}


def build():
    graph = StateGraph(Ticket)
    graph.add_node("triage", triage)
    graph.add_node("answer", answer)
    graph.add_edge(START, "triage")
    graph.add_edge("triage", "answer")
    graph.add_edge("answer", END)
    return graph.compile()
"""
VERDICT = '{"team": "shipping", "urgent": true}'
SORRY = "Sorry about your parcel: the shipping team is on it."


@pytest.mark.parametrize("include_raw", ["", ", include_raw=True"], ids=["parsed", "include_raw"])
def test_a_structured_output_node_is_answered_offline_and_its_plain_edge_is_named(
    capsys, monkeypatch, tmp_path, include_raw
):
    source = textwrap.dedent(HEAD) + textwrap.dedent(TRIAGE).format(include_raw=include_raw)
    project = start_project(tmp_path, monkeypatch, source, "LangGraph", [VERDICT, SORRY])
    try:
        trace = project.record(capsys, SPEC, "My parcel is lost")
    finally:
        project.server.stop()
    assert "response_format" in project.server.received[0].body  # the real client asked for the schema
    checks = [(e.is_finish, e.went_to) for e in trace.events if e.kind == "finish_check"]
    assert checks == [(True, "answer"), (True, "__end__")]  # a plain edge: the node that ran next
    system = [e for e in trace.events if e.kind == "llm_start"][1].messages[0]
    assert system == {"role": "system", "content": "You are the shipping team."}  # the verdict was parsed
    told = narrated(trace)
    assert "goes to answer" in told and SORRY in told
    check_verify_is_offline(capsys, monkeypatch, SPEC)  # the structured call answered from the recording too


def test_a_graph_compiled_with_a_checkpointer_runs_on_a_thread_of_its_own(capsys, monkeypatch, tmp_path):
    memory = textwrap.dedent(TAIL).replace(
        "return graph.compile()", "return graph.compile(checkpointer=MemorySaver())"
    )  # LangGraph refuses to run such a graph without a thread id in its config
    source = textwrap.dedent(HEAD) + "from langgraph.checkpoint.memory import MemorySaver\n"
    source += textwrap.dedent(NODES["a module global"]) + memory + "\n\nagent = build()\n"
    project = start_project(
        tmp_path, monkeypatch, source, "LangGraph", [PARALLEL_CALLS, ANSWER, PARALLEL_CALLS, ANSWER]
    )
    try:
        first = project.record(capsys, "my_app.py:agent")
        second = project.record(capsys, "my_app.py:agent")  # the same graph object, its memory kept in-process
    finally:
        project.server.stop()
    for trace in (first, second):
        prompts = [e for e in trace.events if e.kind == "llm_start"]
        assert prompts[0].messages == [{"role": "user", "content": QUESTION}]  # not the earlier run's conversation
    check_verify_is_offline(capsys, monkeypatch, "my_app.py:agent")


# A pipeline whose state is its own (a question in, an answer out): no `messages` at all.
PIPELINE = """
from langchain_openai import ChatOpenAI
from typing_extensions import TypedDict

from langgraph.graph import END, START, StateGraph

DOCS = {"roses": "Roses cost 25 yuan wholesale."}


class Answering(TypedDict, total=False):
    question: str
    context: str
    answer: str


llm = ChatOpenAI(model="fake-model", base_url=os.environ["MY_APP_BASE_URL"], api_key="sk-my-app-key-000")


def retrieve(state: Answering) -> dict:
    return {"context": DOCS["roses"]}


def generate(state: Answering) -> dict:
    return {"answer": llm.invoke("Context: " + state["context"] + "\\nQuestion: " + state["question"]).content}


def build():
    graph = StateGraph(Answering)
    graph.add_node("retrieve", retrieve)
    graph.add_node("generate", generate)
    graph.add_edge(START, "retrieve")
    graph.add_edge("retrieve", "generate")
    graph.add_edge("generate", END)
    return graph.compile()
"""
PRICE = "About 25 yuan a rose, wholesale."


@pytest.fixture
def pipeline(tmp_path, monkeypatch):
    project = start_project(tmp_path, monkeypatch, "import os\n" + textwrap.dedent(PIPELINE), "LangGraph", [PRICE])
    yield project
    project.server.stop()


def test_a_graph_with_a_state_of_its_own_is_recorded_from_inputs_json_and_re_run(capsys, monkeypatch, pipeline):
    argv = ["record", SPEC, "--inputs", '{"question": "How much are roses?"}', "-o", "run.jsonl"]
    code, _out, err = loopscope(capsys, *argv)
    assert code == 0, err
    trace = Trace.load(pipeline.folder / "run.jsonl")
    assert trace.events[0].inputs == {"question": "How much are roses?"}  # the state, as given
    (prompt,) = [e for e in trace.events if e.kind == "llm_start"]
    assert prompt.messages[-1]["content"] == "Context: Roses cost 25 yuan wholesale.\nQuestion: How much are roses?"
    assert trace.events[-1].outputs["answer"] == PRICE
    check_verify_is_offline(capsys, monkeypatch, SPEC)  # re-run on the recorded state, not on a question


def test_debug_agent_re_runs_a_graph_on_its_recorded_state_for_real_locals(capsys, pipeline):
    # The debugger's re-run (real locals at each event) was asked the question "" instead of the recorded state:
    # the graph failed in its first node and Variables fell back to the rebuilt state.
    from tracer.debug.event_store import ReplayStore
    from tracer.trace.reader import TraceFile

    argv = ["record", SPEC, "--inputs", '{"question": "How much are roses?"}', "-o", "run.jsonl"]
    assert loopscope(capsys, *argv)[0] == 0
    store = ReplayStore(TraceFile(pipeline.folder / "run.jsonl"), [SPEC])
    try:
        frames = [store.reenactment.frames_at(i) for i in range(len(store))]
        assert store.reenactment.problem is None, store.reenactment.problem
        assert all(f is not None for f in frames)
    finally:
        store.reenactment.close()


def test_asked_a_question_a_graph_without_messages_says_to_give_its_state(capsys, pipeline):
    code, _out, err = loopscope(capsys, "record", SPEC, "--input", "How much are roses?", "-o", "run.jsonl")
    assert code == 0  # recorded: the trace shows where the graph failed, as for any agent that raises
    assert "the agent raised KeyError: 'question'" in err
    assert "this graph's state has no messages but question, context, answer" in err
    assert """--inputs '{"question": "..."}'""" in err and err.count("\n") == 1


def test_a_cassette_runs_a_graph_on_its_state_and_replays_it_offline(monkeypatch, pipeline):
    monkeypatch.syspath_prepend(str(pipeline.folder))
    monkeypatch.delitem(sys.modules, "my_app", raising=False)
    my_app = importlib.import_module("my_app")
    state = {"question": "How much are roses?"}
    recorded = Cassette(pipeline.folder / "roses.jsonl", "once").run_agent(my_app.build(), state)
    assert recorded.events[-1].outputs["answer"] == PRICE and len(pipeline.server.received) == 1
    monkeypatch.setattr(socket.socket, "connect", lambda *_: (_ for _ in ()).throw(OSError("offline")))
    replayed = Cassette(pipeline.folder / "roses.jsonl", "none").run_agent(my_app.build(), state)
    assert replayed.events[-1].outputs["answer"] == PRICE  # the real graph, the model answered from the cassette


def test_debug_live_runs_a_graph_on_the_state_given_as_inputs_json(pipeline):
    (pipeline.folder / "replies.json").write_text(json.dumps([PRICE]), "utf-8")
    args = argparse.Namespace(
        live=SPEC,
        model=None,
        replies="replies.json",
        input=None,
        inputs='{"question": "How much are roses?"}',
        record=str(pipeline.folder / "live.jsonl"),
    )
    run = framework_live_run(args)
    assert run is not None
    kinds = []
    try:
        while (got := run.pull()) is not None:
            event, _frames = got
            kinds.append(event.kind)
            if event.kind == "chain_start":
                assert event.inputs == {"question": "How much are roses?"}
    finally:
        run.close()
    assert kinds[-1] == "chain_end" and "llm_end" in kinds and not pipeline.server.received  # answered offline
    args.inputs = None
    with pytest.raises(UsageError, match=r"or its input state as --inputs JSON"):
        framework_live_run(args)


def test_in_a_chinese_locale_the_record_lines_are_chinese(capsys, monkeypatch, pipeline):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    code, _out, err = loopscope(capsys, "record", SPEC, "--input", "How much are roses?", "-o", "run.jsonl")
    assert code == 0 and "智能体抛出了 KeyError" in err and "这个图的状态里没有 messages，只有 question" in err
    code, out, err = loopscope(capsys, "record", SPEC, "--inputs", '{"question": "roses?"}', "-o", "run.jsonl")
    assert code == 0 and out.startswith("已把 my_app.py:build（LangGraph，用它自己的模型）的"), err
    code, _out, err = loopscope(capsys, "record", SPEC, "-o", "run.jsonl")
    assert code == 2 and "要问 my_app.py:build 什么？" in err and "--inputs JSON" in err
