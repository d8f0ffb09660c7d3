"""Start-up imports only what the chosen command needs: checked in a fresh interpreter's sys.modules."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import executor
from executor.events import LLMStartEvent

pytestmark = pytest.mark.slow  # each test starts a fresh interpreter to see what it imports

HEAVY = ("numexpr", "numpy", "pydantic", "executor.events", "executor.agent_executor", "textual", "rich")


def loaded_after(code: str, watched: tuple[str, ...]) -> list[str]:
    """Which of `watched` are in sys.modules after running `code` in a new interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {list(watched)!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_the_command_line_and_the_engine_package_import_nothing_heavy():
    assert loaded_after("import tracer.cli", HEAVY) == []
    assert loaded_after("import executor, tracer", HEAVY) == []
    assert loaded_after("import tracer.cli; tracer.cli.build_parser(['models'])", ("numexpr", "textual")) == []


@pytest.mark.parametrize("argv", [["--version"], ["--help"], []])
def test_asking_loopscope_what_it_is_loads_no_engine_and_no_trace_reader(argv):
    code = f"import contextlib, tracer.cli\nwith contextlib.suppress(SystemExit):\n    tracer.cli.main({argv!r})"
    assert loaded_after(code, (*HEAVY, "tracer.trace.reader")) == []


def test_the_tutorials_debugger_path_leaves_numexpr_highlighting_and_the_replay_machinery_for_later():
    later = (
        "numexpr",
        "pygments",
        "rich.syntax",
        "tracer.debug.live_run",
        "multiprocessing",
        "tracer.report.narration.ledger",
        "tracer.trace.writer",
        "orjson",
        "numpy",
        "executor.models.chat_model",
        "executor.tools.tool",
        "executor.models.messages",
        "executor.agent_executor",
    )
    opened = (
        "from tutorials.registry import TUTORIALS\nimport tracer.cli.tutorial as t, tracer.tui.launch as launch\n"
        "import tracer.tui.app\n"
        "tutorial = TUTORIALS['rose-pricing']\nevents, stops = t._part_events(tutorial, tutorial.parts[0], 'en')\n"
        "session = launch.build_session(tutorial.parts[0].fixture, stops=stops)\n"
        "session.frames()"
    )
    assert loaded_after(opened, later) == []


def test_a_calculation_loads_numexpr_when_it_runs():
    code = (
        "from executor.tools.calculator import evaluate_expression\nassert evaluate_expression('25 * 1.05') == '26.25'"
    )
    assert loaded_after(code, ("numexpr",)) == ["numexpr"]


def test_every_public_name_of_the_lazy_package_is_there():
    namespace: dict = {}
    exec("from executor import *", namespace)
    assert set(executor.__all__) <= namespace.keys() and executor.__version__
    assert set(dir(executor)) >= set(executor.__all__) | {"__version__"}
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        executor.Nope  # noqa: B018


def test_field_docstrings_are_the_descriptions_and_reach_the_schema():
    assert LLMStartEvent.model_fields["prompt"].description == "The exact text sent."
    assert LLMStartEvent.model_fields["seq"].description == "0-based position in the run; contiguous."  # inherited
    assert LLMStartEvent.model_json_schema()["properties"]["prompt"]["description"] == "The exact text sent."


def test_listing_tutorials_builds_no_scenario_and_a_lookup_builds_only_its_own():
    scenario_modules = (
        "tutorials.rose_pricing",
        "tutorials.context_budget",
        "tutorials.parallel_tools",
        "executor.agent_executor",
        "executor.tools.calculator",
    )
    listing = "from tutorials.registry import TUTORIALS\nnames = [(t.name, t.part_names) for t in TUTORIALS.values()]"
    assert loaded_after(listing, scenario_modules) == []
    one = "import tutorials\nassert tutorials.get_scenario('rose-pricing').name == 'rose-pricing'"
    assert loaded_after(one, scenario_modules) == ["tutorials.rose_pricing"]  # its tools load when built


def test_an_unknown_scenario_is_still_a_key_error_naming_the_known_ones():
    import tutorials  # late on purpose: other tests here check what importing it loads, in fresh interpreters
    from tutorials.registry import TUTORIALS  # late for the same reason

    with pytest.raises(KeyError, match="Unknown scenario 'tulip'.*rose-pricing"):
        tutorials.get_scenario("tulip")
    assert "rose-pricing" in tutorials.SCENARIOS and "tulip" not in tutorials.SCENARIOS
    # every scenario a tutorial part names, each once, however many tutorials there are
    named = {name for tutorial in TUTORIALS.values() for name in tutorial.part_names}
    assert len(tutorials.SCENARIOS) == len(list(tutorials.SCENARIOS)) == len(named)


def test_the_tutorials_first_frame_loads_no_numpy():
    # The whole first frame (timeline, call stack, narration, the status line's costs) under Pilot, in
    # a fresh interpreter: a small trace's index answers from Python arrays. `s` then asks a motion's mask.
    frame = (
        "import asyncio, sys\nfrom tracer.tui.app import DebuggerApp\n"
        "from tracer.tui.flows.tutorials import tutorial_session\n"
        "DebuggerApp._warm_up = lambda app: None  # its import of numpy after the first frame: the test below\n"
        "async def main():\n"
        "    app = DebuggerApp(tutorial_session('rose-pricing', 0, 'en'))\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        await pilot.pause()\n"
        "        assert 'Call&#160;stack' in app.export_screenshot() and 'numpy' not in sys.modules\n"
        "        await pilot.press('s')\n"
        "        await pilot.pause()\n"
        "        assert app.session.position == 1\n"
        "asyncio.run(main())"
    )
    assert loaded_after(frame, ("numpy", "textual")) == ["numpy", "textual"]


def test_numpy_is_imported_in_a_worker_once_the_first_frame_is_on_the_screen():
    frame = (
        "import asyncio, sys, threading\nfrom tracer.tui.app import DebuggerApp\n"
        "from tracer.tui.flows.tutorials import tutorial_session\n"
        "import tracer.tui.app as app_module\nimported = []\n"
        "def spy():\n    imported.append(threading.current_thread() is threading.main_thread())\n"
        "    import numpy  # noqa\n"
        "app_module._import_numpy = spy\n"
        "async def main():\n"
        "    app = DebuggerApp(tutorial_session('rose-pricing', 0, 'en'))\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        await pilot.pause()\n"
        "        while not imported or any(w.group == 'warm-up' and not w.is_finished for w in app.workers):\n"
        "            await pilot.pause(0.01)\n"
        "        assert imported == [False], 'once, and not on the UI thread'\n"
        "asyncio.run(main())"
    )
    assert loaded_after(frame, ("numpy",)) == ["numpy"]


def test_debugging_a_trace_leaves_numpy_and_the_replay_machinery_for_later():
    later = (
        *("numpy", "multiprocessing", "tracer.debug.live_run", "tracer.replay.verify", "tracer.replay.builder"),
        *("tracer.trace.importers", "tracer.trace.writer", "tracer.tui.keymap", "tracer.tui.screens.runs_screen"),
    )
    opened = (
        "import tracer.cli\ntracer.cli.build_parser(['debug', 'x.jsonl'])\n"
        "from tracer.cli.trace_choice import chosen_trace\n"
        "path = chosen_trace('fixtures/rose_pricing.jsonl', None, ask=False)\n"
        "import tracer.tui.launch as launch\nfrom tracer.tui.views.variables_view import variables_text\n"
        "assert launch._keymap() == {}\n"
        "session = launch.build_session(path)\n"
        "session.frames()\nvariables_text(session)"
    )
    assert loaded_after(opened, later) == []


@pytest.mark.parametrize("argv", [["run", "--help"], ["debug", "--help"]])
def test_a_subcommands_help_loads_no_engine(argv):
    code = f"import contextlib, tracer.cli\nwith contextlib.suppress(SystemExit):\n    tracer.cli.main({argv!r})"
    assert loaded_after(code, ("executor.events", "tracer.agents.scenario_registry", "rich")) == []


def test_the_live_options_name_the_models_variable_as_the_executor_does():
    from executor.models.config import ENV_MODEL
    from tracer.cli.live_options import ENV_MODEL as named_for_help

    assert named_for_help == ENV_MODEL
