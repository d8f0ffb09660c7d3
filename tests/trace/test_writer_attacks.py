"""The trace writer under attack: disk full, two writers, read-only places, odd targets."""

from __future__ import annotations

import errno
import os

import pytest

from executor import ScriptedModel
from tests.helpers.paths import ROSE as ROSE_FIXTURE
from tests.helpers.small_fs import fill, small_tmpfs
from tracer.cli import main
from tracer.trace.reader import load_trace
from tracer.trace.redact import Redactor
from tracer.trace.writer import TraceWriteError, TraceWriter
from tutorials import get_scenario

ROSE = get_scenario("rose-pricing")
HALF_A_RUN = ROSE_FIXTURE.stat().st_size // 2  # room for the header and some events, not all


def rose_events():
    return ROSE.executor(ScriptedModel(ROSE.replies)).iter_events(ROSE.inputs())


class FullDisk:
    """A file whose write() fails with ENOSPC once `room` bytes are used, like a full disk."""

    def __init__(self, real, room: int) -> None:
        self.real, self.room = real, room

    def write(self, data: bytes) -> int:
        if len(data) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.real.write(data)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_full_disk_never_reaches_the_run_and_keeps_the_old_trace(tmp_path):
    path = tmp_path / "rose.jsonl"
    path.write_bytes(ROSE_FIXTURE.read_bytes())
    writer = TraceWriter(path, scenario="rose-pricing")
    writer._file = FullDisk(writer._file, room=HALF_A_RUN)
    result = ROSE.executor(ScriptedModel(ROSE.replies)).invoke(ROSE.inputs(), [writer])
    assert result["output"]  # the run finished as if nothing had happened
    with pytest.raises(TraceWriteError) as failure:
        writer.close()
    message = str(failure.value)
    assert "\n" not in message and "No space left on device" in message
    assert f"{path} was left as it was" in message
    assert path.read_bytes() == ROSE_FIXTURE.read_bytes()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


def test_record_onto_a_really_full_filesystem_fails_and_keeps_the_fixture(tmp_path, capsys):
    with small_tmpfs(tmp_path / "small", size="256k") as small:
        if small is None:
            pytest.skip("cannot mount a tmpfs here; the injected-ENOSPC test above covers the writer")
        target = small / "rose.jsonl"
        assert main(["record", "rose-pricing", "-o", str(target)]) == 0
        good = target.read_bytes()
        fill(small, leave=8192)  # room for the header and a few events, not the whole run
        capsys.readouterr()
        assert main(["record", "rose-pricing", "-o", str(target)]) == 1
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "No space left on device" in err
        assert target.read_bytes() == good
        assert not [p for p in small.iterdir() if p.name.endswith(".partial")]


def test_two_writers_each_have_their_own_file_and_the_second_rename_sees_the_first(tmp_path):
    path = tmp_path / "same.jsonl"
    first, second = TraceWriter(path, scenario="a"), TraceWriter(path, scenario="b")
    assert first.partial != second.partial
    for one, other in zip(rose_events(), rose_events()):
        first(one)
        second(other)
    assert first.close() == path
    with pytest.raises(TraceWriteError, match="another run wrote .* while this one was recording"):
        second.close()
    header, events, warning = load_trace(path)
    assert header.scenario == "a" and warning is None and events[-1].kind == "chain_end"
    assert len(load_trace(tmp_path / "same.jsonl.lost")[1]) == len(events)


def test_two_writers_over_an_existing_trace_do_not_both_win(tmp_path):
    path = tmp_path / "rose.jsonl"
    path.write_bytes(ROSE_FIXTURE.read_bytes())
    first, second = TraceWriter(path, scenario="a"), TraceWriter(path, scenario="b")
    for event in rose_events():
        first(event)
        second(event)
    first.close()
    with pytest.raises(TraceWriteError, match="another run wrote"):
        second.close()
    assert load_trace(path)[0].scenario == "a"


def test_an_exception_inside_the_writer_never_reaches_the_run(tmp_path):
    class BrokenRedactor(Redactor):  # a user's redactor with a bug in it
        def might_contain_secret(self, text: str) -> bool:
            return 1 / 0

    writer = TraceWriter(tmp_path / "t.jsonl", redactor=BrokenRedactor())
    result = ROSE.executor(ScriptedModel(ROSE.replies)).invoke(ROSE.inputs(), [writer])
    assert result["output"]
    with pytest.raises(TraceWriteError, match="ZeroDivisionError"):
        writer.close()


def test_output_into_a_read_only_directory_is_one_line_and_leaves_nothing(tmp_path, capsys):
    with small_tmpfs(tmp_path / "ro", read_only=True) as read_only:
        if read_only is None:  # not allowed to mount: a directory without write permission
            read_only = tmp_path / "ro"
            read_only.chmod(0o555)
            if os.access(read_only, os.W_OK):
                pytest.skip("running as root without mount: permissions do not stop us")
        assert main(["record", "rose-pricing", "-o", str(read_only / "x.jsonl")]) == 1
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "cannot write a trace at" in err
        assert list(read_only.iterdir()) == []


def test_output_naming_a_directory_or_a_fifo_is_refused(tmp_path, capsys):
    assert main(["record", "rose-pricing", "-o", str(tmp_path)]) == 1
    assert "is a directory" in capsys.readouterr().err
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert main(["record", "rose-pricing", "-o", str(fifo)]) == 1
    assert "not a regular file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.jsonl"]


def test_a_link_to_a_directory_is_a_directory_and_any_other_link_is_no_regular_file(tmp_path):
    """The writer looks at the target once (lstat) and follows it only when it is a link."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "trace.jsonl").write_text("mine\n")
    for name, target in (("to-folder", "folder"), ("to-file", "trace.jsonl"), ("dangling", "nowhere")):
        (tmp_path / name).symlink_to(tmp_path / target)
    with pytest.raises(TraceWriteError, match="to-folder is a directory"):
        TraceWriter(tmp_path / "to-folder")
    for name in ("to-file", "dangling"):
        with pytest.raises(TraceWriteError, match=f"{name} exists and is not a regular file"):
            TraceWriter(tmp_path / name)
    assert (tmp_path / "trace.jsonl").read_text() == "mine\n" and not list(tmp_path.glob("*.partial"))


def test_a_trace_in_folders_not_there_yet_makes_them(tmp_path):
    path = tmp_path / "a" / "b" / "run.jsonl"
    with TraceWriter(path) as writer:
        ROSE.executor(ScriptedModel(ROSE.replies)).invoke(ROSE.inputs(), [writer])
    assert load_trace(path)[2] is None and [p.name for p in path.parent.iterdir()] == ["run.jsonl"]


def test_flush_at_close_writes_the_same_file_and_nothing_before_close(tmp_path):
    """An import's writer (flush="close") gathers a trace's lines and writes them at the end, in writes of
    at most a few hundred lines: byte for byte what a recording writer writes."""
    events = list(rose_events())
    files = []
    for flush in ("wait", "close"):
        writer = TraceWriter(tmp_path / f"{flush}.jsonl", flush=flush)
        for event in events:
            writer(event)
        if flush == "close":
            assert writer.partial.read_bytes() == b""  # not even the header yet
        files.append(writer.close().read_bytes())
    assert files[0] == files[1] and files[0].count(b"\n") == len(events) + 1


def test_run_trace_onto_a_full_disk_keeps_the_run_and_says_the_trace_failed(tmp_path, capsys, monkeypatch):
    real_fdopen = os.fdopen
    monkeypatch.setattr(
        "tracer.trace.writer.os.fdopen", lambda fd, *a, **k: FullDisk(real_fdopen(fd, *a, **k), room=HALF_A_RUN)
    )
    out = tmp_path / "run.jsonl"
    assert main(["run", "rose-pricing", "--trace", str(out)]) == 1
    captured = capsys.readouterr()
    assert "outcome                      finished" in captured.out
    assert "trace written" not in captured.out and "ended with" not in captured.out
    assert "No space left on device" in captured.err and not out.exists()


KILLED_RUN = r"""
import sys, time
from pathlib import Path
from executor import AgentExecutor, ScriptedModel, Tool, create_react_agent
from tracer import TraceWriter

def slow_search(query):
    Path(sys.argv[2]).write_text("in the tool")
    time.sleep(60)  # killed here, while the run waits on its tool
    return "25 yuan"

tools = [Tool(name="Search", description="looks things up", func=slow_search)]
model = ScriptedModel([" I should look.\nAction: Search\nAction Input: roses", " Final Answer: 25"])
executor = AgentExecutor(agent=create_react_agent(model, tools), tools=tools)
writer = TraceWriter(sys.argv[1])
executor.invoke({"input": "What do roses cost?"}, [writer])
"""


@pytest.mark.slow  # a process of its own, killed
def test_kill_9_while_a_tool_runs_leaves_every_event_up_to_tool_start_on_disk(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    marker, path = tmp_path / "marker", tmp_path / "run.jsonl"
    process = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(path), str(marker)])
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert process.poll() is None and time.monotonic() < deadline, "the run never reached its tool"
            time.sleep(0.02)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    (partial,) = tmp_path.glob("run.jsonl.*.partial")
    assert not path.exists()
    kinds = [event.kind for event in load_trace(partial)[1]]
    assert kinds == ["chain_start", "llm_start", "llm_end", "agent_action", "tool_start"]


class ShortWrites:
    """An unbuffered file whose write() takes at most 7 bytes at a time, as a pipe or a signal can make it."""

    def __init__(self, real) -> None:
        self.real = real

    def write(self, data: bytes) -> int:
        return self.real.write(bytes(data[:7]))

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_write_that_takes_only_part_of_the_lines_loses_none_of_them(tmp_path):
    expected = tmp_path / "whole.jsonl"
    with TraceWriter(expected) as writer:
        ROSE.executor(ScriptedModel(ROSE.replies)).invoke(ROSE.inputs(), [writer])
    path = tmp_path / "short.jsonl"
    writer = TraceWriter(path)
    writer._file = ShortWrites(writer._file)
    ROSE.executor(ScriptedModel(ROSE.replies)).invoke(ROSE.inputs(), [writer])
    writer.close()
    kinds = [event.kind for event in load_trace(path)[1]]
    assert kinds == [event.kind for event in load_trace(expected)[1]] and load_trace(path)[2] is None


def test_a_long_stretch_without_a_wait_is_written_out_as_it_goes(tmp_path):
    """Events that never make the run wait are gathered, but never more than a bounded number of lines."""
    from executor.events import FinishCheckEvent, SourceRef

    path = tmp_path / "long.jsonl"
    writer = TraceWriter(path)
    source = SourceRef(file="f.py", line=1, function="f")
    for seq in range(1000):
        writer(
            FinishCheckEvent(
                seq=seq,
                run_id="r",
                t=0.0,
                iteration=seq,
                frames=("f",),
                source=source,
                is_finish=False,
                output_type="list[AgentStep]",
            )
        )
    on_disk = writer.partial.read_bytes().count(b"\n")
    assert 1000 - 256 <= on_disk - 1 <= 1000  # the header, and all but the last few hundred lines
    writer.close()
    assert path.read_bytes().count(b"\n") == 1001


def test_a_tools_lone_surrogate_is_written_escaped_and_read_back_exactly(tmp_path):
    """A file read with errors="surrogateescape" gives such text; the trace used to fail outright."""
    from executor import AgentExecutor, ManualClock, Tool, create_react_agent

    observation = "caf\udce9 menu \x1b[31m"
    replies = [
        " look\nAction: Menu\nAction Input: today",
        " and again\nAction: Menu\nAction Input: today",
        " Final Answer: see \ud800 above",
    ]
    tools = [Tool("Menu", "reads the menu file", lambda _: observation)]
    executor = AgentExecutor(agent=create_react_agent(ScriptedModel(replies), tools), tools=tools, clock=ManualClock())
    path = tmp_path / "menu.jsonl"
    with TraceWriter(path) as writer:
        executor.invoke({"input": "what is on?"}, [writer])
    path.read_bytes().decode("utf-8")  # the file is valid UTF-8 throughout
    _header, events, warning = load_trace(path)
    assert warning is None
    assert [e.observation for e in events if e.kind == "tool_end"] == [observation, observation]
    assert events[-1].outputs == {"output": "see \ud800 above"}
    prompts = [e.prompt for e in events if e.kind == "llm_start"]
    assert prompts[-1].count(observation) == 2  # the base + append prompt put back whole


def test_a_disk_that_fills_on_the_last_write_fails_the_trace_with_one_line(tmp_path):
    """The lines gathered since the last wait go out at close; if that write fails, close says so."""
    from executor.events import FinishCheckEvent, SourceRef

    path = tmp_path / "t.jsonl"
    writer = TraceWriter(path)
    writer._file = FullDisk(writer._file, room=0)  # the header is out; nothing more fits
    source = SourceRef(file="f.py", line=1, function="f")
    writer(
        FinishCheckEvent(
            seq=0,
            run_id="r",
            t=0.0,
            iteration=1,
            frames=("f",),
            source=source,
            is_finish=False,
            output_type="list[AgentStep]",
        )
    )  # gathered: finish_check waits for nothing
    with pytest.raises(TraceWriteError) as failure:
        writer.close()
    assert "No space left on device" in str(failure.value) and "\n" not in str(failure.value)
    assert not path.exists()
