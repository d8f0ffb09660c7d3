"""A catalogue message as Rich Text: our words in one style, each argument that is Text kept with its own."""

from __future__ import annotations

import string
from typing import Any

from rich.text import Text

from ...i18n import templates


def styled(key: str, lang: str, style: str, /, **args: Any) -> Text:
    """The message `key` in `lang`, its words in `style`. A Text argument (what a model or a tool wrote, made
    with `literal`) is put in as it is; any other argument is our own value, formatted and styled as the words."""
    english, chinese = templates()[key]
    text = Text()
    for words, name, spec, conversion in string.Formatter().parse(chinese if lang == "zh" else english):
        if words:
            text.append(words, style)
        if name is None:
            continue
        value = args[name]
        if isinstance(value, Text):
            text.append_text(value)
            continue
        shown = repr(value) if conversion == "r" else str(value) if conversion == "s" else value
        text.append(format(shown, spec or ""), style)
    return text
