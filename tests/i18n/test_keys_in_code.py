"""Every message key the code names is in the catalogue, and no Chinese is written anywhere else in the debugger."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from executor.states import STATES
from tracer.debug.session import motion_name
from tracer.debug.stepping import Motion
from tracer.i18n import templates
from tracer.report.waterfall.picture import BAR_KINDS, CATEGORIES, CATEGORY_OF

ROOT = Path(__file__).resolve().parents[2]
DEBUGGER = [ROOT / "tracer" / "tui", ROOT / "tracer" / "debug"]
# A key written out whole: Message("area.key" or say("area.key" (f-strings are checked below, by family).
NAMED = re.compile(r"""(?:Message|Said|say)\(\s*"([a-z_]+\.[\w.\- ]+)\"""")
CJK = re.compile(r"[\u4e00-\u9fff]")


def _sources() -> list[Path]:
    return sorted(path for folder in DEBUGGER for path in folder.rglob("*.py"))


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_key_a_debugger_module_names_is_in_the_catalogue(path: Path) -> None:
    named = set(NAMED.findall(path.read_text(encoding="utf-8")))
    assert named <= templates().keys(), f"keys not in tracer/i18n: {sorted(named - templates().keys())}"


def test_the_keys_built_from_values_are_there_for_every_value() -> None:
    for motion in Motion:
        for direction in (1, -1):
            assert motion_name(motion, direction).text("zh")  # debugger.motion.MOTION[.back]
    for state in STATES:
        assert f"panes.state.{state}" in templates()
    for pane in ("variables", "prompt", "detail", "breakpoints", "narration"):
        assert f"panes.{pane}" in templates() and f"panes.narration_above.{pane}" in templates()
    for word in CATEGORIES:  # the waterfall's lanes
        assert f"panes.lane.{word}" in templates()
    for category, kind in enumerate(BAR_KINDS):  # what Waterfall.description names
        assert CATEGORY_OF[category] == 3 or f"waterfall.kind.{kind}" in templates()  # events-lane bars: label only
    for note in ("event", "events", "failed", "unfinished"):
        assert f"waterfall.bar.{note}" in templates()
    for change in ("reply", "observation"):
        assert f"debugger.forking_{change}" in templates() and f"debugger.forked_{change}" in templates()


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_debugger_module_writes_chinese_itself(path: Path) -> None:
    """The words live in tracer/i18n, English and Chinese side by side; a module that writes its own
    Chinese (or translates English after the fact) is what the catalogue replaced."""
    found = [number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if CJK.search(line)]
    assert not found, f"Chinese on lines {found}: put the words in tracer/i18n and ask for them by key"
