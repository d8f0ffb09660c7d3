"""The fallback tutorial's runs tell the story its notes tell, the same way every run, and replay exactly."""

from executor import ManualClock, ScriptedModel
from executor.recovery.circuit_breaker import breakers
from tracer.replay.builder import replayed_executor
from tracer.replay.verify import compare_runs
from tracer.trace.reader import load_trace
from tracer.trace.transitions import Trace
from tutorials import SCENARIOS
from tutorials.fallback import ANSWER, WEATHER


def record(name):
    scenario = SCENARIOS[name]
    events = []
    executor = scenario.executor(
        ScriptedModel(scenario.replies), clock=ManualClock(tick=0.001), run_id_factory=lambda: name
    )
    executor.invoke(scenario.inputs(), [events.append])
    return events


def test_part_one_retries_opens_the_breaker_and_the_backup_finishes():
    events = record("fallback-model")
    kinds = [e.kind for e in events]
    errors = [e.error for e in events if e.kind == "retry"]
    assert errors == ["TooManyRequests: HTTP 429 Too Many Requests", "ServerError: HTTP 500 Internal Server Error"]
    opened = next(e for e in events if e.kind == "breaker_open")
    assert (opened.model, opened.failures, opened.from_state) == ("primary", 3, "closed")
    first, second = [e for e in events if e.kind == "fallback"]
    assert (first.failed_model, first.next_model, first.refused) == ("primary", "backup", False)
    assert second.refused and kinds.index("breaker_open") < kinds.index("fallback")
    assert [e.answered_by for e in events if e.kind == "llm_end"] == ["backup", "backup"]
    assert events[-1].outputs["output"] == ANSWER


def test_part_two_degrades_to_the_weather_rule_after_three_failures():
    events = record("fallback-rules")
    assert [e.failures for e in events if e.kind == "plan_error"] == [1, 2, 3]
    assert {e.model for e in events if e.kind == "breaker_open"} == {"primary", "backup"}
    degrade = next(e for e in events if e.kind == "degrade")
    assert (degrade.rule, degrade.tool, degrade.tool_input) == ("weather", "get_weather", "Hangzhou")
    assert events[-1].outputs["output"] == WEATHER["hangzhou"]
    assert events[0].settings["degradation"]["rules"][0]["name"] == "weather"


def test_every_run_gets_new_breakers_so_runs_never_leak_state_into_each_other():
    before = breakers()
    first, second = record("fallback-model"), record("fallback-model")
    assert compare_runs(first, second) is None  # a shared breaker would refuse the second run's first call
    assert breakers() == before  # nothing registered in the process
    chain = second[0].settings["model_chain"]["chain"]
    assert [link["breaker"]["state"] for link in chain] == ["closed", "closed"]


def test_the_fixtures_replay_with_their_recorded_chain_and_rules():
    for name in ("fallback-model", "fallback-rules"):
        trace = Trace.load(SCENARIOS[name].fixture)
        rerun = []
        replayed = replayed_executor(trace)
        assert type(replayed.agent.model).__name__ == "FallbackModel"
        try:
            replayed.invoke(SCENARIOS[name].inputs(), [rerun.append])
        finally:
            assert compare_runs(trace.events, rerun) is None, name
    header, events, _ = load_trace(SCENARIOS["fallback-rules"].fixture)
    assert header.scenario == "fallback-rules" and events[-1].kind == "chain_end"


def test_the_transitions_name_each_step_of_the_recovery():
    labels = Trace.load(SCENARIOS["fallback-rules"].fixture).labels()
    assert "fallback(primary->backup: CircuitOpenError, refused)" in labels
    assert labels.index("breaker_open(backup)") < labels.index("plan_error(CircuitOpenError 1/3)")
    assert "degrade(weather->get_weather)" in labels
