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
        raise usage_error("cli.error.unknown_language", None, given=requested, languages=", ".join(LANGUAGES))
    return requested


def command_language(args: object = None) -> str:
    """The language a command's one-line errors speak: its --lang when it has a valid one, else the locale's
    (an error may come before --lang is checked, or from a command that has none)."""
    requested = getattr(args, "lang", None)
    return requested if requested in LANGUAGES else default_language()


def command_words(key: str, args: object = None, /, **values: object) -> str:
    """The catalogue's message `key` in the command's language (see command_language)."""
    from ..i18n import say  # late: a parser's --help loads no catalogue (and no typing)

    return say(key, command_language(args), **values)


def usage_error(key: str, args: object = None, /, **values: object) -> UsageError:
    """A UsageError saying the catalogue's message `key` in the command's language."""
    return UsageError(command_words(key, args, **values))
