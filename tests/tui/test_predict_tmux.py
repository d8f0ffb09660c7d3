"""The predict quiz in a real terminal: tmux runs `loopscope tutorial rose-pricing --predict`, keys answer, the screen is read."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]
WAIT = 90.0  # seconds before the screen is declared wrong: a busy 2-core machine starts Python slowly


def command(data: Path) -> str:
    """What the learner types (through uv when it is there), with the scores kept in the test's folder."""
    run = "uv run loopscope" if shutil.which("uv") else f"{shlex.quote(sys.executable)} -m tracer.cli"
    # COLUMNS and LINES from the test's own environment would override the window's 120x40
    data_home = f"XDG_DATA_HOME={shlex.quote(str(data))}"
    return f"cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES {data_home} {run} tutorial rose-pricing --predict"


class Terminal:
    def __init__(self, name: str) -> None:
        self.name = name
        self.tmux = ["tmux", "-L", name, "-f", os.devnull]  # a server of its own: no one else's sessions or settings

    def screen(self) -> str:
        done = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def wait_for(self, *texts: str) -> str:
        """The screen once every one of `texts` is on it (panes are drawn one after another, not at once)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            shown = self.screen()
            if all(text in shown for text in texts):
                return shown
            time.sleep(0.3)
        raise AssertionError(f"{texts!r} never appeared together; the screen:\n{self.screen()}")

    def press(self, key: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, key], check=True)

    def space_until(self, *texts: str, limit: int = 20) -> str:
        for _ in range(limit):
            self.press("Space")
            try:
                return self.wait_for_briefly(*texts)
            except AssertionError:
                continue
        return self.wait_for(*texts)

    def wait_for_briefly(self, *texts: str, seconds: float = 4.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = self.screen()
            if all(text in shown for text in texts):
                return shown
            time.sleep(0.2)
        raise AssertionError(texts)


@pytest.fixture
def terminal(tmp_path):
    # A name never used before: a server just ended under the same name may still be exiting as this one starts.
    shown = Terminal(f"loopscope-predict-{uuid.uuid4().hex[:12]}")
    new = ["new", "-d", "-s", shown.name, "-x", "120", "-y", "40", command(tmp_path / "data")]
    subprocess.run([*shown.tmux, *new], check=True)
    try:
        yield shown
    finally:
        subprocess.run([*shown.tmux, "kill-server"], capture_output=True)


def test_the_learner_answers_by_keys_and_sees_the_verdict_and_the_score(terminal, tmp_path):
    terminal.wait_for("Stop 1/18")
    terminal.space_until("Predict 1/4 · what comes next?", "Which tool will its first action name?", "2. Search")
    terminal.press("1")  # wrong
    terminal.wait_for("predict: 0/1 right", "✗ you said 1; the answer is 2. Search")

    terminal.space_until("Predict 2/4 · what comes next?", "isinstance(output, AgentFinish)")
    terminal.press("2")  # right
    terminal.wait_for("predict: 1/2 right", "✓ right: 2. False")

    terminal.press("q")
    deadline = time.monotonic() + WAIT
    scores = tmp_path / "data" / "loopscope" / "predict-scores.json"
    while not scores.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert json.loads(scores.read_text(encoding="utf-8"))["tutorials"]["rose-pricing"] == {
        "first-tool": False,
        "first-check": True,
    }
