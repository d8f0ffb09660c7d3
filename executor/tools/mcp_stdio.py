"""The stdio transport, with limits: the server in a process group of its own, each answer capped, stray output named.

Why not the SDK's stdio_client: it keeps a line in memory however long it grows (a 100 MB answer is
read whole, and re-joined chunk by chunk), sends the server's stderr to ours (a crashing server's
traceback would draw over the debugger), and does not tell us the process id, which the exit hook
below needs so that no server outlives loopscope. The JSON-RPC parsing is still the SDK's.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.client.stdio import get_default_environment
from mcp.shared.message import SessionMessage

from .mcp_errors import McpProtocolError, McpResultTooLarge, McpServerError
from .mcp_leftovers import TAG, descendants, new_tag, stop_leftovers
from .mcp_sdk import error_reply, parsed_message
from .mcp_wire import Wire

CLOSE_GRACE = 2.0  # seconds a server has to exit once its stdin is closed, before SIGTERM
KILL_GRACE = 1.0  # and after SIGTERM, before SIGKILL
SHOWN = 160  # characters of a stray line or a stderr line quoted in an error
_ID = re.compile(rb'"id"\s*:\s*("(?:[^"\\]|\\.){0,64}"|-?\d{1,18})')

# pid -> label of every server process running now (its process group has the same id).
LIVE_SERVERS: dict[int, str] = {}
_live_lock = threading.Lock()


class ServerProcess:
    """What is known about a running server: its pid, its last words on stderr, how it exited."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.pid: int | None = None
        self.returncode: int | None = None
        self.stderr: deque[str] = deque(maxlen=20)
        self.tag = new_tag()  # in the environment of the server and of every child it starts

    def exit_note(self) -> str:
        """ " (exit code 1; stderr: 'ValueError: boom')", or "" when nothing is known yet."""
        parts = []
        if self.returncode is not None:
            parts.append(f"exit code {self.returncode}")
        if self.stderr:
            parts.append(f"stderr: {self.stderr[-1]!r}")
        return f" ({'; '.join(parts)})" if parts else ""


@asynccontextmanager
async def stdio_transport(
    command: list[str], env: dict[str, str] | None, cwd: str | None, max_bytes: int, wire: Wire, state: ServerProcess
) -> AsyncIterator[tuple[Any, Any]]:
    # Only a safe part of our environment (PATH, HOME, ...; the SDK's list) and what the user added: a
    # server someone else wrote is not handed OPENAI_API_KEY and the rest.
    environment = {**get_default_environment(), **(env or {}), TAG: state.tag}
    process = await _spawn(command, environment, cwd, state.label)
    state.pid = process.pid
    with _live_lock:
        LIVE_SERVERS[process.pid] = state.label
    to_session, from_server = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_server, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    async def read_stdout() -> None:
        async with to_session:
            lines = CappedLines(max_bytes)
            async for chunk in process.stdout:
                for line, length in lines.feed(chunk):
                    for message in _messages(line, length, max_bytes, wire):
                        await to_session.send(message)
            with anyio.move_on_after(0.5):  # stdout closed: the server is exiting; learn how, for the error
                state.returncode = await process.wait()

    async def write_stdin() -> None:
        async with from_session:
            try:
                async for message in from_session:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await process.stdin.send(data.encode())
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                await to_session.aclose()  # the server is gone: the session sees the end, not a hang

    async def read_stderr() -> None:
        lines = CappedLines(4096)
        async for chunk in process.stderr:
            for line, _ in lines.feed(chunk):
                text = line.decode(errors="replace").strip()
                if text:
                    state.stderr.append(text[:SHOWN])

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(read_stdout)
            tasks.start_soon(write_stdin)
            tasks.start_soon(read_stderr)
            try:
                yield from_server, to_server
            finally:
                with anyio.CancelScope(shield=True):
                    await _stop(process, state)
                tasks.cancel_scope.cancel()
    finally:
        with _live_lock:
            LIVE_SERVERS.pop(process.pid, None)


# On Linux the server is started through this trampoline: it asks the kernel to kill it when loopscope's
# MCP thread dies (PR_SET_PDEATHSIG, kept across exec), then becomes the server. So even a loopscope
# killed outright (SIGKILL, or SIGTERM, which skips exit hooks) leaves no server running.
_TRAMPOLINE = (
    "import ctypes, os, signal, sys\n"
    "ctypes.CDLL(None).prctl(1, signal.SIGKILL)\n"
    "if os.getppid() != int(sys.argv[1]): sys.exit(0)\n"  # loopscope died before prctl: do not start
    "os.execvp(sys.argv[2], sys.argv[2:])\n"
)


async def _spawn(command: list[str], env: dict[str, str], cwd: str | None, label: str) -> Any:
    program = command[0]
    path = env.get("PATH")
    found = os.path.join(cwd or ".", program) if os.sep in program else shutil.which(program, path=path)
    if not found or not os.access(found, os.X_OK):
        where = f" in {cwd}" if cwd and os.sep in program else ""
        raise McpServerError(
            f"MCP server {label!r} could not start: there is no program {program!r}{where} (is it installed, on PATH?)"
        )
    if sys.platform == "linux":
        command = [sys.executable, "-I", "-S", "-c", _TRAMPOLINE, str(os.getpid()), *command]
    try:
        # A session of its own: Ctrl-C in the terminal reaches loopscope, which then stops the server itself.
        return await anyio.open_process(
            command, env=env, cwd=cwd, start_new_session=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
    except OSError as error:
        raise McpServerError(f"MCP server {label!r} could not start: {error.strerror or error}") from None


async def _stop(process: Any, state: ServerProcess) -> None:
    """Close stdin and give the server CLOSE_GRACE to exit, then stop its process group (SIGTERM, SIGKILL);
    then, however it ended, stop what it left: its group, its children and whatever carries its tag."""
    below = descendants(process.pid)  # now, while a child that left the group is still the server's child
    try:
        await process.stdin.aclose()
    except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass  # already closed or broken: the server is going anyway
    for grace, stop_signal in ((CLOSE_GRACE, signal.SIGTERM), (KILL_GRACE, signal.SIGKILL), (1.0, None)):
        with anyio.move_on_after(grace):
            state.returncode = await process.wait()
            break
        if stop_signal is not None:
            _signal_group(process.pid, stop_signal)
    try:  # in a thread: waiting for leftovers to go must not stall the other servers' calls
        await anyio.to_thread.run_sync(stop_leftovers, [process.pid], below, state.tag, KILL_GRACE)
    except RuntimeError:  # no new thread at interpreter exit: done here, briefly blocking the loop
        stop_leftovers([process.pid], below, state.tag, KILL_GRACE)


def _signal_group(pid: int, stop_signal: signal.Signals) -> None:
    try:
        os.killpg(pid, stop_signal)  # the group: a server's own children go too
    except (ProcessLookupError, PermissionError):
        pass  # gone already


def kill_live_servers(grace: float = KILL_GRACE, hurry: Callable[[], bool] = lambda: False) -> list[int]:
    """At exit: stop every server process still running, and whatever any server this process started left
    (SIGTERM, then SIGKILL after `grace`, or at once when `hurry()`); the pids of the servers stopped."""
    with _live_lock:
        pids = list(LIVE_SERVERS)
    below = set().union(*(descendants(pid) for pid in pids))
    # Every server this process started carries TAG=<this pid>-<random>, and so do its children.
    stop_leftovers(pids, below, f"{os.getpid()}-", grace, hurry)
    return pids


class CappedLines:
    """Splits bytes into lines, never holding more than `limit` bytes of one: a longer line is counted
    while it is skipped, and handed out as its first bytes with its real length."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self.skipped = 0  # bytes of the current line dropped past the limit

    def feed(self, chunk: bytes) -> Iterator[tuple[bytes, int]]:
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            room = self.limit - len(self.buffer)
            if len(piece) > room:
                self.buffer += piece[: max(room, 0)]
                self.skipped += len(piece) - max(room, 0)
            else:
                self.buffer += piece
            if end < 0:
                return
            yield bytes(self.buffer), len(self.buffer) + self.skipped
            self.buffer.clear()
            self.skipped = 0
            start = end + 1


def _messages(line: bytes, length: int, max_bytes: int, wire: Wire) -> list[SessionMessage | Exception]:
    """What one line of the server's stdout means to the session (as the SDK parses it), and to the calls waiting."""
    if length > max_bytes:
        return _refuse(line, wire, McpResultTooLarge, f"an answer of {length:,} bytes, over the {max_bytes:,} cap")
    if not line.strip():
        return []
    try:
        return [parsed_message(line)]
    except ValueError:
        shown = line[:SHOWN].decode(errors="replace")
        return _refuse(line, wire, McpProtocolError, f"a line that is not JSON-RPC: {shown!r}")


def _refuse(line: bytes, wire: Wire, error: type[Exception], what: str) -> list[SessionMessage | Exception]:
    """Fail the request the line answers (its id, if the start of the line names one) or every waiting
    request, with a JSON-RPC error that ends the SDK's wait; a line nobody waits for is only noted."""
    found = _ID.search(line[:256])
    named = found.group(1).decode().strip('"') if found else None
    ids = [named] if named is not None and str(named) in wire.waiting else [str(i) for i in wire.waiting_ids()]
    if not ids:
        if len(wire.stray) < 5:
            wire.stray.append(what)
        return []
    replies: list[SessionMessage | Exception] = []
    for request_id in ids:
        slot = wire.waiting[str(request_id)]
        wire.fail(request_id, error(f"MCP server {wire.label!r} sent {what} (for {slot.method} #{slot.request_id})"))
        replies.append(error_reply(slot.request_id, what))
    return replies
