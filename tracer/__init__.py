"""Everything that consumes the executor's events: trace files, replay, narration, the debugger."""

from executor import __version__

__all__ = ["__version__"]
