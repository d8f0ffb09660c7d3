"""The language a command speaks: --lang, else the locale (LC_ALL, LC_MESSAGES, LANG), else English."""

from __future__ import annotations

import os
from collections.abc import Mapping

from .usage_error import UsageError

LANGUAGES = ("en", "zh")  # as tutorials/notes_file.py has them
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX order: the first one set wins
LANG_HELP = f"language: {', '.join(LANGUAGES)} (default: zh when LC_ALL/LC_MESSAGES/LANG starts with zh, else en)"


def default_language(environ: Mapping[str, str] | None = None) -> str:
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def chosen_language(requested: str | None) -> str:
    """--lang if given (a one-line error for one loopscope does not speak), else the locale's."""
    if requested is None:
        return default_language()
    if requested not in LANGUAGES:
        raise UsageError(f"unknown language {requested!r}; available: {', '.join(LANGUAGES)}")
    return requested
