"""Every ```python block in README.md runs, so the README cannot drift from the code again."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT

BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


def _python(folder, *argv):
    return subprocess.run([sys.executable, *argv], cwd=folder, capture_output=True, text=True, timeout=120)


def test_the_readme_has_the_snippets_this_test_runs():
    assert len(BLOCKS) >= 3
    assert any(block.startswith("# my_agent.py") for block in BLOCKS)
    assert any("def test_" in block for block in BLOCKS)


@pytest.mark.slow
def test_every_python_snippet_in_the_readme_runs(tmp_path):
    """Module snippets (first line `# NAME.py`) are saved under that name; test snippets run under
    pytest (recorded once, then replayed offline); the others run as scripts, in README order."""
    for number, block in enumerate(BLOCKS):
        named = re.match(r"# (\w+\.py)\n", block)
        if named:
            (tmp_path / named.group(1)).write_text(block, encoding="utf-8")
            result = _python(tmp_path, "-c", f"import {named.group(1)[:-3]}")
        elif "def test_" in block:
            (tmp_path / f"test_readme_{number}.py").write_text(block, encoding="utf-8")
            result = _python(
                tmp_path,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--snapshot-update",
                f"test_readme_{number}.py",
            )
            assert result.returncode == 0, f"README snippet {number} (recording):\n{result.stdout}{result.stderr}"
            result = _python(tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"test_readme_{number}.py")
        else:
            (tmp_path / f"snippet_{number}.py").write_text(block, encoding="utf-8")
            result = _python(tmp_path, f"snippet_{number}.py")
        assert result.returncode == 0, f"README snippet {number} failed:\n{block}\n{result.stdout}{result.stderr}"
    # The header names my_agent:build; it runs because the user names it too (a header alone never runs code).
    verified = _python(tmp_path, "-m", "tracer.cli", "verify", "my_run.jsonl", "--agent", "my_agent:build")
    assert verified.returncode == 0 and "1 ok" in verified.stdout, verified.stdout + verified.stderr
