"""The steps every framework adapter's end-to-end test walks: a user's project, record, verify, fork, a changed tool."""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import FakeOpenAIServer, Step, ToolCalls
from tracer import Trace
from tracer.report.narration.narrator import Narrator

QUESTION = "What is the weather in Beijing and Shanghai?"
ANSWER = "Beijing is sunny; take an umbrella in Shanghai."
PARALLEL_CALLS = ToolCalls(
    (
        ("call_b", "get_weather", json.dumps({"city": "Beijing"})),
        ("call_s", "get_weather", json.dumps({"city": "Shanghai"})),
    )
)
OBSERVATIONS = {"call_b": "Beijing: sunny, 18°C", "call_s": "Shanghai: light rain, 16°C"}
# What each agent module's tool returns is f"{city}: {forecast}"; the changed tool returns the forecast alone.
TOOL_LINE, CHANGED_TOOL_LINE = "{city}: {forecast}", "{forecast}"
KEY = "sk-my-app-key-000"  # the user's key in my_app.py: never in a trace


@dataclass
class Project:
    """A user's project: my_app.py (its model a real client aimed at a local chat-completions server) in `folder`,
    the current directory, beside the traces loopscope writes."""

    folder: Path
    server: FakeOpenAIServer
    framework: str  # the header's framework: "OpenAI Agents SDK"

    def record(self, capsys, spec: str = "my_app.py:agent", question: str = QUESTION) -> Trace:
        code, out, err = loopscope(capsys, "record", spec, "--input", question, "-o", "run.jsonl")
        assert code == 0, err
        assert f"({self.framework}, with its own model)" in out
        return Trace.load(self.folder / "run.jsonl")

    def change_tool(self, old: str = TOOL_LINE, new: str = CHANGED_TOOL_LINE) -> None:
        source = self.folder / "my_app.py"
        text = source.read_text(encoding="utf-8")
        assert old in text
        source.write_text(text.replace(old, new), encoding="utf-8")


def start_project(tmp_path: Path, monkeypatch, module: str, framework: str, replies: Sequence[Step]) -> Project:
    """my_app.py holding `module` in tmp_path (the current directory), its server answering `replies` in order."""
    server = FakeOpenAIServer(list(replies)).start()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MY_APP_BASE_URL", server.base_url)
    (tmp_path / "my_app.py").write_text(module, encoding="utf-8")
    return Project(tmp_path, server, framework)


def check_refused_before_any_file(capsys, project: Project, *said: str) -> None:
    """`record` of my_app.py:agent stops before the run, in one line holding every text of `said`: exit 1, no
    trace file, no request made (the server is stopped after)."""
    try:
        code, _, err = loopscope(capsys, "record", "my_app.py:agent", "--input", "Order 3 roses", "-o", "run.jsonl")
    finally:
        project.server.stop()
    assert code == 1 and not (project.folder / "run.jsonl").exists() and not project.server.received
    line = err.strip().splitlines()[-1]
    assert all(text in line for text in said), err


def narrated(trace: Trace) -> str:
    """The trace as the narrator tells it (what `loopscope` prints for a run)."""
    buffer = io.StringIO()
    narrator = Narrator(Console(file=buffer, color_system=None, width=200))
    for event in trace.events:
        narrator(event)
    return buffer.getvalue()


def tool_result_of(trace: Trace, call_id: str, kind: str = "tool_end"):
    """The tool_end (or tool_error) of the tool call `call_id`."""
    return next(e for e in trace.events if e.kind == kind and e.tool_call_id == call_id)


def tool_messages(messages: Sequence[dict]) -> dict[str, str]:
    """The tool results a model call sent, by call id."""
    return {m["tool_call_id"]: m["content"] for m in messages if m["role"] == "tool"}


def check_parallel_run_recorded(project: Project, trace: Trace, source: str) -> None:
    """Both model calls went over HTTP and are rounds with the question, the tools offered, both tool calls by
    id with their results, and the answer; the user's function is the callee; the key is nowhere."""
    assert len(project.server.received) == 2
    assert trace.header.source == source and trace.header.framework == project.framework
    starts = [e for e in trace.events if e.kind == "llm_start"]
    assert len(starts) == 2 and starts[0].messages[-1] == {"role": "user", "content": QUESTION}
    assert [t["function"]["name"] for t in starts[0].tools] == ["get_weather"]
    first_reply = next(e for e in trace.events if e.kind == "llm_end")
    assert [c.id for c in first_reply.tool_calls] == ["call_b", "call_s"]
    assert {e.tool_call_id: e.observation for e in trace.events if e.kind == "tool_end"} == OBSERVATIONS
    assert tool_result_of(trace, "call_b").callee.function == "get_weather"  # the user's function, for Source
    assert list(tool_messages(starts[1].messages)) == ["call_b", "call_s"]
    assert trace.events[-1].kind == "chain_end" and trace.events[-1].outputs["output"] == ANSWER
    assert KEY not in (project.folder / "run.jsonl").read_text(encoding="utf-8")


def recorded_at_one_turn(capsys, tmp_path: Path, monkeypatch, module: str, framework: str, raised: str) -> Trace:
    """`record my_app.py:agent --max-turns 1` of an agent that wants a second model call: one request went over
    HTTP, the run raised `raised`, and its trace ends in limit_reached (saying `raised`) and chain_error."""
    project = start_project(tmp_path, monkeypatch, module, framework, [PARALLEL_CALLS, ANSWER])
    argv = ["record", "my_app.py:agent", "--input", QUESTION, "--max-turns", "1", "-o", "run.jsonl"]
    try:
        code, _, err = loopscope(capsys, *argv)
    finally:
        project.server.stop()
    assert code == 0 and raised in err and len(project.server.received) == 1
    assert len(err.strip().splitlines()) == 1, err  # the framework's error, said on one line
    trace = Trace.load(tmp_path / "run.jsonl")
    limit = next(e for e in trace.events if e.kind == "limit_reached")
    assert limit.reason == "max_iterations" and limit.early_stopping_method.startswith(f"raise {raised} (")
    assert [e.kind for e in trace.events][-2:] == ["limit_reached", "chain_error"]
    return trace


def check_variables_show_the_messages(project: Project, trace: Trace, lang: str = "en") -> None:
    """The Variables pane of a framework's run holds its messages, rebuilt from the trace (the question, the
    reply asking for both tools, both results), never AgentExecutor's _call variables it does not have."""
    from tracer.tui.launch import build_session  # late: the TUI is not every helper user's
    from tracer.tui.views.variables_view import variables_text

    session = build_session(project.folder / "run.jsonl")
    # Both results are in and the second model call is next. The tools ran concurrently, so either may end last.
    session.goto(max(tool_result_of(trace, call).seq for call in ("call_b", "call_s")))
    shown = variables_text(session, lang).plain
    assert project.framework in shown and "[4 messages]" in shown, shown
    assert "tool call_b" in shown and "tool call_s" in shown, shown
    assert "name_to_tool_map" not in shown and "AgentStep" not in shown and "_call" not in shown


def check_verify_is_offline(capsys, monkeypatch, spec: str = "my_app.py:agent") -> None:
    """verify --agent re-runs the real agent, says OK, and opens no socket."""
    opened: list[object] = []

    def no_network(self, address):
        opened.append(address)
        raise OSError("verify must not reach the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    code, out, err = loopscope(capsys, "verify", "run.jsonl", "--agent", spec)
    assert code == 0, out + err
    assert out.startswith("OK") and not opened


def check_verify_names_the_changed_tool(capsys, project: Project, spec: str = "my_app.py:agent") -> None:
    """After the tool changes, verify fails at the tool_end with both observations."""
    project.change_tool()
    code, out, _ = loopscope(capsys, "verify", "run.jsonl", "--agent", spec)
    assert code == 1
    assert "tool_end): observation differs" in out
    assert "'Beijing: sunny, 18°C'" in out and "'sunny, 18°C'" in out


def check_fork_reaches_the_next_model_call(capsys, project: Project, trace: Trace) -> Trace:
    """A fork with call_b's observation edited re-runs the real agent: the edited text is call_b's result in
    the fork and in its next model call, call_s runs for real."""
    at = tool_result_of(trace, "call_b").seq
    argv = ["fork", "run.jsonl", "--at", str(at), "--observation", "Beijing: hail, 2°C", "-o", "fork.jsonl"]
    code, out, err = loopscope(capsys, *argv, "--agent", "my_app.py:agent")
    assert code == 0, err
    fork = Trace.load(project.folder / "fork.jsonl")
    assert fork.header.fork_at == at and fork.header.framework == project.framework
    assert tool_result_of(fork, "call_b").observation == "Beijing: hail, 2°C"
    assert tool_result_of(fork, "call_s").observation == OBSERVATIONS["call_s"]  # the other call ran for real
    second = [e for e in fork.events if e.kind == "llm_start"][1]
    assert tool_messages(second.messages) == {"call_b": "Beijing: hail, 2°C", "call_s": OBSERVATIONS["call_s"]}
    assert "model call #2" in out and "--model" not in out.splitlines()[-1]
    return fork


def forked_at(capsys, folder: Path, at: int, observation: str, spec: str = "my_app.py:agent") -> Trace:
    """`fork run.jsonl --at AT --observation TEXT --agent SPEC` in `folder`, succeeded: the fork's trace."""
    argv = ["fork", "run.jsonl", "--at", str(at), "--observation", observation, "-o", "fork.jsonl"]
    code, _, err = loopscope(capsys, *argv, "--agent", spec)
    assert code == 0, err
    return Trace.load(folder / "fork.jsonl")


def check_debug_shows_replayed_locals(folder: Path, question: str, spec: str = "my_app.py:agent") -> None:
    """`loopscope debug run.jsonl --agent SPEC`'s store: every event's frames come from re-running the real agent
    on the recording (no problem, none missing), the model call's frames hold the (short: locals are shown
    shortened) question, and each tool call's frames hold that call's own arguments (Beijing's, not Shanghai's)."""
    from tracer.debug.event_store import ReplayStore
    from tracer.trace.reader import TraceFile

    store = ReplayStore(TraceFile(folder / "run.jsonl"), [spec])
    try:
        events = [store.event(i) for i in range(len(store))]
        frames = [store.reenactment.frames_at(i) for i in range(len(events))]
        assert store.reenactment.problem is None, store.reenactment.problem
        assert all(f is not None for f in frames)
        seen = [" ".join(value for frame in f or () for _, value in frame.locals) for f in frames]
        model_call = next(i for i, e in enumerate(events) if e.kind == "llm_start")
        assert question in seen[model_call]
        for i, event in enumerate(events):
            if event.kind in ("tool_start", "tool_end"):
                city, other = ("Beijing", "Shanghai") if event.tool_call_id == "call_b" else ("Shanghai", "Beijing")
                assert city in seen[i] and other not in seen[i], (event.kind, event.tool_call_id, seen[i])
    finally:
        store.reenactment.close()
