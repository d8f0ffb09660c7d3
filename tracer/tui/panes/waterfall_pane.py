"""The waterfall pane: the run's calls and waits as bars on one time axis; moving here moves the debugger."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.events import Click
from textual.strip import Strip
from textual.widget import Widget
from textual.worker import get_current_worker

from ...debug.event_store import LiveStore, ReplayStore
from ...debug.session import DebugSession
from ...i18n import Message, say
from ...report.text.literal import literal
from ...report.waterfall.builder import WaterfallBuilder
from ...report.waterfall.cells import Window, fit, following, lane_cells, zoomed
from ...report.waterfall.picture import CATEGORIES, Lane, Waterfall
from ...report.waterfall.scan import Cancelled, feed_event, waterfall_of_trace
from ..views.waterfall_rows import LABEL_WIDTH, axis_row, lane_row
from .timeline import EventTimeline

# Up to this many events a recording's waterfall is read at once; a bigger one in a worker thread.
READ_NOW_LIMIT = 50_000
MAX_LANE_ROWS = 8  # more lanes scroll (the current bar's is always shown)


class WaterfallPane(Widget, can_focus=True):
    """Hidden until `w`. Rows: the time axis, one per lane, and a line about the current bar."""

    BINDINGS = [
        Binding("right", "bar(1)", "next bar", show=False, id="waterfall-next-bar"),
        Binding("left", "bar(-1)", "previous bar", show=False, id="waterfall-previous-bar"),
        Binding("down", "lane(1)", "lane below", show=False, id="waterfall-lane-below"),
        Binding("up", "lane(-1)", "lane above", show=False, id="waterfall-lane-above"),
        Binding("plus,equals_sign", "zoom(2)", "zoom in", show=False, id="waterfall-zoom-in"),
        Binding("minus", "zoom(0.5)", "zoom out", show=False, id="waterfall-zoom-out"),
        Binding("0", "whole_run", "the whole run", show=False, id="waterfall-whole-run"),
    ]

    def __init__(self, session: DebugSession, lang: str = "en", **kwargs) -> None:
        super().__init__(**kwargs)
        self.session, self.lang = session, lang
        self.waterfall: Waterfall | None = None
        self.window: Window | None = None
        self.current: int | None = None  # the bar the debugger's event is in
        self.cursor_t: float | None = None  # the debugger's event's time
        self.top = 0  # the first lane shown
        self.note: Message | None = None  # why there are no bars yet (reading, indexing)
        self._builder: WaterfallBuilder | None = None  # a live run's, fed as it grows
        self._reading = False

    # -- the bars: read once per session; a live run's grow ------------------------------------------
    def load(self) -> None:
        """Read the bars if they are not read yet (or a live run grew), then follow the debugger."""
        store = self.session.store
        if isinstance(store, LiveStore):
            self._feed_live(store)
        elif self.waterfall is None and not self._reading and isinstance(store, ReplayStore):
            if store.index is None:
                self.note = Message("panes.waterfall_indexing")
            elif len(store) <= READ_NOW_LIMIT:
                self._install(waterfall_of_trace(store.trace, store.index))
            else:
                self._reading = True
                self.note = Message("panes.waterfall_reading", {"count": f"{len(store):,}"})
                self._read(store)
        self.follow()

    def _feed_live(self, store: LiveStore) -> None:
        builder = self._builder = self._builder or WaterfallBuilder()
        if self.waterfall is not None and builder.events == len(store):
            return
        for position in range(builder.events, len(store)):
            feed_event(builder, position, store.event(position))
        builder.events = len(store)
        self._install(builder.waterfall(), keep_window=True)

    @work(thread=True, exclusive=True, group="waterfall")
    def _read(self, store: ReplayStore) -> None:
        worker = get_current_worker()
        index = store.index
        assert index is not None  # load() reads only once the index is there

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._say_progress, done, total)

        try:
            waterfall = waterfall_of_trace(store.trace, index, progress, lambda: worker.is_cancelled)
        except Cancelled:
            return
        self.app.call_from_thread(self._install, waterfall)

    def _say_progress(self, done: int, total: int) -> None:
        read = {"count": f"{total:,}", "percent": done * 100 // max(total, 1)}
        self.note = Message("panes.waterfall_read", read)
        self.refresh()

    def _install(self, waterfall: Waterfall, keep_window: bool = False) -> None:
        self._reading, self.note = False, None
        self.waterfall = waterfall
        whole = fit(waterfall, self._cells())
        self.window = self.window if keep_window and self.window is not None else whole
        lanes = len(waterfall.lanes)
        self.styles.height = min(max(lanes, 1), MAX_LANE_ROWS) + 4  # the axis, the lanes, the line, the border
        self.border_title = say(
            "panes.waterfall_lane" if lanes == 1 else "panes.waterfall_lanes", self.lang, count=lanes
        )
        self.follow()

    # -- following the debugger ------------------------------------------------------------------------
    def _cells(self) -> int:
        return max(self.scrollable_content_region.width - LABEL_WIDTH, 10)

    def _whole(self) -> Window:
        assert self.waterfall is not None
        return fit(self.waterfall, self._cells())

    def follow(self) -> None:
        """Highlight the bar of the debugger's event and keep its time in view."""
        if self.waterfall is None or self.window is None:
            self.refresh()
            return
        position = self.session.position
        self.current = self.waterfall.bar_at(position)
        self.cursor_t = getattr(self.session.event(position), "t", None)
        width = self._cells()
        if self.window.width != width:
            self.window = Window(self.window.t0, self.window.t1, width)
        if self.cursor_t is not None:
            self.window = following(self.window, self.cursor_t, self._whole())
        if self.current is not None:
            row = self.waterfall.order.index(int(self.waterfall.lane[self.current]))
            rows = self._lane_rows()
            if not self.top <= row < self.top + rows:
                self.top = max(0, row - rows + 1) if row >= self.top else row
            # Never rows left empty below the last lane: moving while the pane was hidden (no height)
            # scrolled it to the current lane alone.
            self.top = min(self.top, max(0, len(self.waterfall.order) - rows))
        self.refresh()

    def on_resize(self) -> None:
        self.follow()

    # -- keys: each picks an event, which the debugger goes to (and the waterfall follows) ------------
    def _pick(self, bar: int | None) -> None:
        if bar is not None and self.waterfall is not None and 0 <= bar < len(self.waterfall):
            self.post_message(EventTimeline.Picked(int(self.waterfall.first[bar])))

    def action_bar(self, step: int) -> None:
        if self.waterfall is None or not len(self.waterfall):
            return
        if self.current is None:  # between bars: the next one after the event, or the last before it
            after = int(self.waterfall.first.searchsorted(self.session.position, side="right"))
            self._pick(after if step > 0 else after - 1)
            return
        self._pick(min(max(self.current + step, 0), len(self.waterfall) - 1))

    def action_lane(self, step: int) -> None:
        waterfall = self.waterfall
        if waterfall is None or self.current is None:
            return
        order = waterfall.order
        row = order.index(int(waterfall.lane[self.current])) + step
        t = float(waterfall.start[self.current])
        while 0 <= row < len(order):
            found = waterfall.nearest_in_lane(order[row], t)
            if found is not None:
                self._pick(found)
                return
            row += step

    def action_zoom(self, factor: float) -> None:
        if self.waterfall is None or self.window is None:
            return
        around = self.cursor_t if self.cursor_t is not None else (self.window.t0 + self.window.t1) / 2
        self.window = zoomed(self.window, factor, around, self._whole())
        self.refresh()

    def action_whole_run(self) -> None:
        if self.waterfall is not None:
            self.window = self._whole()
            self.refresh()

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        waterfall, window = self.waterfall, self.window
        if offset is None or waterfall is None or window is None or offset.x < LABEL_WIDTH:
            return
        row = self.top + offset.y - 1
        if 0 <= row < len(waterfall.order) and 1 <= offset.y <= self._lane_rows():
            self._pick(waterfall.nearest_in_lane(waterfall.order[row], window.time(offset.x - LABEL_WIDTH)))

    # -- drawing ------------------------------------------------------------------------------------
    def _lane_rows(self) -> int:
        return max(self.scrollable_content_region.height - 2, 1)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        text = self._line(y, self.scrollable_content_region.height)
        return Strip(list(text.render(self.app.console))).crop_extend(0, width, None).apply_style(self.rich_style)

    def _line(self, y: int, height: int) -> Text:
        waterfall, window = self.waterfall, self.window
        if waterfall is None or window is None:
            return literal(self.note.text(self.lang)) if y == 0 and self.note is not None else Text()
        cursor = window.cell(self.cursor_t) if self.cursor_t is not None else None
        if y == 0:
            return axis_row(window, cursor, say("panes.waterfall_time", self.lang))
        if y == height - 1:
            return self._detail()
        row = self.top + y - 1
        if row >= len(waterfall.order):
            return Text()
        lane = waterfall.order[row]
        name = lane_name(waterfall.lanes[lane], self.lang)
        return lane_row(waterfall, name, lane_cells(waterfall, lane, window), cursor, self.current, self.lang)

    def _detail(self) -> Text:
        waterfall = self.waterfall
        assert waterfall is not None
        if not len(waterfall):
            return Text(say("panes.waterfall_empty", self.lang), style="dim")
        if self.current is None:
            where = say("panes.waterfall_between", self.lang, seq=self.session.position)
        else:
            where = waterfall.description(self.current, self.lang)
        hint = say("panes.waterfall_keys", self.lang)
        line = literal(where)
        if line.cell_len + 2 + cell_len(hint) <= self.scrollable_content_region.width:
            line.append(f"  {hint}", style="dim")  # a bar's description first; the keys where they fit (? has them)
        return line


def lane_name(lane: Lane, lang: str) -> str:
    """A lane's name in `lang`: its category's word, then its number as the picture gives it ("tool 2", "model 1+")."""
    word = CATEGORIES[lane.category]
    return say(f"panes.lane.{word}", lang) + lane.name[len(word) :]
