"""Options travel as values: argparse stays in tracer/cli/, and no module writes the environment to pass one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("executor", "tracer", "tutorials")
# Writes to the process environment that pass no option. A child process gets its variables as its own
# env= dict (a copy of os.environ, changed), which this scan does not flag.
ALLOWED_WRITES: dict[str, str] = {
    # Offline (verify, fork, record --replies), a user's module that builds its model client at import
    # (ChatOpenAI() with no key raises there) gets a placeholder key for the import, removed right after.
    "tracer/agents/framework_agent.py": "a placeholder key for importing the user's module, not an option",
}
MUTATORS = {"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"}


def _modules() -> list[Path]:
    return sorted(path for folder in SCANNED for path in (ROOT / folder).rglob("*.py"))


def _is_environ(node: ast.AST, aliases: set[str]) -> bool:
    """`os.environ`, or a name bound to it (`from os import environ`, `env = os.environ`)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id in aliases


def _aliases(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            names |= {alias.asname or alias.name for alias in node.names if alias.name == "environ"}
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute | ast.IfExp):
            values = [node.value.body, node.value.orelse] if isinstance(node.value, ast.IfExp) else [node.value]
            if any(_is_environ(value, set()) for value in values):
                names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def environment_writes(source: str) -> list[str]:
    """Each place `source` changes the process environment, as `line: what`."""
    tree = ast.parse(source)
    aliases = _aliases(tree)
    found = []
    for node in ast.walk(tree):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and _is_environ(target.value, aliases):
                found.append(f"{node.lineno}: environ[...] written")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            func = node.func
            if func.attr in MUTATORS and _is_environ(func.value, aliases):
                found.append(f"{node.lineno}: environ.{func.attr}()")
            if func.attr in ("putenv", "unsetenv") and isinstance(func.value, ast.Name) and func.value.id == "os":
                found.append(f"{node.lineno}: os.{func.attr}()")
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [f"{node.lineno}: imports os.{a.name}" for a in node.names if a.name in ("putenv", "unsetenv")]
    return found


def argparse_imports(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        else:
            continue
        if any(module.split(".")[0] == "argparse" for module in modules):
            lines.append(node.lineno)
    return lines


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_argparse_is_imported_only_in_tracer_cli():
    outside = {
        _relative(path): lines
        for path in _modules()
        if not _relative(path).startswith("tracer/cli/")
        and (lines := argparse_imports(path.read_text(encoding="utf-8")))
    }
    assert outside == {}, "parse arguments in tracer/cli/ and hand an options value down"


def test_no_module_writes_the_environment_to_pass_an_option():
    writes = {
        _relative(path): found
        for path in _modules()
        if _relative(path) not in ALLOWED_WRITES and (found := environment_writes(path.read_text(encoding="utf-8")))
    }
    assert writes == {}, "hand the option down as a value (see tracer/debug/options.py) instead"


@pytest.mark.parametrize(
    "source",
    [
        "import os\nos.environ['LOOPSCOPE_PRICES'] = path",
        "import os\nos.environ.update(LOOPSCOPE_PRICES=path)",
        "import os\nos.environ.setdefault('LOOPSCOPE_PRICES', path)",
        "import os\nos.putenv('LOOPSCOPE_PRICES', path)",
        "from os import environ\nenviron['LOOPSCOPE_PRICES'] = path",
        "import os\ndef f(environ=None):\n    environ = os.environ if environ is None else environ\n    environ['X'] = '1'",
        "import os\ndel os.environ['LOOPSCOPE_PRICES']",
    ],
)
def test_the_scan_sees_each_way_of_writing_the_environment(source):
    assert environment_writes(source)


def test_the_scan_passes_reading_it_and_a_childs_own_copy():
    source = (
        "import os\nvalue = os.environ.get('LOOPSCOPE_PRICES')\n"
        "env = dict(os.environ)\nenv['PYTHONPATH'] = here\nsubprocess.run(argv, env=env)"
    )
    assert environment_writes(source) == []


def test_the_argparse_scan_sees_both_import_forms():
    assert argparse_imports("import argparse") == [1]
    assert argparse_imports("x = 1\nfrom argparse import Namespace") == [2]
    assert argparse_imports("import argparsely") == []
