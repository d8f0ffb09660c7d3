"""Each interrupted recording keeps its own partial trace: a second one never replaces the first one's."""

from __future__ import annotations

import errno
import os
from itertools import islice

import pytest

from executor import ScriptedModel
from tracer.trace import kept_partial
from tracer.trace.reader import load_trace
from tracer.trace.writer import TraceWriter
from tutorials import get_scenario

ROSE = get_scenario("rose-pricing")


def abandon_after(path, events: int):
    """A recording of rose-pricing stopped after `events` events (as Ctrl-C stops it): where it kept them."""
    writer = TraceWriter(path, flush="event")
    for event in islice(ROSE.executor(ScriptedModel(ROSE.replies)).iter_events(ROSE.inputs()), events):
        writer(event)
    return writer.abandon()


def test_three_interrupted_recordings_of_one_file_keep_three_numbered_partial_traces(tmp_path):
    target = tmp_path / "h.jsonl"
    kept = [abandon_after(target, n) for n in (3, 5, 7)]
    assert [p.name for p in kept] == ["h.jsonl.interrupted", "h.2.jsonl.interrupted", "h.3.jsonl.interrupted"]
    assert [len(load_trace(p)[1]) for p in kept] == [3, 5, 7]  # each run's own events, none replaced
    assert not target.exists() and sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in kept)


def test_a_name_without_an_extension_is_numbered_at_its_end(tmp_path):
    kept = [abandon_after(tmp_path / "trace", 2) for _ in range(2)]
    assert [p.name for p in kept] == ["trace.interrupted", "trace.2.interrupted"]


@pytest.mark.parametrize("refusal", [errno.EPERM, errno.EXDEV])
def test_where_hard_links_are_refused_the_first_kept_file_still_survives(tmp_path, monkeypatch, refusal):
    def no_links(*_args, **_kwargs):
        raise OSError(refusal, os.strerror(refusal))

    monkeypatch.setattr(kept_partial.os, "link", no_links)
    first, second = abandon_after(tmp_path / "h.jsonl", 3), abandon_after(tmp_path / "h.jsonl", 6)
    assert (first.name, second.name) == ("h.jsonl.interrupted", "h.2.jsonl.interrupted")
    assert [len(load_trace(p)[1]) for p in (first, second)] == [3, 6]
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []
