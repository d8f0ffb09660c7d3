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

from ...report.text.cjk_wrap import WrappedText
from ..chrome import key_name, localise
from .help_text_zh import BREAKPOINTS_ZH, CONDITIONS_ZH, EXPLAINED_ZH, MOTIONS_ZH

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

MOTIONS = """\
Moving works on events the way pdb works on lines. Capitals go backwards: a replay can always go back.
  step      the next event, whatever frame it comes from
  next      the next event in this frame or a caller (steps over everything the frame calls)
  step out  the first event after this frame has returned (backwards: before it was entered)
  continue  run to the next breakpoint, or the end
next, step out and continue stop at any breakpoint they pass, like pdb.
Live (debug --live), at a tool_start of your own tool: s steps into its function line by line (the
Source pane marks the line, Variables shows its real locals); there s/n run one line, r runs it to its
end (the next event is its tool_end) and c continues. A recording has no lines to run: there s goes on.
"""

BREAKPOINTS = """\
Breakpoints (B asks for one; `loopscope debug TRACE --break "..."` sets them from the shell):
  tool_error                  an event kind (kind=tool_error works too)
  tool=Calculator             where the tool starts running (or is asked for and missing)
  iteration=2                 where iteration 2 begins
  method=_perform_agent_action  the first event of each call of that method
  line=executor/agent_executor.py:95   that source line (b toggles it on the current line)
  tools.py:12                 a line of your tool (relative to your agent's folder): live, the run
                              stops on it; in a recording, at the tool_start/tool_end of that call
  if "25" in tool_input       any event for which the condition holds
  tool=Calculator if iteration >= 2    any of the above, narrowed by a condition
  temp ...   deleted after it first stops        ignore=N ...   passes N hits before stopping
They are saved next to the trace in TRACE.jsonl.breakpoints.json.
"""

CONDITIONS = """\
Conditions compare event fields: == != < <= > >= in, not in, and, or, not, ( ).
Values: "text" or 'text', numbers, true/false, None, [lists]. Nothing is ever evaluated as Python.
Fields: kind seq iteration tool method line file depth frames, and the event's own fields
(tool_input, observation, text, prompt, error, is_finish, action.tool ...). A field an event
does not have makes the comparison false. `tool` means the requested tool for invalid_tool
and action.tool for step. Search (/) is case-insensitive unless the text has capitals.
"""


SCROLL_HINT = "↓/↑ or j/k scroll · space/pgdn a page · esc closes"
SCROLL_HINT_ZH = "↓/↑ 或 j/k 滚动 · 空格/pgdn 翻页 · esc 关闭"


def key_label(keys: str, lang: str = "en") -> str:
    """ "question_mark,escape" -> "?/esc"."""
    return "/".join(key_name(key.strip(), lang) or KEY_NAMES.get(key.strip(), key.strip()) for key in keys.split(","))


# Longer words for the help screen than fit in the footer, keyed by the binding's id.
EXPLAINED = {
    "step-forward": "step: to the next event, into whatever is called",
    "next-forward": "next: step over calls, to the next event in this frame or a caller",
    "out-forward": "step out: run until the current frame has returned",
    "continue-forward": "continue: run to the next breakpoint (live: pulls the executor on)",
    "step-back": "step back one event",
    "next-back": "next, backwards: the previous event in this frame or a caller",
    "out-back": "step out backwards: back to just before this frame was entered",
    "continue-back": "reverse continue: back to the previous breakpoint, or the start",
    "toggle-breakpoint": "toggle a breakpoint on the current line (on the cursor line when the source pane has focus)",
    "search": "search the events' text (smart case)",
    "fork": "fork: edit this event's model reply or tool observation, re-run the trace, open the fork",
    "filter": "filter the timeline: kinds, tool=NAME, iteration=N, `if CONDITION`; the hidden are counted",
    "step-within-filter": "step within the filter: s n r c (and backwards) land only on the events shown",
    "edit-prompt": "at a model call: edit its exact prompt, send it again (ctrl+s), see the new reply "
    "beside the recorded one; f forks the run with it",
    "diff": "diff this run with its parent (a fork's) or with a trace you name, aligned by transition",
    "scroll-pane-down": "scroll the shown right-hand pane (narration, variables, prompt …) down, whatever has focus",
    "scroll-pane-up": "scroll the shown right-hand pane up",
    "wide-source": "wide source: hide the timeline and call stack so long source lines fit (z again: back)",
    "tutorials": "tutorials: pick one (or one of its parts) and open it with its narration",
}


def key_table(title: str, bindings: Iterable[Binding], keymap: dict[str, str] | None = None, lang: str = "en") -> Text:
    text = Text(f"{localise(title, lang)}\n", style="bold underline")
    for binding in bindings:
        keys = (keymap or {}).get(binding.id or "", binding.key)
        label = key_label(keys, lang)
        text.append(f"  {label}{' ' * max(12 - cell_len(label), 1)}", style="bold cyan")
        if lang == "zh":
            words = EXPLAINED_ZH.get(binding.id or "") or localise(binding.description, lang)
        else:
            words = EXPLAINED.get(binding.id or "", binding.description)
        text.append(f"{words}\n")
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
        super().__init__()
        self.sections, self.lang = sections, lang

    def compose(self) -> ComposeResult:
        zh = self.lang == "zh"
        hint = SCROLL_HINT_ZH if zh else SCROLL_HINT
        text = Text(f"{'loopscope 调试器 — 按键' if zh else 'loopscope debugger — keys'}  ({hint})\n\n", style="bold")
        for title, bindings in self.sections:
            text.append_text(key_table(title, bindings, getattr(self.app, "keymap", None), self.lang))
            text.append("\n")
        for block in (MOTIONS_ZH, BREAKPOINTS_ZH, CONDITIONS_ZH) if zh else (MOTIONS, BREAKPOINTS, CONDITIONS):
            text.append(block + "\n")
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
