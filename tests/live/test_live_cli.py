"""`loopscope run/record/models` with --model against the fake endpoint, as a user would type them."""

import json

from tests.helpers.cli_run import loopscope
from tests.helpers.fake_openai_server import Status
from tests.live.conftest import API_KEY
from tracer.trace.reader import load_trace
from tutorials.rose_pricing import REPLIES

ANSWER = "26.25"


def test_run_with_model_narrates_a_live_run_and_its_trace_replays_offline(live_env, capsys, tmp_path):
    live_env.push(*REPLIES)
    trace = tmp_path / "live.jsonl"
    code, out, err = loopscope(capsys, "run", "rose-pricing", "--model", "openai:fake-model", "--trace", str(trace))
    assert code == 0, err
    assert "ran live against openai:fake-model" in out and ANSWER in out
    assert "plan() asks fake-model" in out
    header, _events, _ = load_trace(trace)
    assert header.model == "openai:fake-model" and header.live is True
    assert header.retry_policy["max_retries"] == 6
    assert API_KEY not in trace.read_text(encoding="utf-8")

    served = len(live_env.received)
    code, out, err = loopscope(capsys, "run", "rose-pricing", "--fixture", str(trace))
    assert code == 0, err
    assert "replayed live.jsonl offline" in out and len(live_env.received) == served


def test_record_with_model_writes_a_fixture_whose_retries_replay_without_waiting(live_env, capsys, tmp_path):
    live_env.push(Status(429, "rate limited", retry_after="0"), *REPLIES)  # Retry-After 0: no real wait
    fixture = tmp_path / "rose_live.jsonl"
    code, out, err = loopscope(capsys, "record", "rose-pricing", "--model", "openai:fake-model", "-o", str(fixture))
    assert code == 0, err
    assert f"live from openai:fake-model to {fixture}" in out
    _header, events, _ = load_trace(fixture)
    retries = [e for e in events if e.kind == "retry"]
    assert len(retries) == 1 and "HTTP 429" in retries[0].error and retries[0].delay == 0.0
    assert events[-1].kind == "chain_end" and API_KEY not in fixture.read_text(encoding="utf-8")

    code, out, err = loopscope(capsys, "run", "rose-pricing", "--fixture", str(fixture))
    assert code == 0, err
    assert "retry llm 'fake-model' after attempt 1" in out and ANSWER in out

    served = len(live_env.received)
    code, out, err = loopscope(capsys, "verify", str(fixture))
    assert code == 0, out + err
    assert "1 ok" in out and len(live_env.received) == served  # verified offline


def test_a_refused_key_ends_the_run_with_one_clear_line_and_no_key(live_env, capsys):
    live_env.push(Status(401))
    code, out, err = loopscope(capsys, "run", "rose-pricing", "--model", "openai:fake-model")
    assert code == 1 and len(live_env.received) == 1
    assert "The run ended with ProviderAuthError: HTTP 401" in out and "check OPENAI_API_KEY" in out
    assert API_KEY not in out + err and "Traceback" not in out + err


def test_a_missing_key_is_a_usage_error_naming_the_variable(live_env, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    code, _out, err = loopscope(capsys, "run", "rose-pricing", "--model", "openai:fake-model")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("loopscope: OPENAI_API_KEY is not set") and not live_env.received


def test_an_unknown_provider_lists_the_available_ones(live_env, capsys):
    code, _out, err = loopscope(capsys, "run", "rose-pricing", "--model", "mycloud:big")
    assert code == 2
    assert err.strip() == "loopscope: Provider 'mycloud' not found; available: openai, replay, scripted"


def test_settings_from_a_dotenv_file_run_live_and_show_in_models(live_env, capsys, monkeypatch, tmp_path):
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("OPENAI_BASE_URL")
    (tmp_path / ".env").write_text(
        f"OPENAI_API_KEY={API_KEY}\nOPENAI_BASE_URL={live_env.base_url}\nLOOPSCOPE_MODEL=openai:fake-model\n",
        encoding="utf-8",
    )
    code, out, err = loopscope(capsys, "models")
    assert code == 0, err
    assert "openai:fake-model" in out and live_env.base_url in out and ".env (" in out
    assert API_KEY not in out
    live_env.push(*REPLIES)
    code, out, err = loopscope(capsys, "run", "rose-pricing", "--live")
    assert code == 0, err
    assert "ran live against openai:fake-model" in out and len(live_env.received) == 4


def test_models_remote_asks_the_endpoint_what_it_serves(live_env, capsys):
    code, out, err = loopscope(capsys, "models", "--remote")
    assert code == 0, err
    assert "serves 2 models" in out and "fake-model-large" in out
    assert API_KEY not in out


def test_models_remote_with_a_wrong_endpoint_is_one_line(live_env, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", live_env.base_url.replace("/v1", "/nowhere"))
    code, _out, err = loopscope(capsys, "models", "--remote")
    assert code == 2 and err.count("\n") == 1
    assert "could not list models: HTTP 404" in err


def test_replay_provider_answers_from_a_recorded_trace(capsys):
    from tutorials import get_scenario

    fixture = str(get_scenario("rose-pricing").fixture)
    code, out, err = loopscope(capsys, "run", "rose-pricing", "--model", f"replay:{fixture}")
    assert code == 0, err
    assert f"ran live against replay:{fixture}" in out and ANSWER in out


def test_usage_reaches_the_trace(live_env, capsys, tmp_path):
    live_env.push(*REPLIES)
    trace = tmp_path / "t.jsonl"
    assert loopscope(capsys, "run", "rose-pricing", "--model", "openai:fake-model", "--trace", str(trace))[0] == 0
    lines = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()[1:]]
    usages = [line["usage"] for line in lines if line["kind"] == "llm_end"]
    assert len(usages) == 4 and all(u["prompt_tokens"] > 0 and u["completion_tokens"] > 0 for u in usages)


def test_debug_live_with_model_drives_the_real_endpoint_and_records_without_the_key(live_env, capsys, tmp_path):
    live_env.push(Status(500, "hiccup"), *REPLIES)
    trace = tmp_path / "debug_live.jsonl"
    # stdout is not a terminal here, so the debugger prints the narrated live run instead of opening.
    code, out, err = loopscope(
        capsys,
        "debug",
        "--live",
        "rose-pricing",
        "--model",
        "openai:fake-model",
        "--max-retries",
        "1",
        "--record",
        str(trace),
    )
    assert code == 0, err
    assert "plan() asks fake-model" in out and ANSWER in out and "retry llm 'fake-model'" in out
    header, events, _ = load_trace(trace)
    assert header.model == "openai:fake-model" and header.retry_policy["max_retries"] == 1
    assert [e.kind for e in events].count("retry") == 1
    assert API_KEY not in trace.read_text(encoding="utf-8")
