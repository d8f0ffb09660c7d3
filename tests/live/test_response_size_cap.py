"""A huge response body from an endpoint: the call fails in one line at the cap, memory stays bounded, no retry."""

from __future__ import annotations

import tracemalloc

import pytest

from executor import RetryPolicy
from executor.models.config import DEFAULT_MAX_RESPONSE_BYTES, ModelConfigError, load_model_config
from executor.models.providers import ResponseTooLarge, create_model
from tests.helpers.fake_openai_server import Huge
from tests.live.test_live_openai import run_rose

MB = 1 << 20


def live_model(max_response_bytes=None):
    config = load_model_config(model="openai:fake-model", timeout=30.0, max_response_bytes=max_response_bytes)
    return create_model(config.model, config)


def generate_measuring(model):
    """(the error generate raised, or its reply; peak bytes Python allocated meanwhile)."""
    tracemalloc.start()
    try:
        try:
            outcome = model.generate("price a rose", [])
        except Exception as error:
            outcome = error
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "body",
    [Huge(64 * MB), Huge(64 * MB, declared=True), Huge(64 * MB, gzip=True)],
    ids=["chunked-no-length", "content-length", "gzip-few-kb-on-the-wire"],
)
def test_a_body_past_the_cap_fails_the_call_in_one_line_and_is_not_read_on(live_env, monkeypatch, body):
    monkeypatch.setenv("LOOPSCOPE_MAX_RESPONSE_BYTES", str(MB))
    live_env.push(body)
    error, peak = generate_measuring(live_model())
    assert isinstance(error, ResponseTooLarge)
    message = str(error)
    assert message.startswith(f"the response from {live_env.base_url} is larger than 1,048,576 bytes")
    assert "LOOPSCOPE_MAX_RESPONSE_BYTES" in message and "\n" not in message
    assert ("it announced 67,108,864" in message) == body.declared  # refused before reading a byte
    assert peak < 16 * MB  # the body is 64 MB; reading it whole took two to three times that


def test_the_default_cap_is_32_mib_and_holds_memory_to_about_that(live_env, monkeypatch):
    monkeypatch.delenv("LOOPSCOPE_MAX_RESPONSE_BYTES", raising=False)
    live_env.push(Huge(64 * MB))
    error, peak = generate_measuring(live_model())
    assert isinstance(error, ResponseTooLarge) and "33,554,432 bytes" in str(error)
    assert DEFAULT_MAX_RESPONSE_BYTES == 32 * MB
    assert peak < 48 * MB


@pytest.mark.parametrize(
    "body",
    [Huge(3 * MB), Huge(3 * MB, gzip=True), Huge(3 * MB, declared=True)],
    ids=["chunked", "gzip", "content-length"],
)
def test_a_large_body_under_the_cap_is_read_as_before(live_env, body):
    live_env.push(body)
    reply, _ = generate_measuring(live_model(max_response_bytes=4 * MB))
    assert reply.text == "a reply at the end of a huge body"


def test_the_loop_does_not_retry_a_body_past_the_cap(live_env):
    live_env.push(Huge(8 * MB), Huge(8 * MB), Huge(8 * MB))
    events, outcome, _ = run_rose(live_model(max_response_bytes=MB), policy=RetryPolicy(max_retries=2, jitter=False))
    assert isinstance(outcome, ResponseTooLarge)
    assert len(live_env.received) == 1 and not [e for e in events if e.kind == "retry"]
    (chain_error,) = [e for e in events if e.kind == "chain_error"]
    assert chain_error.error_type == "ResponseTooLarge" and chain_error.message == str(outcome)


@pytest.mark.parametrize("value", ["abc", "0", "-5", "1e9", "3.5", "²", "9" * 5000, " "])
def test_a_bad_cap_setting_is_a_one_line_config_error(monkeypatch, tmp_path, value):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LOOPSCOPE_MAX_RESPONSE_BYTES", value)
    with pytest.raises(ModelConfigError) as caught:
        load_model_config(model="openai:fake-model")
    message = str(caught.value)
    assert message.startswith("LOOPSCOPE_MAX_RESPONSE_BYTES (environment) must be a whole number of bytes")
    assert "\n" not in message and len(message) < 200


def test_the_cap_comes_from_dotenv_and_an_argument_wins(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LOOPSCOPE_MAX_RESPONSE_BYTES", raising=False)
    (tmp_path / ".env").write_text("LOOPSCOPE_MAX_RESPONSE_BYTES=1_000_000\n")
    assert load_model_config().max_response_bytes == 1_000_000
    assert load_model_config(max_response_bytes=5).max_response_bytes == 5
