"""The loop file is the lesson: at 120x40 the Source pane shows every line of agent_executor.py whole."""

from __future__ import annotations

import shutil

from rich.cells import cell_len

from tests.helpers.paths import ROOT, ROSE
from tests.helpers.pilot_helpers import debugger, settle

LOOP = ROOT / "executor" / "agent_executor.py"


def _shown(app, view) -> list[str]:
    """The pane's rows as the screen shows them (cut by columns: the timeline beside it holds wide characters)."""
    region = view.region
    strips = app.screen._compositor.render_strips()[region.y : region.bottom]
    return [strip.crop(region.x, region.right).text for strip in strips]


def _number(row: str) -> int | None:
    """The line number in a row of the pane (a mark column, then the number), if any."""
    head = row[1:].split(maxsplit=1)
    return int(head[0]) if head and head[0].isdigit() else None


async def test_every_line_of_the_loop_fits_the_source_pane_at_120x40(tmp_path):
    lines = LOOP.read_text(encoding="utf-8").splitlines()
    assert max(cell_len(line) for line in lines) >= 70  # the file uses its width: the check below is not idle
    app = debugger(shutil.copy(ROSE, tmp_path / "rose.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view = app.screen.query_one("#source")
        assert view.source.path.endswith("agent_executor.py")
        height = view.scrollable_content_region.height
        cut = []
        for top in range(0, len(lines), height):
            view.scroll_to(y=top, animate=False, immediate=True)
            await settle(pilot)
            shown = _shown(app, view)
            for number in range(top + 1, min(top + height, len(lines)) + 1):
                line = lines[number - 1].rstrip()
                row = next((row for row in shown if _number(row) == number), None)
                if row is None or line.strip() not in row:
                    cut.append(f"{number}: {row!r}")
        assert not cut, "lines cut:\n" + "\n".join(cut[:10])
    app.session.store.close()


async def test_the_gutter_marks_the_line_and_its_breakpoint_in_one_column(tmp_path):
    app = debugger(shutil.copy(ROSE, tmp_path / "rose.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view = app.screen.query_one("#source")
        line = view.current_line
        view.show(view.source, line, {line: True, line + 1: True, line + 2: False})
        await settle(pilot)
        rows = {_number(row): row for row in _shown(app, view)}
        # One mark column, then the number and a space: the code starts in the same column on every row.
        assert rows[line].startswith(f"▶{line} ") and rows[line + 1].startswith(f"●{line + 1} ")
        assert rows[line + 2].startswith(f"○{line + 2} ") and rows[line + 3].startswith(f" {line + 3} ")
        drawn = view.render_line(line - 1 - int(view.scroll_y))
        marked = next(segment for segment in drawn if "▶" in segment.text)
        assert marked.style is not None and marked.style.color is not None and marked.style.color.name == "red"
        view.show(view.source, line, {})
        await settle(pilot)
        drawn = view.render_line(line - 1 - int(view.scroll_y))
        plain = next(segment for segment in drawn if "▶" in segment.text)
        assert plain.style is not None and plain.style.color is not None and plain.style.color.name != "red"
    app.session.store.close()
