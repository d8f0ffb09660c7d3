"""Which agents may run: the ones the user named (--agent, or their pyproject.toml), never one a trace names."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..trace.literal_text import scrub
from .scenario_registry import UnknownAgent

PYPROJECT = "pyproject.toml"
# How a trusted name is shown in advice to copy: anything else in a header is shown scrubbed, and not offered.
_PLAIN_SPEC = re.compile(r"[\w./-]{1,150}:\w{1,80}")


class UntrustedAgent(UnknownAgent):
    """A trace names an agent the user never trusted, so it is not imported; the message says how to trust it."""


@dataclass(frozen=True)
class AgentRef:
    """An agent spec resolved to what it would run, found without importing anything.

    module: the dotted name of a MODULE:FUNCTION spec (None for FILE.py:FUNCTION).
    file: the .py a file spec names, or where the module would be found on sys.path (None: nowhere).
    """

    spec: str  # how to import it (a file from pyproject.toml made absolute)
    function: str
    module: str | None
    file: Path | None

    def same_agent(self, other: AgentRef) -> bool:
        """Same function, and the same module name or the same file (so `a:build` and `./a.py:build` agree)."""
        if self.function != other.function:
            return False
        if self.module is not None and self.module == other.module:
            return True
        return self.file is not None and self.file == other.file


def agent_ref(spec: str, base: Path | None = None) -> AgentRef | None:
    """`spec` resolved (a relative file against `base`, default the working directory); None if malformed."""
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
    return AgentRef(spec, function, target, module_file(target))


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL in the name
        return None


def module_file(name: str) -> Path | None:
    """Where `import name` would find the module's source, by looking at files only.

    importlib.util.find_spec would import the parent packages of a dotted name (running their
    __init__), so the search is done by hand: the working directory (where the user's module is
    imported from), then sys.path, each tried as a/b.py and a/b/__init__.py.
    """
    parts = name.split(".")
    for entry in [str(Path.cwd()), *sys.path]:
        folder = Path(entry or ".")
        for candidate in (folder.joinpath(*parts[:-1], parts[-1] + ".py"), folder.joinpath(*parts, "__init__.py")):
            try:
                if candidate.is_file():
                    return candidate.resolve()
            except OSError:  # an unreadable sys.path entry is skipped, as the import system skips it
                continue
    return None


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


def trusted_spec(recorded: str | None, named: Sequence[str] = ()) -> str:
    """The spec to import for a trace whose header names the agent `recorded`.

    Only an agent the user trusts runs: one named with --agent (`named`), or listed in the
    pyproject.toml found from the working directory upwards. It is matched by what it resolves
    to, and the user's own spelling is what gets imported. A trace that names no agent is
    rebuilt with the one --agent given. Raises UntrustedAgent (or UnknownAgent) in one line.
    """
    if recorded is None:
        if len(named) == 1:
            return named[0]
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
            "so it is not run; pass the agent that recorded it with --agent MODULE:FUNCTION"
        )
    for spec in named:
        ref = agent_ref(spec)
        if ref is not None and ref.same_agent(wanted):
            return ref.spec
    pyproject = find_pyproject()
    for ref in pyproject_agents(pyproject) if pyproject else ():
        if ref.same_agent(wanted):
            return ref.spec
    raise UntrustedAgent(_how_to_trust(recorded, named, pyproject))


def trusted_or_none(recorded: str | None, named: Sequence[str] = ()) -> str | None:
    """trusted_spec, or None when the agent is not trusted (for notes that are only given about trusted code)."""
    if recorded is None:
        return None
    try:
        return trusted_spec(recorded, named)
    except UnknownAgent:
        return None


def _how_to_trust(recorded: str, named: Sequence[str], pyproject: Path | None) -> str:
    shown = _shown(recorded)
    offered = recorded if _PLAIN_SPEC.fullmatch(recorded) else "MODULE:FUNCTION"
    where = pyproject or "your pyproject.toml"
    differs = f" (--agent {', '.join(scrub(n) for n in named)} is another agent)" if named else ""
    return (
        f"the trace names agent {shown}, which you have not trusted, so it is not run{differs}; "
        f"if it is yours, pass --agent {offered} or list it in [tool.loopscope] agents in {where}"
    )


def _shown(recorded: str) -> str:
    """A header's agent name as it may be printed: control characters made visible, and kept short."""
    text = scrub(recorded)
    return repr(text if len(text) <= 100 else text[:100] + "…")
