"""Each test's catalogue lives in its own cache folder; files written a moment ago count as settled."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURES
from tracer.runs import catalogue

SHIPPED = sorted(FIXTURES.rglob("*.jsonl"))


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.delenv(catalogue.ENV_CATALOGUE, raising=False)
    # A file written within RACY_NS of being read is read again next time (its stamp may not change
    # on the next write): the tests write files and list them at once, so they count as settled here.
    monkeypatch.setattr(catalogue, "RACY_NS", 0)
    return cache


@pytest.fixture
def traces(tmp_path) -> Path:
    """A folder holding a copy of every shipped fixture (the LangChain one in a subfolder)."""
    folder = tmp_path / "traces"
    for source in SHIPPED:
        target = folder / source.relative_to(FIXTURES)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)
    return folder
