"""A project's own module named like one of loopscope's packages (tracer.py, executor.py, tutorials/), found and named."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import PathFinder
from pathlib import Path

# Top-level names loopscope installs: one process holds one module per name, so where loopscope is
# loaded (its pytest plugin, the loopscope command) a project's own module of that name cannot be.
OWN_PACKAGES = ("executor", "tracer", "tutorials")
HOME = Path(__file__).resolve().parents[2]  # the folder holding loopscope's executor/, tracer/ and tutorials/


def _found_first(name: str, search_path: Sequence[str]) -> Path | None:
    """The file `import name` would load from `search_path`, looking at files only (nothing is imported)."""
    for entry in search_path:
        try:
            spec = PathFinder.find_spec(name, [entry])
        except (ImportError, OSError, ValueError):  # an unreadable or odd sys.path entry is skipped, as import does
            continue
        if spec is not None and spec.origin is not None and spec.has_location:  # not a namespace portion
            return Path(spec.origin).resolve()
    return None


def clashing_modules(search_path: Sequence[str] | None = None) -> list[tuple[str, Path]]:
    """(loopscope's package, the other module) for each of loopscope's names that `search_path`
    (default sys.path) would resolve to a module that is not loopscope's own."""
    paths = list(sys.path if search_path is None else search_path)
    clashes = []
    for name in OWN_PACKAGES:
        found = _found_first(name, paths)
        if found is not None and not found.is_relative_to(HOME / name):
            clashes.append((name, found))
    return clashes


def clash_advice(name: str, module: Path) -> str:
    """One line: which file has loopscope's name, what that means, and the fix."""
    shown = module.parent if module.name == "__init__.py" else module
    renamed = f"my_{name}" + ("" if module.name == "__init__.py" else module.suffix)
    return (
        f"your {shown} has the name of loopscope's package {name!r}, which is what `import {name}` gives wherever "
        f"loopscope is loaded (its pytest plugin, the loopscope command): rename yours (say, {renamed})"
    )
