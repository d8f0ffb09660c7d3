"""A waterfall lane cut into equal time cells: what each cell shows, many bars in one cell added up."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...trace.numpy_on_use import np
from .picture import Waterfall

NONE = -1


@dataclass
class LaneCells:
    """One lane over [t0, t1) in `width` cells."""

    bars: Any  # int: bars touching each cell (0: empty)
    starts: Any  # int: bars beginning in each cell (2 or more: an aggregate)
    kind: Any  # int8: the kind of the latest bar to start at or before the cell (NONE when empty)
    bar: Any  # int: that bar's index
    failed: Any  # bool: a bar failed in this cell
    labels: list[tuple[int, int, int]]  # (first cell, cells, bar) of the bars wide enough to be labelled


@dataclass(frozen=True)
class Window:
    """The time shown: [t0, t1) over `width` cells."""

    t0: float
    t1: float
    width: int

    @property
    def step(self) -> float:
        return (self.t1 - self.t0) / max(self.width, 1)

    def cell(self, t: float) -> int:
        return int((t - self.t0) // self.step) if self.step > 0 else 0

    def time(self, cell: int) -> float:
        return self.t0 + cell * self.step


def fit(waterfall: Waterfall, width: int) -> Window:
    """The whole run in `width` cells (a run of no length gets a tenth of a second); the end is
    just inside, so a mark at the run's last moment (its chain_error) is drawn."""
    t0, t1 = waterfall.t0, waterfall.t1
    t1 = t1 if t1 > t0 else t0 + 0.1
    return Window(t0, t1 + (t1 - t0) * 1e-9, max(width, 1))


def zoomed(window: Window, factor: float, around: float, whole: Window) -> Window:
    """`window` `factor` times narrower (wider when < 1) around time `around`, inside the whole run."""
    span = min((window.t1 - window.t0) / factor, whole.t1 - whole.t0)
    span = max(span, 1e-6)
    t0 = min(max(around - span / 2, whole.t0), whole.t1 - span)
    return Window(t0, t0 + span, window.width)


def following(window: Window, t: float, whole: Window) -> Window:
    """`window` moved (not resized) so that time `t` is in it."""
    span = window.t1 - window.t0
    if window.t0 <= t < window.t1 or span >= whole.t1 - whole.t0:
        return window
    t0 = min(max(t - span / 2, whole.t0), whole.t1 - span)
    return Window(t0, t0 + span, window.width)


def lane_cells(waterfall: Waterfall, lane: int, window: Window, label_from: int = 6) -> LaneCells:
    """The cells of `lane`; bars `label_from` cells wide or more are listed for a label."""
    width = window.width
    bars = waterfall.in_window(lane, window.t0, window.t1)
    first = np.clip(((waterfall.start[bars] - window.t0) // window.step).astype(np.int64), 0, width - 1)
    # A bar is [start, end): one that ends where a cell begins does not reach into it.
    reach = np.ceil((waterfall.end[bars] - window.t0) / window.step - 1e-9).astype(np.int64) - 1
    last = np.maximum(first, np.clip(reach, 0, width - 1))
    change = (
        np.bincount(first, minlength=width + 1)[: width + 1] - np.bincount(last + 1, minlength=width + 1)[: width + 1]
    )
    touching = np.cumsum(change)[:width]
    starts = np.bincount(first, minlength=width)[:width]
    order = np.argsort(first, kind="stable")
    latest = np.searchsorted(first[order], np.arange(width), side="right") - 1
    bar = np.where((touching > 0) & (latest >= 0), bars[order][np.maximum(latest, 0)] if len(bars) else NONE, NONE)
    kind = np.where(bar >= 0, waterfall.kind[np.maximum(bar, 0)] if len(waterfall) else NONE, NONE).astype(np.int8)
    failed = np.zeros(width, dtype=bool)
    errors = waterfall.error_at[bars]
    seen = errors == errors  # not NaN
    failed_cells = ((errors[seen] - window.t0) // window.step).astype(np.int64)
    failed[failed_cells[(failed_cells >= 0) & (failed_cells < width)]] = True
    wide = np.flatnonzero(last - first + 1 >= label_from)
    labels = [(int(first[i]), int(last[i] - first[i] + 1), int(bars[i])) for i in wide.tolist()]
    return LaneCells(touching, starts, kind, bar, failed, labels)


def tick_step(span: float, cells: int, min_cells: int = 12) -> float:
    """A 1, 2 or 5 times a power of ten, so that ticks are at least `min_cells` apart."""
    if span <= 0 or cells <= 0:
        return 1.0
    rough = span * min_cells / cells
    power = 10 ** math.floor(math.log10(rough))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= rough)


def seconds(t: float, step: float) -> str:
    decimals = max(0, min(6, -math.floor(math.log10(step)) if step > 0 else 0))
    return f"{t:.{decimals}f}s"
