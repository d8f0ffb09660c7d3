"""What a user sees in a real terminal (tmux, 120x40): `loopscope debug --live MODULE:ATTR --replies FILE` on a
LangGraph, an Agents SDK and a pydantic-ai agent, stepped to the tool_start, `s` into the tool, its locals shown."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.debug.live_framework_agents import QUESTION, line_of, write_project

pytestmark = [
    pytest.mark.slow,  # a debugger process of its own per agent: seconds apiece
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]
LOOPSCOPE = Path(sys.executable).with_name("loopscope")  # the command `uv run loopscope` runs
WAIT = 60.0


class Terminal:
    """One tmux session running a command, on a tmux server of its own (no one's settings or other sessions
    reach it, and closing it ends nothing else); keys in, the screen's text out."""

    def __init__(self, name: str, folder: Path, command: str) -> None:
        self.name = name
        self.tmux = ["tmux", "-L", name, "-f", os.devnull]
        new = ["new-session", "-d", "-s", name, "-x", "120", "-y", "40", "-c", str(folder), command]
        # The test process's COLUMNS/LINES (80x24, set for pytest's own output) would size Textual's screen.
        env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
        subprocess.run([*self.tmux, *new], check=True, env=env)

    def screen(self) -> str:
        shown = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return shown.stdout

    def press(self, key: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, key], check=True)

    def until(self, seen: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            screen = self.screen()
            if seen(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"never saw {what}; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


@pytest.fixture
def terminal(tmp_path) -> Iterator[Callable[[str, str], Terminal]]:
    opened: list[Terminal] = []

    def open_live(spec: str, replies: str) -> Terminal:
        command = shlex.join([str(LOOPSCOPE), "debug", "--live", spec, "--input", QUESTION, "--replies", replies])
        # A name never used before: a server just killed under the same socket name can still be exiting as the
        # next test starts one there ("server exited unexpectedly": CI saw it once).
        shown = Terminal(f"loopscope-live-{uuid.uuid4().hex[:12]}", tmp_path, command)
        opened.append(shown)
        return shown

    yield open_live
    for each in opened:
        each.close()


def position(screen: str) -> int:
    """The event the status line says the debugger is at."""
    found = re.search(r"event (\d+) of \d+", screen)
    return int(found.group(1)) if found else -1


def source_line(screen: str, number: int, text: str) -> bool:
    """The Source pane shows line `number` (holding `text`) as the current one (▶ in its gutter)."""
    return re.search(rf"▶\s*{number}\s+{re.escape(text)}", screen) is not None  # "▶ 9", "▶10": one mark column


def variable(screen: str, name: str, value: str) -> bool:
    """Variables shows the row `name  value`."""
    return re.search(rf"│?\s{re.escape(name)}\s+{re.escape(value)}", screen) is not None


@pytest.mark.parametrize(
    ("framework", "tool"),
    [
        ("langgraph", "get_weather"),
        ("openai_agents", "get_weather"),
        ("openai_agents", "get_time"),
        ("pydantic_ai", "get_weather"),
    ],
)
def test_s_at_the_tool_start_shows_the_tools_line_and_its_city_in_a_real_terminal(framework, tool, tmp_path, terminal):
    spec, source, replies = write_project(tmp_path, framework, tool)
    local, value = ("forecast", "'sunny'") if tool == "get_weather" else ("zone", "'UTC+8'")
    body = line_of(source, f"    {local} = ")
    shown = terminal(spec, replies.name)
    shown.until(lambda s: "chain_start" in s, "the run's first event")
    offer = f"s: step into {tool}() line by line"
    for _ in range(8):  # step to the tool_start, one event a press (its offer may be drawn a moment later)
        at = position(shown.screen())
        if "· tool_start ·" in " ".join(shown.screen().split()):
            break
        shown.press("s")
        landed = f"step → event {at + 1}"  # the status line says it once the event is drawn
        shown.until(lambda s, landed=landed: landed in " ".join(s.split()), landed)
    screen = shown.until(lambda s: offer in " ".join(s.split()), "the offer to step into the tool")
    assert re.search(rf"▶ {tool}\s", screen), screen  # the call stack marks the user's function
    assert "not called yet" in screen

    shown.press("s")
    first = source.read_text().splitlines()[body - 1].strip()
    # The panes are drawn one after another: the Source pane's line can be on screen a frame before Variables.
    screen = shown.until(
        lambda s: source_line(s, body, first) and variable(s, "city", "'Beijing'"),
        f"line {body} of {source.name} as the current line, with city 'Beijing' in Variables",
    )
    assert f"▶ {tool}()" in screen

    shown.press("s")
    second = source.read_text().splitlines()[body].strip()
    shown.until(
        lambda s: source_line(s, body + 1, second) and variable(s, local, value) and variable(s, "city", "'Beijing'"),
        f"line {body + 1} as the current line, with {local} {value} in Variables",
    )

    shown.press("r")
    screen = shown.until(lambda s: "tool_end" in s and f"{tool}() is done" in " ".join(s.split()), "the tool_end")
