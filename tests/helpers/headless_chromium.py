"""Debian's chromium, headless, driven over the DevTools protocol: open a page, wait for it, read it, screenshot it."""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
    "--remote-debugging-port=0",
    "--window-size=1600,1000",
]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class HeadlessChromium:
    """`async with HeadlessChromium() as browser: await browser.open(url)`; a fresh profile each time."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.env = env  # e.g. FONTCONFIG_FILE, to see the page as a machine with other fonts would
        self.profile = tempfile.TemporaryDirectory(prefix="loopscope-chromium-", ignore_cleanup_errors=True)
        self._ids = 0
        self.events: list[dict[str, Any]] = []  # DevTools events (requests made, ...) seen while waiting for replies

    async def __aenter__(self) -> HeadlessChromium:
        binary = chromium_path()
        if binary is None:
            raise RuntimeError("chromium is not installed (apt-get install -y chromium)")
        self.process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=self.env,
        )
        port_file = Path(self.profile.name) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port")
            await asyncio.sleep(0.1)
        port = port_file.read_text().split()[0]
        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{port}/json") as response:
            page = next(t for t in await response.json() if t["type"] == "page")
        self.ws = await self.http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()
        await self.http.close()
        self.process.terminate()
        self.process.wait(timeout=10)
        self.profile.cleanup()

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._ids += 1
        await self.ws.send_str(json.dumps({"id": self._ids, "method": method, "params": params}))
        while True:
            message = json.loads((await self.ws.receive()).data)
            if "method" in message:
                self.events.append(message)
            elif message.get("id") == self._ids:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    async def open(self, url: str) -> None:
        await self.call("Page.enable")
        await self.call("Network.enable")  # so `requested_urls` sees every request the page makes
        await self.call("Page.navigate", url=url)

    def requested_urls(self) -> list[str]:
        """Every URL the page asked for so far: documents, scripts, styles, fonts, images, fetches, websockets."""
        asked = ("Network.requestWillBeSent", "Network.webSocketCreated")
        return [
            event["params"]["request"]["url"] if "request" in event["params"] else event["params"]["url"]
            for event in self.events
            if event["method"] in asked
        ]

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 40.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = await self.evaluate(expression)
            if value:
                return value
            await asyncio.sleep(0.25)
        raise AssertionError(f"the page never satisfied {expression!r}")

    async def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode((await self.call("Page.captureScreenshot", format="png"))["data"])
        path.write_bytes(data)
        return data
