"""Imports point one way: the executor knows nothing of tracer, rich or textual."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_EXECUTOR = {"tracer", "rich", "textual", "tutorials"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_executor_module_imports_tracer_rich_or_textual():
    for path in sorted((ROOT / "executor").rglob("*.py")):
        bad = imported_roots(path) & FORBIDDEN_IN_EXECUTOR
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


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


def test_only_the_tui_imports_textual():
    for path in sorted((ROOT / "tracer").rglob("*.py")):
        if "tui" in path.relative_to(ROOT).parts:
            continue
        assert "textual" not in imported_roots(path), f"{path.relative_to(ROOT)} imports textual"
