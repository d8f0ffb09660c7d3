"""`loopscope serve`: the debugger over HTTP and a websocket, and rendered in headless Chromium."""

from __future__ import annotations

import asyncio
import base64
import re
import time
import urllib.request

import aiohttp
import pytest

from tests.helpers.headless_chromium import HeadlessChromium, chromium_path
from tests.helpers.paths import ROSE
from tests.helpers.served_debugger import served
from tracer.cli import main

pytestmark = pytest.mark.slow


async def _screen_text(port: int, keys: str = "", until: tuple[str, ...] = ("Timeline",), timeout: float = 40) -> str:
    """What the served debugger writes to a browser's terminal, as text, until `until` all appear."""
    seen = ""
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=160&height=45") as ws:
            deadline = time.monotonic() + timeout
            sent = False
            while time.monotonic() < deadline:
                try:
                    message = await ws.receive(timeout=1)
                except asyncio.TimeoutError:
                    message = None
                if message is not None and message.type == aiohttp.WSMsgType.BINARY:
                    seen += message.data.decode("utf-8", "replace")
                if not sent and "Timeline" in seen and keys:
                    await ws.send_json(["stdin", keys])
                    sent = True
                if all(word in seen for word in until):
                    return seen
    raise AssertionError(f"the served debugger never showed {until}; got {seen[-400:]!r}")


def test_serve_binds_loopback_says_so_and_streams_the_debugger():
    with served(str(ROSE)) as (port, process):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as page:
            html = page.read().decode()
        assert f"ws://127.0.0.1:{port}/ws" in html
        text = asyncio.run(_screen_text(port, keys="s", until=("Timeline", "chain_start", "event 1 of 23")))
        assert "agent_executor.py" in text and "Call stack" in text
        process.terminate()
        banner = process.communicate(timeout=10)[0]
    assert f"serving the debugger at http://127.0.0.1:{port}/" in banner and "127.0.0.1 only" in banner


@pytest.mark.parametrize(("args", "needle"), [
    ([], "give a trace file or --tutorial NAME"),
    (["fixtures/nope.jsonl"], "no such file"),
    (["--tutorial", "rose-prizing"], "unknown tutorial 'rose-prizing'"),
    ([str(ROSE), "--port", "0"], "choose a port between 1 and 65535"),
])
def test_serve_refuses_bad_input_in_one_line(capsys, args, needle):
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


_GREEN_PIXELS = """
(async () => {
  const img = new Image(); img.src = 'data:image/png;base64,%s'; await img.decode();
  const canvas = new OffscreenCanvas(img.width, img.height), g = canvas.getContext('2d'); g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, img.width, img.height).data; let green = 0, intro = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i] < 20 && d[i + 1] > 80 && d[i + 1] < 140 && d[i + 2] < 20) green++;   // the current source line
    if (d[i] === 12 && d[i + 1] === 24 && d[i + 2] === 31) intro++;             // textual-serve's splash
  }
  return [green, intro, d.length / 4];
})()
"""


async def _rendered(port: int, shot) -> tuple[int, int, int]:
    async with HeadlessChromium() as browser:
        await browser.open(f"http://127.0.0.1:{port}/")
        await browser.wait_for("document.body.classList.contains('-first-byte')")  # the app's first output
        deadline = time.monotonic() + 40
        while True:
            data = await browser.screenshot(shot)
            result = await browser.call("Runtime.evaluate", awaitPromise=True, returnByValue=True,
                                        expression=_GREEN_PIXELS % base64.b64encode(data).decode())
            green, intro, total = result["result"]["value"]
            if green > 2000 or time.monotonic() > deadline:
                return green, intro, total
            await asyncio.sleep(0.5)


@pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed and could not be: .ci/run installs "
                                                     "it with `apt-get install -y chromium`; without apt this "
                                                     "check cannot run (the websocket test above still does)")
def test_serve_renders_in_headless_chromium(tmp_path):
    shot = tmp_path / "serve.png"
    with served("--tutorial", "rose-pricing", "--lang", "en") as (port, _process):
        green, intro, total = asyncio.run(_rendered(port, shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert green > 2000, "no highlighted source line in the screenshot: the debugger did not render"
    assert intro < total * 0.05, "the screenshot still shows textual-serve's splash screen"
