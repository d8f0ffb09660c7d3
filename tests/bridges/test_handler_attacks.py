"""LoopscopeCallbackHandler under attack, on real LangChain runs: a full disk when it is made or closed,
callbacks handed odd objects, a callback that fails. The user's run never sees any of it; the trace says it."""

from __future__ import annotations

import errno
import logging
import os
import sys
from uuid import uuid4

import pytest

from tests.helpers.langchain_rose import REACT_PROMPT, ScriptedLLM, rose_executor, rose_inputs, rose_tools
from tests.helpers.small_fs import fill, small_tmpfs
from tracer import LoopscopeCallbackHandler, Trace
from tracer.cli import main
from tracer.trace.reader import TraceFile
from tutorials import get_scenario
from tutorials.rose_pricing import REPLIES

ROSE = get_scenario("rose-pricing").fixture
ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def run_rose(handler, executor=None) -> str:
    result = (executor or rose_executor()).invoke(rose_inputs(), {"callbacks": [handler]})
    return result["output"]


def labels(events) -> list[str]:
    return Trace(None, list(events)).labels()


def no_partial_files(folder) -> bool:
    return not [p for p in folder.iterdir() if ".partial" in p.name]


# -- a full disk -------------------------------------------------------------------------------------
@pytest.mark.parametrize("raise_error", [False, True])
def test_a_full_disk_when_the_handler_is_made_never_reaches_the_run(tmp_path, monkeypatch, caplog, raise_error):
    real_open = os.open

    def open_on_a_full_disk(path, *args, **kwargs):
        if str(path).endswith(".partial"):
            raise ENOSPC
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("tracer.trace.writer.os.open", open_on_a_full_disk)
    path = tmp_path / "run.jsonl"
    handler = LoopscopeCallbackHandler(path, raise_error=raise_error)  # no exception here
    expected = (
        f"cannot write a trace at {path}: No space left on device; the run goes on untraced "
        "(handler.events holds its events)"
    )
    assert handler.problem == expected
    assert "26.25" in run_rose(handler)
    assert handler.close() == expected and list(tmp_path.iterdir()) == []
    assert labels(handler.events) == Trace.load(ROSE).labels()  # the events are all still there
    assert [r.getMessage() for r in caplog.records if r.name == "loopscope"] == [f"loopscope: {expected}"]


def test_a_really_full_filesystem_when_the_handler_is_made(tmp_path):
    with small_tmpfs(tmp_path / "small", size="256k") as small:
        if small is None:
            pytest.skip("cannot mount a tmpfs here; the injected-ENOSPC test above covers the handler")
        fill(small, leave=0)
        handler = LoopscopeCallbackHandler(small / "run.jsonl", raise_error=True)
        assert "26.25" in run_rose(handler)
        assert "No space left on device" in handler.close() and "\n" not in handler.problem
        assert sorted(p.name for p in small.iterdir()) == ["filler"]


@pytest.mark.parametrize("raise_error", [False, True])
def test_a_full_disk_at_close_never_reaches_the_run(tmp_path, monkeypatch, raise_error):
    def fsync(fd):
        raise ENOSPC

    monkeypatch.setattr("tracer.trace.writer.os.fsync", fsync)
    path = tmp_path / "run.jsonl"
    handler = LoopscopeCallbackHandler(path, raise_error=raise_error)
    assert "26.25" in run_rose(handler)  # the outermost chain's end closes the file: no exception came out
    assert handler.problem == (
        f"could not write {path} (No space left on device); no trace was written; "
        f"this run's partial trace is in {path}.failed"
    )
    with handler:  # closing again (as `with` does) says the same, and raises nothing
        pass
    assert handler.close() == handler.problem and not path.exists() and no_partial_files(tmp_path)


# -- odd objects from the user's tools ---------------------------------------------------------------
class ContentThatRaises:
    """An object whose `content` property raises (hasattr() lets that through), printable otherwise."""

    @property
    def content(self):
        raise ValueError("no content here")

    def __str__(self) -> str:
        return "25 yuan, said an odd object"


class ReprThatRaises(ContentThatRaises):
    def __repr__(self) -> str:
        raise RuntimeError("no repr either")


def rose_with_search_returning(observation) -> object:
    from langchain_classic.agents import AgentExecutor, create_react_agent
    from langchain_core.tools import Tool

    llm = ScriptedLLM(responses=list(REPLIES))
    tools = rose_tools(llm)
    tools[0] = Tool(name="Search", func=lambda _query: observation, description=tools[0].description)
    return AgentExecutor(agent=create_react_agent(llm, tools, REACT_PROMPT), tools=tools, max_iterations=15)


def _holding_itself():
    found = ["25 yuan"]
    found.append({"again": found})
    return found


@pytest.mark.parametrize(
    "observation, recorded",
    [
        (_holding_itself(), '["25 yuan", {"again": "[...]"}]'),
        (ContentThatRaises(), "25 yuan, said an odd object"),
        ({"price": b"25", "units": {"bunch"}}, '{"price": "b\'25\'", "units": "{\'bunch\'}"}'),
    ],
    ids=["a list holding itself", "content that raises", "bytes, a set and an odd object"],
)
def test_odd_tool_outputs_are_recorded_not_dropped(tmp_path, observation, recorded):
    path = tmp_path / "run.jsonl"
    handler = LoopscopeCallbackHandler(path, raise_error=True)  # any failure would raise here
    assert "26.25" in run_rose(handler, rose_with_search_returning(observation))
    trace = Trace.load(path)
    assert next(e for e in trace.events if e.kind == "tool_end").observation == recorded
    assert trace.labels() == Trace.load(ROSE).labels() and handler.dropped.count == 0


def test_callbacks_handed_odd_types_directly_raise_nothing(tmp_path):
    """What a custom chain or tool may hand a callback: not a dict, not a string, an object that cannot be read."""
    handler = LoopscopeCallbackHandler(tmp_path / "run.jsonl")
    root, tool, llm = uuid4(), uuid4(), uuid4()
    odd = ReprThatRaises()
    handler.on_chain_start("not a dict", {"input": _holding_itself(), "odd": odd}, run_id=root)
    handler.on_tool_start(["a", "list"], {"not": "a string"}, run_id=tool, parent_run_id=root, inputs=odd)
    handler.on_tool_end(odd, run_id=tool, parent_run_id=root)
    handler.on_llm_start(42, None, run_id=llm, parent_run_id=root, invocation_params="not a dict")
    handler.on_llm_end("not an LLMResult", run_id=llm, parent_run_id=root)
    handler.on_tool_error(odd, run_id=uuid4(), parent_run_id=root)
    handler.on_chain_end(odd, run_id=root)
    trace = Trace.load(handler.path)
    assert [e.kind for e in trace.events] == [
        "chain_start",
        "tool_start",
        "tool_end",
        "llm_start",
        "tool_error",
        "chain_end",
    ]
    assert trace.events[0].inputs == {"input": ["25 yuan", {"again": "[...]"}], "odd": "<ReprThatRaises>"}
    assert trace.events[2].observation == "25 yuan, said an odd object"
    assert trace.events[-1].outputs == {"output": "<ReprThatRaises>"}
    assert (trace.events[3].model, trace.events[3].prompt) == ("unknown", "")
    assert (handler.dropped.count, handler.dropped.first) == (  # the one callback given nothing it can read
        1,
        "on_llm_end: AttributeError: 'str' object has no attribute 'generations'",
    )
    assert Trace.load(handler.path).warning.startswith("1 callback(s) could not be recorded")


# -- a callback that fails ---------------------------------------------------------------------------
def reply_of_that_trips_once(monkeypatch):
    """The handler's reading of the second model reply fails, as a bug of ours or an odd reply would."""
    from tracer.bridges import langchain_handler

    real, calls = langchain_handler.reply_of, []

    def reply_of(response):
        calls.append(response)
        if len(calls) == 2:
            raise RuntimeError("the handler tripped\non a reply")
        return real(response)

    monkeypatch.setattr(langchain_handler, "reply_of", reply_of)


def test_a_callback_that_fails_drops_its_events_and_the_finished_trace_says_so(tmp_path, monkeypatch, caplog, capsys):
    reply_of_that_trips_once(monkeypatch)
    path = tmp_path / "run.jsonl"
    handler = LoopscopeCallbackHandler(path)
    with caplog.at_level(logging.WARNING):
        assert "26.25" in run_rose(handler)
    assert handler.problem is None and handler.dropped.count == 1
    note = (
        "1 callback(s) could not be recorded by the LangChain handler (first: on_llm_end: RuntimeError: the "
        "handler tripped on a reply); the trace holds the rest of the run"
    )
    with TraceFile(path) as trace:
        assert trace.warning is None and trace.notice == note  # a whole run, not an interrupted one
        assert trace[len(trace) - 1].origin["dropped"] == {
            "callbacks": 1,
            "first": "on_llm_end: RuntimeError: the handler tripped on a reply",
        }
    recorded = Trace.load(path)
    assert recorded.warning == note
    assert [e.kind for e in recorded.events].count("llm_end") == [e.kind for e in Trace.load(ROSE).events].count(
        "llm_end"
    ) - 1  # only the failed callback's event is missing
    assert not [r for r in caplog.records if "Error in LoopscopeCallbackHandler" in r.getMessage()]  # not LangChain's
    assert [r.getMessage() for r in caplog.records if r.name == "loopscope"] == [
        "loopscope: LoopscopeCallbackHandler could not record on_llm_end: RuntimeError: the handler tripped on a "
        "reply; the run goes on, and the trace's last event will say how many callbacks were dropped"
    ]
    assert main(["debug", str(path), "--print"]) == 0
    out = capsys.readouterr().out
    assert f"warning: {note}" in " ".join(out.split()) and "interrupted" not in out
    from tracer.tui.launch import build_session

    store = build_session(path).store  # what the debugger's status line and timeline read
    assert store.warning is None and note in store.import_note  # no "⚠ truncated"


def test_raise_error_true_raises_a_failing_callback_into_the_run_as_langchain_means_it(tmp_path, monkeypatch):
    reply_of_that_trips_once(monkeypatch)
    with pytest.raises(RuntimeError, match="the handler tripped"):
        run_rose(LoopscopeCallbackHandler(tmp_path / "run.jsonl", raise_error=True))


def test_when_the_runs_own_end_fails_the_trace_still_ends(tmp_path, monkeypatch):
    from tracer.bridges import langchain_handler

    real_plain = langchain_handler.plain

    def plain(value):
        if sys._getframe(1).f_code.co_name == "on_chain_end":
            raise RuntimeError("outputs that cannot be read")
        return real_plain(value)

    monkeypatch.setattr(langchain_handler, "plain", plain)
    path = tmp_path / "run.jsonl"
    assert "26.25" in run_rose(LoopscopeCallbackHandler(path))
    with TraceFile(path) as trace:
        last = trace[len(trace) - 1]
        assert (last.kind, last.outputs) == ("chain_end", {}) and trace.warning is None
        assert trace.notice.startswith(
            "1 callback(s) could not be recorded by the LangChain handler "
            "(first: on_chain_end: RuntimeError: outputs that cannot be read)"
        )
