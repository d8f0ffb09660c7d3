"""How the narrator says a line: untrusted text shown literally and redacted, our own words from the catalogue, a colour per tool."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from executor.events import EventBase

from ...trace.redact import Redactor, default_redactor
from ..text.literal import literal
from ..text.styled_message import styled

TOOL_COLOURS = ["cyan", "magenta", "yellow", "blue", "bright_green", "bright_magenta"]


def lane(e: EventBase) -> tuple[tuple[str, str], ...]:
    """A concurrent call's events are tagged with its id: several calls of one reply interleave."""
    call_id = getattr(e, "tool_call_id", None)
    return ((f"[{call_id}] ", "dim"),) if call_id else ()


class NarrationVoice:
    """The console, language, redactor and tool colours every part of the narration speaks through."""

    def __init__(self, console: Console | None = None, redactor: Redactor | None = None, lang: str = "en") -> None:
        self.console = console or Console(highlight=False)
        self.lang = lang  # our own words; LangChain's printed lines stay as LangChain prints them
        # What the trace file redacts, the screen redacts too: narration is often piped to a log.
        self.redactor = redactor if redactor is not None else default_redactor()
        self._colours: dict[str, str] = {}

    def text(self, value: object, style: str = "") -> Text:
        """A field of an event (untrusted): redacted, escapes made visible, never read as markup."""
        return literal(self.redactor.redact_text(str(value)), style)

    def colour(self, tool: str) -> str:
        if tool not in self._colours:
            self._colours[tool] = TOOL_COLOURS[len(self._colours) % len(TOOL_COLOURS)]
        return self._colours[tool]

    def say(self, *parts: Text | str | tuple[str, str]) -> None:
        """One line: `literal` Text for what a model, a tool or a trace wrote, (text, style) for our own words."""
        self.console.print(Text.assemble(*parts), soft_wrap=True)

    def words(self, key: str, style: str, /, **args: object) -> Text:
        """The catalogue's message `key` in the narrator's language; Text arguments keep their own style."""
        return styled(key, self.lang, style, **args)
