"""`loopscope serve [TRACE | --tutorial NAME] [--port P]`: the same debugger, in a web browser (textual-serve)."""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import sys
from pathlib import Path

from tutorials.registry import find_part

from ..extras import MissingExtra
from ..trace.reader import TraceFile
from . import COMMANDS
from .language import usage_error
from .scenarios import add_agent_argument
from .usage_error import UsageError

LOOPBACK = "127.0.0.1"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "serve",
        help=COMMANDS["serve"],
        description="Serve the debugger on a trace (or a tutorial) to a web browser. Each browser "
        "tab gets its own debugger process. Binds to 127.0.0.1, so only this machine "
        "can connect, unless --host names another address. Open the address it prints: "
        "its token is new at each start, and without it nothing answers.",
    )
    p.add_argument("trace", nargs="?", metavar="TRACE.jsonl", help="the trace file to open")
    p.add_argument("--tutorial", metavar="NAME", help="open this tutorial instead (e.g. rose-pricing, langchain)")
    p.add_argument("--lang", choices=("en", "zh"), help="the tutorial's language")
    add_agent_argument(p)
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument(
        "--host",
        default=LOOPBACK,
        help="address to bind (default 127.0.0.1; 0.0.0.0 lets any machine that can reach this one in)",
    )
    return p


# Each tab's debugger: this Python and loopscope's own command line. -P keeps the working directory off
# sys.path, so a project's own tracer.py there cannot stand in for loopscope's `tracer`; a user's agent is
# still found there (the command line puts the folder on sys.path itself when it imports one).
LOOPSCOPE_COMMAND = (sys.executable, "-P", "-m", "tracer.cli")


def debugger_command(args: argparse.Namespace) -> list[str]:
    """What each browser session runs: this Python, loopscope's own CLI, the debugger on the chosen run."""
    if bool(args.trace) == bool(args.tutorial):
        raise usage_error("cli.serve.error.trace_or_tutorial", args)
    if args.trace:
        with TraceFile(args.trace):  # a bad file is reported here, once, not in every browser tab
            pass  # opened and closed only to check it: the browser tabs read it themselves
        # Each tab's debugger trusts exactly the agents given here (its folder's pyproject.toml too).
        agents = [word for spec in args.agents for word in ("--agent", spec)]
        return [*LOOPSCOPE_COMMAND, "debug", str(Path(args.trace).resolve()), *agents]
    try:
        find_part(args.tutorial)
    except KeyError as error:
        raise UsageError(str(error.args[0])) from None
    return [
        *LOOPSCOPE_COMMAND,
        "tutorial",
        args.tutorial,
        *(["--lang", args.lang] if args.lang else []),
    ]


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def run(args: argparse.Namespace) -> int:
    command = debugger_command(args)
    if not 0 < args.port < 65536:
        raise usage_error("cli.serve.error.port", args, port=args.port)
    try:
        from .serve_guard import GuardedServer  # textual-serve, an extra ([serve]): no other command loads it
    except MissingExtra as error:
        raise UsageError(str(error)) from None
    server = GuardedServer(shlex.join(command), host=args.host, port=args.port, title="loopscope")
    if _is_loopback(args.host):
        reach = f"bound to {args.host} only, so other machines cannot connect (--host to change that)"
    else:
        reach = f"bound to {args.host}: anyone who can reach this machine on that port and has this address can open it"
    print(
        f"loopscope: serving the debugger at {server.url} — {reach}. The token is new at each start: "
        "the page and its websocket answer no one without it",
        flush=True,
    )
    server.serve()
    return 0
