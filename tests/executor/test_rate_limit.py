"""The token bucket's arithmetic on a ManualClock, its thread safety, and rate_limit_wait events in a run."""

import threading

import pytest

from executor import (
    AgentExecutor,
    ManualClock,
    RateLimiter,
    ScriptedModel,
    create_react_agent,
)
from tutorials.rose_pricing import REPLIES, build_tools


def test_a_full_bucket_allows_burst_calls_then_refuses():
    limiter = RateLimiter(max_qps=10, burst=3, clock=ManualClock())
    assert [limiter.try_acquire() for _ in range(4)] == [True, True, True, False]


def test_tokens_come_back_at_max_qps_and_never_beyond_the_burst():
    clock = ManualClock()
    limiter = RateLimiter(max_qps=4, burst=2, clock=clock)
    assert limiter.try_acquire() and limiter.try_acquire() and not limiter.try_acquire()
    clock.advance(0.2)  # 0.8 of a token
    assert not limiter.try_acquire()
    clock.advance(0.05)  # now 1.0
    assert limiter.try_acquire() and not limiter.try_acquire()
    clock.advance(100)  # a long idle refills to the burst, not to 400
    assert [limiter.try_acquire() for _ in range(3)] == [True, True, False]


def test_reservations_queue_up_one_interval_apart():
    limiter = RateLimiter(max_qps=5, burst=1, clock=ManualClock())
    assert [round(limiter.reserve(), 9) for _ in range(4)] == [0.0, 0.2, 0.4, 0.6]


def test_acquire_waits_on_the_clock_and_reports_the_wait():
    clock = ManualClock()
    limiter = RateLimiter(max_qps=2, burst=1, clock=clock)
    waits = [limiter.acquire() for _ in range(4)]
    assert waits == [0.0, 0.5, 0.5, 0.5]
    assert clock.slept == [0.5, 0.5, 0.5] and clock.now == pytest.approx(1.5)


def test_a_failed_try_acquire_takes_nothing():
    clock = ManualClock()
    limiter = RateLimiter(max_qps=1, burst=1, clock=clock)
    assert limiter.try_acquire()
    for _ in range(5):
        assert not limiter.try_acquire()
    clock.advance(1.0)
    assert limiter.try_acquire()  # the refused attempts did not go into debt


def test_many_threads_never_get_more_tokens_than_the_bucket_holds():
    limiter = RateLimiter(max_qps=1, burst=50, clock=ManualClock())  # time frozen: no refill
    granted = []
    start = threading.Barrier(8)

    def grab():
        start.wait()
        granted.append(sum(limiter.try_acquire() for _ in range(200)))

    threads = [threading.Thread(target=grab) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(granted) == 50


def test_concurrent_reservations_are_each_given_their_own_slot():
    limiter = RateLimiter(max_qps=10, burst=1, clock=ManualClock())
    waits, lock = [], threading.Lock()

    def reserve_many():
        for _ in range(25):
            wait = limiter.reserve()
            with lock:
                waits.append(round(wait, 6))

    threads = [threading.Thread(target=reserve_many) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(waits) == [round(k / 10, 6) for k in range(200)]


@pytest.mark.parametrize("options, complaint", [({"max_qps": 0}, "max_qps"), ({"max_qps": 1, "burst": 0}, "burst")])
def test_bad_settings_are_refused(options, complaint):
    with pytest.raises(ValueError, match=complaint):
        RateLimiter(**options)


def test_each_wait_before_a_model_call_is_a_rate_limit_wait_event():
    clock = ManualClock()
    model = ScriptedModel(REPLIES)
    tools = build_tools(model)
    executor = AgentExecutor(
        create_react_agent(model, tools), tools, clock=clock, rate_limiter=RateLimiter(max_qps=2, burst=1, clock=clock)
    )
    events = []
    executor.invoke({"input": "q"}, [events.append])
    waits = [e for e in events if e.kind == "rate_limit_wait"]
    # 4 model calls back to back (time stands still between them): the first is free
    assert [e.waited for e in waits] == [0.5, 0.5, 0.5]
    assert clock.slept == [0.5, 0.5, 0.5]
    kinds = [e.kind for e in events]
    for wait in waits:  # each sits between its call's llm_start and llm_end
        at = kinds.index("rate_limit_wait", wait.seq)
        assert kinds[at - 1] == "llm_start" and kinds[at + 1] == "llm_end"
    nested = [w for w in waits if "calculate" in w.frames]
    assert len(nested) == 1  # the calculator's own model call is paced too
