"""A project with its own tracer.py, executor.py or tutorials/ still runs loopscope's pytest plugin, and is told
in one line which of its files loopscope's packages hide and how to fix it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.helpers.user_project import QUESTION, REPLIES, write_project
from tracer.agents.name_clash import HOME, clash_advice, clashing_modules
from tracer.agents.scenario_registry import UnknownAgent
from tracer.agents.user_agent import import_build
from tracer.cli.serve import LOOPSCOPE_COMMAND

# The project's test runs the florist agent under a cassette it records on the first run.
PROJECT_TEST = f"""
import pytest
from executor import ScriptedModel
from florist import build

@pytest.mark.loopscope(record="once")
def test_florist(loopscope_cassette):
    trace = loopscope_cassette.run(build, {{"input": {QUESTION!r}}}, live_model=lambda: ScriptedModel({REPLIES!r}))
    assert trace.outcome().startswith("finished: 12 roses cost 30.00")
"""
# pytest 9 puts `pythonpath` on sys.path before it loads plugins: the case that used to break.
PYPROJECT = '[tool.pytest.ini_options]\npythonpath = ["."]\nasyncio_default_fixture_loop_scope = "function"\n'
PYTEST_SCRIPT = Path(sys.executable).with_name("pytest")


def user_project(folder: Path) -> Path:
    """A project whose root holds loopscope's three names as its own modules, beside its agent and test."""
    write_project(folder)
    (folder / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (folder / "tracer.py").write_text("def my_span(name):\n    return 'span:' + name\n", encoding="utf-8")
    (folder / "executor.py").write_text("MINE = True\n", encoding="utf-8")
    (folder / "tutorials").mkdir()
    (folder / "tutorials" / "__init__.py").write_text("LESSONS = []\n", encoding="utf-8")
    (folder / "tests").mkdir()
    (folder / "tests" / "test_florist.py").write_text(PROJECT_TEST, encoding="utf-8")
    return folder


def pytest_in(folder: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command, "-q", "-p", "no:cacheprovider"], cwd=folder, capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", [[str(PYTEST_SCRIPT)], [sys.executable, "-m", "pytest"]], ids=["pytest", "python -m pytest"]
)
def test_a_project_with_loopscopes_names_runs_the_plugin_and_is_told_which_files_are_hidden(tmp_path, command):
    project = user_project(tmp_path)
    done = pytest_in(project, command)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout and (project / "tests" / "cassettes").is_dir()
    assert "not a package" not in done.stdout + done.stderr
    for name, shown, renamed in [
        ("executor", "executor.py", "my_executor.py"),
        ("tracer", "tracer.py", "my_tracer.py"),
        ("tutorials", "tutorials", "my_tutorials"),
    ]:
        advice = [line for line in done.stdout.splitlines() if line.startswith(f"loopscope: your {project / shown} ")]
        assert len(advice) == 1 and f"package {name!r}" in advice[0] and f"say, {renamed}" in advice[0], done.stdout


@pytest.mark.slow
def test_a_test_importing_its_own_tracer_fails_with_the_file_and_the_fix_after_the_import_error(tmp_path):
    project = user_project(tmp_path)
    test = project / "tests" / "test_florist.py"
    test.write_text("from tracer import my_span\n" + test.read_text(encoding="utf-8"), encoding="utf-8")
    done = pytest_in(project, [sys.executable, "-m", "pytest"])
    assert done.returncode != 0
    lines = done.stdout.splitlines()
    error = next(i for i, line in enumerate(lines) if "cannot import name 'my_span' from 'tracer'" in line)
    advice = next(i for i, line in enumerate(lines) if line.startswith(f"loopscope: your {project / 'tracer.py'} "))
    assert error < advice and "rename yours (say, my_tracer.py)" in lines[advice]


@pytest.mark.slow
def test_a_module_named_tracer_imported_before_pytest_is_one_line_naming_it(tmp_path):
    (tmp_path / "tracer.py").write_text("X = 1\n", encoding="utf-8")
    code = "import sys, pytest, tracer\nsys.exit(pytest.main(['-q', '-p', 'no:cacheprovider']))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode != 0
    assert (
        f"ERROR: loopscope's pytest plugin needs its package 'tracer', but 'tracer' is already {tmp_path / 'tracer.py'}; "
        "rename that module (say, my_tracer.py)" in done.stdout + done.stderr
    )
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.slow
def test_the_debugger_serve_starts_for_each_tab_runs_beside_a_projects_own_tracer_py(tmp_path):
    user_project(tmp_path)
    done = subprocess.run(
        [*LOOPSCOPE_COMMAND, "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stdout.startswith("loopscope "), done.stderr
    plain = subprocess.run(  # what it ran before: the working directory's tracer.py came first
        [sys.executable, "-m", "tracer.cli", "--version"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert plain.returncode != 0 and "__path__ attribute not found on 'tracer'" in plain.stderr


def test_only_a_module_that_import_would_find_first_is_a_clash(tmp_path):
    mine = tmp_path / "mine"
    (mine / "tutorials").mkdir(parents=True)  # a folder of notes: a namespace portion never hides a package
    (mine / "executor").mkdir()
    (mine / "executor" / "__init__.py").write_text("", encoding="utf-8")
    (mine / "tracer.py").write_text("", encoding="utf-8")
    assert clashing_modules([str(mine), str(HOME)]) == [
        ("executor", (mine / "executor" / "__init__.py").resolve()),
        ("tracer", (mine / "tracer.py").resolve()),
    ]
    assert clashing_modules([str(HOME), str(mine)]) == []  # loopscope's own come first: nothing is hidden
    assert "your " + str(mine / "executor") + " has" in clash_advice("executor", mine / "executor" / "__init__.py")


def test_an_agent_importing_a_hidden_module_names_the_file_and_the_fix(tmp_path, monkeypatch):
    write_project(tmp_path)
    (tmp_path / "tracer.py").write_text("def my_span(name):\n    return name\n", encoding="utf-8")
    agent = tmp_path / "florist.py"
    agent.write_text("from tracer import my_span\n" + agent.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "florist", raising=False)
    with pytest.raises(UnknownAgent) as caught:
        import_build("florist:build")
    message = str(caught.value)
    assert "\n" not in message
    assert "cannot import name 'my_span' from 'tracer'" in message
    assert f"your {tmp_path / 'tracer.py'} has the name of loopscope's package 'tracer'" in message
    assert message.endswith("rename yours (say, my_tracer.py)")


def test_the_entry_point_is_a_module_no_project_shares_a_name_with():
    project = tomllib.loads((HOME / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["pytest11"] == {"loopscope": "loopscope_pytest"}
    # shipped in the wheel beside the packages it loads
    assert "loopscope_pytest.py" in project["tool"]["hatch"]["build"]["targets"]["wheel"]["only-include"]
