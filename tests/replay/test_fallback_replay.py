"""What the events record is enough to re-execute a run with fallbacks and breakers offline, event for event.

The cassette (tracer.replay.recorded_answers.replay_model) rebuilds each model's attempts from the events alone
(retry, breaker_open, fallback, plan_error, llm_end with answered_by, finish_reason and refusal), the chain
and its breakers from chain_start's settings["model_chain"], the rules from settings["degradation"]; the
re-run must narrate exactly what the recording did.
"""

import pytest

from executor import (
    AgentExecutor,
    ManualClock,
    ModelReply,
    RetryPolicy,
    Rule,
    RuleSet,
    ScriptedModel,
    create_react_agent,
)
from executor.recovery.circuit_breaker import reset_breakers, with_breaker
from executor.recovery.fallbacks import with_fallbacks
from executor.recovery.model_chain import restore_model
from tests.helpers.failing_models import DeadModel
from tests.helpers.loop_builders import action, echo_tool, finish
from tracer.replay.builder import recorded_degradation
from tracer.replay.recorded_answers import ReplayModel, replay_model
from tracer.replay.verify import compare_runs

POLICY = RetryPolicy(max_retries=3, jitter=False)


def executor_for(model, clock, **settings):
    tools = [echo_tool()]
    return AgentExecutor(
        create_react_agent(model, tools),
        tools,
        clock=clock,
        retry_policy=POLICY,
        run_id_factory=lambda: "run",
        **settings,
    )


def record(model, clock, question="q?", **settings):
    events = []
    try:
        executor_for(model, clock, **settings).invoke({"input": question}, [events.append])
    except Exception:
        pass  # the events end with chain_error; the replay must end the same way
    return events


def replay(recorded, question="q?"):
    """The cassette's model chain and the recorded rules: nothing of the recording run is reused."""
    rerun = []
    try:
        executor_for(replay_model(recorded), ManualClock(tick=0.001), **recorded_degradation(recorded)).invoke(
            {"input": question}, [rerun.append]
        )
    except Exception:
        pass
    return rerun


@pytest.fixture(autouse=True)
def fresh_breakers():
    reset_breakers()
    yield
    reset_breakers()


def chain(dead, replies):
    return with_fallbacks(
        with_breaker(dead, failure_threshold=2, cool_down=5.0),
        [with_breaker(ScriptedModel(replies, model_name="backup"))],
    )


def test_a_run_that_falls_back_and_opens_the_breaker_replays_exactly():
    clock = ManualClock(tick=0.001)
    recorded = record(chain(DeadModel(), [action("Echo", "x"), finish("done")]), clock)
    kinds = [e.kind for e in recorded]
    assert {"retry", "breaker_open", "fallback"} <= set(kinds) and kinds.count("fallback") == 2
    rerun = replay(recorded)
    assert compare_runs(recorded, rerun) is None
    assert [e.kind for e in rerun] == kinds


def test_a_run_that_starts_with_an_open_breaker_and_half_opens_replays_exactly():
    clock = ManualClock(tick=0.001)
    dead = DeadModel()
    record(chain(dead, [finish("first")]), clock)
    clock.advance(4.0)  # one second short of the cool-down: the first call is refused, a later one is a trial
    recorded = record(chain(dead, [action("Echo", "slow"), finish("second")]), clock)
    kinds = [e.kind for e in recorded]
    assert recorded[0].settings["model_chain"]["chain"][0]["breaker"]["state"] == "open"
    assert "breaker_half_open" not in kinds  # retries of the backup do not move this clock far enough
    rerun = replay(recorded)
    assert compare_runs(recorded, rerun) is None


def test_a_half_open_trial_at_the_start_replays_exactly():
    clock = ManualClock(tick=0.001)
    dead = DeadModel()
    record(chain(dead, [finish("first")]), clock)
    clock.advance(6.0)
    recorded = record(chain(dead, [finish("second")]), clock)
    kinds = [e.kind for e in recorded]
    assert kinds[1:5] == ["llm_start", "breaker_half_open", "breaker_open", "fallback"]
    assert compare_runs(recorded, replay(recorded)) is None


def test_without_the_recorded_breaker_state_the_replay_diverges():
    clock = ManualClock(tick=0.001)
    dead = DeadModel()
    record(chain(dead, [finish("first")]), clock)
    recorded = record(chain(dead, [finish("second")]), clock)
    settings = recorded[0].settings["model_chain"]
    closed = {
        **settings,
        "chain": [
            {
                **settings["chain"][0],
                "breaker": {**settings["chain"][0]["breaker"], "state": "closed", "open_for": None},
            },
            settings["chain"][1],
        ],
    }
    model = restore_model(closed, lambda name: ReplayModel(recorded, model_name=name))
    rerun = []
    executor_for(model, ManualClock(tick=0.001)).invoke({"input": "q?"}, [rerun.append])
    assert compare_runs(recorded, rerun) is not None
    # A closed breaker lets the call through to a model the recording never called; the fallback
    # catches the divergence as it would any error, and the trace names it.
    fallback = next(e for e in rerun if e.kind == "fallback")
    assert fallback.error_type == "ReplayDivergence" and "model call #1 of 'primary'" in fallback.error


@pytest.mark.parametrize("question", ["echo hello", "tell me a joke"], ids=["rule-matches", "no-rule"])
def test_a_degraded_run_replays_exactly(question):
    rules = RuleSet([Rule("echo", r"echo (\w+)", "Echo", "{1}")])
    dead = DeadModel()
    recorded = record(dead, ManualClock(tick=0.001), question, rules=rules, degrade_after=2)
    kinds = [e.kind for e in recorded]
    assert kinds.count("plan_error") == 2 and "degrade" in kinds
    assert compare_runs(recorded, replay(recorded, question)) is None


def test_a_refused_run_replays_exactly():
    model = ScriptedModel([ModelReply("", refusal="I can't help with that.")])
    recorded = record(model, ManualClock(tick=0.001), rules=RuleSet([]))
    assert [e.kind for e in recorded][-4:-2] == ["refusal", "agent_finish"]
    assert compare_runs(recorded, replay(recorded)) is None


def rerun_on(model, clock, question="q?", **settings):
    rerun = []
    try:
        executor_for(model, clock, **settings).invoke({"input": question}, [rerun.append])
    except Exception:
        pass
    return rerun


def half_open_recordings():
    """Runs whose breakers refused, half-opened, re-opened and closed, recorded on one clock."""
    clock, dead = ManualClock(tick=0.001), DeadModel()
    first = record(chain(dead, [finish("first")]), clock)
    clock.advance(6.0)
    trial_fails = record(chain(dead, [finish("second")]), clock)
    clock.advance(6.0)
    dead.generate = lambda prompt, stop: ModelReply(finish("healed"))  # the endpoint is back
    trial_works = record(chain(dead, [finish("unused")]), clock)
    return {"opens": first, "trial-fails": trial_fails, "trial-works": trial_works}


@pytest.mark.parametrize("name", ["opens", "trial-fails", "trial-works"])
def test_a_live_run_replays_with_breakers_that_decide_as_recorded_whatever_the_clock(name):
    recorded = half_open_recordings()[name]
    kinds = [e.kind for e in recorded]
    assert {"opens": "breaker_open", "trial-fails": "breaker_half_open", "trial-works": "breaker_closed"}[name] in kinds
    slow_clock = ManualClock(tick=7.0)  # readings nothing like the recording's, as a live run's would be
    assert compare_runs(recorded, rerun_on(replay_model(recorded, real_time=True), slow_clock)) is None


def test_a_live_run_replayed_by_the_clock_would_diverge():
    recorded = half_open_recordings()["trial-fails"]
    assert compare_runs(recorded, rerun_on(replay_model(recorded), ManualClock(tick=7.0))) is not None
