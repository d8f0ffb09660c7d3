"""Each framework's adapter loads with only its own extra installed: a pydantic-ai user who never installed the
OpenAI Agents SDK got "needs the openai-agents extra" from `loopscope record` (an adapter imported another's)."""

from __future__ import annotations

import subprocess
import sys

import pytest

ADAPTERS = {
    "tracer.bridges.pydantic_ai_agent": ("agents", "langchain", "langchain_core", "langgraph"),
    "tracer.bridges.openai_agents_agent": ("pydantic_ai", "langchain", "langchain_core", "langgraph"),
    "tracer.bridges.langgraph_agent": ("agents", "pydantic_ai"),
}


@pytest.mark.parametrize("module", sorted(ADAPTERS))
def test_an_adapter_imports_with_the_other_frameworks_missing(module):
    # None in sys.modules makes `import name` raise ImportError, as when the package is not installed.
    missing = "; ".join(f"sys.modules[{name!r}] = None" for name in ADAPTERS[module])
    code = f"import sys; {missing}; import {module}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_missing_adapter_is_one_line_naming_the_extra_not_a_traceback(tmp_path):
    (tmp_path / "shop.py").write_text(
        "from pydantic_ai import Agent\nagent = Agent('test', instructions='Answer.')\n", encoding="utf-8"
    )
    # The adapter's own import failing as it does when its extra is missing (its message names the extra).
    code = (
        "import sys; sys.modules['tracer.bridges.pydantic_ai_agent'] = None; "
        "from tracer.cli import main; "
        "sys.exit(main(['record', 'shop.py:agent', '--input', 'Hi?', '-o', 'run.jsonl']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("loopscope: ") and "pydantic_ai_agent" in done.stderr
