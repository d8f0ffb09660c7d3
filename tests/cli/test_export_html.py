"""`export --html` and `diff --html`: a page per trace that a browser opens offline, lanes drawn, our script alone running."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

import pytest

from tests.helpers.headless_chromium import HeadlessChromium
from tests.helpers.paths import FIXTURES
from tests.helpers.system_packages import needs_chromium
from tests.report.test_html_report import hostile_trace
from tracer.cli import main
from tracer.report.waterfall.scan import waterfall_of_trace
from tracer.trace.index import TraceIndex
from tracer.trace.reader import TraceFile

EVERY_FIXTURE = sorted(FIXTURES.glob("*.jsonl")) + sorted((FIXTURES / "langchain").glob("*.jsonl"))


def test_export_html_writes_one_page_and_says_so(tmp_path, capsys):
    out = tmp_path / "run.html"
    assert main(["export", "--html", str(out), str(FIXTURES / "parallel_tools.jsonl")]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    said = capsys.readouterr()
    assert f"to {out}" in said.out and said.err == ""  # no progress bar when stderr is not a terminal


def test_export_html_takes_one_trace_and_says_so_in_one_line(tmp_path, capsys):
    trace = str(FIXTURES / "rose_pricing.jsonl")
    assert main(["export", "--html", str(tmp_path / "x.html"), trace, trace]) == 2
    err = capsys.readouterr().err
    assert "--html takes one trace, got 2" in err and err.count("\n") == 1
    assert not (tmp_path / "x.html").exists()


def test_export_html_to_a_folder_that_cannot_be_written_keeps_what_was_there(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert main(["export", "--html", str(blocked / "run.html"), str(FIXTURES / "rose_pricing.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and err.count("\n") == 1 and blocked.read_text() == "not a folder"


def test_diff_html_writes_both_runs_beside_each_other(tmp_path, capsys):
    out = tmp_path / "diff.html"
    a = FIXTURES / "tool_error_handled.jsonl"
    assert main(["diff", str(a), str(FIXTURES / "tool_error_retried.jsonl"), "--html", str(out)]) == 1
    page = out.read_text(encoding="utf-8")
    assert 'id="a-e0"' in page and 'id="b-e0"' in page and "The runs part" in page
    assert f"to {out}" in capsys.readouterr().err


def lane_count(path: Path) -> int:
    with TraceFile(path) as trace:
        return len(waterfall_of_trace(trace, TraceIndex.build(trace)).lanes)


# Pixels in the colour of tool bars (#3fb06b) and model bars (#5b8def) inside the waterfall's box (not
# the legend's squares), counted in a blank page.
_BAR_PIXELS = """
(async () => {
  const img = new Image(); img.src = 'data:image/png;base64,%s'; await img.decode();
  const box = %s, canvas = new OffscreenCanvas(Math.ceil(box.width), Math.ceil(box.height));
  const g = canvas.getContext('2d'); g.drawImage(img, -box.x, -box.y);
  const d = g.getImageData(0, 0, canvas.width, canvas.height).data; let tool = 0, model = 0;
  const near = (i, r, gr, b) => Math.abs(d[i] - r) < 12 && Math.abs(d[i + 1] - gr) < 12 && Math.abs(d[i + 2] - b) < 12;
  for (let i = 0; i < d.length; i += 4) { if (near(i, 63, 176, 107)) tool++; if (near(i, 91, 141, 239)) model++; }
  return [tool, model];
})()
"""


async def _open_each(pages: list[tuple[Path, Path]]) -> list[dict]:
    seen = []
    async with HeadlessChromium() as browser:
        for page, shot in pages:
            browser.events.clear()
            await browser.open(page.as_uri())
            await browser.wait_for("document.readyState === 'complete'")
            data = await browser.screenshot(shot)  # the top of the page: totals and the waterfall
            box = await browser.evaluate("JSON.stringify(document.querySelector('.wf-tracks').getBoundingClientRect())")
            await browser.evaluate("location.hash = 'e1'")  # what a click on the first model bar does
            await browser.wait_for("document.getElementById('e1').open")
            found = {
                "lanes": await browser.evaluate("document.querySelectorAll('.lane').length"),
                "scripts": await browser.evaluate("document.scripts.length"),
                "pwned": await browser.evaluate("typeof window.pwned"),
                # our script ran (the policy's hash is right): it opened event 1 and marked its bar
                "marked": await browser.evaluate("document.querySelectorAll('.b.cur').length"),
                "urls": browser.requested_urls(),
            }
            # Open every event: their details are drawn from the data block; none of it may become markup.
            await browser.evaluate("document.querySelectorAll('.tl details').forEach(d => { d.open = true; })")
            await browser.wait_for("[...document.querySelectorAll('.tl details')].every(d => d.querySelector('dl'))")
            found["drawn"] = await browser.evaluate("document.querySelectorAll('.tl dl img, .tl dl script').length")
            found["text"] = await browser.evaluate("document.querySelector('.tl').innerText")
            await browser.call("Page.navigate", url="about:blank")
            await browser.wait_for("document.readyState === 'complete' && location.href === 'about:blank'")
            result = await browser.call(
                "Runtime.evaluate", awaitPromise=True, returnByValue=True,
                expression=_BAR_PIXELS % (base64.b64encode(data).decode(), box),
            )  # fmt: skip
            found["tool_pixels"], found["model_pixels"] = result["result"]["value"]
            seen.append(found)
    return seen


@pytest.mark.slow
@needs_chromium
def test_every_fixtures_page_opens_offline_in_chromium_and_shows_its_lanes(tmp_path):
    pages = []
    for fixture in EVERY_FIXTURE:
        out = tmp_path / f"{fixture.stem}-{fixture.parent.name}.html"
        assert main(["export", "--html", str(out), str(fixture)]) == 0
        pages.append((out, tmp_path / f"{out.stem}.png"))
    for (page, shot), found, fixture in zip(pages, asyncio.run(_open_each(pages)), EVERY_FIXTURE):
        assert found["urls"] == [page.as_uri()], (fixture.name, found["urls"])  # nothing else was fetched
        assert found["lanes"] == lane_count(fixture), fixture.name
        assert found["scripts"] == 2 and found["marked"] >= 1, (fixture.name, found)  # ours, and its data block
        assert found["model_pixels"] > 20, (fixture.name, shot)  # the model lane is drawn
        if "tool 1" in page.read_text(encoding="utf-8"):
            assert found["tool_pixels"] > 20, (fixture.name, shot)


@pytest.mark.slow
@needs_chromium
def test_a_page_of_hostile_text_runs_none_of_it_in_chromium(tmp_path):
    out = tmp_path / "hostile.html"
    assert main(["export", "--html", str(out), str(hostile_trace(tmp_path))]) == 0
    found = asyncio.run(_open_each([(out, tmp_path / "hostile.png")]))[0]
    assert found["pwned"] == "undefined" and found["scripts"] == 2 and found["drawn"] == 0
    assert "<script>window.pwned = 1</script>" in found["text"]  # there to read, every event opened
    assert found["urls"] == [out.as_uri()]  # the planted https:// style and the img were never fetched
