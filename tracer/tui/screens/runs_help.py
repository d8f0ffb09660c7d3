"""The runs table's keys and the words `F` (filter) understands, in a scrollable box."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...runs.run_fields import RUN_FIELDS
from ...runs.run_row import OUTCOMES
from .help_screen import key_table

FILTER_WORDS = (
    "F takes a condition, as breakpoints do (== != < <= > >= in, and or not, quoted text):\n"
    f"  run fields: {', '.join(RUN_FIELDS)}\n"
    f"  outcomes: {', '.join(OUTCOMES)}\n"
    "  event fields: kind, tool, iteration, state, and each event's own (error_type, observation …);\n"
    "  a run is kept when one of its events makes the whole condition true:\n"
    '    outcome == "error"   cost > 0.01   kind == "tool_error"   tool == "Search" and iteration >= 3\n'
    "  event.model, event.duration: an event's own field where a run field has the same name"
)
FILTER_WORDS_ZH = (
    "F 接受一个条件，写法与断点条件相同（== != < <= > >= in，and or not，文本加引号）：\n"
    f"  运行字段：{', '.join(RUN_FIELDS)}\n"
    f"  结果：{', '.join(OUTCOMES)}\n"
    "  事件字段：kind、tool、iteration、state，以及各事件自己的字段（error_type、observation …）；\n"
    "  只要某次运行有一个事件让整个条件成立，这次运行就保留：\n"
    '    outcome == "error"   cost > 0.01   kind == "tool_error"   tool == "Search" and iteration >= 3\n'
    "  event.model、event.duration：与运行字段同名时，指事件自己的字段"
)


class RunsHelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "close", "close help", id="runs-close-help")]

    def __init__(self, bindings: Sequence[BindingType], lang: str = "en") -> None:
        super().__init__()
        self.bindings, self.lang = [b for b in bindings if isinstance(b, Binding)], lang

    def compose(self) -> ComposeResult:
        zh = self.lang == "zh"
        text = Text("loopscope runs — 按键\n\n" if zh else "loopscope runs — keys\n\n", style="bold")
        keys = "The runs table" if not zh else "运行列表"
        text.append_text(key_table(keys, self.bindings, getattr(self.app, "keymap", None), self.lang))
        text.append("\n" + (FILTER_WORDS_ZH if zh else FILTER_WORDS) + "\n")
        with VerticalScroll(id="help"):
            yield Static(text)

    def on_mount(self) -> None:
        self.query_one("#help").focus()  # ↑/↓ and pgup/pgdn scroll it

    def action_close(self) -> None:
        self.dismiss(None)
