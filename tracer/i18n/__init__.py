"""Everything loopscope says to a person, by key, with its English and Chinese templates side by side."""

from .catalogue import LANGUAGES, Language, Message, Said, said_of, say, templates, verbatim

__all__ = ["LANGUAGES", "Language", "Message", "Said", "said_of", "say", "templates", "verbatim"]
