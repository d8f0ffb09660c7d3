"""Name/value rows that wrap inside their own column, for the variables pane."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...report.text.cjk_wrap import WrappedText

NAME_WIDTH = 20


class VariableTable:
    """Collects rows; renders as a two-column grid (long values wrap under themselves, not under the names)."""

    def __init__(self, intro: Text | None = None) -> None:
        self.intro = intro
        self.rows: list[tuple[Text, Text]] = []

    def add(self, name: str | Text, value: Text) -> None:
        self.rows.append((name if isinstance(name, Text) else Text(name, style="bold"), value))

    @property
    def plain(self) -> str:
        lines = [self.intro.plain] if self.intro else []
        lines += [f"{name.plain:<{NAME_WIDTH}}{value.plain}" for name, value in self.rows]
        return "\n".join(lines)

    def __rich__(self) -> RenderableType:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True, min_width=NAME_WIDTH - 1)
        grid.add_column()
        for name, value in self.rows:
            grid.add_row(name, WrappedText(value))  # a path or a word is never cut mid-name
        return Group(WrappedText(self.intro), grid) if self.intro else grid
