"""Every optional extra's package loopscope imports, when it is not installed, is one line naming the extra."""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, packages_distributions, requires
from pathlib import Path

import grimp
import pytest
from packaging.requirements import Requirement

from tracer.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[1]
OWN = ("executor", "tracer", "tutorials")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
ONLY_FOR_BENCH = {"bench"}  # bench/ compares speed against LangChain; no module of loopscope needs it


@functools.cache
def _distributions_of_modules() -> dict[str, list[str]]:
    """Every installed module's distributions: reading them all takes a second, so once per session."""
    return packages_distributions()


def _modules_of(distribution: str) -> set[str]:
    wanted = distribution.lower().replace("_", "-")
    return {
        module
        for module, dists in _distributions_of_modules().items()
        if any(d.lower().replace("_", "-") == wanted for d in dists)
    }


def _core_modules() -> set[str]:
    """Every top-level module that installing loopscope without extras brings (its requirements' closure)."""
    seen: set[str] = set()
    todo = [Requirement(text).name for text in PYPROJECT["dependencies"]]
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        try:
            wanted = requires(name) or []
        except PackageNotFoundError:
            continue
        todo += [r.name for r in map(Requirement, wanted) if not r.marker or r.marker.evaluate({"extra": ""})]
    return set().union(*map(_modules_of, seen))


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(top-level name, at module level?) for each absolute import in the file."""
    found: list[tuple[str, bool]] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend((alias.name.split(".")[0], not in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append((child.module.split(".")[0], not in_function))
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = sorted(path for package in OWN for path in (ROOT / package).rglob("*.py"))
EXTRA_OF = {module: extra for extra, modules in EXTRAS.items() for module in modules}


def test_the_table_of_extras_is_the_one_pyproject_installs():
    extras = {name: reqs for name, reqs in PYPROJECT["optional-dependencies"].items() if name not in ONLY_FOR_BENCH}
    assert set(extras) == set(EXTRAS)
    for extra, requirements in extras.items():
        for requirement in map(Requirement, requirements):
            modules = _modules_of(requirement.name)
            assert modules and modules <= set(EXTRAS[extra]), (extra, requirement.name, modules)


def test_every_package_loopscope_imports_is_a_dependency_or_belongs_to_an_extra():
    allowed = _core_modules() | set(sys.stdlib_module_names) | set(OWN) | set(EXTRA_OF) | {"__future__"}
    stray = {
        (name, str(path.relative_to(ROOT))) for path in SOURCES for name, _ in _imports(path) if name not in allowed
    }
    assert sorted(stray) == []


# Modules only ever reached through a guard that names the extra before it imports them (executor.tools.mcp
# checks the SDK is there first), or run as a process of their own: not a way into loopscope by themselves.
BEHIND_A_GUARD = {
    "executor.tools.mcp_connection": "executor.tools.mcp",
    "executor.tools.mcp_stdio": "executor.tools.mcp",
    "executor.tools.mcp_http": "executor.tools.mcp",
    "executor.tools.mcp_sdk": "executor.tools.mcp",
    "tutorials.mcp_search_server": None,  # the mcp-search tutorial's server: `python -m`, never imported
    # Parts of a framework's adapter, imported by it after its own guard has named the extra.
    "tracer.bridges.langgraph_models": "tracer.bridges.langgraph_agent",
    "tracer.bridges.openai_agents_tools": "tracer.bridges.openai_agents_agent",
    "tracer.bridges.pydantic_ai_messages": "tracer.bridges.pydantic_ai_agent",
    "tracer.bridges.pydantic_ai_events": "tracer.bridges.pydantic_ai_agent",
}
# Imported with the extra's packages hidden, each of these modules must fail in one line naming the extra.
AT_IMPORT = sorted(
    {
        (_module_name(path), EXTRA_OF[name])
        for path in SOURCES
        for name, top in _imports(path)
        if top and name in EXTRA_OF and _module_name(path) not in BEHIND_A_GUARD
    }
)
PROBE = """
import importlib, json, sys
hidden = set(sys.argv[1].split(","))

class Hide:  # as if the extra's packages were not installed
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".")[0] in hidden:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Hide)
results = {}
for module in sys.argv[2:]:
    try:
        importlib.import_module(module)
        results[module] = None
    except ImportError as error:
        results[module] = [type(error).__name__, str(error)]
print(json.dumps(results))
"""


def test_some_modules_import_an_extra_when_they_are_imported():
    # else the test below would prove nothing (mcp's modules all sit behind its guard, tested with it;
    # plotext is imported only when --charts draws: tests/runs/test_charts.py hides it there)
    assert {extra for _, extra in AT_IMPORT} == set(EXTRAS) - {"mcp", "charts"}


def test_a_module_behind_a_guard_is_imported_only_through_it():
    graph = grimp.build_graph("executor", "tracer", "tutorials", cache_dir=None)
    for module, guard in BEHIND_A_GUARD.items():
        allowed = set(BEHIND_A_GUARD) | ({guard} if guard else set())
        assert graph.find_modules_that_directly_import(module) <= allowed, module


@pytest.mark.slow  # a fresh interpreter per module
@pytest.mark.parametrize("extra", sorted(set(EXTRAS) - {"mcp", "charts"}))
def test_a_module_that_needs_a_missing_extra_says_so_in_one_line(extra):
    modules = [module for module, needs in AT_IMPORT if needs == extra]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, ",".join(EXTRAS[extra]), *modules],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=ROOT,
    )
    results = json.loads(done.stdout)
    for module in modules:
        assert results[module] is not None, f"{module} imported without the {extra} extra"
        kind, message = results[module]
        assert "\n" not in message and f"pip install 'loopscope[{extra}]'" in message, (module, kind, message)


@pytest.mark.slow  # a fresh interpreter
def test_loopscope_serve_without_its_extra_is_one_line_and_exit_2(tmp_path):
    code = (
        "import sys\nsys.modules.update(dict.fromkeys(['textual_serve', 'textual_serve.server']))\n"
        "from tracer.cli import main\nsys.exit(main(['serve', '--tutorial', 'rose-pricing', '--port', '8765']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "loopscope: loopscope serve needs loopscope's serve extra (textual_serve.server is not installed): "
        "pip install 'loopscope[serve]'"
    ]
