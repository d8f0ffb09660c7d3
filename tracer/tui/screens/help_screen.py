"""The `?` screen: every key (read from the bindings themselves, so it cannot drift) and the breakpoint language."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n import say, templates
from ...report.text.cjk_wrap import WrappedText
from ..chrome import binding_words, key_name

KEY_NAMES = {
    "question_mark": "?",
    "slash": "/",
    "colon": ":",
    "space": "space",
    "escape": "esc",
    "right_square_bracket": "]",
    "left_square_bracket": "[",
    "backspace": "backspace",
    "plus": "+",
    "minus": "-",
    "equals_sign": "=",
    "delete": "del",
    "enter": "enter",
    "pagedown": "pgdn",
    "pageup": "pgup",
    "up": "↑",
    "down": "↓",
    "tab": "tab",
}


def key_label(keys: str, lang: str = "en") -> str:
    """ "question_mark,escape" -> "?/esc"."""
    return "/".join(key_name(key.strip(), lang) or KEY_NAMES.get(key.strip(), key.strip()) for key in keys.split(","))


def key_words(binding: Binding, lang: str) -> str:
    """A key's longer words where the help has them, else the footer's."""
    explained = f"help.key.{binding.id}"
    return say(explained, lang) if explained in templates() else binding_words(binding, lang)


def key_table(title: str, bindings: Iterable[Binding], keymap: dict[str, str] | None = None, lang: str = "en") -> Text:
    """`title` (already in `lang`), then each key with what it does."""
    text = Text(f"{title}\n", style="bold underline")
    for binding in bindings:
        keys = (keymap or {}).get(binding.id or "", binding.key)
        label = key_label(keys, lang)
        text.append(f"  {label}{' ' * max(12 - cell_len(label), 1)}", style="bold cyan")
        text.append(f"{key_words(binding, lang)}\n")
    return text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark", "close", "close help", id="close-help"),
        Binding("j,down", "scroll(1)", "scroll down", id="help-scroll-down"),
        Binding("k,up", "scroll(-1)", "scroll up", id="help-scroll-up"),
        Binding("space,pagedown", "scroll(10)", "page down", id="help-page-down"),
        Binding("pageup,backspace", "scroll(-10)", "page up", id="help-page-up"),
    ]

    def __init__(self, sections: Sequence[tuple[str, Sequence[Binding]]], lang: str = "en") -> None:
        """`sections`: (title's message key, its keys)."""
        super().__init__()
        self.sections, self.lang = sections, lang

    def compose(self) -> ComposeResult:
        lang = self.lang
        hint = say("help.scroll", lang)
        text = Text(say("help.title", lang, hint=hint) + "\n\n", style="bold")
        for title, bindings in self.sections:
            text.append_text(key_table(say(title, lang), bindings, getattr(self.app, "keymap", None), lang))
            text.append("\n")
        for block in ("help.motions", "help.breakpoints", "help.conditions"):
            text.append(say(block, lang) + "\n")
        self.plain = text.plain  # what it says, unwrapped (tests read it)
        with VerticalScroll(id="help") as scroller:
            scroller.border_subtitle = hint
            yield Static(WrappedText(text, hanging=True))

    def action_scroll(self, lines: int) -> None:
        scroller = self.query_one("#help", VerticalScroll)
        page = max(scroller.scrollable_content_region.height - 2, 1)
        scroller.scroll_relative(y=page if lines == 10 else -page if lines == -10 else lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
