"""Every recorded fixture: its transitions match the stored snapshot, and it still re-executes identically."""

import pytest

from tests.helpers.paths import FIXTURES
from tracer.replay.verify import verify_trace
from tracer.testing.snapshot_extension import TraceSnapshotExtension
from tracer.trace.transitions import Trace

# A glob, so new fixtures are picked up; `uv run pytest --snapshot-update` writes their snapshots.
FIXTURE_FILES = sorted(FIXTURES.glob("*.jsonl"))


@pytest.fixture
def transitions_snapshot(snapshot):
    return snapshot.use_extension(TraceSnapshotExtension)


def test_there_are_fixtures_to_check():
    assert any(path.name == "rose_pricing.jsonl" for path in FIXTURE_FILES)


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda path: path.stem)
def test_fixture_transitions_match_the_snapshot(fixture, transitions_snapshot):
    assert Trace.load(fixture) == transitions_snapshot


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda path: path.stem)
def test_fixture_reexecutes_identically(fixture):
    result = verify_trace(fixture)
    assert result.status == "ok", result.message
