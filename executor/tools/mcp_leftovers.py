"""What an MCP server leaves running, found and stopped: its process group, its descendants, and whatever carries its tag.

A server is started in a session (and process group) of its own, so one signal to the group stops the
server and the children it started. A child can leave the group (setsid, setpgid) and, once the server
exits, is no longer its child either. Two more ways find those on Linux, where /proc tells:
- every process below the server, walked by parent before the server is stopped;
- every process whose environment holds the server's tag (TAG=<loopscope's pid>-<random>), which children
  inherit, so a double-forked daemon is found after its parent is gone.
What none of them reaches: a process that left the group, was orphaned before the walk, and cleared its
environment (or one running as another user, whose /proc entries we may not read). Elsewhere only the
group is signalled.
"""

from __future__ import annotations

import os
import secrets
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

TAG = "LOOPSCOPE_MCP_SERVER"
PROC = "/proc"
# Set by a second Ctrl-C during clean-up: waits end at once and what is left is killed.
Hurry = Callable[[], bool]


def new_tag() -> str:
    """A tag for one server start: this process's pid first, so exit can find every server it started."""
    return f"{os.getpid()}-{secrets.token_hex(8)}"


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    pgrp: int
    started: int  # clock ticks after boot: with the pid, names one process (a pid is reused, this pair is not)
    zombie: bool


def _read(pid: int | str) -> Proc | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:  # plain open: a scan reads hundreds of these
            text = file.read()
    except OSError:  # gone meanwhile
        return None
    fields = text.rpartition(b")")[2].split()  # after the command's name, which may hold spaces and ')'
    try:
        return Proc(int(pid), int(fields[1]), int(fields[2]), int(fields[19]), fields[0] in (b"Z", b"X"))
    except (IndexError, ValueError):
        return None


def _pids() -> list[str]:
    try:
        return [name for name in os.listdir(PROC) if name.isdigit()]
    except OSError:
        return []


def _every_process() -> Iterator[Proc]:
    for pid in _pids():
        if (found := _read(pid)) is not None:
            yield found


def descendants(pid: int) -> set[Proc]:
    """Every living process below `pid` (children, theirs, ...), in any group or session; empty off Linux."""
    if sys.platform != "linux":
        return set()
    children: dict[int, list[Proc]] = {}
    for proc in _every_process():
        children.setdefault(proc.ppid, []).append(proc)
    found: set[Proc] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child.pid)
    return {proc for proc in found if not proc.zombie}


def tagged(prefix: str) -> set[Proc]:
    """Every living process whose environment holds TAG=`prefix`... (one server's tag, or this process's pid-)."""
    if sys.platform != "linux":
        return set()
    wanted = f"\0{TAG}={prefix}".encode()
    found = set()
    for pid in _pids():
        if pid == str(os.getpid()):
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as file:  # a zombie's is empty
                environ = b"\0" + file.read()
        except OSError:  # gone, or not ours to read
            continue
        if wanted in environ and (proc := _read(pid)) is not None and not proc.zombie:
            found.add(proc)
    return found


def _still(proc: Proc) -> bool:
    """Is `proc` still that process, alive (not its pid reused)?"""
    now = _read(proc.pid)
    return now is not None and now.started == proc.started and not now.zombie


def _group_alive(pgid: int) -> bool:
    if sys.platform == "linux":
        return any(proc.pgrp == pgid and not proc.zombie for proc in _every_process())
    try:
        os.waitpid(pgid, os.WNOHANG)  # the leader is our child: reaped, not counted as alive
    except ChildProcessError:
        pass
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _signal(groups: Sequence[int], procs: set[Proc], stop_signal: signal.Signals) -> bool:
    """Send `stop_signal` to the groups and to those of `procs` still alive; False if nobody was there."""
    reached = False
    for pgid in groups:
        try:
            os.killpg(pgid, stop_signal)  # the group: the server and the children that stayed in it
            reached = True
        except (ProcessLookupError, PermissionError):
            pass  # gone already
    for proc in procs:
        if _still(proc):
            try:
                os.kill(proc.pid, stop_signal)
                reached = True
            except (ProcessLookupError, PermissionError):
                pass
    return reached


def stop_leftovers(
    groups: Sequence[int], known: set[Proc], tag: str, grace: float, hurry: Hurry = lambda: False
) -> None:
    """Stop the process groups `groups`, the processes `known` (a descendant walk made while the servers ran)
    and those tagged `tag` (a prefix): SIGTERM, then SIGKILL to what is left after `grace` seconds (at once
    when `hurry()` says so)."""
    found = known | tagged(tag)
    if not _signal(groups, found, signal.SIGTERM):
        return  # nothing was left: the usual end of a server that exited cleanly
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and not hurry():
        if not any(_group_alive(pgid) for pgid in groups) and not any(_still(proc) for proc in found):
            return
        time.sleep(0.02)
    _signal(groups, found | tagged(tag), signal.SIGKILL)
