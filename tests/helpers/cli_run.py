"""The `loopscope` command run in the test's own process: its exit code and what it printed."""

from __future__ import annotations

from tracer.cli import main


def loopscope(capsys, *argv) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `loopscope ARGV`; paths and numbers may be passed as they are."""
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err
