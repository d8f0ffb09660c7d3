"""A user's own agent named on the command line (my_agent:build, path/to/file.py:build), run like a scenario."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from executor import AgentExecutor, ChatModel, Tool

from ..trace.literal_text import scrub
from .agent_spec import is_agent_spec
from .frameworks import framework_of
from .name_clash import clash_advice, clashing_modules
from .scenario_registry import UnknownAgent, find_scenario, registered_scenarios
from .trust import AgentRef, import_search_path, module_file

Build = Callable[..., AgentExecutor]  # build(model, **settings) -> AgentExecutor


def user_build(build: Callable[[ChatModel], AgentExecutor]) -> Build:
    """A user's build(model) as a Build: the settings replay needs are applied to its executor,
    except a clock or retry policy the user chose (a test's own clock is kept)."""

    def built(model: ChatModel, **settings: Any) -> AgentExecutor:
        executor = build(model)
        kept = {
            k: v
            for k, v in settings.items()
            if not (k in ("clock", "retry_policy") and getattr(executor, k) is not None)
        }
        return executor.with_overrides(**kept)

    return built


def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise ImportError(f"no such file {path}")
    # Its folder goes on sys.path so the file can import its neighbours, as `python file.py` allows.
    folder = str(path.parent.resolve())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def _import_module(name: str) -> ModuleType:
    # The working directory is where a user's module lives; `python -m` would look there too.
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    return importlib.import_module(name)


def _import_trusted(ref: AgentRef) -> ModuleType:
    """Exactly the file `ref` was trusted as, never a same-named module found first.

    A file spec is loaded from its file. A module is imported with its root (the trusting
    pyproject's folder, or the working directory) first on sys.path and, for a pyproject's
    module, without the working directory; a module of that name imported earlier from another
    file is forgotten first, and what was imported is checked against the trusted file.
    """
    if ref.module is None:
        if ref.file is None:
            raise ImportError(f"no such file {ref.spec.rpartition(':')[0]}")
        return _import_file(ref.file)
    if ref.file is None:
        raise ImportError(f"no module named {ref.module!r} in {ref.root or Path.cwd()}")
    search = import_search_path(ref.root)
    prefixes = [".".join(ref.module.split(".")[: n + 1]) for n in range(ref.module.count(".") + 1)]
    for name in prefixes:  # an earlier import of the same name from elsewhere would be reused
        loaded = sys.modules.get(name)
        if loaded is not None and _file_of(loaded) != module_file(name, ref.root):
            sys.modules.pop(name)
    kept = sys.path[:]
    sys.path[:] = search
    importlib.invalidate_caches()
    try:
        module = importlib.import_module(ref.module)
    finally:  # the user's module may import its neighbours later: its root stays in front
        sys.path[:] = [search[0], *(entry for entry in kept if entry != search[0])]
    if _file_of(module) != ref.file:
        raise ImportError(f"it was found at {_file_of(module)}, not at the trusted {ref.file}")
    return module


def _file_of(module: ModuleType) -> Path | None:
    source = getattr(module, "__file__", None)
    try:
        return Path(source).resolve() if source else None
    except (OSError, RuntimeError, ValueError):
        return None


def import_build(agent: str | AgentRef) -> tuple[Any, Path | None]:
    """(the build function `agent` names, the file it came from); UnknownAgent with a one-line reason.

    A string is what the user typed (record, run); an AgentRef is a trusted trace's agent, pinned to its file.
    """
    ref = agent if isinstance(agent, AgentRef) else None
    spec = agent.spec if isinstance(agent, AgentRef) else agent
    module_name, _, function = spec.rpartition(":")
    try:
        if ref is not None:
            module = _import_trusted(ref)
        else:
            module = _import_file(Path(module_name)) if module_name.endswith(".py") else _import_module(module_name)
    except Exception as error:  # any failure in the user's module is reported, not raised through
        raise UnknownAgent(
            f"cannot import agent {spec!r}: module {module_name!r} failed with "
            f"{type(error).__name__}{_first_line(error)}{_clash_note(error)}"
        ) from None
    build = getattr(module, function, None)
    if not callable(build) and framework_of(build) is None:  # a graph or an Agent object is run by its adapter
        raise UnknownAgent(
            f"cannot use agent {spec!r}: module {module_name!r} has no function {function!r}; "
            "it should define build(model) returning an AgentExecutor, or a framework's agent "
            "(a compiled LangGraph graph, or a function returning one)"
        )
    source = getattr(module, "__file__", None)
    return build, Path(source) if source else None


def _clash_note(error: BaseException) -> str:
    """When the import failed on a name one of the project's modules shares with loopscope: that file and the fix."""
    if isinstance(error, (ImportError, AttributeError)):
        for name, module in clashing_modules():
            if f"'{name}'" in str(error):
                return f"; {clash_advice(name, module)}"
    return ""


class AgentBuildError(UnknownAgent):
    """The user's build function raised, or did not return an AgentExecutor."""


def _first_line(error: BaseException) -> str:
    """ ": the first line of the error's message", or "" when it has none (printed in one line, scrubbed)."""
    lines = str(error).splitlines()
    return f": {scrub(lines[0])[:200]}" if lines else ""


def file_hash(path: Path | None) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path and path.is_file() else None


@dataclass
class UserAgent:
    """A user's build(model) behind the scenario interface the commands use (executor, inputs, fixture)."""

    spec: str
    build: Callable[[ChatModel], AgentExecutor]
    source: Path | None = None
    given_inputs: dict[str, Any] | None = None
    replies: tuple[str, ...] = ()
    expect_error: bool = False
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec

    @property
    def fixture(self) -> Path:
        """The default recording: in the working directory, named after the module and function."""
        module, _, function = self.spec.rpartition(":")
        stem = Path(module).stem if module.endswith(".py") else module.replace(".", "_")
        return Path.cwd() / f"{stem}_{function}.jsonl"

    def inputs(self) -> dict[str, Any]:
        if self.given_inputs is None:
            raise UnknownAgent(f"what should {self.spec} be asked? give --input TEXT (or --inputs JSON)")
        return dict(self.given_inputs)

    def executor(self, model: ChatModel, tools: list[Tool] | None = None, **settings: Any) -> AgentExecutor:
        executor = user_build(self._checked_build)(model, **settings)
        return executor.with_overrides(tools=tools) if tools is not None else executor

    def _checked_build(self, model: ChatModel) -> AgentExecutor:
        """The user's build(model); one that raises or returns something else is a one-line AgentBuildError."""
        function = self.spec.rpartition(":")[2]
        try:
            built = self.build(model)
        except Exception as error:  # the user's code, reported as theirs rather than as a loopscope crash
            raise AgentBuildError(
                f"agent {self.spec!r}: {function}(model) raised {type(error).__name__}{_first_line(error)}"
            ) from None
        if not isinstance(built, AgentExecutor):
            raise AgentBuildError(
                f"agent {self.spec!r}: {function}(model) returned {type(built).__name__}, not an AgentExecutor"
            )
        return built

    def header_meta(self) -> dict[str, Any]:
        return {"agent": self.spec, "agent_hash": file_hash(self.source)}


def load_user_agent(spec: str | AgentRef, inputs: dict[str, Any] | None = None) -> UserAgent:
    build, source = import_build(spec)
    return UserAgent(spec.spec if isinstance(spec, AgentRef) else spec, build, source, inputs)


def resolve_agent(name: str, inputs: dict[str, Any] | None = None) -> Any:
    """A registered scenario by name, or a user's agent by MODULE:FUNCTION / FILE.py:FUNCTION."""
    if name in registered_scenarios() or not is_agent_spec(name):
        return find_scenario(name)
    return load_user_agent(name, inputs)


def header_meta(agent: Any) -> dict[str, Any]:
    """What a trace header records about the agent that ran, so replay can rebuild it."""
    meta = getattr(agent, "header_meta", None)
    return meta() if meta else {"scenario": agent.name}


def agent_source_note(agent: AgentRef | None, recorded_hash: str | None) -> str | None:
    """A note when the user's agent file is not the one that recorded the trace (its events may still match).

    `agent` must be one the user trusts (trust.trusted_agent); its file is hashed, never imported.
    """
    if agent is None or not recorded_hash or file_hash(agent.file) in (None, recorded_hash):
        return None
    return f"{agent.file.name if agent.file else agent.spec} changed since this trace was recorded"
