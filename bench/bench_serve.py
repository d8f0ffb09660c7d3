"""`loopscope serve` in headless Chromium: time to serve, time to the first rendered debugger; saves a screenshot.

Run: uv run python bench/bench_serve.py [--tutorial rose-pricing] [--out docs/serve.png]
Needs Debian's chromium (apt-get install -y chromium; fonts-noto-cjk for the Chinese text).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.cli.test_serve import _GREEN_PIXELS
from tests.helpers.headless_chromium import HeadlessChromium
from tests.helpers.served_debugger import served


async def first_render(page_url: str, out: Path, steps: int) -> tuple[float, float]:
    async with HeadlessChromium() as browser:
        start = time.perf_counter()
        await browser.open(page_url)  # the address serve printed, token included
        await browser.wait_for("document.body.classList.contains('-first-byte')")
        first_byte = time.perf_counter() - start
        while True:
            data = await browser.screenshot(out)
            result = await browser.call(
                "Runtime.evaluate",
                awaitPromise=True,
                returnByValue=True,
                expression=_GREEN_PIXELS % base64.b64encode(data).decode(),
            )
            if result["result"]["value"][0] > 2000:
                break
            await asyncio.sleep(0.1)
        rendered = time.perf_counter() - start
        for kind in ("mousePressed", "mouseReleased"):  # focus the terminal, as a user's first click does
            await browser.call("Input.dispatchMouseEvent", type=kind, x=800, y=400, button="left", clickCount=1)
        for _ in range(steps):  # step into the run so the picture shows a stop with its narration
            for kind in ("keyDown", "keyUp"):
                await browser.call(
                    "Input.dispatchKeyEvent", type=kind, key=" ", code="Space", text=" ", windowsVirtualKeyCode=32
                )
            await asyncio.sleep(0.6)
        await asyncio.sleep(1.0)
        await browser.screenshot(out)
        return first_byte, rendered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tutorial", default="rose-pricing")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--steps", type=int, default=3, help="tutorial stops to advance before the screenshot")
    parser.add_argument("--out", type=Path, default=Path("docs/serve.png"))
    args = parser.parse_args()
    started = time.perf_counter()
    with served("--tutorial", args.tutorial, "--lang", args.lang) as server:
        up = time.perf_counter() - started
        first_byte, rendered = asyncio.run(first_render(server.page_url, args.out, args.steps))
    print(f"serve answering HTTP after  {up:.2f} s")
    print(f"page to first app byte      {first_byte:.2f} s")
    print(f"page to rendered debugger   {rendered:.2f} s")
    print(f"screenshot                  {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
