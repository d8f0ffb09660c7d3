"""`loopscope prompt` gives a recorded call's exact prompt (or message list) for `call --prompt-file`, and `call`
replays an unchanged one with the usage the endpoint reported when it was recorded."""

from __future__ import annotations

import io
import json

import pytest

from executor import AgentExecutor, ModelReply, ScriptedModel, Tool, create_react_agent
from tests.helpers.cli_run import loopscope
from tests.helpers.paths import FIXTURES, ROSE
from tracer.models.playground import recorded_call, rerun_call
from tracer.trace.reader import load_trace
from tracer.trace.writer import TraceWriter

PARALLEL = FIXTURES / "parallel_tools.jsonl"


def model_starts(path):
    return [e for e in load_trace(path)[1] if e.kind == "llm_start"]


def test_a_delta_encoded_prompt_comes_out_whole_and_an_unchanged_file_replays(tmp_path, capsys):
    raw = {json.loads(line)["seq"]: json.loads(line) for line in ROSE.read_text(encoding="utf-8").splitlines()[1:]}
    second = model_starts(ROSE)[1]
    assert "prompt" not in raw[second.seq] and "prompt_append" in raw[second.seq]  # the file stores a delta
    code, out, err = loopscope(capsys, "prompt", ROSE, "--at", second.seq, "-o", tmp_path / "p.txt")
    assert code == 0 and out == ""
    assert (tmp_path / "p.txt").read_text(encoding="utf-8") == second.prompt
    assert f"send it again with: loopscope call {ROSE} --at {second.seq} --prompt-file {tmp_path / 'p.txt'}" in err
    code, out, err = loopscope(capsys, "call", ROSE, "--at", second.seq, "--prompt-file", tmp_path / "p.txt")
    assert code == 0, err
    assert "the recorded prompt" in out and "answered by the recording (replayed)" in out
    assert "the replies are the same" in out


def test_printed_it_goes_through_a_pipe_into_call_unchanged(capsys, monkeypatch):
    first = model_starts(ROSE)[0]
    code, out, _ = loopscope(capsys, "prompt", ROSE, "--at", first.seq)
    assert code == 0 and out == first.prompt + "\n"  # a final newline for the terminal; call drops it
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    code, out, err = loopscope(capsys, "call", ROSE, "--at", first.seq, "--prompt-file", "-")
    assert code == 0 and "the recorded prompt" in out and "replayed" in out, err


def test_an_edited_prompt_file_is_an_edit(tmp_path, capsys):
    first = model_starts(ROSE)[0]
    (tmp_path / "p.txt").write_text(first.prompt.replace("Question:", "Q:") + "\n", encoding="utf-8")
    code, _, err = loopscope(capsys, "call", ROSE, "--at", first.seq, "--prompt-file", tmp_path / "p.txt")
    assert code == 2 and "a changed prompt needs a model to answer it" in err


def test_a_chat_call_is_its_message_list_as_json_and_it_round_trips(tmp_path, capsys):
    call = next(e for e in model_starts(PARALLEL) if e.messages and any(m["role"] == "tool" for m in e.messages))
    code, out, _ = loopscope(capsys, "prompt", PARALLEL, "--at", call.seq)
    assert code == 0 and json.loads(out) == call.messages
    (tmp_path / "m.json").write_text(out, encoding="utf-8")
    code, out, err = loopscope(capsys, "call", PARALLEL, "--at", call.seq, "--prompt-file", tmp_path / "m.json")
    assert code == 0 and "the recorded message list" in out and "replayed" in out, err


class Recording:
    """A chat model that says what it was asked."""

    model_name = "recording"

    def __init__(self):
        self.asked = []

    def generate(self, prompt, stop):
        raise AssertionError("a chat call's messages must go to generate_messages")

    def generate_messages(self, messages, tools, tool_choice="auto", parallel_tool_calls=True):
        self.asked.append((messages, tools))
        return ModelReply("Walk in Beijing.", {"prompt_tokens": 7, "completion_tokens": 3})


def test_edited_messages_go_to_the_models_chat_call_with_the_recorded_tools():
    start = next(e for e in model_starts(PARALLEL) if e.messages and any(m["role"] == "tool" for m in e.messages))
    call = recorded_call(load_trace(PARALLEL)[1], start.seq)
    edited = json.loads(call.request_text)
    edited[-1]["content"] = "Guangzhou: sunny, 25°C"
    model = Recording()
    rerun = rerun_call(call, json.dumps(edited), ("recording", model))
    assert model.asked == [(edited, start.tools)]
    assert (
        rerun.prompt_changed
        and rerun.reply == "Walk in Beijing."
        and rerun.usage
        == {
            "prompt_tokens": 7,
            "completion_tokens": 3,
        }
    )
    first_reply = recorded_call(load_trace(PARALLEL)[1], model_starts(PARALLEL)[0].seq).reply
    assert first_reply.splitlines()[0] == '-> get_weather({"city": "Beijing"})'  # a reply of tool calls, shown


@pytest.mark.parametrize(
    ("text", "problem"),
    [("[{oops", "the message list is not valid JSON"), ('[{"content": "no role"}]', 'objects with a "role"')],
)
def test_a_broken_message_list_is_one_line(tmp_path, capsys, text, problem):
    call = next(e for e in model_starts(PARALLEL) if e.messages)
    (tmp_path / "m.json").write_text(text, encoding="utf-8")
    code, _out, err = loopscope(capsys, "call", PARALLEL, "--at", call.seq, "--prompt-file", tmp_path / "m.json")
    assert code == 2 and problem in err and len(err.strip().splitlines()) == 1


def recorded_with_usage(path, prompt_suffix=""):
    replies = [
        ModelReply(" I know.\nFinal Answer: 25 yuan", {"prompt_tokens": 1200, "completion_tokens": 34}),
    ]
    tools = [Tool("Search", "Look things up.", lambda q: "25 yuan")]
    executor = AgentExecutor(agent=create_react_agent(ScriptedModel(replies), tools), tools=tools)
    with TraceWriter(path) as writer:
        executor.invoke({"input": "What do roses cost?" + prompt_suffix}, [writer])
    return path


def test_a_replayed_call_reports_the_usage_the_endpoint_recorded(tmp_path, capsys):
    trace = recorded_with_usage(tmp_path / "run.jsonl")
    code, out, err = loopscope(capsys, "call", trace, "--at", 1)
    assert code == 0, err
    assert "tokens (as recorded): 1,200 prompt + 34 completion tokens, from the endpoint's usage" in out
    code, out, _ = loopscope(capsys, "call", ROSE, "--at", 1)  # the scripted fixture has no usage: estimated
    assert "estimated (no usage recorded)" in out


def test_a_prompt_with_terminal_escapes_prints_them_as_stand_ins_and_writes_them_exactly(tmp_path, capsys):
    trace = recorded_with_usage(tmp_path / "run.jsonl", prompt_suffix=" \x1b[2J\x1b]0;owned\x07")
    code, out, err = loopscope(capsys, "prompt", trace, "--at", 1)
    assert code == 0 and "\x1b" not in out and "\x07" not in out and "␛[2J" in out
    assert "printed as stand-ins; -o FILE writes it exactly" in err
    loopscope(capsys, "prompt", trace, "--at", 1, "-o", tmp_path / "p.txt")
    assert (tmp_path / "p.txt").read_text(encoding="utf-8") == model_starts(trace)[0].prompt
    code, out, _ = loopscope(capsys, "call", trace, "--at", 1, "--prompt-file", tmp_path / "p.txt")
    assert code == 0 and "replayed" in out


def test_only_a_model_call_has_a_prompt(capsys):
    code, out, err = loopscope(capsys, "prompt", ROSE, "--at", 3)
    assert code == 2 and out == "" and "event 3 is agent_action; pick a model call's llm_start" in err


def test_an_edited_prompt_is_answered_offline_by_the_first_of_replies(tmp_path, capsys):
    first = model_starts(ROSE)[0]
    (tmp_path / "p.txt").write_text(first.prompt.replace("Question:", "Q:"), encoding="utf-8")
    (tmp_path / "r.json").write_text(json.dumps([" I should ask a florist.\nFinal Answer: ask", "unused"]), "utf-8")
    argv = ["call", ROSE, "--at", first.seq, "--prompt-file", tmp_path / "p.txt"]
    code, out, err = loopscope(capsys, *argv, "--replies", tmp_path / "r.json")
    assert code == 0, err
    assert "edited prompt" in out and "answered by scripted (--replies)" in out
    assert "I should ask a florist." in out and "unused" not in out
    assert "the first of 2 replies answers it" in err
    (tmp_path / "none.json").write_text("[]", "utf-8")
    code, _, err = loopscope(capsys, *argv, "--replies", tmp_path / "none.json")
    assert code == 2 and "--replies" in err and "empty" in err and len(err.strip().splitlines()) == 1
