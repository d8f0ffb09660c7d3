"""Imports point one way (the import-linter contract in pyproject.toml), and the contract really bites."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow  # each test runs lint-imports or a fresh interpreter: a second or more apiece

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], capture_output=True, text=True, cwd=cwd)


def test_the_layer_contract_holds_for_the_tree_as_it_is():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout


def copy_of_the_project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("executor", "tutorials", "tracer"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


def test_an_upward_import_breaks_the_contract(tmp_path):
    copy = copy_of_the_project(tmp_path)
    reader = copy / "tracer" / "trace" / "reader.py"
    reader.write_text(reader.read_text() + "\nfrom tracer.tui import app  # upward: the format must not know the TUI\n")
    result = lint_imports(copy)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout and "tracer.trace.reader -> tracer.tui.app" in result.stdout


def test_replay_importing_tutorials_breaks_the_contract(tmp_path):
    copy = copy_of_the_project(tmp_path)
    verify = copy / "tracer" / "replay" / "verify.py"
    verify.write_text(verify.read_text() + "\nimport tutorials  # replay must find scenarios via the registry\n")
    result = lint_imports(copy)
    assert result.returncode != 0 and "tracer.replay.verify -> tutorials" in result.stdout


def test_importing_and_running_the_executor_loads_none_of_them():
    code = (
        "import sys\n"
        "from executor import AgentExecutor, ScriptedModel, Tool, create_react_agent, llm_math_tool\n"
        "m = ScriptedModel(['Action: Calculator\\nAction Input: 1+1', '```text\\n1+1\\n```', 'Final Answer: 2'])\n"
        "tools = [llm_math_tool(m)]\n"
        "AgentExecutor(agent=create_react_agent(m, tools), tools=tools).invoke({'input': 'q'})\n"
        "print(sorted(n for n in ('tracer', 'rich', 'textual', 'tutorials') if n in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
