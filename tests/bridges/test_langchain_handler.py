"""LoopscopeCallbackHandler on real LangChain runs: classic ReAct, tool-calling, and LangGraph's agent."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

from tests.helpers.langchain_rose import (
    rose_executor,
    rose_inputs,
    scripted_chat_model,
    structured_tools,
    tool_calling_replies,
)
from tracer import LoopscopeCallbackHandler, Trace, diff_traces
from tracer.cli import main
from tracer.debug.source_map import read_source, read_user_source
from tracer.tui.launch import build_session
from tutorials import get_scenario

ROSE = get_scenario("rose-pricing").fixture
LANGCHAIN_ROSE = get_scenario("rose-pricing-langchain").fixture


@pytest.fixture
def react_trace(tmp_path) -> Trace:
    path = tmp_path / "lc_rose.jsonl"
    handler = LoopscopeCallbackHandler(path, raise_error=True)
    result = rose_executor().invoke(rose_inputs(), {"callbacks": [handler]})
    assert "26.25" in result["output"]
    return Trace.load(path)  # no close(): the outermost chain's end completed the file


def test_langchain_rose_run_takes_the_same_transitions_as_loopscopes(react_trace, capsys):
    assert react_trace.labels() == Trace.load(ROSE).labels()
    assert diff_traces(ROSE, react_trace).same
    assert main(["diff", str(ROSE), str(react_trace.path)]) == 0
    assert "same transitions" in capsys.readouterr().out


def test_a_different_reply_is_a_transition_difference(tmp_path):
    from tutorials.rose_pricing import REPLIES

    path = tmp_path / "other.jsonl"
    replies = [REPLIES[0], REPLIES[1].replace("25 * 1.05", "30 * 1.05"), REPLIES[2], REPLIES[3]]
    with LoopscopeCallbackHandler(path, raise_error=True) as handler:
        rose_executor(replies).invoke(rose_inputs(), {"callbacks": [handler]})
    assert not diff_traces(ROSE, path).same


def test_events_carry_langchains_own_frames_lines_and_run_ids(react_trace):
    events = react_trace.events
    plan_call = next(e for e in events if e.kind == "llm_start")
    by_function = {frame.function: frame for frame in plan_call.stack}
    iter_next_step = by_function["_iter_next_step"]
    assert iter_next_step.file == "langchain_classic/agents/agent.py"
    source = read_source(iter_next_step.file)
    assert source.problem is None and "self._action_agent.plan(" in source.lines[iter_next_step.line - 1]
    assert [f.function for f in plan_call.stack][-4:] == ["_call", "_take_next_step", "_iter_next_step", "plan"]
    action = next(e for e in events if e.kind == "agent_action")
    assert action.frames[-1] == "_perform_agent_action" and action.source.file.endswith("agents/agent.py")
    check = next(e for e in events if e.kind == "finish_check")
    assert "isinstance(next_step_output, AgentFinish)" in read_source(check.source.file).lines[check.source.line - 1]
    root = events[0].origin["run_id"]
    assert all(e.run_id == root for e in events)
    tool_start = next(e for e in events if e.kind == "tool_start")
    assert tool_start.origin["callback"] == "on_tool_start" and tool_start.origin["parent_run_id"] == root
    assert tool_start.origin["run_id"] != root
    assert plan_call.origin["parent_run_id"] not in (None, root)  # the agent's runnable, a child run


def test_the_debugger_session_shows_the_recorded_langchain_frames():
    from tracer.debug.session import DebugSession  # noqa: F401  (the session is what the TUI reads)
    from tracer.tui.launch import build_session

    session = build_session(LANGCHAIN_ROSE)
    session.goto(next(i for i, e in enumerate(Trace.load(LANGCHAIN_ROSE).events) if e.kind == "llm_start"))
    frames = session.frames()
    assert frames[-1].function == "plan" and all(f.exact for f in frames)
    session.move_frame(1)
    chosen = session.selected_frame()
    assert chosen.function == "_iter_next_step" and chosen.file == "langchain_classic/agents/agent.py"


def test_tool_calling_agent_and_langgraph_agent_are_traced(tmp_path):
    from langchain_classic.agents import AgentExecutor, create_tool_calling_agent
    from langchain_core.prompts import ChatPromptTemplate
    from langgraph.prebuilt import create_react_agent

    prompt = ChatPromptTemplate.from_messages([("human", "{input}"), ("placeholder", "{agent_scratchpad}")])
    agent = create_tool_calling_agent(scripted_chat_model(tool_calling_replies()), structured_tools(), prompt)
    with LoopscopeCallbackHandler(tmp_path / "tc.jsonl", raise_error=True) as handler:
        AgentExecutor(agent=agent, tools=structured_tools()).invoke(rose_inputs(), {"callbacks": [handler]})
    calling = Trace.load(tmp_path / "tc.jsonl")
    assert calling.labels() == Trace.load(ROSE).labels()
    assert next(e for e in calling.events if e.kind == "agent_action").tool_input == '{"query": "玫瑰花进货价格"}'

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # langgraph 1.x points at langchain.agents.create_agent
        graph = create_react_agent(scripted_chat_model(tool_calling_replies()), structured_tools())
    with LoopscopeCallbackHandler(tmp_path / "lg.jsonl", raise_error=True) as handler:
        graph.invoke({"messages": [("user", rose_inputs()["input"])]}, {"callbacks": [handler]})
    graph_trace = Trace.load(tmp_path / "lg.jsonl")
    assert graph_trace.labels() == Trace.load(ROSE).labels()  # LangGraph's agent: the same transitions as ours
    assert [t.name for t in graph_trace.events[0].tools] == ["Search", "Calculator"]
    model_call = next(e for e in graph_trace.events if e.kind == "llm_start")
    assert model_call.frames[-2:] == ("agent", "call_model") and model_call.source.file.startswith(
        "langgraph/prebuilt/"
    )
    assert graph_trace.events[-1].outputs["messages"][-1]["content"].endswith("26.25元。")


def test_the_recorded_tutorial_fixture_is_what_the_handler_writes_today(react_trace):
    recorded = Trace.load(LANGCHAIN_ROSE)
    assert recorded.header.scenario == "rose-pricing-langchain" and recorded.header.source == "langchain"
    assert [t.label for t in recorded.transitions()] == react_trace.labels()
    assert [e.source.line for e in recorded.events] == [e.source.line for e in react_trace.events], (
        "langchain-classic changed: re-record with `uv run python -m tests.helpers.langchain_rose "
        "fixtures/langchain/rose_pricing.jsonl`"
    )


@pytest.mark.parametrize(
    "hidden",
    [
        ["langchain_core.callbacks"],
        ["langchain_core", "langchain_classic", "langgraph"],  # none of LangChain: no module of the bridge
    ],  # may import it ahead of the handler's own import, which names the extra
)
def test_without_langchain_the_import_names_the_extra(hidden):
    code = (
        f"import sys; sys.modules.update(dict.fromkeys({hidden!r}))\n"
        "try:\n    from tracer import LoopscopeCallbackHandler\n"
        "except ImportError as e:\n    print(e)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install 'loopscope[langchain]'" in out


@pytest.mark.parametrize(
    "name",
    [
        "os/../../etc/passwd.py",
        "../pyproject.toml",
        "langchain_classic/../x.py",
        "/etc/passwd",
        "langchain_classic/agents/agent.txt",
    ],
)
def test_source_map_reads_only_python_files_inside_installed_packages(name):
    source = read_source(name)
    assert source.lines == () and source.problem


def test_verify_says_a_langchain_trace_is_not_loopscopes_to_re_execute(capsys):
    assert main(["verify", str(LANGCHAIN_ROSE)]) == 2
    assert "recorded from a LangChain run" in capsys.readouterr().out


def test_a_handled_parse_error_in_langchain_matches_loopscopes_parse_error_run(tmp_path):
    from langchain_classic.agents import AgentExecutor, create_react_agent
    from langchain_core.tools import Tool

    from executor import ScriptedModel
    from tests.helpers.langchain_rose import REACT_PROMPT, ScriptedLLM

    scenario = get_scenario("parse-error-on")
    tools = [Tool(name=t.name, func=t.func, description=t.description) for t in scenario.build_tools(ScriptedModel([]))]
    executor = AgentExecutor(
        agent=create_react_agent(ScriptedLLM(responses=list(scenario.replies)), tools, REACT_PROMPT),
        tools=tools,
        handle_parsing_errors=True,
    )
    with LoopscopeCallbackHandler(tmp_path / "pe.jsonl", raise_error=True) as handler:
        executor.invoke(scenario.inputs(), {"callbacks": [handler]})
    ours, theirs = Trace.load(scenario.fixture), Trace.load(tmp_path / "pe.jsonl")
    assert "parse_error(handled)" in theirs.labels()
    assert diff_traces(ours, theirs).same  # error text, observation and the rest of the run agree


def test_a_model_call_retried_by_with_retry_is_one_call_with_a_retry_event(tmp_path):
    from langchain_classic.agents import AgentExecutor, create_react_agent
    from langchain_classic.agents.agent import RunnableAgent

    from tests.helpers.langchain_rose import REACT_PROMPT, ScriptedLLM, rose_tools
    from tutorials.rose_pricing import REPLIES

    class TimesOutOnce(ScriptedLLM):
        def _call(self, prompt, stop=None, run_manager=None, **kwargs):
            if not getattr(self, "_failed_once", False):
                object.__setattr__(self, "_failed_once", True)
                raise TimeoutError("the endpoint timed out")
            return super()._call(prompt, stop, run_manager, **kwargs)

    llm = TimesOutOnce(responses=list(REPLIES))
    tools = rose_tools(llm)
    retried = create_react_agent(
        llm.with_retry(stop_after_attempt=3, wait_exponential_jitter=False), tools, REACT_PROMPT
    )
    # stream_runnable=False: LangChain's RunnableRetry retries invoke(), not a stream
    executor = AgentExecutor(agent=RunnableAgent(runnable=retried, stream_runnable=False), tools=tools)
    with LoopscopeCallbackHandler(tmp_path / "retry.jsonl", raise_error=True) as handler:
        executor.invoke(rose_inputs(), {"callbacks": [handler]})
    trace = Trace.load(tmp_path / "retry.jsonl")
    assert trace.labels()[:4] == ["chain_start", "plan", "retry(llm:scripted #1)", "AgentAction(Search)"]
    retry = next(e for e in trace.events if e.kind == "retry")
    assert retry.error == "TimeoutError: the endpoint timed out" and retry.frames[-1] == "plan"
    assert [e.kind for e in trace.events[1:4]] == ["llm_start", "retry", "llm_end"]
    assert trace.events[3].duration >= retry.delay


async def test_ainvoke_keeps_the_rounds_though_asyncio_hides_the_plan_frames(tmp_path):
    # Under ainvoke LangChain fires model callbacks inside asyncio.gather tasks, whose stacks do not
    # reach _aiter_next_step; the handler tells plan calls by their parent run instead. What is lost is
    # the "plan" frame (so the plan transitions), not the loop's decisions.
    with LoopscopeCallbackHandler(tmp_path / "async.jsonl", raise_error=True) as handler:
        result = await rose_executor().ainvoke(rose_inputs(), {"callbacks": [handler]})
    assert "26.25" in result["output"]
    theirs = [label for label in Trace.load(tmp_path / "async.jsonl").labels() if label != "plan"]
    assert theirs == [label for label in Trace.load(ROSE).labels() if label != "plan"]
    assert [e.iteration for e in Trace.load(tmp_path / "async.jsonl").events if e.kind == "llm_start"] == [1, 2, 2, 3]


def test_a_classic_runs_tool_events_point_at_the_users_function_not_langchains(react_trace):
    starts = {e.tool: e for e in react_trace.events if e.kind == "tool_start"}
    search = starts["Search"].callee
    assert (search.file, search.function) == ("tutorials/rose_pricing.py", "search")
    assert starts["Calculator"].callee is None  # LLMMathChain.run is LangChain's: its frames are the loop's
    assert next(e for e in react_trace.events if e.kind == "tool_end" and e.tool == "Search").callee == search
    session = build_session(react_trace.path)
    session.goto(starts["Search"].seq)
    frames = session.frames()
    assert frames[-1].callee and frames[-1].function == "search" and frames[-2].function == "run"
    assert read_user_source(frames[-1].file).lines[frames[-1].line - 1].startswith("def search(")
