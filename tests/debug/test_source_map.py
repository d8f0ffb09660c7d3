"""Callers' lines found from the caller's own lines are those found from its whole file."""

from __future__ import annotations

import functools
import re

import pytest

from tests.helpers.paths import FIXTURES
from tracer.debug import source_map
from tracer.trace.reader import TraceFile
from tutorials.registry import TUTORIALS

FUNCTION = re.compile(r"\bdef\s+(\w+)\s*\(")
TUTORIAL_FIXTURES = sorted({part.fixture for tutorial in TUTORIALS.values() for part in tutorial.parts})
# The Agents SDK's and pydantic-ai's frames name the framework's own steps ("(openai-agents)", line 0): no
# source line to find, by design (the Source pane says so); the rest are found in the code that ran.
LINED_FIXTURES = [
    fixture
    for fixture in TUTORIAL_FIXTURES
    if not any(
        part.fixture == fixture and part.framework in ("OpenAI Agents SDK", "pydantic-ai")
        for tutorial in TUTORIALS.values()
        for part in tutorial.parts
    )
]


@functools.cache
def _whole_file_functions() -> dict[str, list]:
    """Each file of the package parsed whole once, its functions by name, in file order (the module's
    own cache keeps 64 files, fewer than the package has; asking it name by name took 13 s)."""
    table: dict[str, list] = {}
    for path, _text in source_map._package_texts():
        for function in source_map._scan.__wrapped__(path):
            table.setdefault(function.name, []).append(function)
    return table


def whole_file_functions(name: str) -> list:
    return _whole_file_functions().get(name, [])


def test_every_executor_function_is_read_the_same_from_its_own_lines_as_from_its_file():
    names = sorted({name for _path, text in source_map._package_texts() for name in FUNCTION.findall(text)})
    assert len(names) > 100
    cut = [name for name in names if list(source_map._functions(name)) != whole_file_functions(name)]
    assert cut == []
    read_alone = source_map._scan_one.cache_info().misses
    assert read_alone > 50, "most functions were read from their own lines, not their whole file"


def test_code_right_above_a_def_makes_it_read_from_the_whole_file(tmp_path, monkeypatch):
    monkeypatch.setattr(source_map, "PROJECT_ROOT", tmp_path)
    text = (
        "import functools\n\n\nclass A:\n    @functools.lru_cache(maxsize=2)\n    # a comment\n    def run(self):\n"
        "        return self.go()\n\n    def go(self):\n        x = (\n1)\n        return helper(x)\n"
    )
    path = tmp_path / "a.py"
    path.write_text(text)
    whole = {f.name: f for f in source_map._scan(path)}
    run, go = (source_map._scan_one(path, name, text, text.index(f"def {name}")) for name in ("run", "go"))
    assert run == [whole["run"]] and ("lru_cache", 5) in whole["run"].calls  # the decorator's call counts
    assert go == [whole["go"]] and ("helper", 13) in whole["go"].calls  # a line the cut would lose


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_fixture_events_call_stack_is_unchanged(path, monkeypatch):
    with TraceFile(path) as trace:
        stacks = [(tuple(e.frames), e.source.file, e.source.line) for e in trace]
    found = [source_map.frame_locations(*stack) for stack in stacks]
    source_map._call_site.cache_clear()
    monkeypatch.setattr(
        source_map, "_scan_one", lambda path, name, text, at: [f for f in source_map._scan(path) if f.name == name]
    )
    assert found == [source_map.frame_locations(*stack) for stack in stacks]
    source_map._call_site.cache_clear()


def _lines(session) -> list[tuple[str, str | None, int | None]]:
    return [(f.function, f.file, f.line) for f in session.frames()]


@pytest.mark.parametrize("fixture", LINED_FIXTURES, ids=lambda p: p.stem)
def test_a_frames_line_is_right_from_the_first_paint_and_known(fixture):
    """What the debugger shows before the re-execution arrives (found in the source) is what the
    re-executed run's real frames say later: the first frame showed invoke at :111, then :118."""
    from tracer.debug.session import build_session

    session = build_session(fixture)
    shown_first, real = [], []
    for position in range(len(session)):
        session.goto(position)
        first = _lines(session)  # a window's session: no frame waits for the re-execution
        frames = session.store.frames_at(position, wait=True) or ()
        live = [(f.function, f.file, f.line) for f in frames]
        shown_first.append(first[: len(live)])  # a worker thread's event: its loop-thread part
        real.append(live)
        assert all(line is not None for _function, _file, line in first), (position, first)
    assert shown_first == real
