"""At a framework's model call (llm_start, llm_end) the call stack ends at the framework's frame that asked the model,
its locals holding the messages sent, live and in a recording re-run with --agent; loopscope's frames never show."""

from __future__ import annotations

import pytest

from tracer.debug.framework_live import is_run_file

SITE = "/home/me/.venv/lib/python3.12/site-packages"


@pytest.mark.parametrize(
    ("file", "the_runs"),
    [
        (f"{SITE}/tracer/bridges/openai_agents_agent.py", False),  # loopscope installed with pip: still ours
        (f"{SITE}/agents/run_internal/run_loop.py", True),
        ("/usr/lib/python3.12/asyncio/tasks.py", False),
        ("/usr/lib/python3.12/site-packages/pydantic_ai/_agent_graph.py", True),  # the system Python's
        (f"{SITE}/langchain_core/callbacks/manager.py", False),
        ("/home/me/app/my_app.py", True),
    ],
)
def test_a_frame_belongs_to_the_run_by_its_file_wherever_loopscope_is_installed(file, the_runs):
    assert is_run_file(file, ours=f"{SITE}/tracer", stdlib="/usr/lib/python3.12") is the_runs
