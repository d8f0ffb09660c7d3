"""Every ```python block in README.md and docs/ runs, so the documentation cannot drift from the code again."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# A fence opens with ```python alone on its line and closes with ``` alone on its line, so a block may
# hold a string with backticks in it. Blocks that need a live model or a terminal are fenced as
# ```console or ```text instead, and are not run.
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


def python_blocks(document):
    return PYTHON_BLOCK.findall(document.read_text(encoding="utf-8"))


def _name(document):
    return str(document.relative_to(ROOT))


RUNNABLE = [document for document in DOCUMENTS if python_blocks(document)]


def _python(folder, *argv):
    return subprocess.run([sys.executable, *argv], cwd=folder, capture_output=True, text=True, timeout=180)


def test_the_documents_have_the_snippets_this_test_runs():
    blocks = {_name(document): python_blocks(document) for document in RUNNABLE}
    readme = blocks["README.md"]
    assert any(block.startswith("# my_agent.py") for block in readme)
    assert any("def test_" in block for block in readme)
    assert any("TraceWriter(" in block for block in blocks["docs/own-agent.md"])
    assert any("def test_" in block for block in blocks["docs/testing.md"])
    assert any("LoopscopeCallbackHandler(" in block for block in blocks["docs/traces.md"])
    assert any("with_fallbacks(" in block for block in blocks["docs/own-agent.md"])


def test_no_python_hides_in_an_unnamed_fence():
    """A fence without a language would be neither run nor highlighted: every block says what it is."""
    for document in DOCUMENTS:
        fences = re.findall(r"^```(.*)$", document.read_text(encoding="utf-8"), re.M)
        openings = fences[0::2]
        assert len(fences) % 2 == 0, f"{_name(document)}: a code fence is not closed"
        assert all(opening.strip() for opening in openings), f"{_name(document)}: a code fence names no language"


def _run_block(folder, document, number, block):
    """Module blocks (first line `# NAME.py`) are saved under that name and imported; test blocks run
    under pytest (recorded once, then replayed offline); the others run as scripts."""
    named = re.match(r"# (\w+\.py)\n", block)
    if named:
        (folder / named.group(1)).write_text(block, encoding="utf-8")
        return _python(folder, "-c", f"import {named.group(1)[:-3]}")
    if "def test_" in block:
        (folder / f"test_snippet_{number}.py").write_text(block, encoding="utf-8")
        pytest_argv = ("-m", "pytest", "-q", "-p", "no:cacheprovider", f"test_snippet_{number}.py")
        recorded = _python(folder, *pytest_argv, "--snapshot-update")
        assert recorded.returncode == 0, f"{document} block {number} (recording):\n{recorded.stdout}{recorded.stderr}"
        return _python(folder, *pytest_argv)
    (folder / f"snippet_{number}.py").write_text(block, encoding="utf-8")
    return _python(folder, f"snippet_{number}.py")


@pytest.mark.slow
@pytest.mark.parametrize("document", RUNNABLE, ids=_name)
def test_every_python_block_runs(document, tmp_path):
    """A document's blocks run in order in one folder (a later block may import an earlier one's module)."""
    for number, block in enumerate(python_blocks(document)):
        result = _run_block(tmp_path, _name(document), number, block)
        assert result.returncode == 0, (
            f"{_name(document)} block {number} failed:\n{block}\n{result.stdout}{result.stderr}"
        )
    if (tmp_path / "my_run.jsonl").exists():
        # The header names my_agent:build; it runs only because the user names it too.
        verified = _python(tmp_path, "-m", "tracer.cli", "verify", "my_run.jsonl", "--agent", "my_agent:build")
        assert verified.returncode == 0 and "1 ok" in verified.stdout, verified.stdout + verified.stderr
        untrusted = _python(tmp_path, "-m", "tracer.cli", "verify", "my_run.jsonl")
        assert untrusted.returncode == 2 and "UNTRUSTED" in untrusted.stdout, untrusted.stdout + untrusted.stderr
    if (tmp_path / "langchain_run.jsonl").exists():
        shown = _python(tmp_path, "-m", "tracer.cli", "debug", "--print", "langchain_run.jsonl")
        assert shown.returncode == 0 and "Final Answer: 25 yuan" in shown.stdout, shown.stdout + shown.stderr
