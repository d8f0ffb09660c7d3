"""The importers under attack: deep JSON, deep span trees, wrong types anywhere, no-time times, impossible
dates, wrong-typed usage, odd LangSmith messages, parent cycles. Each is one line, or a clean import that
keeps what it can and says what it left out."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

import pytest

from tests.helpers.cli_run import loopscope
from tests.helpers.foreign_traces import write_langfuse, write_langsmith, write_otlp
from tracer.trace import otel_mapping as om
from tracer.trace.importers import SUPPORTED, ImportProblem, convert, write_conversion
from tracer.trace.importers.spans import MAX_SPAN_DEPTH
from tracer.trace.reader import load_trace

T0 = 1_700_000_000_000_000_000  # ns
ISO = "2025-02-10T08:00:00.000Z"


def attribute(key: str, value) -> dict:
    return {"key": key, "value": {"intValue": str(value)} if isinstance(value, int) else {"stringValue": value}}


def otlp_span(
    span_id: str,
    parent: str = "",
    kind: str = "LLM",
    start=str(T0),
    end=str(T0 + 10**8),
    name: str = "ChatOpenAI",
    **attrs,
) -> dict:
    pairs = [
        attribute(om.SPAN_KIND, kind),
        attribute(om.INPUT_VALUE, f"prompt of {span_id}"),
        attribute(om.OUTPUT_VALUE, f"reply of {span_id}"),
    ]
    pairs += [attribute(key.replace("_", "."), value) for key, value in attrs.items()]
    span = {"spanId": span_id, "name": name, "startTimeUnixNano": start, "endTimeUnixNano": end, "attributes": pairs}
    if parent:
        span["parentSpanId"] = parent
    return span


def otlp(*spans) -> dict:
    return {"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}


def langsmith_run(run_id: str, parent: str | None = None, run_type: str = "llm", **fields) -> dict:
    run = {
        "id": run_id,
        "name": f"run-{run_id}",
        "run_type": run_type,
        "parent_run_id": parent,
        "start_time": "2025-02-10T08:00:00.100",
        "end_time": "2025-02-10T08:00:00.300",
        "inputs": {"prompt": f"prompt of {run_id}"},
        "outputs": {"generations": [[{"text": f"reply of {run_id}"}]]},
    }
    return {**run, **fields}


def write(tmp_path, document, name: str = "export.json"):
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


def refused(capsys, tmp_path, path) -> str:
    """What `import` and `debug` both say about a file they cannot read: one line, exit 2, nothing written."""
    out = tmp_path / "out.jsonl"
    code, stdout, err = loopscope(capsys, "import", path, "-o", out)
    assert (code, stdout) == (2, "") and err.count("\n") == 1 and not out.exists()
    assert loopscope(capsys, "debug", path, "--print") == (2, "", err)
    return err.removeprefix("loopscope: ").rstrip("\n")


def written_and_read_back(conversion, tmp_path):
    """The conversion as a trace file, read back: what every command opening the export gets."""
    path = write_conversion(conversion, tmp_path / "source.json", tmp_path / "converted.jsonl")
    events = load_trace(path)[1]
    assert events == conversion.events
    return events


# -- deep JSON ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"a": ' * 100_000 + "1" + "}" * 100_000, "[" * 201 + "]" * 201],
    ids=["100,000 nested arrays", "100,000 nested objects", "201 nested arrays"],
)
def test_json_nested_deeper_than_any_export_is_one_line(tmp_path, capsys, text):
    path = write(tmp_path, text)
    assert refused(capsys, tmp_path, path) == (
        f"{path}: JSON nested more than 200 levels deep, deeper than any trace export; expected {SUPPORTED}"
    )


def test_a_deep_line_in_json_lines_is_named_by_its_line(tmp_path, capsys):
    path = write(tmp_path, json.dumps(otlp(otlp_span("01"))) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    assert refused(capsys, tmp_path, path).startswith(f"{path}:2: JSON nested more than 200 levels deep")


def test_json_exactly_as_deep_as_allowed_imports_and_writes(tmp_path):
    deep = "bottom"
    for _ in range(196):
        deep = [deep]
    runs = [
        langsmith_run("root", run_type="chain", inputs={"input": [deep]}),
        langsmith_run("llm", "root", inputs={"deep": deep}, outputs={"generations": deep}),
    ]  # 200 levels
    conversion = convert(write(tmp_path, runs))
    events = written_and_read_back(conversion, tmp_path)
    assert [e.kind for e in events] == ["chain_start", "llm_start", "llm_end", "chain_end"]
    assert events[0].inputs == {"input": [deep]} and events[2].text.count("[") == 196


def test_langsmith_child_runs_nested_5000_deep_is_one_line(tmp_path, capsys):
    opening = json.dumps(langsmith_run("r", run_type="chain", child_runs=["CHILD"])).split('"CHILD"')
    path = write(tmp_path, "[" + opening[0] * 5000 + json.dumps(langsmith_run("llm")) + opening[1] * 5000 + "]")
    assert "JSON nested more than 200 levels deep" in refused(capsys, tmp_path, path)


# -- deep span trees ---------------------------------------------------------------------------------
def test_5000_nested_spans_are_all_kept_and_shown_at_most_100_levels_deep(tmp_path):
    spans = [
        otlp_span(f"{n:016x}", f"{n - 1:016x}" if n else "", start=str(T0 + n), end=str(T0 + 10**9 - n))
        for n in range(5000)
    ]
    conversion = convert(write(tmp_path, otlp(*spans)))
    assert conversion.warnings == ["4899 span(s) nested more than 100 levels deep: shown at level 100"]
    events = written_and_read_back(conversion, tmp_path)
    starts = [e for e in events if e.kind == "llm_start"]
    assert [e.prompt for e in starts] == [f"prompt of {n:016x}" for n in range(5000)]  # every span, in time order
    assert len([e for e in events if e.kind == "llm_end"]) == 5000
    # the made-up run, then spans 0 .. 99 as the chain nests them, then each deeper one beside the others
    assert max(len(e.frames) for e in events) == MAX_SPAN_DEPTH + 2 == len(starts[-1].frames)
    # A model call inside a model call's span is that call seen twice (Agno's call wraps OpenAI's): one round.
    assert [e.iteration for e in starts] == [1] * 5000


def test_5000_langsmith_runs_chained_by_parent_id(tmp_path):
    runs = [langsmith_run(f"r{n}", f"r{n - 1}" if n else None) for n in range(5000)]
    conversion = convert(write(tmp_path, runs))
    assert conversion.warnings == ["4899 span(s) nested more than 100 levels deep: shown at level 100"]
    assert len(written_and_read_back(conversion, tmp_path)) == 10_002


# -- wrong types -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "document, problem",
    [
        (
            {"resourceSpans": "nope"},
            "recognised OTLP JSON, but could not read it: resourceSpans is a string 'nope', not a list",
        ),
        (
            {"resourceSpans": [{"scopeSpans": {"spans": []}}]},
            "recognised OTLP JSON, but could not read it: resourceSpans[0].scopeSpans is an object of 1 key(s), not a list",
        ),
        (
            {"resourceSpans": [{"scopeSpans": [{"spans": [7, "x"]}]}]},
            "recognised OTLP JSON, but could not read it: resourceSpans[0].scopeSpans[0].spans[0] is the number 7, "
            "not an object",
        ),
        (
            {"resourceSpans": [{"scopeSpans": [{"spans": [{"spanId": "01", "attributes": "nope"}]}]}]},
            "recognised OTLP JSON: 1 spans, 0 LLM, 0 tool, but no span is a model or tool call (OpenInference / "
            "OpenTelemetry GenAI attributes, run_type llm/tool); span '01': attributes is a string 'nope', not a list",
        ),
        (
            {"traces": [{"id": "t", "observations": [None, "x"]}]},
            "recognised Langfuse trace: 1 spans, 0 LLM, 0 tool, but no span is a model or tool call (OpenInference / "
            "OpenTelemetry GenAI attributes, run_type llm/tool); trace 't': observations[0] is null, not an object",
        ),
    ],
    ids=[
        "resourceSpans a string",
        "scopeSpans an object",
        "spans of numbers",
        "attributes a string",
        "observations of nulls",
    ],
)
def test_a_file_whose_structure_has_the_wrong_types_is_one_line_naming_the_first(tmp_path, capsys, document, problem):
    path = write(tmp_path, document)
    assert refused(capsys, tmp_path, path) == f"{path}: {problem}"


def test_a_wrong_typed_part_is_left_out_and_the_rest_kept(tmp_path):
    good, bad = otlp_span("01", start=str(T0)), otlp_span("02", start=str(T0 + 10**9), end=str(T0 + 2 * 10**9))
    bad["attributes"][1] = "input.value=oops"  # one attribute pair that is not one
    document = otlp(good, bad)
    document["resourceSpans"].append("a resource")
    conversion = convert(write(tmp_path, document))
    assert conversion.warnings == [  # in the order the file has them: the spans are read as they stream past
        "2 part(s) of the file could not be read and were left out: span '02': attributes[1] is a string "
        '\'input.value=oops\', not an attribute ({"key": name, "value": ...}); resourceSpans[1] is a string '
        "'a resource', not an object"
    ]
    starts = [e for e in written_and_read_back(conversion, tmp_path) if e.kind == "llm_start"]
    assert [e.prompt for e in starts] == ["prompt of 01", ""]  # span 02 kept, without the attribute


def _paths(value, path=()):
    """Every place in a JSON document: object keys and list positions, outermost first."""
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _paths(child, path + (key,))


def _replaced(document, path, value):
    copy = json.loads(json.dumps(document))
    if not path:
        return value
    *outer, last = path
    holder = copy
    for key in outer:
        holder = holder[key]
    holder[last] = value
    return copy


def _samples():
    from tests.helpers.foreign_traces import otlp_json_document, otlp_spans, write_langfuse, write_langsmith

    document = otlp_json_document(otlp_spans())
    resource = document["resourceSpans"][0]
    resource["resource"]["attributes"] = resource["resource"]["attributes"][:1]
    spans = resource["scopeSpans"][0]["spans"]  # a model call, a tool that answered, one that failed, the agent
    spans[:] = [span for span in spans if span["name"] in ("ChatOpenAI", "Search", "Divide", "AgentExecutor")][1:]
    yield "otlp", document
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        yield "langsmith", json.loads(write_langsmith(Path(folder) / "runs.json").read_text())
        yield "langfuse", json.loads(write_langfuse(Path(folder) / "trace.json").read_text())


WRONG = ["nope", -1, float("inf"), None, [], {"x": [1]}, True]


@pytest.mark.parametrize("name, document", list(_samples()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_part_of_every_export_replaced_by_each_wrong_type(tmp_path, monkeypatch, name, document):
    """Each place in a real export, in turn, holds a string, a negative number, infinity, null, an empty
    list, an object or true: a clean import whose trace can be written and read, or one line, never a traceback."""
    monkeypatch.setattr("tracer.trace.writer.os.fsync", lambda fd: None)  # ~2,500 traces; not what is tested
    path, imported, refused_lines = tmp_path / "mutated.json", 0, set()
    for where in list(_paths(document)):
        for wrong in WRONG:
            path.write_text(json.dumps(_replaced(document, where, wrong)))
            try:
                conversion = convert(path)
            except ImportProblem as problem:
                assert "\n" not in str(problem) and str(problem).startswith(f"{path}: "), (where, wrong)
                refused_lines.add(str(problem).split(": ", 2)[1])
                continue
            assert all("\n" not in warning for warning in conversion.warnings), (where, wrong)
            imported += 1
            out = write_conversion(conversion, path, tmp_path / f"out{imported}.jsonl")
            assert load_trace(out)[1] == conversion.events, (where, wrong)
    assert imported > len(WRONG) * 20 and refused_lines  # both outcomes were met, many times


# -- times and dates ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "start, shown",
    [
        ('"abc"', "a string 'abc'"),
        ("1e400", "the number 1e400"),
        ("NaN", "the number NaN"),
        ('"-5"', "a string '-5'"),
        ("-5", "the number -5"),
        ('"' + "9" * 40 + '"', "a string '999999999999999999999999999999'…"),
        (str(2**64), f"the number {2**64}"),
        ("true", "true"),
        ('{"ns": 1}', "an object of 1 key(s)"),
    ],
)
def test_an_otlp_span_whose_start_is_no_time_is_kept_at_its_parents_start(tmp_path, start, shown):
    agent = otlp_span("0a", kind="AGENT", name="agent", start=str(T0), end=str(T0 + 10**9))
    late = otlp_span("0b", "0a", start="START", end=str(T0 + 6 * 10**8))
    text = json.dumps(otlp(agent, late)).replace('"START"', start)
    conversion = convert(write(tmp_path, text))
    assert conversion.warnings == [
        f"1 part(s) of the file could not be read and were left out: span '0b': startTimeUnixNano is {shown}, "
        "not a time (nanoseconds since 1970)",
        "1 span(s) without a readable start or end time: placed at their parent's start",
    ]
    events = written_and_read_back(conversion, tmp_path)
    assert [(e.kind, e.t) for e in events] == [
        ("chain_start", 0.0),
        ("llm_start", 0.0),
        ("llm_end", 0.6),
        ("chain_end", 1.0),
    ]


def test_a_span_with_no_times_at_all_sits_at_the_earliest_time_in_the_file(tmp_path):
    timeless = otlp_span("01")
    del timeless["startTimeUnixNano"], timeless["endTimeUnixNano"]
    conversion = convert(
        write(tmp_path, otlp(timeless, otlp_span("02", start=str(T0 + 10**9), end=str(T0 + 2 * 10**9))))
    )
    assert conversion.warnings == ["1 span(s) without a readable start or end time: placed at their parent's start"]
    events = written_and_read_back(conversion, tmp_path)
    assert [(e.kind, e.t, getattr(e, "prompt", getattr(e, "text", None))) for e in events][1:5] == [
        ("llm_start", 0.0, "prompt of 01"),
        ("llm_end", 0.0, "reply of 01"),
        ("llm_start", 0.0, "prompt of 02"),
        ("llm_end", 1.0, "reply of 02"),
    ]


def test_a_span_ending_after_its_run_or_before_it_starts_keeps_the_run_in_order(tmp_path):
    agent = otlp_span("0a", kind="AGENT", name="agent", start=str(T0), end=str(T0 + 10**9))
    far = otlp_span("0b", "0a", start=str(T0 + 10**8), end=str(2**64 - 1))  # the year 2554: valid, huge
    backwards = otlp_span("0c", "0a", start=str(T0 + 5 * 10**8), end=str(T0 + 2 * 10**8))
    conversion = convert(write(tmp_path, otlp(agent, far, backwards)))
    assert conversion.warnings == ["1 span(s) end before they start: shown ending as they start"]
    events = written_and_read_back(conversion, tmp_path)
    assert [e.kind for e in events] == ["chain_start", "llm_start", "llm_start", "llm_end", "llm_end", "chain_end"]
    assert [e.t for e in events] == sorted(e.t for e in events) and events[-1].t == events[-2].t
    assert events[3].duration == 0.0 and events[4].duration == round((2**64 - 1 - T0 - 10**8) / 1e9, 6)


@pytest.mark.parametrize("date", ["2024-02-30T25:61:00Z", "2024-13-01", "yesterday", "9999-12-31T23:59:60Z"])
def test_an_impossible_langsmith_date_keeps_the_run_at_its_parents_start(tmp_path, date):
    runs = [
        langsmith_run(
            "root", run_type="chain", start_time="2025-02-10T08:00:00.000", end_time="2025-02-10T08:00:01.000"
        ),
        langsmith_run("llm", "root", start_time=date),
    ]
    conversion = convert(write(tmp_path, runs))
    assert conversion.warnings == [
        f"1 part(s) of the file could not be read and were left out: run 'llm': start_time is a string {date!r}, "
        "not a time",
        "1 span(s) without a readable start or end time: placed at their parent's start",
    ]
    events = written_and_read_back(conversion, tmp_path)
    assert [(e.kind, e.t) for e in events] == [
        ("chain_start", 0.0),
        ("llm_start", 0.0),
        ("llm_end", 0.3),
        ("chain_end", 1.0),
    ]
    assert events[2].text == "reply of llm"


def test_impossible_langfuse_dates_keep_every_observation(tmp_path):
    trace = {
        "id": "t",
        "name": "agent",
        "timestamp": "2024-02-30T25:61:00Z",
        "observations": [
            {
                "id": "g",
                "type": "GENERATION",
                "startTime": "2024-02-30T25:61:00Z",
                "endTime": ISO,
                "input": "question",
                "output": "answer",
            }
        ],
    }
    conversion = convert(write(tmp_path, trace))
    assert conversion.warnings == [
        "2 part(s) of the file could not be read and were left out: observation 'g': startTime is a string "
        "'2024-02-30T25:61:00Z', not a time; trace 't': timestamp is a string '2024-02-30T25:61:00Z', not a time",
        "1 span(s) without a readable start or end time: placed at their parent's start",
    ]
    events = written_and_read_back(conversion, tmp_path)
    assert [(e.kind, e.t) for e in events] == [
        ("chain_start", 0.0),
        ("llm_start", 0.0),
        ("llm_end", 0.0),
        ("chain_end", 0.0),
    ]
    assert (events[1].prompt, events[2].text) == ("question", "answer")


# -- usage -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fields, left_out",
    [
        (
            {"outputs": {"generations": [[{"text": "reply"}]], "usage": "lots"}},
            "run 'llm': outputs.usage is a string 'lots', not token counts",
        ),
        ({"prompt_tokens": "x", "completion_tokens": 3}, "run 'llm': prompt_tokens is a string 'x', not a token count"),
        (
            {
                "outputs": {
                    "generations": [[{"text": "reply"}]],
                    "llm_output": {"token_usage": {"prompt_tokens": float("inf"), "completion_tokens": 2}},
                }
            },
            "run 'llm': outputs.llm_output.token_usage.prompt_tokens is the number Infinity, not a token count",
        ),
        (
            {"prompt_tokens": -4, "completion_tokens": True},
            "run 'llm': prompt_tokens is the number -4, not a token count; run 'llm': completion_tokens is true, "
            "not a token count",
        ),
        (
            {"prompt_tokens": 2**64, "completion_tokens": 1},
            f"run 'llm': prompt_tokens is the number {2**64}, not a token count",
        ),
    ],
)
def test_wrong_typed_langsmith_usage_is_left_out_and_the_call_kept(tmp_path, fields, left_out):
    conversion = convert(write(tmp_path, [langsmith_run("llm", **fields)]))
    count = left_out.count("; ") + 1
    assert conversion.warnings == [f"{count} part(s) of the file could not be read and were left out: {left_out}"]
    llm_end = next(e for e in written_and_read_back(conversion, tmp_path) if e.kind == "llm_end")
    assert llm_end.usage is None and llm_end.text.startswith("reply")


@pytest.mark.parametrize(
    "usage, left_out",
    [
        ("lots", "observation 'g': usage is a string 'lots', not token counts"),
        ({"input": "x", "output": 2}, "observation 'g': usage.input is a string 'x', not a token count"),
    ],
)
def test_wrong_typed_langfuse_usage_is_left_out(tmp_path, usage, left_out):
    trace = {
        "id": "t",
        "timestamp": ISO,
        "observations": [
            {"id": "g", "type": "GENERATION", "startTime": ISO, "input": "q", "output": "a", "usage": usage}
        ],
    }
    conversion = convert(write(tmp_path, trace))
    assert conversion.warnings == [f"1 part(s) of the file could not be read and were left out: {left_out}"]
    llm_end = written_and_read_back(conversion, tmp_path)[2]
    assert (llm_end.text, llm_end.usage) == ("a", None)


@pytest.mark.parametrize(
    "value, shown",
    [
        ({"stringValue": "x"}, "a string 'x'"),
        ({"intValue": "x"}, "a string 'x'"),
        ({"intValue": "9" * 5000}, "a string '999999999999999999999999999999'…"),
        ({"doubleValue": 2.5}, "the number 2.5"),
    ],
)
def test_wrong_typed_otlp_token_counts_are_left_out(tmp_path, value, shown):
    span = otlp_span("01")
    span["attributes"] += [
        attribute(om.LLM_TOKEN_COUNT_COMPLETION, 7),
        {"key": om.LLM_TOKEN_COUNT_PROMPT, "value": value},
    ]
    conversion = convert(write(tmp_path, otlp(span)))
    assert conversion.warnings == [
        "1 part(s) of the file could not be read and were left out: span '01': "
        f"attribute {om.LLM_TOKEN_COUNT_PROMPT} is {shown}, not a token count"
    ]
    assert written_and_read_back(conversion, tmp_path)[2].usage is None


def test_numbers_no_float_or_int64_holds_are_kept_as_the_text_the_file_has(tmp_path):
    digits = "1" * 5000  # past Python's 4,300-digit limit on int(): json.loads alone raises ValueError
    runs = json.dumps(
        [
            langsmith_run("root", run_type="chain", inputs={"big": "BIG", "huge": "HUGE", "nan": "NAN"}),
            langsmith_run("llm", "root", prompt_tokens="HUGE", completion_tokens=2),
        ]
    )
    text = runs.replace('"BIG"', "1e400").replace('"HUGE"', digits).replace('"NAN"', "NaN")
    conversion = convert(write(tmp_path, text))
    assert conversion.warnings == [
        "1 part(s) of the file could not be read and were left out: run 'llm': "
        f"prompt_tokens is the number {digits[:30]}…, not a token count"
    ]
    events = written_and_read_back(conversion, tmp_path)
    assert events[0].inputs == {"big": "1e400", "huge": digits, "nan": "NaN"} and events[2].usage is None


# -- messages ----------------------------------------------------------------------------------------
def test_a_langsmith_message_whose_kwargs_is_a_string_is_that_messages_text(tmp_path):
    messages = [
        [
            {
                "lc": 1,
                "type": "constructor",
                "id": ["langchain", "schema", "messages", "HumanMessage"],
                "kwargs": "rose price?",
            },
            {"lc": 1, "id": "not a list", "kwargs": ["odd", 1]},
            {"lc": 1, "kwargs": {"type": {"not": "text"}, "content": "hi"}},
        ]
    ]
    conversion = convert(write(tmp_path, [langsmith_run("llm", inputs={"messages": messages})]))
    assert conversion.warnings == []
    messages = written_and_read_back(conversion, tmp_path)[1].messages
    assert messages == [
        {"role": "user", "content": "rose price?"},
        {"role": "message", "content": '["odd", 1]'},
        {"role": "message", "content": "hi"},
    ]


@pytest.mark.parametrize(
    "outputs, text",
    [
        ({"generations": "plain"}, "plain"),
        ({"generations": [[]]}, "[\n []\n]"),
        ({"generations": [["bare"]]}, '[\n [\n  "bare"\n ]\n]'),
        ({"choices": [7]}, "[\n 7\n]"),
        ({"choices": [{"message": "just text"}]}, "just text"),
        ("a string", "a string"),
    ],
)
def test_a_langsmith_reply_of_an_odd_shape_is_shown_whole(tmp_path, outputs, text):
    conversion = convert(write(tmp_path, [langsmith_run("llm", outputs=outputs, error="   ")]))
    events = written_and_read_back(conversion, tmp_path)
    assert events[2].text == text


# -- parent cycles -----------------------------------------------------------------------------------
def test_a_langsmith_parent_cycle_is_broken_and_said(tmp_path, capsys):
    runs = [langsmith_run("a", "b"), langsmith_run("b", "a", start_time="2025-02-10T08:00:00.200")]
    path = write(tmp_path, runs)
    conversion = convert(path)
    assert conversion.warnings == [
        "2 span(s) name each other as parents in a cycle ('a' → 'b' → 'a'): broken at "
        "'a', which is shown at the top level"
    ]
    events = written_and_read_back(conversion, tmp_path)
    assert [(e.kind, e.frames[1:]) for e in events][1:5] == [
        ("llm_start", ("run-a",)),
        ("llm_start", ("run-a", "run-b")),
        ("llm_end", ("run-a", "run-b")),
        ("llm_end", ("run-a",)),
    ]
    code, out, err = loopscope(capsys, "import", path, "-o", tmp_path / "out.jsonl")
    assert code == 0 and err == f"warning: {conversion.warnings[0]}\n" and "6 events written" in out


def test_a_span_that_is_its_own_parent_and_a_three_span_cycle(tmp_path):
    ms = 10**6
    spans = [
        otlp_span("01", "01"),
        otlp_span("02", "04", start=str(T0 + 3 * ms)),
        otlp_span("03", "02", start=str(T0 + 2 * ms)),
        otlp_span("04", "03", start=str(T0 + ms)),
    ]
    conversion = convert(write(tmp_path, otlp(*spans)))
    assert conversion.warnings == [
        "1 span(s) name each other as parents in a cycle ('01' → '01'): broken at '01', which is shown at the top "
        "level",
        "3 span(s) name each other as parents in a cycle ('02' → '04' → '03' → '02'): broken at '04', which is "
        "shown at the top level",
    ]
    events = written_and_read_back(conversion, tmp_path)
    assert len([e for e in events if e.kind == "llm_start"]) == 4


def test_names_and_ids_from_the_file_reach_the_one_line_messages_literally(tmp_path):
    hostile = "\x1b]0;pwned\x07\nsecond line\u202e"
    document = {hostile: 1, "resourceSpan": []}
    with pytest.raises(ImportProblem) as caught:
        convert(write(tmp_path, document))
    assert "\n" not in str(caught.value) and "\x1b" not in str(caught.value) and "\u202e" not in str(caught.value)
    spans = [otlp_span(hostile, hostile), otlp_span("02", "x", name=hostile)]
    conversion = convert(write(tmp_path, otlp(*spans)))
    for warning in conversion.warnings:
        assert "\n" not in warning and "\x1b" not in warning and "\u202e" not in warning
    assert len(conversion.warnings) == 2


def test_loopscope_event_json_that_is_no_event_falls_back_to_the_spans_attributes(tmp_path):
    span = otlp_span("01")
    span["events"] = [{"name": "llm_start", "attributes": [attribute(om.EVENT_JSON, '{"kind": "llm_start"}')]}]
    conversion = convert(write(tmp_path, otlp(span)))
    assert conversion.warnings == [
        f"1 part(s) of the file could not be read and were left out: 1 span event(s) "
        f"carry {om.EVENT_JSON} that is no loopscope event (the spans are read by their "
        "attributes instead)"
    ]
    assert written_and_read_back(conversion, tmp_path)[1].prompt == "prompt of 01"


# -- the streaming OTLP reader -----------------------------------------------------------------------
def test_a_span_nested_deeper_than_any_export_inside_a_streamed_file_is_one_line(tmp_path, capsys):
    deep = "[" * 300 + "]" * 300
    text = json.dumps(otlp(otlp_span("01"), otlp_span("02"))).replace('"prompt of 02"', deep)
    path = write(tmp_path, text)
    assert refused(capsys, tmp_path, path) == (
        f"{path}: JSON nested more than 200 levels deep, deeper than any trace export; expected {SUPPORTED}"
    )


def test_a_streamed_file_cut_off_mid_span_is_one_line(tmp_path, capsys):
    text = json.dumps(otlp(otlp_span("01"), otlp_span("02")))
    path = write(tmp_path, text[: len(text) // 2])
    assert refused(capsys, tmp_path, path).startswith(f"{path}: not JSON (")


def test_text_after_a_streamed_document_that_is_no_otlp_is_said_and_the_spans_kept(tmp_path):
    text = json.dumps(otlp(otlp_span("01"))) + "\n" + json.dumps({"hello": "world"}) + "\n"
    conversion = convert(write(tmp_path, text))
    assert conversion.warnings == [
        "1 part(s) of the file could not be read and were left out: document 2 is an object of 1 key(s), "
        "not an OTLP JSON object"
    ]
    assert [e.kind for e in written_and_read_back(conversion, tmp_path)][1:3] == ["llm_start", "llm_end"]


def test_a_span_longer_than_the_reading_window_is_read_whole(tmp_path, monkeypatch):
    from tracer.trace.importers import otlp_stream

    monkeypatch.setattr(otlp_stream, "CHUNK", 1000)  # every span runs past the window's edge
    long_prompt = "x" * 50_000
    spans = [otlp_span(f"{n:02x}", start=str(T0 + n * 10**9), end=str(T0 + n * 10**9 + 1)) for n in range(1, 40)]
    spans[5]["attributes"][1]["value"]["stringValue"] = long_prompt
    spans[7]["attributes"].append(attribute(om.LLM_TOKEN_COUNT_PROMPT, 123456789))  # a number across the edge
    spans[7]["attributes"].append(attribute(om.LLM_TOKEN_COUNT_COMPLETION, 7))
    events = convert(write(tmp_path, otlp(*spans))).events
    starts = [e for e in events if e.kind == "llm_start"]
    assert [e.prompt for e in starts] == [long_prompt if n == 6 else f"prompt of {n:02x}" for n in range(1, 40)]
    assert [e for e in events if e.kind == "llm_end"][7].usage["prompt_tokens"] == 123456789


@pytest.mark.parametrize("kind", ["otlp", "langfuse"])
def test_a_file_over_the_size_an_import_reads_is_one_line_and_never_parsed(tmp_path, capsys, monkeypatch, kind):
    from tracer.trace.importers import reading

    monkeypatch.setattr(reading, "MAX_OTLP_BYTES", 1000)
    monkeypatch.setattr(reading, "MAX_WHOLE_BYTES", 1000)
    monkeypatch.setattr(reading, "loads", lambda text: pytest.fail("a file over the cap was parsed"))
    document = otlp(*[otlp_span(f"{n:02x}") for n in range(20)]) if kind == "otlp" else {"observations": ["x" * 2000]}
    path = write(tmp_path, document)
    said = refused(capsys, tmp_path, path)
    assert said.startswith(f"{path}: the file is ") and ("GiB, over the" in said or "MiB; exports other than" in said)


def test_a_message_field_numbered_with_a_digit_int_refuses_is_left_out_not_a_crash(tmp_path):
    """ "²" is a digit to str.isdigit() and no number to int(): the import used to stop with a ValueError."""
    base = "llm.output_messages.0.message"
    span = otlp_span("01")
    span["attributes"] += [
        attribute(f"{base}.role", "assistant"),
        attribute(f"{base}.tool_calls.\u00b2.tool_call.function.name", "Search"),
        attribute(f"{base}.tool_calls.0.tool_call.function.name", "Calculator"),
        attribute(f"{base}.tool_calls.0.tool_call.id", "call_1"),
    ]
    events = convert(write(tmp_path, otlp(span))).events
    (end,) = [e for e in events if e.kind == "llm_end"]
    assert [(call.name, call.id) for call in end.tool_calls] == [("Calculator", "call_1")]


def test_more_distinct_attribute_keys_than_are_remembered_are_all_read(tmp_path):
    """Keys are taken apart once and remembered; a file of ever new keys empties the memo, and loses nothing."""
    from tracer.trace.importers.flattened_keys import _MAX_REMEMBERED

    span = otlp_span("01")
    count = _MAX_REMEMBERED + 500
    span["attributes"] += [
        attribute(f"llm.input_messages.{n}.message.{field}", value)
        for n in range(count)
        for field, value in (("role", "user"), ("content", f"message {n}"))
    ]
    events = convert(write(tmp_path, otlp(span))).events
    (start,) = [e for e in events if e.kind == "llm_start"]
    assert [m["content"] for m in start.messages] == [f"message {n}" for n in range(count)]


# -- what is not a file, and a byte order mark -------------------------------------------------------
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_importing_a_fifo_or_a_device_says_what_it_is_not_that_it_is_missing(tmp_path, capsys, kind):
    """The attack: `import` of a FIFO or /dev/zero said "no such file" (and must not read it forever)."""
    if kind == "fifo":
        path = tmp_path / "pipe.json"
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    said = refused(capsys, tmp_path, path)
    assert said == f"{path}: is not a regular file (a pipe or a device?); save the trace to a file first"


@pytest.mark.parametrize("writer", [write_otlp, write_langsmith, write_langfuse])
def test_an_export_with_a_utf8_byte_order_mark_imports_as_without_one(tmp_path, capsys, writer):
    """The attack: a JSON export saved by a Windows tool (a UTF-8 BOM first) was refused as "not JSON"."""
    (tmp_path / "plain").mkdir(), (tmp_path / "marked").mkdir()
    plain = writer(tmp_path / "plain" / "export.json")
    marked = tmp_path / "marked" / "export.json"  # the same name: the events name their source file
    marked.write_bytes(codecs.BOM_UTF8 + plain.read_bytes())
    for source in (plain, marked):
        code, _, err = loopscope(capsys, "import", source, "-o", source.with_suffix(".jsonl"))
        assert code == 0, err
    assert load_trace(marked.with_suffix(".jsonl"))[1] == load_trace(plain.with_suffix(".jsonl"))[1]
    assert loopscope(capsys, "debug", marked, "--print")[0] == 0
