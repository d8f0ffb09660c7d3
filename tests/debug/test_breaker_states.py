"""Each breaker's state at any event of a trace, as the status line shows it."""

from tracer.debug.breaker_states import BreakerTimeline, breaker_states_at
from tracer.tui.launch import build_session
from tutorials import SCENARIOS


def session_of(name, tmp_path):
    fixture = SCENARIOS[name].fixture
    copy = tmp_path / fixture.name
    copy.write_bytes(fixture.read_bytes())
    return build_session(copy)


def test_states_follow_the_breaker_events_of_a_run(tmp_path):
    session = session_of("fallback-rules", tmp_path)
    store = session.store
    kinds = [store.event(p).kind for p in range(len(store))]
    first_open = kinds.index("breaker_open")
    second_open = kinds.index("breaker_open", first_open + 1)
    assert breaker_states_at(store, 0) == {"primary": "closed", "backup": "closed"}
    assert breaker_states_at(store, first_open - 1) == {"primary": "closed", "backup": "closed"}
    assert breaker_states_at(store, first_open) == {"primary": "open", "backup": "closed"}
    assert breaker_states_at(store, second_open) == {"primary": "open", "backup": "open"}
    assert breaker_states_at(store, len(store) - 1) == {"primary": "open", "backup": "open"}


def test_a_run_without_breakers_has_no_states_and_is_not_scanned(tmp_path):
    session = session_of("rose-pricing", tmp_path)
    timeline = BreakerTimeline(session.store)
    assert timeline.at(len(session.store) - 1) == {} and timeline._scanned == 0


class GrowingStore:
    """A live run's store: events arrive while the debugger is looking."""

    def __init__(self, events):
        self.events, self.shown = events, 0

    def __len__(self):
        return self.shown

    def event(self, position):
        return self.events[position]

    def raw_line(self, position):
        return self.events[position].model_dump_json().encode()


def test_a_live_store_is_read_as_it_grows(tmp_path):
    from tracer.trace.reader import load_trace

    events = load_trace(SCENARIOS["fallback-model"].fixture)[1]
    store = GrowingStore(events)
    assert breaker_states_at(store, 0) == {}  # nothing yet, and nothing remembered from that
    store.shown = 2
    assert breaker_states_at(store, 1) == {"primary": "closed", "backup": "closed"}
    store.shown = len(events)
    assert breaker_states_at(store, len(events) - 1)["primary"] == "open"
