"""A Static whose text wraps between Chinese characters and at spaces, never inside a word or a file:line."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widgets import Static

from ...report.text.cjk_wrap import wrap_text


class WrappedStatic(Static):
    """For a box's few lines: Textual reads a Chinese sentence as one long word and cuts it wherever the
    line ends ("line=[F" / "ILE:]N"); this wraps it first, at the width it is drawn at. Its render() is
    a Text (what it says, lines joined), as a Static of a Text gives."""

    def __init__(self, text: Text, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = text

    def update(self, content: object = "", *, layout: bool = True) -> None:
        self.text = content if isinstance(content, Text) else Text(str(content))
        self.refresh(layout=layout)

    def _wrapped(self, width: int) -> Text:
        joined = Text("\n").join(wrap_text(self.text, max(width, 1)))
        joined.no_wrap, joined.overflow = True, "crop"  # wrapped already: Textual must not wrap it again
        return joined

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._wrapped(width).plain.split("\n"))

    def render(self) -> Text:
        return self._wrapped(self.content_region.width or self.app.size.width)
