"""Which agents may run: the ones the user named (--agent, or their pyproject.toml), never one a trace names."""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..trace.literal_text import scrub
from .scenario_registry import UnknownAgent

PYPROJECT = "pyproject.toml"
# How a trusted name is shown in advice to copy: anything else in a header is shown escaped, and not offered.
# ASCII only: a fullwidth "ｍｙ_agent" is a letter class match otherwise, and looks like the real name.
_PLAIN_SPEC = re.compile(r"[\w./-]{1,150}:\w{1,80}", re.ASCII)


class UntrustedAgent(UnknownAgent):
    """A trace names an agent the user never trusted, so it is not imported; the message says how to trust it."""


@dataclass(frozen=True)
class AgentRef:
    """An agent spec resolved to what it would run, found without importing anything.

    module: the dotted name of a MODULE:FUNCTION spec (None for FILE.py:FUNCTION).
    file: the .py a file spec names, or where the module would be found (None: nowhere).
    root: the folder a module is imported from first (a pyproject.toml's folder; None: the working directory).
    """

    spec: str  # how to import it (a file from pyproject.toml made absolute)
    function: str
    module: str | None
    file: Path | None
    root: Path | None = None

    def same_agent(self, other: AgentRef) -> bool:
        """Same function, and the same module name or the same file (so `a:build` and `./a.py:build` agree)."""
        if self.function != other.function:
            return False
        if self.module is not None and self.module == other.module:
            return True
        return self.file is not None and self.file == other.file


def agent_ref(spec: str, base: Path | None = None) -> AgentRef | None:
    """`spec` resolved (a relative file or a module against `base`, default the working directory); None if malformed.

    A module listed in a pyproject.toml is looked for in that file's folder, never in the working
    directory: a same-named module beside a trace would otherwise stand in for the trusted one.
    """
    if not isinstance(spec, str):
        return None
    target, sep, function = spec.rpartition(":")
    if not (sep and target and function.isidentifier()):
        return None
    if target.endswith(".py"):
        path = Path(target)
        if base is not None and not path.is_absolute():
            path, spec = base / path, f"{base / path}:{function}"
        return AgentRef(spec, function, None, _resolved(path))
    if not all(part.isidentifier() for part in target.split(".")):
        return None
    return AgentRef(spec, function, target, module_file(target, base), _resolved(base) if base else None)


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL in the name
        return None


def module_file(name: str, root: Path | None = None) -> Path | None:
    """Where `import name` would find the module's source, by looking at files only.

    importlib.util.find_spec would import the parent packages of a dotted name (running their
    __init__), so the search is done by hand: `root` (default the working directory, where the
    user's module is imported from), then sys.path, each tried as a/b.py and a/b/__init__.py.
    With a `root`, the working directory is not searched (see import_search_path).
    """
    parts = name.split(".")
    for entry in import_search_path(root):
        folder = Path(entry or ".")
        for candidate in (folder.joinpath(*parts[:-1], parts[-1] + ".py"), folder.joinpath(*parts, "__init__.py")):
            try:
                if candidate.is_file():
                    return candidate.resolve()
            except OSError:  # an unreadable sys.path entry is skipped, as the import system skips it
                continue
    return None


def import_search_path(root: Path | None = None) -> list[str]:
    """The folders a trusted module is imported from, in order: `root` first; given a root,
    without the working directory ("" or "." on sys.path), which may hold a look-alike."""
    if root is None:
        return [str(Path.cwd()), *sys.path]
    cwd = _resolved(Path.cwd())
    return [str(root), *(entry for entry in sys.path if entry not in ("", ".") and _resolved(Path(entry)) != cwd)]


def find_pyproject(start: Path | None = None) -> Path | None:
    """The first pyproject.toml from `start` (default the working directory) upwards, as pytest finds its rootdir."""
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / PYPROJECT).is_file():
            return candidate / PYPROJECT
    return None


def pyproject_agents(path: Path) -> list[AgentRef]:
    """The agents `[tool.loopscope] agents = [...]` lists in `path`; a bad entry is a one-line UnknownAgent."""
    import tomllib  # only a trace that names an agent ever needs it

    try:
        with path.open("rb") as file:
            table: Any = tomllib.load(file)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UnknownAgent(
            f"{path}: cannot read the trusted agents ({scrub(error)}); fix the file, or pass --agent MODULE:FUNCTION"
        ) from None
    listed: Any = table
    for key in ("tool", "loopscope", "agents"):
        listed = listed.get(key, {} if key != "agents" else []) if isinstance(listed, dict) else None
    if not isinstance(listed, list):
        raise UnknownAgent(f'{path}: [tool.loopscope] agents must be a list of "MODULE:FUNCTION" strings')
    refs = []
    for entry in listed:
        ref = agent_ref(entry, base=path.parent) if isinstance(entry, str) else None
        if ref is None:
            raise UnknownAgent(
                f"{path}: [tool.loopscope] agents: {scrub(repr(entry))[:80]} is not "
                "MODULE:FUNCTION or path/to/file.py:FUNCTION"
            )
        refs.append(ref)
    return refs


def trusted_agent(recorded: str | None, named: Sequence[str] = ()) -> AgentRef:
    """The agent to import for a trace whose header names the agent `recorded`.

    Only an agent the user trusts runs: one named with --agent (`named`), or listed in the
    pyproject.toml found from the working directory upwards (when that file is safe to trust,
    see pyproject_distrust). It is matched by what it resolves to, and the user's own entry is
    what gets imported: its spelling, and for a pyproject's module, from that pyproject's folder.
    A trace that names no agent is rebuilt with the one --agent given. Raises UntrustedAgent
    (or UnknownAgent) in one line.
    """
    if recorded is None:
        if len(named) == 1:
            ref = agent_ref(named[0])
            if ref is None:
                raise UnknownAgent(f"--agent {scrub(named[0])!r} is not MODULE:FUNCTION or path/to/file.py:FUNCTION")
            return ref
        raise UnknownAgent(
            "the trace's header names no scenario or agent, so there is nothing to rebuild; "
            + (
                "give one --agent, not several"
                if named
                else "pass --agent MODULE:FUNCTION (from Python, the build function; in pytest, loopscope_cassette)"
            )
        )
    wanted = agent_ref(recorded)
    if wanted is None:
        raise UntrustedAgent(
            f"the trace names an agent that is not MODULE:FUNCTION ({_shown(recorded)}), "
            f"so it is not run{_not_ascii(recorded)}; pass the agent that recorded it with --agent MODULE:FUNCTION"
        )
    for spec in named:
        ref = agent_ref(spec)
        if ref is not None and ref.same_agent(wanted):
            return ref
    pyproject = find_pyproject()
    ignored = pyproject_distrust(pyproject) if pyproject else None
    for ref in pyproject_agents(pyproject) if pyproject and not ignored else ():
        if ref.same_agent(wanted):
            return ref
    raise UntrustedAgent(_how_to_trust(recorded, named, pyproject, ignored))


def trusted_or_none(recorded: str | None, named: Sequence[str] = ()) -> AgentRef | None:
    """trusted_agent, or None when the agent is not trusted (for notes that are only given about trusted code)."""
    if recorded is None:
        return None
    try:
        return trusted_agent(recorded, named)
    except UnknownAgent:
        return None


def pyproject_distrust(path: Path) -> str | None:
    """Why `path` may not say what runs (None: it may), as git's safe.directory judges a repository.

    The file and its folder must belong to you (or root) and be writable by nobody else: a
    pyproject.toml left in a shared folder (/tmp) would otherwise trust code for everyone below
    it, and a folder others can write to can be given a module named like a trusted one.
    """
    for what, where in (("it", path), ("its folder", path.parent)):
        try:
            status = where.stat()
        except OSError as error:
            return f"{what} cannot be checked ({scrub(error)})"
        if status.st_uid not in (os.getuid(), 0):
            return f"{what} belongs to another user (uid {status.st_uid})"
        if status.st_mode & stat.S_IWOTH:
            return f"{what} is writable by every user"
        if status.st_mode & stat.S_IWGRP and not _own_group(status.st_gid):
            return f"{what} is writable by group {status.st_gid}"
    return None


def _own_group(gid: int) -> bool:
    """Is `gid` a group only you are in (the private group most systems give each user)?"""
    import grp  # Unix only, like the ownership it checks

    try:
        group = grp.getgrgid(gid)
    except KeyError:
        return False
    return gid == os.getgid() and not [member for member in group.gr_mem if member != _user_name()]


def _user_name() -> str:
    import pwd  # Unix only, like grp above

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return ""


def _how_to_trust(recorded: str, named: Sequence[str], pyproject: Path | None, ignored: str | None) -> str:
    shown = _shown(recorded)
    offered = recorded if _PLAIN_SPEC.fullmatch(recorded) else "MODULE:FUNCTION"
    differs = f" (--agent {', '.join(scrub(n) for n in named)} is another agent)" if named else ""
    if ignored:  # say why the file was not read, and how to make it trustable
        where = (
            f"; {scrub(pyproject)} was ignored: {ignored}, so it may not say what runs "
            "(make it and its folder yours and writable only by you)"
        )
    else:
        where = f" or list it in [tool.loopscope] agents in {scrub(pyproject or 'your pyproject.toml')}"
    return (
        f"the trace names agent {shown}, which you have not trusted, so it is not run{differs}"
        f"{_not_ascii(recorded)}; if it is yours, pass --agent {offered}{where}"
    )


def _not_ascii(recorded: str) -> str:
    """A warning for a name with letters outside ASCII: fullwidth or Cyrillic look-alikes of another name."""
    return "" if recorded.isascii() else " (its name is not plain ASCII: look-alike letters can spell another name)"


def _shown(recorded: str) -> str:
    """A header's agent name as it may be printed: escaped (controls and anything not ASCII), and kept short."""
    return ascii(recorded if len(recorded) <= 100 else recorded[:100] + "…")
