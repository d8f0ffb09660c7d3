"""What names a user's agent on the command line: MODULE:FUNCTION or FILE.py:FUNCTION (a light module: parsers use it)."""

from __future__ import annotations


def is_agent_spec(name: str) -> bool:
    """MODULE:FUNCTION or FILE.py:FUNCTION (scenario names never hold a colon)."""
    module, sep, function = name.rpartition(":")
    return bool(sep and module and function.isidentifier())
