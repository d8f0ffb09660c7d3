"""The own-agent tutorial's live run: the learner's agent written into a fresh folder, recorded once, then run live."""

from __future__ import annotations

import tempfile
from pathlib import Path

from executor import ManualClock, ScriptedModel
from tutorials.own_agent import QUESTION, REPLIES, write_agent

from ..agents.user_agent import load_user_agent
from ..i18n import Message, say
from ..replay.builder import DEFAULT_CLOCK_TICK
from ..trace.writer import TraceWriter
from .live_run import LiveRun


def own_agent_run(folder: Path | None = None) -> LiveRun:
    """my_shop.py written into `folder` (default: a new temporary one), one run of it recorded against the
    scripted model into run.jsonl there, and a live run of it that those replies answer (its trace:
    live.jsonl there), as `loopscope debug --live my_shop.py:build --model replay:run.jsonl` would run it.

    The agent is loopscope's own text, written by loopscope: it runs without being trusted by name."""
    folder = folder or Path(tempfile.mkdtemp(prefix="loopscope-own-agent-"))
    source = write_agent(folder)
    agent = load_user_agent(f"{source}:build", {"input": QUESTION})
    recording = folder / "run.jsonl"
    executor = agent.executor(ScriptedModel(list(REPLIES)), clock=ManualClock(tick=DEFAULT_CLOCK_TICK))
    with TraceWriter(recording, **agent.header_meta(), clock_tick=DEFAULT_CLOCK_TICK) as writer:
        executor.invoke(agent.inputs(), [writer])
    return LiveRun(agent, folder / "live.jsonl", fixture=recording)


# The tutorials opened on a live run (registry: live=True), by name: what builds each one's run.
LIVE_TUTORIALS = {"own-agent": own_agent_run}


def live_tutorial_run(name: str) -> LiveRun:
    """A fresh live run for tutorial `name` (one of LIVE_TUTORIALS)."""
    return LIVE_TUTORIALS[name]()


def live_tutorial_message(run: LiveRun, lang: str = "en") -> Message:
    """The status line a live tutorial opens with: where the learner's agent was written (the screen
    says it in its language; `lang` is not needed)."""
    return Message("debugger.your_agent", {"source": getattr(run.scenario, "source", None)})


def live_tutorial_epilogue(run: LiveRun, lang: str) -> str:
    """What to try next with the learner's agent, printed once the debugger is closed."""
    source = Path(getattr(run.scenario, "source", None) or "my_shop.py")
    spec = f"{source.name}:build"
    replay = f"loopscope debug run.jsonl --agent {spec}"
    live = f"loopscope debug --live {spec} --model replay:run.jsonl"
    return say("debugger.own_agent_next", lang, source=source, folder=source.parent, replay=replay, live=live)
