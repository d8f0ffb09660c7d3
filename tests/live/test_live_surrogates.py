"""A lone surrogate sent by the server is replaced (U+FFFD) before the run, the trace or a replay sees it."""

import json

from executor import RetryPolicy
from tests.helpers.fake_openai_server import Status
from tests.live.test_live_openai import ANSWER, live_model, record_live, replay_offline, run_rose
from tracer.replay.verify import compare_runs
from tracer.trace.reader import load_trace
from tutorials.rose_pricing import REPLIES

LONE = "\ud800"


def test_a_reply_with_a_lone_surrogate_is_repaired_noted_traced_and_replayed(live_env, tmp_path):
    first = REPLIES[0].replace(" ", f" {LONE}", 1)
    assert LONE in first
    live_env.push(first, *REPLIES[1:])
    path = tmp_path / "live.jsonl"
    events, result, _ = record_live(path, RetryPolicy(jitter=False))
    assert not isinstance(result, Exception), result
    assert ANSWER in result["output"]
    ends = [e for e in events if e.kind == "llm_end"]
    assert ends[0].text == first.replace(LONE, "\ufffd").split("\nObservation")[0]
    assert [e.replaced_surrogates for e in ends] == [1, 0, 0, 0]
    assert all(LONE not in json.dumps(e.model_dump(mode="json"), ensure_ascii=False) for e in events)
    # The trace is valid UTF-8, notes the repair, and replays to the same events offline.
    lines = path.read_bytes().decode("utf-8").splitlines()
    assert '"replaced_surrogates":1' in lines[1 + events.index(ends[0])]
    _header, recorded, _ = load_trace(path)
    assert recorded[events.index(ends[0])].replaced_surrogates == 1
    # The cassette hands the recorded count back, so the replay equals the recording, note included.
    recorded, rerun = replay_offline(path)
    assert [e.text for e in rerun if e.kind == "llm_end"] == [e.text for e in ends]
    assert [e.replaced_surrogates for e in rerun if e.kind == "llm_end"] == [1, 0, 0, 0]
    assert compare_runs(recorded, rerun) is None


def test_clean_replies_carry_no_repair_field_in_the_trace(live_env, tmp_path):
    live_env.push(*REPLIES)
    path = tmp_path / "live.jsonl"
    record_live(path, RetryPolicy(jitter=False))
    assert "replaced_surrogates" not in path.read_text(encoding="utf-8")


def test_a_lone_surrogate_in_an_error_message_is_replaced_too(live_env):
    live_env.push(Status(500, f"overloaded {LONE} try later"))
    events, error, _ = run_rose(live_model(), RetryPolicy(max_retries=0, jitter=False))
    assert isinstance(error, Exception)
    assert "overloaded \ufffd try later" in str(error)
    assert all(LONE not in json.dumps(e.model_dump(mode="json"), ensure_ascii=False) for e in events)
