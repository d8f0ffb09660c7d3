"""The `loopscope` command: parses arguments and hands each subcommand to its own module."""

from __future__ import annotations

import argparse
import importlib
import sys

from executor import __version__

from .usage_error import UsageError

# Each name is a module in tracer/commands with add_parser(subparsers) and run(args) -> int.
COMMANDS = ["run", "record", "tutorial", "verify", "models", "fork", "diff", "export", "debug"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="loopscope",
        description="Step through, trace and test ReAct agent loops.")
    parser.add_argument("--version", action="version", version=f"loopscope {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"tracer.cli.{name}")
        command = module.add_parser(sub)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    from ..trace.reader import TraceFormatError

    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return args.handler(args) or 0
    except (UsageError, TraceFormatError) as error:
        print(f"loopscope: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("loopscope: interrupted", file=sys.stderr)
        return 130


