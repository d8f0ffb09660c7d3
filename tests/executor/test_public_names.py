"""executor's TYPE_CHECKING block names every lazy public name from the module __getattr__ imports it from."""

import ast
import importlib

import executor
from tests.helpers.paths import ROOT


def type_checking_imports(source: str) -> dict[str, str]:
    """{name: module relative to executor} for each import inside `if TYPE_CHECKING:`."""
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module == "typing":
                    continue  # for the annotations (typing itself is not imported at run time)
                assert isinstance(statement, ast.ImportFrom) and statement.level == 1, ast.unparse(statement)
                found |= {alias.asname or alias.name: statement.module for alias in statement.names}
    return found


def test_the_block_and_the_lazy_table_name_the_same_modules():
    declared = type_checking_imports((ROOT / "executor" / "__init__.py").read_text(encoding="utf-8"))
    assert declared == executor._PUBLIC


def test_each_lazy_name_is_the_object_its_module_defines():
    for name, module in executor._PUBLIC.items():
        assert getattr(executor, name) is getattr(importlib.import_module(f"executor.{module}"), name), name


def test_the_check_sees_a_name_missing_from_the_block():
    source = "if TYPE_CHECKING:\n    from .clock import ManualClock\n"
    assert type_checking_imports(source) == {"ManualClock": "clock"} != executor._PUBLIC
