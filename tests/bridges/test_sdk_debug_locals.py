"""`loopscope debug TRACE --agent MODULE:ATTR` on a recorded OpenAI Agents SDK run: the real agent re-run on the recording
gives every event its frames, with the model call's and each tool call's real locals."""

from __future__ import annotations

from tests.bridges.test_openai_agents_agent import AGENT
from tests.helpers.framework_e2e import ANSWER, PARALLEL_CALLS, check_debug_shows_replayed_locals, start_project


def test_a_recorded_run_shows_real_locals_by_re_running_the_agent(capsys, tmp_path, monkeypatch):
    project = start_project(tmp_path, monkeypatch, AGENT, "OpenAI Agents SDK", [PARALLEL_CALLS, ANSWER])
    try:
        project.record(capsys, question="Weather?")
    finally:
        project.server.stop()
    check_debug_shows_replayed_locals(tmp_path, "Weather?")
