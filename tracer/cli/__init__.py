"""The `loopscope` command: parses arguments and hands each subcommand to its own module."""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import sys
import threading

from executor import __version__

from ..startup import is_trace_write_error, pause_collection, resume_collection
from .usage_error import UsageError

# Each name is a module in tracer/cli with add_parser(subparsers) and run(args) -> int, and
# its one-line help. Only the chosen subcommand's module is imported: `loopscope debug` never
# loads what `verify` needs, and the other commands cost nothing at start-up.
COMMANDS = {
    "run": "run a scenario or your own agent and narrate it (from its recording, offline, unless --model or --live)",
    "record": "record a run (a scenario, or your own agent as MODULE:FUNCTION) as a trace",
    "tutorial": "walk through a narrated tutorial run (or `tutorial list`)",
    "exercise": "fix a broken agent: list the exercises, start one, check it against its trace, get a hint",
    "verify": "re-execute trace fixtures and report the first divergent event",
    "models": "show the configured model, endpoint and providers",
    "fork": "re-run a trace with one model reply or tool result changed",
    "diff": "compare two traces transition by transition",
    "export": "export a trace: a self-contained HTML page (--html), OTLP spans to a collector or a file, or a Mermaid diagram",
    "debug": "step through a recorded trace, or a live run, in the debugger",
    "serve": "serve the debugger to a web browser (textual-serve), on 127.0.0.1 unless --host says otherwise",
    "call": "ask one recorded model call again (its prompt perhaps edited) and diff the replies",
    "prompt": "print the exact prompt (or message list) of one recorded model call, to edit for `call --prompt-file`",
    "import": "convert another tool's trace (OTLP JSON, LangSmith, Langfuse) to a loopscope trace",
    "fixtures": "check that recorded fixtures are current with the code, or re-record them (--rerecord)",
    "runs": "list every run under some folders: outcome, errors, tokens, cost; filter, sort, add up, export",
    "tests": "turn recorded runs into pytest regression tests (`tests add TRACE...`)",
    "score": "attach a score (a number or a label) to a run, appended to its trace; `runs` shows and filters on it",
}
# Subcommands whose module name differs from the command (`import` is a Python keyword).
MODULES = {"import": "import_trace"}
# Subcommands that open the debugger: garbage collection resumes after its first frame (tracer/startup.py).
OPENS_DEBUGGER = {"tutorial", "debug"}


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand named on the command line (the first word that is one), if any."""
    return next((word for word in argv if word in COMMANDS), None)


def _terminal_columns() -> int:
    """shutil.get_terminal_size's columns (COLUMNS, else the terminal, else 80), without shutil."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (ValueError, OSError):  # not a terminal, or closed
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its help as wide as the terminal as argparse measures it but without importing
    shutil, which imports the compression modules for `loopscope --help`; subparsers are of it too."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", lambda prog: argparse.HelpFormatter(prog, width=_terminal_columns() - 2))
        super().__init__(*args, **kwargs)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the subcommand `argv` chooses gets its full arguments (and its module imported)."""
    parser = _Parser(prog="loopscope", description="Step through, trace and test agent loops.")
    parser.add_argument("--version", action="version", version=f"loopscope {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = chosen_command(sys.argv[1:] if argv is None else argv)
    for name, summary in COMMANDS.items():
        if name != chosen:
            sub.add_parser(name, help=summary)
            continue
        module = importlib.import_module(f"tracer.cli.{MODULES.get(name, name)}")
        module.add_parser(sub).set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    pause_collection()  # until the debugger's first frame, or until another command's work begins
    try:
        return _run(argv)
    finally:
        resume_collection()


def _run(argv: list[str] | None) -> int:
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    # Here, not at the top: importing tracer.cli stays light (every subcommand module does, for
    # COMMANDS), and --help, --version and a bare `loopscope` answer before pydantic and the trace
    # reader load (tests/cli/test_startup_imports.py).
    from ..extras import MissingExtra
    from ..report.cost.prices import PriceTableError
    from ..trace.literal_text import scrub
    from ..trace.reader import TraceFormatError
    from ..trace.redact import RedactionPatternError, Redactor, configured_patterns

    if args.command not in OPENS_DEBUGGER:
        resume_collection()
    try:
        configured_patterns()  # every command may write or print redacted text: a bad pattern stops all
        return args.handler(args) or 0
    # An error may quote a trace, a file name, a setting or a server's reply: shown literally, with
    # the environment's secrets and credential shapes redacted (not LOOPSCOPE_REDACT: it may be the error).
    except (UsageError, TraceFormatError, RedactionPatternError, PriceTableError) as error:
        print(f"loopscope: {scrub(Redactor().redact_text(str(error)))}", file=sys.stderr)
        return 2
    except MissingExtra as error:  # a part of loopscope whose optional extra is not installed: one line
        print(f"loopscope: {scrub(str(error))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `loopscope ... | head` closed the pipe: stop quietly, as cat and grep do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's exit flush must not fail too
        return 141
    except Exception as error:
        if not is_trace_write_error(error):
            raise
        print(f"loopscope: {scrub(Redactor().redact_text(str(error)))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as interrupt:  # a command may say what it kept (KeyboardInterrupt(words))
        print("loopscope: interrupted" + (f"; {scrub(interrupt)}" if str(interrupt) else ""), file=sys.stderr)
        return 130


def entry() -> None:
    """The `loopscope` command: main(), then the exit. After Ctrl-C the exit is at once even while a framework's
    tool still runs in a thread of the framework's own: Python would wait for that thread at exit, for ever if
    the tool hangs (loopscope's own agents run tools on daemon threads, which it does not wait for)."""
    code = main()
    me = threading.current_thread()
    if code == 130 and any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not me):
        sys.stdout.flush()
        sys.stderr.flush()
        atexit._run_exitfuncs()  # what was registered still runs: an MCP server's clean-up, the user's own
        os._exit(code)
    sys.exit(code)
