"""`python -m tracer.cli`: the same as the `loopscope` command."""

from . import entry

entry()
