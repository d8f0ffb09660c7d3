"""The HTML report of a 10,000-event trace: export time, page size, and how long Chromium takes to open it.

Run: uv run python bench/bench_html.py [--events 10000] [--out bench/out]
The issue's targets: under a few MB, open in a second (no network: the page fetches nothing).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_debugger import generate

from tests.helpers.headless_chromium import HeadlessChromium
from tracer.report.html.trace_page import trace_page

OPENED = """(() => { const n = performance.getEntriesByType('navigation')[0];
  return n && n.loadEventEnd > 0 ? JSON.stringify({dom: n.domContentLoadedEventEnd, load: n.loadEventEnd}) : ''; })()"""


async def open_in_chromium(page: Path) -> dict[str, float]:
    async with HeadlessChromium() as browser:
        await browser.open(page.resolve().as_uri())
        import json

        timing = json.loads(await browser.wait_for(OPENED))
        fetched = [url for url in browser.requested_urls() if url != page.resolve().as_uri()]
        assert not fetched, fetched
        return {"DOMContentLoaded (ms)": timing["dom"], "load (ms)": timing["load"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    trace = args.out / f"bench_html_{args.events}.jsonl"
    if not trace.exists():
        generate(trace, args.events)
    started = time.perf_counter()
    text = trace_page(trace)
    exported = time.perf_counter() - started
    page = args.out / f"bench_html_{args.events}.html"
    page.write_text(text, encoding="utf-8")
    print(f"trace: {args.events:,} events, {trace.stat().st_size / 1e6:.1f} MB")
    print(f"  export --html                 {exported:8.2f} s")
    print(f"  page size                     {page.stat().st_size / 1e6:8.2f} MB")
    # Three opens, each in a fresh browser: a 2-core machine shared with other work varies a lot.
    opens = [asyncio.run(open_in_chromium(page)) for _ in range(3)]
    for name in opens[0]:
        values = sorted(found[name] for found in opens)
        print(f"  chromium {name:<20} {values[0]:8.0f} best, {values[1]:.0f} median")


if __name__ == "__main__":
    main()
