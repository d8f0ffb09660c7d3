"""`loopscope serve`: the debugger over HTTP and a websocket, and rendered in headless Chromium."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from tests.helpers.headless_chromium import HeadlessChromium
from tests.helpers.paths import ROSE
from tests.helpers.served_debugger import ServedDebugger, served
from tests.helpers.system_packages import dejavu_folder, needs_chinese_font, needs_chromium, needs_dejavu
from tracer.cli import main
from tracer.cli.serve_guard import FONT_STACK

pytestmark = pytest.mark.slow


async def _screen_text(
    server: ServedDebugger, keys: str, until: tuple[str, ...] = ("Timeline",), timeout: float = 40
) -> tuple[str, int]:
    """What the served debugger writes to its own page's terminal, as text, until `until` all appear; and how
    many debugger processes serve was running while the debugger showed."""
    seen, sessions = "", 0
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(server.websocket_url(), headers={"Origin": server.origin}) as ws,
    ):
        deadline = time.monotonic() + timeout
        sent = False
        while time.monotonic() < deadline:
            try:
                message = await ws.receive(timeout=1)
            except TimeoutError:
                message = None
            if message is not None and message.type == aiohttp.WSMsgType.BINARY:
                seen += message.data.decode("utf-8", "replace")
            if not sent and "Timeline" in seen:
                sessions = len(_children(server.process.pid))
                await ws.send_json(["stdin", keys])
                sent = True
            if all(word in seen for word in until):
                return seen, sessions
    raise AssertionError(f"the served debugger never showed {until}; got {seen[-400:]!r}")


def _children(pid: int) -> list[int]:
    """The processes `pid` started (a debugger session each), read from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that ended while we looked
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


async def _foreign_websockets(server: ServedDebugger) -> list[int]:
    """Another web page's try (its Origin, no token), and a token-less try from the right origin: their statuses."""
    statuses = []
    attempts = [
        (server.websocket_url(), "http://evil.example"),
        (f"ws://127.0.0.1:{server.port}/ws?width=80&height=24", server.origin),
        (f"ws://127.0.0.1:{server.port}/ws/wrong?width=80&height=24", server.origin),
    ]
    async with aiohttp.ClientSession() as http:
        for url, origin in attempts:
            try:
                async with http.ws_connect(url, headers={"Origin": origin}) as ws:
                    statuses.append(101)
                    await ws.receive(timeout=5)
            except aiohttp.WSServerHandshakeError as refused:
                statuses.append(refused.status)
    return statuses


def test_serve_binds_loopback_says_so_and_streams_the_debugger_to_its_own_page_only():
    with served(str(ROSE)) as server:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{server.port}/")
        assert refused.value.code == 403
        with urllib.request.urlopen(server.page_url) as page:
            html = page.read().decode()
        assert f"ws://127.0.0.1:{server.port}/ws/{server.token}" in html
        assert asyncio.run(_foreign_websockets(server)) == [403, 403, 403]
        assert _children(server.process.pid) == [], "a refused websocket started a debugger"
        text, sessions = asyncio.run(_screen_text(server, keys="s", until=("Timeline", "chain_start", "event 1 of 23")))
        assert "agent_executor.py" in text and "Call stack" in text
        assert sessions == 1, "its own page's websocket should have started exactly one debugger"
    assert f"serving the debugger at {server.page_url} " in server.banner and "127.0.0.1 only" in server.banner


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ([], "give a trace file or --tutorial NAME"),
        (["fixtures/nope.jsonl"], "no such file"),
        (["--tutorial", "rose-prizing"], "unknown tutorial 'rose-prizing'"),
        ([str(ROSE), "--port", "0"], "choose a port between 1 and 65535"),
    ],
)
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


async def _rendered(server: ServedDebugger, shot: Path) -> tuple[int, int, int, list[str], bool]:
    """Green (source line) and splash pixels, all pixels, every URL the page requested, whether CJK is drawn."""
    async with HeadlessChromium() as browser:
        await browser.open(server.page_url)
        await browser.wait_for("document.body.classList.contains('-first-byte')")  # the app's first output
        deadline = time.monotonic() + 40
        while True:
            data = await browser.screenshot(shot)
            result = await browser.call(
                "Runtime.evaluate",
                awaitPromise=True,
                returnByValue=True,
                expression=_GREEN_PIXELS % base64.b64encode(data).decode(),
            )
            green, intro, total = result["result"]["value"]
            if green > 2000 or time.monotonic() > deadline:
                return green, intro, total, browser.requested_urls(), await _draws_chinese(browser)
            await asyncio.sleep(0.5)


def _assert_rendered(green: int, intro: int, total: int, shot: Path) -> None:
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert green > 2000, "no highlighted source line in the screenshot: the debugger did not render"
    assert intro < total * 0.05, "the screenshot still shows textual-serve's splash screen"


def _assert_only_its_own_host(urls: list[str], port: int) -> None:
    own = (f"http://127.0.0.1:{port}/", f"ws://127.0.0.1:{port}/")
    assert urls and all(url.startswith(own) or url.startswith("data:") for url in urls), urls


@needs_chromium
def test_serve_renders_in_headless_chromium_from_its_own_host_only(tmp_path):
    shot = tmp_path / "serve.png"
    with served("--tutorial", "rose-pricing", "--lang", "en") as server:
        green, intro, total, urls, _ = asyncio.run(_rendered(server, shot))
    _assert_rendered(green, intro, total, shot)
    _assert_only_its_own_host(urls, server.port)


# Draws two Chinese characters with the terminal's fonts: where no font has them, the browser draws the same
# empty box for both (and for any other), so equal pixels mean Chinese shows as boxes.
_DRAWS_CHINESE = """
(() => {
  const canvas = new OffscreenCanvas(48, 48), g = canvas.getContext('2d');
  const drawn = text => {
    g.fillStyle = '#000'; g.fillRect(0, 0, 48, 48); g.fillStyle = '#fff';
    g.font = '32px ' + %s; g.textBaseline = 'top'; g.fillText(text, 4, 4);
    return Array.from(g.getImageData(0, 0, 48, 48).data).join();
  };
  const middle = drawn('中'), text = drawn('文'), space = drawn(' ');
  return middle !== text && middle !== space && text !== space;
})()
"""


PAGE_FONTS = "getComputedStyle(document.querySelector('.intro')).fontFamily"  # the fonts the served page names


async def _draws_chinese(browser: HeadlessChromium, fonts: str = PAGE_FONTS) -> bool:
    return await browser.evaluate(_DRAWS_CHINESE % fonts)


@needs_chromium
@needs_chinese_font
def test_served_chinese_tutorial_draws_chinese_not_empty_boxes(tmp_path):
    shot = tmp_path / "serve-zh.png"
    with served("--tutorial", "rose-pricing", "--lang", "zh") as server:
        green, intro, total, urls, draws_chinese = asyncio.run(_rendered(server, shot))
    _assert_rendered(green, intro, total, shot)
    _assert_only_its_own_host(urls, server.port)
    assert draws_chinese is True, (
        f"the served page draws Chinese as empty boxes (screenshot: {shot}): install a font "
        "with Chinese (Debian: apt-get install fonts-noto-cjk)"
    )


@needs_chromium
@needs_dejavu
def test_the_chinese_check_sees_empty_boxes_on_a_machine_without_a_chinese_font(tmp_path):
    dejavu = dejavu_folder()
    config = tmp_path / "fonts.conf"  # a fontconfig that knows only DejaVu, which has no Chinese
    config.write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{dejavu}</dir><cachedir>{tmp_path}</cachedir></fontconfig>'
    )

    async def check() -> bool:
        async with HeadlessChromium(env={**os.environ, "FONTCONFIG_FILE": str(config)}) as browser:
            await browser.open("about:blank")
            return await _draws_chinese(browser, json.dumps(FONT_STACK))

    assert asyncio.run(check()) is False
