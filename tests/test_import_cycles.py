"""No import cycle anywhere in the project's packages (grimp's graph counts imports inside functions too),
and every import inside a function says why it is there."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers.paths import ROOT

PACKAGES = ("executor", "tutorials", "tracer")

# Runs in a fresh interpreter on the tree at `root`, so a copied tree is read and not the installed one.
FIND_CYCLES = """
import sys
import grimp

graph = grimp.build_graph(*sys.argv[1:], include_external_packages=False, cache_dir=None)
seen = set()
for module in sorted(graph.modules):
    for imported in sorted(graph.find_modules_directly_imported_by(module)):
        back = graph.find_shortest_chain(importer=imported, imported=module)
        if back and frozenset(back) not in seen:
            seen.add(frozenset(back))
            print(" -> ".join([module, *back]))
"""


def cycles(root: Path) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", FIND_CYCLES, *PACKAGES],
        capture_output=True,
        text=True,
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.splitlines()


def test_no_module_imports_itself_through_others():
    assert cycles(ROOT) == []


def test_the_check_finds_a_cycle_hidden_in_a_function(tmp_path):
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    clock = tmp_path / "executor" / "clock.py"
    clock.write_text(clock.read_text() + "\n\ndef _late():\n    from . import agent_executor  # a cycle\n")
    found = cycles(tmp_path)
    assert any("executor.clock -> executor.agent_executor" in line for line in found), found


def function_imports_without_a_reason(path: Path) -> list[str]:
    """Imports nested in a function whose block of imports has no comment: on one of its lines, or on
    the line just above the block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    nested = {
        inner.lineno
        for node in ast.walk(ast.parse("\n".join(lines)))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for inner in ast.walk(node)
        if isinstance(inner, (ast.Import, ast.ImportFrom))
    }
    found = []
    for number in sorted(nested):
        first = last = number
        while first - 1 in nested:
            first -= 1
        while last + 1 in nested:
            last += 1
        block = lines[first - 1 : last]
        if not any("#" in line for line in block) and not lines[first - 2].strip().startswith("#"):
            found.append(f"{path.relative_to(ROOT)}:{number}: {lines[number - 1].strip()}")
    return found


def test_every_import_inside_a_function_says_why():
    missing = [
        line
        for name in PACKAGES
        for path in sorted((ROOT / name).rglob("*.py"))
        for line in function_imports_without_a_reason(path)
    ]
    assert missing == [], "say why each is imported late (start-up time, an optional extra):\n" + "\n".join(missing)
