"""The pytest plugin as an agent developer meets it: record once, replay offline, snapshot the transitions."""

import shutil
import textwrap

# Imported here, before pytester's in-process runs: each run ends by putting sys.modules back as it
# found it, so a module first imported inside one run is imported afresh in the next, while names
# executor's lazy table resolved in the first run stay cached: two copies of a class then disagree
# (a recorded callee failed isinstance), and numpy, under numexpr, cannot be imported twice in one
# process (the calculator's tool then errs). With these loaded up front every run shares them.
import numexpr  # noqa: F401

import executor
import tracer.replay.builder
import tracer.replay.verify
import tracer.testing.configured_model
import tracer.testing.snapshot_extension  # noqa: F401

for _name in executor.__all__:
    getattr(executor, _name)

pytest_plugins = ["pytester"]

# The README's example (tests/test_readme_snippets.py runs the README's own copy, marker included).
README_EXAMPLE = """
from executor import AgentExecutor, ScriptedModel, Tool, create_react_agent

def search(query):
    return "Roses cost 25 yuan a bunch."

def build(model):
    tools = [Tool("Search", "Look up today's prices.", search, deterministic=False)]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools)

def live_model():  # your real model here; a scripted one keeps this example offline
    return ScriptedModel([" I should look it up.\\nAction: Search\\nAction Input: rose price",
                          " I now know the final answer.\\nFinal Answer: 25 yuan"])

def test_rose_agent(loopscope_cassette, trace_snapshot):
    trace = loopscope_cassette.run(build, {"input": "What do roses cost?"}, live_model=live_model)
    assert trace.outcome() == "finished: 25 yuan"
    assert trace == trace_snapshot
"""

CASSETTE = "cassettes/test_agent/test_rose_agent.jsonl"
SNAPSHOT = "__snapshots__/test_agent/test_rose_agent.transitions.txt"


def run(pytester, *args):
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    # Forget compiled copies: the test file is rewritten between runs within the same second.
    shutil.rmtree(pytester.path / "__pycache__", ignore_errors=True)
    return pytester.runpytest("-p", "no:cacheprovider", *args)


def recorded(pytester, source=README_EXAMPLE):
    pytester.makepyfile(test_agent=source)
    result = run(pytester, "--loopscope-record=once", "--snapshot-update")
    result.assert_outcomes(passed=1)
    return result


def test_the_readme_example_records_once_then_replays_offline(pytester):
    recorded(pytester)
    assert (pytester.path / CASSETTE).exists()
    snapshot = (pytester.path / SNAPSHOT).read_text(encoding="utf-8")
    assert "  1  AgentAction(Search)\n  1  tool(Search)\n" in snapshot
    assert "outcome: finished: 25 yuan" in snapshot
    # Replaying (record mode none, the default) must never build the live model.
    offline = README_EXAMPLE.replace(
        "def live_model():", "def live_model():\n    raise RuntimeError('went live')\n\ndef unused():"
    )
    pytester.makepyfile(test_agent=offline)
    run(pytester).assert_outcomes(passed=1)


def test_without_a_cassette_record_mode_none_fails_and_says_how_to_record(pytester):
    pytester.makepyfile(test_agent=README_EXAMPLE)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E   *CassetteMissing: no cassette at cassettes/test_agent/test_rose_agent.jsonl; record it with "
            "`pytest test_agent.py::test_rose_agent --snapshot-update --loopscope-record=once`*"
        ]
    )
    assert not (pytester.path / CASSETTE).exists()
    assert "cassette.py" not in result.stdout.str()  # the message is the failure: no frames inside loopscope


def test_a_divergence_is_a_short_report_and_tb_long_shows_loopscopes_frames(pytester):
    recorded(pytester)
    pytester.makepyfile(test_agent=README_EXAMPLE.replace("Look up today's prices.", "Look up prices."))
    result = run(pytester)
    result.assert_outcomes(failed=1)
    failure = result.stdout.str().split("= FAILURES =")[1].split("short test summary info")[0]
    result.stdout.fnmatch_lines(
        [
            ">       trace = loopscope_cassette.run(build, *",
            "E   *ReplayDivergence: the run no longer matches its cassette cassettes/test_agent/test_rose_agent.jsonl",
            "E   *event 0 (chain_start): tools[[]0[]].description differs",
            'E   *  recorded: "Look up today\'s prices."',
            "E   *  re-run:   'Look up prices.'",
            "E   *if the change is intended, record it again: "
            "`pytest test_agent.py::test_rose_agent --snapshot-update --loopscope-record=rewrite`",
            "test_agent.py:*: ReplayDivergence",
        ]
    )
    assert "cassette.py" not in failure and "def _replay" not in failure and len(failure.splitlines()) < 30
    assert "snapshot unused" not in result.stdout.str()  # it did not run, so syrupy must not offer to delete it
    long = run(pytester, "--tb=long")
    assert "cassette.py" in long.stdout.str() and "def _replay" in long.stdout.str()


def test_a_changed_loop_fails_naming_the_event_and_the_prompt_diff(pytester):
    recorded(pytester)
    # A prompt edit changes nothing before the first model call, so that is where the run parts.
    changed = README_EXAMPLE.replace(
        "create_react_agent(model, tools)",
        "create_react_agent(model, tools, REACT_PROMPT.replace('as well as you can', 'briefly'))",
    ).replace("import AgentExecutor,", "import REACT_PROMPT, AgentExecutor,")
    pytester.makepyfile(test_agent=changed)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "ReplayDivergence" in text and "event 1 (llm_start): prompt differs" in text
    assert "-Answer the question below as well as you can." in text
    assert "+Answer the question below briefly." in text


def test_a_changed_tool_description_fails_at_chain_start(pytester):
    recorded(pytester)
    pytester.makepyfile(test_agent=README_EXAMPLE.replace("Look up today's prices.", "Look up prices."))
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*event 0 (chain_start): tools[[]0[]].description differs*"])


def test_a_changed_transition_fails_with_a_readable_diff_and_snapshot_update_refreshes_it(pytester):
    recorded(pytester)
    snapshot_path = pytester.path / SNAPSHOT
    # Pretend the stored run used a different tool: the live run's transitions no longer match.
    snapshot_path.write_text(
        snapshot_path.read_text(encoding="utf-8").replace("(Search)", "(Calculator)"), encoding="utf-8"
    )
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*-*AgentAction(Calculator)*", "*+*AgentAction(Search)*"])
    run(pytester, "--snapshot-update").assert_outcomes(passed=1)
    assert "AgentAction(Search)" in snapshot_path.read_text(encoding="utf-8")
    run(pytester).assert_outcomes(passed=1)


def test_rewrite_records_again_with_what_the_live_model_says_now(pytester):
    recorded(pytester)
    newer = README_EXAMPLE.replace("Final Answer: 25 yuan", "Final Answer: 26 yuan").replace(
        '"finished: 25 yuan"', '"finished: 26 yuan"'
    )
    pytester.makepyfile(test_agent=newer)
    run(pytester, "--loopscope-record=rewrite", "--snapshot-update").assert_outcomes(passed=1)
    assert "26 yuan" in (pytester.path / CASSETTE).read_text(encoding="utf-8")
    run(pytester).assert_outcomes(passed=1)


def test_scenario_fixture_and_events_snapshot(pytester):
    pytester.makepyfile(
        test_scenarios=textwrap.dedent("""
        def test_rose(loopscope_scenario, trace_events_snapshot):
            trace = loopscope_scenario("rose-pricing")
            assert trace.labels()[-3:] == ["AgentFinish", "finish_check(True)", "chain_end"]
            assert trace == trace_events_snapshot
    """)
    )
    run(pytester, "--snapshot-update").assert_outcomes(passed=1)
    stored = (pytester.path / "__snapshots__/test_scenarios/test_rose.events.txt").read_text(encoding="utf-8")
    assert "[14] calculator_eval" in stored and '  expression: "25 * 1.05"' in stored
    assert "  duration:" not in stored and "  run_id:" not in stored and "  usage:" not in stored
    run(pytester).assert_outcomes(passed=1)


def test_secrets_stay_out_of_cassettes_and_the_replay_still_matches(pytester, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-plugin-0123456789abcdef")
    leaky = README_EXAMPLE.replace(
        'return "Roses cost 25 yuan a bunch."',
        'return "Roses cost 25 yuan a bunch (key sk-fake-plugin-0123456789abcdef, account cust-778899)."',
    )
    pytester.makepyfile(test_agent=leaky)
    run(pytester, "--loopscope-record=once", "--snapshot-update", "--loopscope-redact", r"cust-\d+").assert_outcomes(
        passed=1
    )
    stored = (pytester.path / CASSETTE).read_text(encoding="utf-8")
    assert "sk-fake-plugin" not in stored and "cust-778899" not in stored
    assert "[REDACTED:OPENAI_API_KEY]" in stored and "[REDACTED:pattern-1]" in stored
    run(pytester).assert_outcomes(passed=1)


def test_a_failing_replay_under_snapshot_update_keeps_the_snapshot(pytester):
    recorded(pytester)
    before = (pytester.path / SNAPSHOT).read_text(encoding="utf-8")
    changed = README_EXAMPLE.replace(
        "create_react_agent(model, tools)",
        "create_react_agent(model, tools, REACT_PROMPT.replace('as well as you can', 'briefly'))",
    ).replace("import AgentExecutor,", "import REACT_PROMPT, AgentExecutor,")
    pytester.makepyfile(test_agent=changed)
    result = run(pytester, "--snapshot-update")  # replay only: the cassette no longer fits
    result.assert_outcomes(failed=1)
    assert (pytester.path / SNAPSHOT).read_text(encoding="utf-8") == before
    assert "deleted" not in result.stdout.str()


def test_a_marker_sets_the_record_mode_of_one_test(pytester):
    marked = README_EXAMPLE.replace("def test_rose_agent", '@pytest.mark.loopscope(record="once")\ndef test_rose_agent')
    pytester.makepyfile(test_agent="import pytest\n" + marked)
    run(pytester, "--snapshot-update").assert_outcomes(passed=1)
    assert (pytester.path / CASSETTE).exists()
    bad = marked.replace('record="once"', 'record="sometimes"')
    pytester.makepyfile(test_agent="import pytest\n" + bad)
    result = run(pytester)
    assert "unknown record mode 'sometimes'" in result.stdout.str() + result.stderr.str()
