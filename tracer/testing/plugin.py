"""loopscope's pytest plugin: run agent loops under trace cassettes and snapshot their transitions."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tutorials import get_scenario

from ..agents.name_clash import clash_advice, clashing_modules
from ..replay.cassette import Cassette, RecordMode
from ..trace.redact import default_redactor
from .short_failures import mark_short

SNAPSHOT_FIXTURES = frozenset({"trace_snapshot", "trace_events_snapshot"})
_failed_snapshot_tests: set[str] = set()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        'loopscope(record="once", model="openai:llama3"): this test\'s cassette record mode (none, once or '
        "rewrite) and the live model it records with; --loopscope-record and --loopscope-model still win",
    )


_name_clashes = pytest.StashKey[list[str]]()


def pytest_collection_finish(session: pytest.Session) -> None:
    # After collection, when sys.path holds every folder pytest put there for the tests and conftests:
    # a tracer.py there is what the project's tests mean by `import tracer`, and they get loopscope's.
    session.config.stash[_name_clashes] = [clash_advice(name, module) for name, module in clashing_modules()]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """One line per module of the project that loopscope's packages hide, after the errors it caused."""
    for advice in config.stash.get(_name_clashes, []):
        terminalreporter.write_line(f"loopscope: {advice}", yellow=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Any:
    if call.excinfo is not None:  # before pytest draws the failure from it
        mark_short(call.excinfo, item.config.getoption("tbstyle", "auto"))
    outcome = yield
    report = outcome.get_result()
    if report.failed and SNAPSHOT_FIXTURES & set(getattr(item, "fixturenames", ())):
        _failed_snapshot_tests.add(report.nodeid)


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """A test that failed (say, its replay diverged) before it could compare its trace must not lose
    its snapshot: syrupy is told it did not run, as for a skipped test, so the snapshot is kept rather
    than deleted under --snapshot-update, or called unused (with advice to delete it) without it.
    It is never rewritten either: no assert ran."""
    if report.nodeid not in _failed_snapshot_tests or report.when == "teardown":
        return
    session = getattr(_configs[-1], "_syrupy", None) if _configs else None
    if session is None:  # syrupy is not running in this session
        return
    try:
        session.ran_item(report.nodeid, "skipped")
    except AttributeError:  # another syrupy: keep the run going; the snapshot is its business then
        pass


_configs: list[pytest.Config] = []  # a stack: pytester runs sessions inside a session


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    _configs.append(session.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _configs and _configs[-1] is session.config:
        _configs.pop()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("loopscope", "loopscope trace cassettes")
    group.addoption(
        "--loopscope-record",
        dest="loopscope_record",
        default=None,
        choices=[mode.value for mode in RecordMode],
        help="none (default): replay cassettes only, never call a live model; "
        "once: record cassettes that are missing; rewrite: record every cassette again",
    )
    group.addoption(
        "--loopscope-model",
        dest="loopscope_model",
        default=None,
        metavar="PROVIDER:NAME",
        help="the live model a test records its cassette with (default: LOOPSCOPE_MODEL, as for the "
        "loopscope command; its endpoint and key from OPENAI_BASE_URL and OPENAI_API_KEY)",
    )
    group.addoption(
        "--loopscope-redact",
        dest="loopscope_redact",
        action="append",
        default=[],
        metavar="REGEX",
        help="also redact text matching REGEX from recorded cassettes",
    )
    parser.addini("loopscope_record_mode", "default --loopscope-record mode", default="none")
    parser.addini(
        "loopscope_redact", "regular expressions to redact from cassettes, one per line", type="linelist", default=[]
    )
    parser.addini("loopscope_cassette_dir", "where cassettes live, relative to each test file", default="cassettes")
    parser.addini("loopscope_model", "default --loopscope-model (else LOOPSCOPE_MODEL)", default="")


@pytest.fixture
def loopscope_record_mode(request: pytest.FixtureRequest) -> RecordMode:
    """The record mode for this test: --loopscope-record, else the test's
    @pytest.mark.loopscope(record=...), else the ini setting."""
    config = request.config
    marker = request.node.get_closest_marker("loopscope")
    marked = marker.kwargs.get("record") if marker else None
    try:
        return RecordMode.parse(
            config.getoption("loopscope_record") or marked or config.getini("loopscope_record_mode")
        )
    except ValueError as error:
        raise pytest.UsageError(f"{request.node.nodeid}: {error}") from None


def _redaction_patterns(config: pytest.Config) -> list[str]:
    return [*config.getini("loopscope_redact"), *config.getoption("loopscope_redact")]


@pytest.fixture
def loopscope_redactor(request: pytest.FixtureRequest) -> Any:
    return default_redactor(_redaction_patterns(request.config))


@pytest.fixture
def loopscope_live_model(request: pytest.FixtureRequest) -> Callable[[], Any]:
    """A zero-argument factory of the live model this test records with, configured as the loopscope
    command's (LOOPSCOPE_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY; --loopscope-model or the marker's
    model= first). It is what loopscope_cassette.run records with when given no live_model."""
    # At first use, as the engine below: the model's configuration and client are not every start-up's.
    from .configured_model import configured_live_model

    return lambda: configured_live_model(request).model


def cassette_path(request: pytest.FixtureRequest) -> Path:
    """<test dir>/cassettes/<module>/<test name>.jsonl, like pytest-recording's layout."""
    folder = request.config.getini("loopscope_cassette_dir")
    name = re.sub(r"[^\w.-]+", "_", request.node.name).strip("_")
    return Path(request.path).parent / folder / request.path.stem / f"{name}.jsonl"


@pytest.fixture
def loopscope_cassette(
    request: pytest.FixtureRequest, loopscope_record_mode: RecordMode, loopscope_redactor: Any
) -> Cassette:
    """A Cassette for this test: `loopscope_cassette.run(build_executor, inputs)` records with the configured
    live model (loopscope_live_model) unless run() is given its own `live_model=`."""
    # At first use, as in loopscope_live_model.
    from .configured_model import recording_model

    cassette = Cassette(
        cassette_path(request),
        loopscope_record_mode,
        loopscope_redactor,
        meta={"test": request.node.nodeid},
        rerun=_rerun_command(request),
    )
    cassette.live_model = lambda: recording_model(request, cassette, _redaction_patterns(request.config))
    return cassette


def _rerun_command(request: pytest.FixtureRequest) -> str:
    """`pytest NODEID`, with --snapshot-update when the test stores a snapshot (a new recording changes it)."""
    snapshot = " --snapshot-update" if SNAPSHOT_FIXTURES & set(request.fixturenames) else ""
    return f"pytest {shlex.quote(request.node.nodeid)}{snapshot}"


@pytest.fixture
def loopscope_scenario(loopscope_record_mode: RecordMode, loopscope_redactor: Any) -> Callable[[str], Any]:
    """Run a tutorial scenario under its fixture: `trace = loopscope_scenario("rose-pricing")`."""
    # At first use, not when pytest loads the plugin (every pytest session of a project that installs
    # loopscope does): the engine and the replay builder would slow every such start-up.
    from executor import ManualClock, ScriptedModel

    from ..replay.builder import DEFAULT_CLOCK_TICK  # (as above: not at every pytest start-up)

    def run(name: str) -> Any:
        scenario = get_scenario(name)
        cassette = Cassette(
            scenario.fixture, loopscope_record_mode, loopscope_redactor, meta={"scenario": scenario.name}
        )

        def build(model: Any) -> Any:
            # As `loopscope record` does: a manual clock, so waits are instant and reproducible.
            return scenario.executor(
                model, clock=ManualClock(tick=DEFAULT_CLOCK_TICK), run_id_factory=lambda: scenario.name
            )

        return cassette.run(build, scenario.inputs(), live_model=lambda: ScriptedModel(scenario.replies))

    return run


@pytest.fixture
def trace_snapshot(snapshot: Any) -> Any:
    """syrupy's snapshot, storing a trace as its transitions: `assert trace == trace_snapshot`."""
    from .snapshot_extension import TraceSnapshotExtension  # at first use: syrupy's extensions are slow to import

    return snapshot.use_extension(TraceSnapshotExtension)


@pytest.fixture
def trace_events_snapshot(snapshot: Any) -> Any:
    """Like trace_snapshot, plus every event with its volatile fields left out."""
    from .snapshot_extension import TraceEventsSnapshotExtension  # at first use, as above

    return snapshot.use_extension(TraceEventsSnapshotExtension)
