"""Fixtures for the debugger's Pilot tests; coroutine tests here run under pytest-asyncio."""

from __future__ import annotations

import inspect
import shutil
from pathlib import Path

import pytest

from tests.helpers.paths import ROSE
from tests.helpers.trace_factory import INVALID_TOOL_REPLIES, record

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(pytest.mark.slow)  # every test here starts a Textual app
            if inspect.iscoroutinefunction(getattr(item, "function", None)):
                item.add_marker(pytest.mark.asyncio)


@pytest.fixture
def rose(tmp_path) -> Path:
    """A copy of the rose-pricing fixture, so breakpoint sidecars land in tmp, not in fixtures/."""
    return Path(shutil.copy(ROSE, tmp_path / "rose_pricing.jsonl"))


@pytest.fixture
def invalid_tool(tmp_path) -> Path:
    return record(tmp_path / "invalid_tool.jsonl", INVALID_TOOL_REPLIES)
