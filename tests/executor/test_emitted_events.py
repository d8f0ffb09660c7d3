"""What RunContext.emit hands out is the validated event, serialised the same, with the envelope it stamps."""

import pytest
from pydantic import ValidationError

import tutorials
from executor import ManualClock, ScriptedModel
from executor.events import (
    EVENT_CLASSES,
    ActionRecord,
    AgentActionEvent,
    ChainStartEvent,
    LimitReachedEvent,
    LLMEndEvent,
    LLMStartEvent,
    RetryEvent,
    SourceRef,
    ToolInfo,
    event_from_json,
)
from executor.run_context import RunContext

ENVELOPE = {
    "seq": 3,
    "run_id": "abc123",
    "t": 0.25,
    "iteration": 2,
    "frames": ("iter_events", "_call"),
    "source": SourceRef(file="executor/agent_executor.py", line=99, function="_call"),
}
ACTION = ActionRecord(tool="Search", tool_input="rose", log="Action: Search\nAction Input: rose")

# One payload per kind, every field given, plus the shortest (defaults left out) where it differs.
PAYLOADS = {
    "chain_start": [
        {
            "inputs": {"input": "q", "extra": [1, {"a": None}]},
            "tools": [ToolInfo(name="Search", description="d", return_direct=True)],
            "settings": {"max_iterations": 15, "model": "m", "stop": ["\nObservation"]},
        }
    ],
    "llm_start": [{"model": "gpt", "prompt": "Question: q\nThought:", "stop": ["\nObservation"]}],
    "llm_end": [
        {
            "text": " Action: Search",
            "usage": {"prompt_tokens": 3, "total_tokens": 5},
            "duration": 0.5,
            "replaced_surrogates": 2,
        },
        {"text": "t", "duration": 0.0},
    ],
    "agent_action": [{"tool": "Search", "tool_input": "rose", "log": "Action: Search"}],
    "agent_finish": [{"return_values": {"output": "26.25"}, "log": "Final Answer: 26.25"}],
    "parse_error": [
        {"error": "Could not parse", "llm_output": "x", "observation": "hint", "handled": True},
        {"error": "e", "llm_output": "x", "observation": None, "handled": False},
    ],
    "invalid_tool": [{"requested": "Serch", "available": ["Search", "Calculator"], "observation": "not valid"}],
    "tool_start": [{"tool": "Search", "tool_input": "rose"}],
    "tool_end": [{"tool": "Search", "observation": "25 yuan"}],
    "tool_error": [
        {"tool": "T", "error_type": "ToolError", "message": "m", "handled": True, "observation": "o"},
        {"tool": "T", "error_type": "ValueError", "message": "m", "handled": False},
    ],
    "retry": [{"target": "llm", "name": "gpt", "attempt": 1, "error": "TransientError: x", "delay": 1.5}],
    "rate_limit_wait": [{"waited": 0.125}],
    "step": [{"action": ACTION, "observation": "25 yuan", "n_steps": 1}],
    "finish_check": [{"is_finish": False, "output_type": "list[AgentStep]"}],
    "limit_reached": [{"reason": "max_iterations", "iterations": 3, "elapsed": 0.5, "early_stopping_method": "force"}],
    "calculator_eval": [{"expression": "25 * 1.05", "result": "26.25"}],
    "chain_end": [{"outputs": {"output": "26.25"}}],
    "chain_error": [{"error_type": "ToolError", "message": "boom"}],
}
CASES = [(cls, payload) for cls in EVENT_CLASSES for payload in PAYLOADS.get(cls.model_fields["kind"].default, [])]


def emitted(cls, payload):
    """The event `cls` with `payload`, emitted as the executor emits it (its envelope stamped by the run)."""
    return RunContext(clock=ManualClock(tick=0.25), run_id="abc123").emit(cls, **payload)


def validated(cls, payload, like):
    """`cls(**envelope, **payload)`, with the envelope of the event `like`."""
    envelope = {name: getattr(like, name) for name in ("seq", "run_id", "t", "iteration", "frames", "source")}
    return cls(**envelope, **payload)


def _holds_models(event) -> bool:
    """An event whose dict fields carry a pydantic object (response_format's validated answer)."""
    from pydantic import BaseModel

    values = [getattr(event, name) for name in type(event).model_fields]
    return any(isinstance(v, BaseModel) for d in values if isinstance(d, dict) for v in d.values())


def assert_same_event(built, validated, same_fields_set=True):
    assert type(built) is type(validated)
    assert built == validated
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_dump() == validated.model_dump()
    if same_fields_set:  # not after a JSON round trip: the file gives every field, defaults too
        assert built.model_fields_set == validated.model_fields_set
    assert list(built.__dict__) == list(validated.__dict__)  # field order decides the JSON's key order
    if _holds_models(built):  # a pydantic object in a dict field comes back from JSON as its fields
        assert event_from_json(built.model_dump_json()).model_dump(mode="json") == built.model_dump(mode="json")
    else:
        assert event_from_json(built.model_dump_json()) == built


def test_the_payloads_here_are_kinds_that_exist():
    # Kinds added later (tool calling, fallbacks) are covered by the tutorial runs below.
    assert set(PAYLOADS) <= {cls.model_fields["kind"].default for cls in EVENT_CLASSES}


@pytest.mark.parametrize("cls,payload", CASES, ids=[f"{c.__name__}-{i}" for i, (c, _) in enumerate(CASES)])
def test_each_kind_emitted_equals_the_validated_one(cls, payload):
    event = emitted(cls, dict(payload))
    assert (event.seq, event.run_id, event.t, event.iteration) == (0, "abc123", 0.25, 0)
    assert event.source.function == "emitted" and event.source.file.endswith("test_emitted_events.py")
    assert_same_event(event, validated(cls, payload, event))


def test_containers_are_the_events_own():
    inputs, stop = {"input": "q"}, ["\nObservation"]
    start = emitted(ChainStartEvent, {"inputs": inputs, "tools": [], "settings": {}})
    llm = emitted(LLMStartEvent, {"model": "m", "prompt": "p", "stop": stop})
    inputs["input"] = "changed later"
    stop.append("more")
    assert start.inputs == {"input": "q"} and llm.stop == ["\nObservation"]


class Label(str):
    pass


@pytest.mark.parametrize(
    "cls,payload",
    [
        (LLMEndEvent, {"text": "t", "duration": 1}),  # an int for a float: validation makes it 1.0
        (LLMEndEvent, {"text": "t", "duration": 0.5, "usage": {"tokens": True}}),  # bool for int: coerced to 1
        (AgentActionEvent, {"tool": Label("Search"), "tool_input": "x", "log": "l"}),  # a str subclass
        (LimitReachedEvent, {"reason": "max_iterations", "iterations": 1, "elapsed": 0, "early_stopping_method": "f"}),
    ],
)
def test_values_of_another_type_are_validated(cls, payload):
    built = emitted(cls, dict(payload))
    assert_same_event(built, validated(cls, payload, built))
    assert type(built.model_dump()["t"]) is float and type(built.model_dump().get("duration", 0.0)) is float


@pytest.mark.parametrize(
    "cls,payload",
    [
        (LLMEndEvent, {"text": None, "duration": 0.5}),  # a model that returned no text
        (LLMEndEvent, {"text": "t"}),  # a required field missing
        (LLMEndEvent, {"text": "t", "duration": 0.5, "colour": "red"}),  # a field the kind does not have
        (RetryEvent, {"target": "database", "name": "n", "attempt": 1, "error": "e", "delay": 0.1}),  # not a literal
        (LLMStartEvent, {"model": "m", "prompt": "p", "stop": [1]}),  # a wrong element
        (ChainStartEvent, {"inputs": {1: "q"}, "tools": [], "settings": {}}),  # a key that is not a str
        (LLMEndEvent, {"text": "t", "duration": 0.5, "usage": {"tokens": "many"}}),
    ],
)
def test_invalid_values_raise_the_validation_error_naming_the_field(cls, payload):
    with pytest.raises(ValidationError) as built:
        emitted(cls, dict(payload))
    with pytest.raises(ValidationError) as direct:
        cls(**ENVELOPE, **payload)

    def said(error):  # what is wrong and where, less the input (its envelope is the run's own)
        return [(e["type"], e["loc"], e["msg"]) for e in error.value.errors()]

    assert said(built) == said(direct)


@pytest.mark.parametrize("name", list(tutorials.SCENARIOS))
def test_every_event_of_every_tutorial_run_survives_the_json_round_trip_unchanged(name):
    scenario = tutorials.get_scenario(name)
    events = []
    executor = scenario.executor(ScriptedModel(scenario.replies), clock=ManualClock(tick=0.001))
    try:
        executor.invoke(scenario.inputs(), [events.append])
    except Exception:
        assert scenario.expect_error
    assert len(events) >= 5
    for event in events:
        if _holds_models(event):  # a structured answer (a pydantic object) comes back from JSON as its fields
            assert event_from_json(event.model_dump_json()).model_dump(mode="json") == event.model_dump(mode="json")
        else:
            assert_same_event(event, event_from_json(event.model_dump_json()), same_fields_set=False)


def test_a_record_built_each_round_is_validated():
    from executor.events.builder import build_record

    built = build_record(ActionRecord, tool="Search", tool_input="rose", log="Action: Search")
    validated = ActionRecord(tool="Search", tool_input="rose", log="Action: Search")
    assert built == validated and built.model_dump_json() == validated.model_dump_json()
    assert built.model_fields_set == validated.model_fields_set and list(built.__dict__) == list(validated.__dict__)
    with pytest.raises(ValidationError):
        build_record(ActionRecord, tool=3, tool_input="rose", log="l")


def test_an_emit_site_that_changes_its_names_gets_the_right_event_each_time():
    from executor.run_context import RunContext

    run = RunContext()
    events = []
    for payload in (
        {"text": "a", "duration": 0.5},
        {"text": "b", "usage": {"n": 1}},
        {"text": "c", "duration": 0.25},
        {"text": "d", "finish_reason": "stop"},
    ):
        try:
            events.append(run.emit(LLMEndEvent, **payload))  # one site, other names with the same count
        except ValidationError:
            events.append(None)
    assert [e.text if e else None for e in events] == ["a", None, "c", None]
    assert events[2].duration == 0.25 and events[0].seq == 0 and events[2].seq == 1


def test_the_events_of_one_line_share_one_source_record_and_other_lines_have_their_own():
    run = RunContext(clock=ManualClock())
    same_line = [run.emit(LLMEndEvent, text=str(i), duration=0.0) for i in range(3)]
    other_line = run.emit(LLMEndEvent, text="x", duration=0.0)
    assert same_line[0].source is same_line[1].source is same_line[2].source
    assert other_line.source is not same_line[0].source and other_line.source.line == same_line[0].source.line + 1
