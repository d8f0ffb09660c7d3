"""The Textual application: one debugger screen over a session (a fork or a tutorial can replace it)."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from ..debug.session import DebugSession
from ..i18n import Message
from ..startup import resume_collection
from ..trace.literal_text import scrub
from .chrome import chrome_language
from .messages import Fail, OpenSession
from .screens.main_screen import DebuggerScreen


def _import_numpy() -> None:
    import numpy  # noqa: F401  (late, on purpose: see DebuggerApp._warm_up)


class DebuggerApp(App[int]):
    CSS_PATH = ["debugger.tcss", "predict.tcss", "scroll_target.tcss"]
    TITLE = "loopscope"
    BINDINGS = [Binding("q", "quit", "quit", id="app-quit")]
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        session: DebugSession,
        keymap: dict[str, str] | None = None,
        lang: str | None = None,
        said: Message | None = None,
    ) -> None:
        """`lang`: the language of the debugger's own words (None: a tutorial's notes', else English);
        `said`: the status line's first words (None: the keys)."""
        super().__init__()
        self.session = session
        self.requested_lang = lang if lang is not None else session.options.lang  # --lang, else none
        self.first_said = said
        self.keymap = dict(keymap or {})  # binding id -> keys; the help screen shows these keys
        self.opened: list[DebugSession] = []  # sessions opened from inside (forks, tutorials), closed at exit
        self.failure: str | None = None
        self.sub_title = scrub(session.title)

    def get_default_screen(self) -> DebuggerScreen:
        # The debugger's screen is the app's first screen: pushed over Textual's blank default one, the
        # first frame was laid out and drawn twice (bench/bench_startup.py).
        return DebuggerScreen(self.session, self.language_of(self.session), self.first_said)

    def language_of(self, session: DebugSession) -> str:
        """The language a session's screen speaks: the one asked for, else its tutorial's."""
        return self.requested_lang or chrome_language(session.stops)

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        self.screen.call_after_refresh(resume_collection)  # start-up ends with its first frame on the screen
        self.screen.call_after_refresh(self._warm_up)

    def _warm_up(self) -> None:
        """After the first frame, import in a thread what the first n, r, c or search would otherwise
        import on the UI thread (numpy): the first frame never needs it, every motion does."""
        self.run_worker(_import_numpy, thread=True, group="warm-up", description="importing numpy", exit_on_error=False)

    def on_open_session(self, message: OpenSession) -> None:
        # Later, not awaited here: switching screens waits for pending messages to be processed, and
        # this handler is one of the app's.
        self.call_later(self.open_session, message.session, message.said, message.tab)

    async def open_session(self, session: DebugSession, said: Message, tab: str | None = None) -> None:
        """Show `session` in place of the current one (whose files stay open until exit), saying `said`."""
        self.opened.append(session)
        self.session = session
        self.sub_title = scrub(session.title)
        screen = DebuggerScreen(session, self.language_of(session), said)
        if len(self.screen_stack) > 1:
            await self.switch_screen(screen)
        else:  # the first session's screen is the base of the stack, which Textual cannot switch away:
            covered = self.screen
            if isinstance(covered, DebuggerScreen):
                covered.stop_reenacting()  # as a removed screen's re-execution would stop
            await self.push_screen(screen)
        if tab is not None:
            screen.action_tab(tab)

    def close_opened(self) -> None:
        for session in self.opened:
            session.store.close()

    def on_fail(self, message: Fail) -> None:
        """Leave with exit code 2; launch prints the text on stderr once the terminal is restored."""
        self.failure = message.text
        self.exit(2, return_code=2)

    async def action_quit(self) -> None:
        self.exit(0)
