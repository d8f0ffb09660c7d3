"""Tutorials: every note lands on an event of its fixture, in both languages; the CLI walks them."""

import io
import re
import shutil
import sys
import types

import pytest
from rich.cells import cell_len
from rich.console import Console

from executor import ManualClock, ScriptedModel
from tests.helpers.cli_run import loopscope
from tests.helpers.pilot_helpers import until
from tracer.cli import main
from tracer.cli import tutorial as tutorial_command
from tracer.replay.recorded_answers import ReplayModel
from tracer.report.text.cjk_wrap import wrap_note
from tracer.trace.reader import load_trace
from tracer.tui.app import DebuggerApp
from tracer.tui.launch import build_session
from tracer.tui.views.narration_view import narration_text
from tutorials import SCENARIOS
from tutorials.narration import NarrationMismatch, NarrationStop, tutorial_stops
from tutorials.notes_file import LANGUAGES, NotesFileError, load_notes, reflow
from tutorials.rate_limit import OverloadedEndpoint
from tutorials.registry import TUTORIALS, find_part

CJK = re.compile(r"[\u4e00-\u9fff]")
PARTS = [(tutorial, part) for tutorial in TUTORIALS.values() for part in tutorial.parts]
PART_IDS = [part.name for _, part in PARTS]


def events_of(part):
    return load_trace(part.fixture)[1]


def walk(capsys, *args):
    return loopscope(capsys, "tutorial", *args)


# -- notes against fixtures ---------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("tutorial", "part"), PARTS, ids=PART_IDS)
def test_every_note_lands_on_an_event_of_its_fixture(tutorial, part, lang):
    events = events_of(part)
    notes = [note for note in tutorial.notes.notes if note.part == part.name]
    stops = tutorial_stops(part.name, lang, events)
    expected = {note.anchor.find(events)[0].seq: note for note in notes}
    is_last_part = part is tutorial.parts[-1]
    assert len(stops) == len(notes) + is_last_part
    assert [stop.seq for stop in stops] == sorted({stop.seq for stop in stops})  # in order, never two on one event
    for stop in stops:
        event = events[stop.seq]
        if stop.seq in expected:
            note = expected[stop.seq]
            assert event.kind == note.anchor.kind and note.anchor.matches(event)
            assert (stop.title, stop.text) == (note.titles[lang], note.texts[lang])
        else:  # the takeaways close the last part, on its final event
            assert is_last_part and stop.seq == events[-1].seq and stop.text.startswith("• ")


@pytest.mark.parametrize("tutorial", TUTORIALS.values(), ids=list(TUTORIALS))
def test_both_languages_are_complete_and_really_in_their_language(tutorial):
    notes = tutorial.notes
    for text_by_lang in [notes.titles, *notes.part_labels.values()]:
        assert CJK.search(text_by_lang["zh"]) and not CJK.search(text_by_lang["en"])
    for note in notes.notes:
        assert CJK.search(note.texts["zh"]) and CJK.search(note.titles["zh"]), note.id
        # A listing line (one that starts with a space) may quote a model's or a tool's text as it was.
        prose = "\n".join(line for line in note.texts["en"].splitlines() if not line.startswith(" "))
        assert not CJK.search(prose) and not CJK.search(note.titles["en"]), note.id
    assert len(notes.takeaways["en"]) == len(notes.takeaways["zh"]) >= 3
    assert all(CJK.search(item) for item in notes.takeaways["zh"])


@pytest.mark.parametrize(("tutorial", "part"), PARTS, ids=PART_IDS)
def test_english_and_chinese_stop_at_the_same_events(tutorial, part):
    events = events_of(part)
    seqs = {lang: [stop.seq for stop in tutorial_stops(part.name, lang, events)] for lang in LANGUAGES}
    assert seqs["en"] == seqs["zh"]


@pytest.mark.parametrize(("tutorial", "part"), PARTS, ids=PART_IDS)
def test_fixture_was_recorded_from_its_scenario_and_ends_as_expected(tutorial, part):
    header, events, warning = load_trace(part.fixture)
    assert header.scenario == part.name and warning is None
    assert (events[-1].kind == "chain_error") == part.expect_error


def test_every_scenario_belongs_to_a_tutorial():
    assert {part.name for _, part in PARTS} == set(SCENARIOS)


def test_a_note_whose_event_is_gone_names_the_note_and_the_event():
    events = [e for e in events_of(SCENARIOS["rose-pricing"]) if not (e.kind == "finish_check" and e.is_finish)]
    with pytest.raises(NarrationMismatch) as caught:
        tutorial_stops("rose-pricing", "en", events)
    message = str(caught.value)
    assert "'check-3'" in message and "the 3rd finish_check event" in message and "has 2 such events" in message


def test_a_note_filtered_on_a_field_counts_only_matching_events():
    events = events_of(SCENARIOS["rose-pricing"])
    lookup = next(n for n in TUTORIALS["rose-pricing"].notes.notes if n.id == "tool-lookup")
    event, matched = lookup.anchor.find(events)
    assert (event.kind, event.tool, matched) == ("tool_start", "Search", 1)


def test_multi_part_tutorial_name_asks_for_a_part():
    with pytest.raises(KeyError, match="parse-error-off, parse-error-on"):
        find_part("parse-error")


def test_notes_file_without_chinese_is_rejected_naming_the_note(tmp_path):
    source = tmp_path / "broken.toml"
    source.write_text(
        """
title = { en = "T", zh = "标题" }
parts.only = { en = "P", zh = "部分" }
takeaways = { en = ["a"], zh = ["甲"] }
[[stop]]
id = "lonely"
kind = "chain_start"
en = { title = "Hello", text = "English only" }
""",
        encoding="utf-8",
    )
    with pytest.raises(NotesFileError, match=r"note 'lonely'.*no zh title"):
        load_notes(source, ["only"])


@pytest.mark.parametrize(
    ("anchor", "problem"),
    [
        ('kind = "llm_begin"', "'llm_begin' is not an event kind"),
        ('kind = "tool_end"\nwhere = { tol = "Search" }', "tool_end events have no field 'tol'"),
        ('kind = "step"\noccurrence = 0', "occurrence must be a non-zero"),
    ],
)
def test_notes_file_with_a_bad_anchor_is_rejected(tmp_path, anchor, problem):
    source = tmp_path / "bad.toml"
    source.write_text(
        f"""
title = {{ en = "T", zh = "标题" }}
parts.only = {{ en = "P", zh = "部分" }}
takeaways = {{ en = ["a"], zh = ["甲"] }}
[[stop]]
id = "n"
{anchor}
en = {{ title = "t", text = "x" }}
zh = {{ title = "标", text = "文" }}
""",
        encoding="utf-8",
    )
    with pytest.raises(NotesFileError, match=re.escape(problem)):
        load_notes(source, ["only"])


def test_reflow_joins_wrapped_lines_but_keeps_listings_and_chinese_unspaced():
    text = "one\ntwo\n  col  a\n  col  b\nthree\n\n第一\n第二，and\nmore"
    assert reflow(text) == "one two\n  col  a\n  col  b\nthree\n\n第一第二，and more"


# -- the rose-pricing walk ----------------------------------------------------------------
def test_rose_walk_stops_at_checks_that_say_false_false_true():
    events = events_of(SCENARIOS["rose-pricing"])
    stops = tutorial_stops("rose-pricing", "en", events)
    checks = [events[s.seq].is_finish for s in stops if events[s.seq].kind == "finish_check"]
    assert checks == [False, False, True]


def test_rose_walk_prints_the_checks_the_prompt_gain_and_the_ledger(capsys):
    code, out, _ = walk(capsys, "rose-pricing", "--print", "--lang", "en")
    assert code == 0
    verdicts = re.findall(r"isinstance\(output, AgentFinish\) → (True|False)   \(", out)
    assert verdicts == ["False", "False", "True"]
    gained = out.split("what the prompt gained since the last plan():", 1)[1]
    assert gained.index("Observation: 1.") < gained.index("╰")  # round 1's observation is in round 2's prompt
    assert re.search(r"plan called\s+3", out) and re.search(r"_perform_agent_action called\s+2", out)
    # each stop follows the narration of its event: chain start, its note, round 1, ..., takeaways last
    assert (
        out.index("> Entering")
        < out.index("Where the loop hides")
        < out.index("── round 1")
        < out.index("> Finished chain.")
        < out.index("What to take away")
    )


# -- every tutorial through the CLI -------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(TUTORIALS))
def test_every_tutorial_prints_all_its_stops(capsys, name, lang):
    code, out, err = walk(capsys, name, "--print", "--lang", lang)
    assert code == 0 and err == ""
    tutorial = TUTORIALS[name]
    for part in tutorial.parts:
        for stop in tutorial_stops(part.name, lang, events_of(part)):
            assert stop.title in out, stop.title
    assert out.count("╭─") == sum(len(tutorial_stops(p.name, lang, events_of(p))) for p in tutorial.parts)


def test_tutorial_list_names_every_tutorial_with_its_title(capsys):
    code, out, _ = walk(capsys, "list", "--lang", "en")
    assert code == 0
    for name, tutorial in TUTORIALS.items():
        assert re.search(rf"^{re.escape(name)}\s+{re.escape(tutorial.title('en'))}", out, re.M)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["rose-prizing"], ["unknown tutorial 'rose-prizing'", "rose-pricing", "iteration-limit"]),
        (["rose-pricing", "--lang", "fr"], ["unknown language 'fr'", "en, zh"]),
        (["parse-error", "--part", "3"], ["no part 3", "1 = parse-error-off", "2 = parse-error-on"]),
    ],
)
def test_bad_input_is_one_line_listing_what_exists_and_exit_2(capsys, args, needles):
    code, out, err = walk(capsys, *args, "--print")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    for needle in needles:
        assert needle in err


def test_part_option_walks_only_that_part(capsys):
    code, out, _ = walk(capsys, "parse-error", "--part", "2", "--print", "--lang", "en")
    assert code == 0 and "part 2/2" in out and "part 1/2" not in out


# -- language from the locale -------------------------------------------------------------
@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_ALL": "", "LC_MESSAGES": "zh_HK", "LANG": "en_US"}, "zh"),
    ],
)
def test_default_language_follows_the_locale(environ, expected):
    assert tutorial_command.default_language(environ) == expected


def test_chinese_locale_gives_chinese_narration_without_lang(capsys, monkeypatch):
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, _ = walk(capsys, "invalid-tool", "--print")
    assert code == 0 and "停靠点 1/" in out and "带走这几条" in out and "What to take away" not in out


# -- the debugger hand-off ----------------------------------------------------------------
@pytest.fixture
def fake_debugger(monkeypatch):
    calls, codes = [], []

    def open_debugger(trace_path, *, options=None, stops=None, title=None, live=None):
        calls.append((trace_path, stops, title))
        return codes.pop(0) if codes else 0

    module = types.ModuleType("tracer.tui.launch")
    module.open_debugger = open_debugger
    monkeypatch.setitem(sys.modules, "tracer.tui.launch", module)
    monkeypatch.setattr(tutorial_command, "stdout_is_terminal", lambda: True)
    return calls, codes


def test_in_a_terminal_the_first_part_opens_in_the_debugger_with_its_stops(capsys, fake_debugger):
    # Later parts open inside the same window (space past the last stop), so q always leaves.
    calls, _ = fake_debugger
    code, out, _ = walk(capsys, "parse-error", "--lang", "zh")
    assert code == 0 and out == ""
    parts = TUTORIALS["parse-error"].parts[:1]
    assert [path for path, _, _ in calls] == [part.fixture for part in parts]
    for (_, stops, title), part in zip(calls, parts):
        assert all(isinstance(stop, NarrationStop) for stop in stops)
        assert stops == tutorial_stops(part.name, "zh", events_of(part))
        assert TUTORIALS["parse-error"].part_label(part, "zh") in title


def test_quitting_the_debugger_with_an_error_code_stops_the_walk(capsys, fake_debugger):
    calls, codes = fake_debugger
    codes.append(3)
    code, _, _ = walk(capsys, "tool-error")
    assert code == 3 and len(calls) == 1


def test_print_flag_never_opens_the_debugger(capsys, fake_debugger):
    calls, _ = fake_debugger
    code, out, _ = walk(capsys, "rose-pricing", "--print")
    assert code == 0 and calls == [] and "isinstance(output, AgentFinish)" in out


@pytest.mark.slow  # drives the Textual debugger
async def test_the_real_debugger_walks_every_rose_stop_with_space(tmp_path):
    path = shutil.copy(SCENARIOS["rose-pricing"].fixture, tmp_path / "rose_pricing.jsonl")  # sidecars go to tmp
    stops = tutorial_stops("rose-pricing", "zh", events_of(SCENARIOS["rose-pricing"]))
    app = DebuggerApp(build_session(path, stops=stops, title="rose"))
    async with app.run_test(size=(140, 45)) as pilot:
        assert stops[0].seq == app.session.position == 0  # the debugger opens on the first stop
        assert stops[0].title in narration_text(app.session).plain
        for stop in stops[1:]:
            await pilot.press("space")
            await until(pilot, lambda seq=stop.seq: app.session.position == seq)
            assert app.session.position == stop.seq
            assert stop.title in narration_text(app.session).plain


def test_without_the_debugger_module_a_terminal_gets_the_printed_walk(capsys, monkeypatch):
    monkeypatch.setattr(tutorial_command, "debugger_opener", lambda: None)
    monkeypatch.setattr(tutorial_command, "stdout_is_terminal", lambda: True)
    code, out, _ = walk(capsys, "invalid-tool", "--lang", "en")
    assert code == 0 and "The lookup in name_to_tool_map misses" in out


# -- text safety and layout ---------------------------------------------------------------
def test_model_text_shown_beside_a_stop_is_literal(capsys):
    part = SCENARIOS["parse-error-off"]
    events = events_of(part)
    hostile = "\x1b]0;evil title\x07[bold red]pwned[/] \x1b[2J"
    events[2] = events[2].model_copy(update={"text": hostile})  # the llm_end the reply stop shows
    stop = next(s for s in tutorial_stops(part.name, "en", events) if s.seq == 2)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100)
    console.print(tutorial_command._stop_panel(stop, 1, 1, events, "en", 96))
    out = buffer.getvalue()
    assert "[bold red]pwned[/]" in out and "\x1b]0;" not in out and "\x1b[2J" not in out and "␛" in out


def test_chinese_notes_wrap_inside_the_width_and_never_start_a_line_with_closing_punctuation():
    text = next(n for n in TUTORIALS["rose-pricing"].notes.notes if n.id == "round-1-plan").texts["zh"]
    lines = wrap_note(text, 40).splitlines()
    assert all(cell_len(line) <= 40 for line in lines)
    assert not any(line[:1] and line[:1] in "，。、；：）" for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace("\n", "").replace(" ", "")


def test_wrapped_listing_lines_hang_under_their_second_column():
    wrapped = wrap_note("  True        send the parser's hint when it has one", 30)
    first, second = wrapped.splitlines()[:2]
    assert first.startswith("  True        send") and second.startswith(" " * 14) and second.strip()


# -- scenarios whose runs wait: fresh state per run, same waits every time -----------------
def waits_of_a_recording(name):
    scenario = SCENARIOS[name]
    events = []
    executor = scenario.executor(ScriptedModel(scenario.replies), clock=ManualClock(tick=0.001))
    executor.invoke(scenario.inputs(), [events.append])
    return [
        (e.kind, getattr(e, "delay", None), getattr(e, "waited", None))
        for e in events
        if e.kind in ("retry", "rate_limit_wait")
    ]


@pytest.mark.parametrize("name", ["tool-error-retried", "rate-limit"])
def test_waiting_scenarios_wait_the_same_in_every_run_and_as_recorded(name):
    first, second = waits_of_a_recording(name), waits_of_a_recording(name)
    recorded = [
        (e.kind, getattr(e, "delay", None), getattr(e, "waited", None))
        for e in events_of(SCENARIOS[name])
        if e.kind in ("retry", "rate_limit_wait")
    ]
    assert first == second == recorded and len(first) >= 3


def test_retried_tool_backs_off_exponentially_within_jitter_and_cap():
    delays = [e.delay for e in events_of(SCENARIOS["tool-error-retried"]) if e.kind == "retry"]
    bounds = [(0.5, 1.0), (1.0, 2.0), (1.5, 3.0)]  # base 1, 2, 4 capped at 3; equal jitter keeps half
    assert len(delays) == 3 and all(low <= d <= high for d, (low, high) in zip(delays, bounds))


def test_rate_limited_scenario_gets_a_new_limiter_on_the_executors_clock_every_run():
    scenario = SCENARIOS["rate-limit"]
    clocks = [ManualClock(), ManualClock()]
    executors = [scenario.executor(ScriptedModel(scenario.replies), clock=c) for c in clocks]
    limiters = [e.rate_limiter for e in executors]
    assert limiters[0] is not limiters[1]
    assert [limiter.clock for limiter in limiters] == clocks


def test_the_simulated_429_sits_only_in_front_of_the_scripted_model():
    scenario = SCENARIOS["rate-limit"]
    scripted = scenario.executor(ScriptedModel(scenario.replies))
    replayed = scenario.executor(ReplayModel(events_of(scenario)))
    assert isinstance(scripted.agent.model, OverloadedEndpoint)
    assert isinstance(replayed.agent.model, ReplayModel)  # the recording's 429s replay themselves


def test_a_replay_that_passes_no_retry_policy_keeps_the_scenarios_own(capsys):
    code = main(["run", "rate-limit"])
    out = capsys.readouterr().out
    assert code == 0 and "outcome                      finished" in out and "retries                      2" in out
