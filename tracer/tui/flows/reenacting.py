"""The real locals of a recording: a worker re-executes the run up to the current event, off the UI thread."""

from __future__ import annotations

import time

from textual import work
from textual.worker import get_current_worker

from ...debug.event_store import ReplayStore
from .flow import Flow

PROGRESS_EVERY = 0.5  # seconds between redraws while a long re-execution runs
# Events re-executed between looks at where the user is now (and whether to stop).
REENACT_CHUNK = 50


class ReenactFlow(Flow):
    """No keys: after each redraw the screen calls `follow`, and the flow redraws as the re-run gets
    there. The first frame never waits for it: 2,000 events take seconds to re-execute."""

    def __init__(self, session, **kwargs) -> None:
        super().__init__(session, **kwargs)
        # Asked, at work, or done with its last redraw not yet drawn: the panes are still being filled in.
        self.running = False
        self._done = False

    def follow(self) -> None:
        """Once this frame is on the screen, re-execute up to the current event if its locals are not there yet."""
        if self._done:  # the panes were just redrawn with what the last re-run brought
            self.running = self._done = False
        if self.session.locals_pending() and not self.running:
            self.running = True
            self.call_after_refresh(self._reenact)

    def on_unmount(self) -> None:
        self.stop()  # the screen is gone: nothing is coming, and no redraw would say so

    def stop(self) -> None:
        """Stop re-executing, for good (the screen is covered by another session's, or gone)."""
        self.workers.cancel_node(self)
        self.running = self._done = False

    @work(thread=True, group="reenact", exit_on_error=False, description="re-executing the run for its locals")
    def _reenact(self) -> None:
        """Re-execute up to the current event (wherever the user has moved meanwhile), then redraw:
        the real locals replace the rebuilt ones."""
        worker, session, store = get_current_worker(), self.session, self.session.store
        if not isinstance(store, ReplayStore):  # a live run's locals were captured as it was pulled
            self.running = False
            return
        shown = time.monotonic()
        try:
            while session.locals_pending() and not worker.is_cancelled:
                store.reenact_towards(session.position, REENACT_CHUNK)
                if time.monotonic() - shown > PROGRESS_EVERY:
                    shown = time.monotonic()
                    self.redraw()  # the variables pane says how far (a message: safe from this thread)
            if worker.is_cancelled:
                self.running = False
                return
            self._done = True  # `running` stays set until the redraw below has been drawn (see follow)
            self.redraw()
        except RuntimeError:  # the app closed meanwhile: nothing left to redraw
            self.running = False
