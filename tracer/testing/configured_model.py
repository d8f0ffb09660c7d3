"""The live model a test records its cassette with, configured as the loopscope command's is (LOOPSCOPE_MODEL...)."""

from __future__ import annotations

from typing import Any

import pytest

from executor.models.config import ENV_API_KEY, ENV_BASE_URL, ENV_MODEL, ModelConfigError, load_model_config

from ..models.live_model import LiveModel, build_live_model
from ..trace.literal_text import scrub


def model_spec(request: pytest.FixtureRequest) -> str | None:
    """--loopscope-model, else the test's @pytest.mark.loopscope(model=...), else the ini key; None leaves
    it to LOOPSCOPE_MODEL (the environment, then .env), as `loopscope record --live` does."""
    marker = request.node.get_closest_marker("loopscope")
    marked = marker.kwargs.get("model") if marker else None
    config = request.config
    return config.getoption("loopscope_model") or marked or config.getini("loopscope_model") or None


def configured_live_model(request: pytest.FixtureRequest) -> LiveModel:
    """The model to record with, its endpoint and key from OPENAI_BASE_URL and OPENAI_API_KEY (the
    environment, then .env); a test whose model cannot be set up fails in one line saying what to set."""
    spec = model_spec(request)
    try:
        if spec is None and load_model_config().model is None:
            pytest.fail(
                f"{request.node.nodeid} records its cassette, and no live model is configured: set {ENV_MODEL} "
                f"(e.g. openai:llama3, with {ENV_BASE_URL} and {ENV_API_KEY} for a local endpoint) or pass "
                "--loopscope-model PROVIDER:NAME; or give the test's run(..., live_model=...)",
                pytrace=False,
            )
        return build_live_model(spec)
    except (ModelConfigError, ValueError) as error:
        pytest.fail(f"{request.node.nodeid}: the live model to record with: {scrub(error)}", pytrace=False)


def recording_model(request: pytest.FixtureRequest, cassette: Any, patterns: list[str]) -> Any:
    """The configured live model, and the cassette's redactor told its key: a key read from .env was never
    in the environment the default redactor looks at."""
    live = configured_live_model(request)
    cassette.redactor = live.redactor(patterns)
    return live.model
