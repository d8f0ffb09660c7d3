"""loopscope's pytest entry point, named so no project's own module can stand in for it."""

# pytest loads this by name before it imports any test, and pytest 9 puts the project's `pythonpath`
# (often ".") on sys.path first: a project's own tracer.py, executor.py or tutorials/ would then be
# what `import tracer` finds, and the plugin could not load. So loopscope's three packages are
# imported from the folder this file was installed into, by location rather than by sys.path order;
# once they are in sys.modules every later `from executor import …` inside loopscope gets them.

from __future__ import annotations

import sys
from importlib.machinery import PathFinder
from importlib.util import module_from_spec
from pathlib import Path

import pytest

HOME = Path(__file__).resolve().parent  # where executor/, tutorials/ and tracer/ sit beside this file
PACKAGES = ("executor", "tutorials", "tracer")  # in import order: each imports only the ones before it


def is_ours(module: object) -> bool:
    """True when `module` is the loopscope package installed beside this file."""
    file = getattr(module, "__file__", None)
    return file is not None and Path(file).resolve().parent.parent == HOME


def load_ours(name: str) -> None:
    """Import loopscope's package `name` from HOME, whatever sys.path says; a one-line error when a
    module of the same name was imported before pytest loaded its plugins (it cannot be replaced)."""
    present = sys.modules.get(name)
    if present is not None:
        if is_ours(present):
            return
        where = getattr(present, "__file__", None) or repr(present)
        raise pytest.UsageError(
            f"loopscope's pytest plugin needs its package {name!r}, but {name!r} is already {where}; "
            f"rename that module (say, my_{name}.py)"
        )
    spec = PathFinder.find_spec(name, [str(HOME)])
    if spec is None or spec.loader is None:
        raise pytest.UsageError(f"loopscope is installed without its package {name!r} in {HOME}; reinstall it")
    module = module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise


for _name in PACKAGES:
    load_ours(_name)

# The plugin itself (fixtures, options, hooks); pytest registers it as this module's dependency.
pytest_plugins = ["tracer.testing.plugin"]
