"""Events made comparable: volatile fields blanked out, and the first difference between two runs found."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from executor.events import EventBase

from .literal_text import scrub
from .stable_ids import with_stable_ids

# Fields whose values depend on when, where or against which live service a run happened,
# not on what the loop did. `source.line` is here because moving code is not changing
# behaviour; the header's executor hashes already tell the debugger the source moved.
VOLATILE_FIELDS = frozenset(
    {
        "t",  # seconds since the run started
        "duration",  # how long a model call took
        "run_id",  # random per run
        "usage",  # token counts: a live provider reports them, a replay only repeats them
        "elapsed",  # limit_reached: wall time spent
        "waited",  # rate_limit_wait: how long the limiter held the call
        "delay",  # retry: backoff with jitter
    }
)
VOLATILE_SOURCE_FIELDS = frozenset({"line"})
PLACEHOLDER = "<volatile>"
MISSING = "<no event>"


def normalise_event(event: EventBase | dict[str, Any], redact: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """A plain dict of the event with volatile fields replaced by a placeholder."""
    data = event if isinstance(event, dict) else event.model_dump(mode="json")
    out: dict[str, Any] = {key: (PLACEHOLDER if key in VOLATILE_FIELDS else value) for key, value in data.items()}
    source = out.get("source")
    if isinstance(source, dict):
        out["source"] = {k: (PLACEHOLDER if k in VOLATILE_SOURCE_FIELDS else v) for k, v in source.items()}
    if isinstance(out.get("callee"), dict):
        out["callee"] = _normalise_callee(out["callee"])
    return redact(out) if redact else out


def _normalise_callee(callee: dict[str, Any]) -> dict[str, Any]:
    """A user's function compared by name and file name: its line moves when code is edited, and a
    file outside the project is an absolute path that differs from one machine (or checkout) to another."""
    out = {k: (PLACEHOLDER if k in VOLATILE_SOURCE_FIELDS else v) for k, v in callee.items()}
    file = out.get("file")
    if isinstance(file, str) and PurePath(file).is_absolute():
        out["file"] = PurePath(file).name
    return out


def normalise_events(
    events: Iterable[EventBase | dict[str, Any]], redact: Callable[[Any], Any] | None = None
) -> list[dict[str, Any]]:
    return [normalise_event(event, redact) for event in events]


def in_call_order(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events with each stretch of concurrent tool calls laid out one lane after another.

    A reply's tool calls run at once, so how their events interleave is up to the threads:
    two runs that did the same thing may number them differently. Within each stretch of
    events that carry a tool_call_id, each lane keeps its own order and lanes follow the
    order the calls were planned in (the agent_action events); `seq` is renumbered to match.
    """
    out: list[dict[str, Any]] = []
    planned: list[str | None] = []  # a ReAct agent_action has no tool_call_id
    stretch: list[dict[str, Any]] = []
    for event in [*events, {}]:
        lane = event.get("tool_call_id") if event.get("kind") != "agent_action" else None
        if lane is not None:
            stretch.append(event)
            continue
        out += _lanes_in_order(stretch, planned)
        stretch = []
        if event.get("kind") == "agent_action":
            planned = planned if out and out[-1].get("kind") == "agent_action" else []
            planned.append(event.get("tool_call_id"))
        if event:
            out.append(event)
    return out


def _lanes_in_order(stretch: list[dict[str, Any]], planned: list[str | None]) -> list[dict[str, Any]]:
    rank = {call_id: i for i, call_id in enumerate(planned)}
    lanes = sorted(stretch, key=lambda e: (rank.get(e["tool_call_id"], len(rank)), str(e["tool_call_id"])))
    seqs = sorted(e["seq"] for e in stretch if "seq" in e)
    if len(seqs) != len(stretch):
        return lanes
    return [{**event, "seq": seq} for event, seq in zip(lanes, seqs)]  # the same numbers, in lane order


@dataclass(frozen=True)
class Difference:
    """The first place two runs disagree: event number, its kind, the field, and both values."""

    seq: int
    kind: str
    field: str
    expected: Any
    actual: Any
    raised: str = ""  # the exception an event there names: "the re-run raised ValueError: 'no such city'"

    def headline(self) -> str:
        if self.field == "(end)":
            said = f"event {self.seq} ({self.kind}): the re-run has no such event (it stopped early)"
        elif self.field == "(extra)":
            said = f"event {self.seq} ({self.kind}): the re-run went on past the end of the recording"
        else:
            said = f"event {self.seq} ({self.kind}): {self.field} differs"
        return f"{said}; {scrub(self.raised)}" if self.raised else said

    def explain(self, width: int = 100) -> str:
        """Headline plus expected-vs-actual, as a readable diff when the values are long text."""

        lines = [self.headline()]
        expected, actual = self.expected, self.actual
        if (
            isinstance(expected, str)
            and isinstance(actual, str)
            and ("\n" in expected or "\n" in actual or max(len(expected), len(actual)) > width)
        ):
            lines.append(short_diff(expected, actual))
        else:
            lines.append(f"  recorded: {_short(expected, width)}")
            lines.append(f"  re-run:   {_short(actual, width)}")
        return scrub("\n".join(lines))


def _short(value: Any, width: int) -> str:
    text = value if value == MISSING else repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _render_value(key: str, value: Any) -> list[str]:
    """`key: value`, with multi-line text as an indented block so a diff shows the line that changed."""
    if isinstance(value, str) and "\n" in value:
        return [f"  {key}: |"] + [f"    {scrub(line)}" for line in value.split("\n")]
    return [f"  {key}: {scrub(json.dumps(value, ensure_ascii=False, sort_keys=True))}"]


def render_normalised_events(events: Iterable[EventBase]) -> list[str]:
    """Every event as a small block of lines, volatile fields left out, so that a snapshot changes only when
    the run does: concurrent tool calls one lane after another (as runs are compared), and the ids a provider
    makes up renamed by order of first appearance (stable_ids.py)."""
    lines: list[str] = []
    for data in with_stable_ids(in_call_order(normalise_events(events))):
        source = data.get("source", {})
        lines.append(
            f"[{data['seq']}] {data['kind']}  iteration {data['iteration']}  "
            f"at {source.get('file')}:{source.get('function')}  "
            f"stack {' > '.join(data['frames'])}"
        )
        for key, value in data.items():
            if key not in _ENVELOPE and key != "kind" and value != PLACEHOLDER:
                lines += _render_value(key, value)
    return lines


def _first_field_difference(expected: Any, actual: Any, path: str) -> tuple[str, Any, Any] | None:
    """Walk two JSON-like values in step and return (dotted path, expected, actual) where they part."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in list(expected) + [k for k in actual if k not in expected]:
            found = _first_field_difference(
                expected.get(key, MISSING), actual.get(key, MISSING), f"{path}.{key}" if path else str(key)
            )
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for index in range(max(len(expected), len(actual))):
            e = expected[index] if index < len(expected) else MISSING
            a = actual[index] if index < len(actual) else MISSING
            found = _first_field_difference(e, a, f"{path}[{index}]")
            if found:
                return found
        return None
    return None if expected == actual else (path or "event", expected, actual)


# The order fields are examined in: the kind first, so "a different event" is said before
# "a different prompt"; then the payload; the envelope (frames, iteration) last.
_ENVELOPE = ("seq", "run_id", "t", "iteration", "frames", "source")


def _ordered(event: dict[str, Any]) -> dict[str, Any]:
    # seq is left out: events are compared by position, so it adds nothing, and when timing
    # events are set aside (see verify.compare_runs) the numbers shift without meaning anything.
    kind = {"kind": event["kind"]} if "kind" in event else {}
    payload = {k: v for k, v in event.items() if k not in _ENVELOPE and k != "kind"}
    envelope = {k: event[k] for k in _ENVELOPE if k in event and k != "seq"}
    return {**kind, **payload, **envelope}


# How a pydantic-ai tool_error for exhausted retries names the tool's last ModelRetry (its adapter adds it,
# then the text and a closing parenthesis).
LAST_RETRY = " (the tool's last ModelRetry: "


def first_difference(expected: Sequence[dict[str, Any]], actual: Sequence[dict[str, Any]]) -> Difference | None:
    """Compare two normalised event lists; None when they are equal."""
    for index in range(max(len(expected), len(actual))):
        if index >= len(actual):
            rec = expected[index]
            return Difference(
                rec.get("seq", index), rec.get("kind", "?"), "(end)", rec.get("kind"), MISSING, _raised(None, rec)
            )
        if index >= len(expected):
            new = actual[index]
            return Difference(
                new.get("seq", index), new.get("kind", "?"), "(extra)", MISSING, new.get("kind"), _raised(new, None)
            )
        found = _first_field_difference(
            _ordered(expected[index]), _ordered(_without_new_callee(expected[index], actual[index])), ""
        )
        if found:
            field, want, got = found
            if field.startswith("frames["):  # a call stack reads better whole than one frame at a time
                field = "frames (the executor call stack)"
                want, got = (" > ".join(e.get("frames", ())) for e in (expected[index], actual[index]))
            raised = _raised(actual[index], expected[index])
            return Difference(
                expected[index].get("seq", index), expected[index].get("kind", "?"), field, want, got, raised
            )
    return None


RAISED_CHARS = 200  # an exception's message is the tool's text: enough to name the cause, never a page of it


def _raised(rerun: dict[str, Any] | None, recorded: dict[str, Any] | None) -> str:
    """The exception a differing event names (a tool_error's or chain_error's error_type and message),
    so a divergence into an error says which one: the re-run's first, else the recording's."""
    for who, event in (("the re-run", rerun), ("the recording", recorded)):
        error_type = (event or {}).get("error_type")
        if isinstance(error_type, str) and error_type:
            message = str((event or {}).get("message") or "")
            shown = message if len(message) <= RAISED_CHARS else message[: RAISED_CHARS - 1] + "…"
            return f"{who} raised {error_type}: {shown!r}" if message else f"{who} raised {error_type}"
    return ""


def _without_new_callee(expected: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
    """A trace recorded before events named their callee (or chain_start its retry policy, mcp_extract a
    count of several matches, a graph's finish check the node its edge went to, a framework's model call the
    tool call it is made in, a pydantic-ai tool_error the tool's last ModelRetry) still matches a re-run that
    names one."""
    if expected.get("callee") is None and actual.get("callee") is not None:
        actual = {k: v for k, v in actual.items() if k != "callee"} | ({"callee": None} if "callee" in expected else {})
    settings, recorded = actual.get("settings"), expected.get("settings")
    if (
        isinstance(settings, dict)
        and isinstance(recorded, dict)
        and "retry_policy" in settings
        and "retry_policy" not in recorded
    ):
        actual = actual | {"settings": {k: v for k, v in settings.items() if k != "retry_policy"}}
    if "matches" not in expected and actual.get("matches", 0) is None:  # mcp_extract before it counted nodes
        actual = {k: v for k, v in actual.items() if k != "matches"}
    if "went_to" not in expected and "went_to" in actual:  # a graph's finish check before it named its edge's node
        actual = {k: v for k, v in actual.items() if k != "went_to"}
    if expected.get("kind") in ("llm_start", "llm_end") and expected.get("tool_call_id") is None:
        actual = actual | {"tool_call_id": expected.get("tool_call_id")}  # before a framework named the tool call
    if expected.get("kind") == "chain_end":  # a structured output, kept as an object before it was JSON text
        actual = _output_as_recorded(expected, actual)
    if expected.get("kind") == "tool_error":  # pydantic-ai's exhausted retries, before it named the last one
        recorded, message = expected.get("message"), actual.get("message")
        if isinstance(recorded, str) and isinstance(message, str) and message.startswith(recorded + LAST_RETRY):
            actual = actual | {"message": recorded}
    return actual


def _output_as_recorded(expected: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
    """A re-run's chain_end whose output is the JSON text of the object the recording kept, as that object."""
    recorded, made = (event.get("outputs") for event in (expected, actual))
    if not (isinstance(recorded, dict) and isinstance(made, dict)):
        return actual
    want, got = recorded.get("output"), made.get("output")
    if not isinstance(want, (dict, list)) or not isinstance(got, str):
        return actual
    try:
        same = json.loads(got) == want
    except ValueError:
        return actual
    return actual | {"outputs": made | {"output": want}} if same else actual


# difflib is quadratic: beyond these the diff shows the first differing lines instead.
DIFF_MAX_LINES = 2_000
DIFF_MAX_CHARS = 200_000
DIFF_LINE_WIDTH = 200  # a single line can be megabytes long: show its start


def short_diff(expected: str, actual: str, context: int = 2, limit: int = 40) -> str:
    """A unified diff of recorded vs re-run text, cut to `limit` lines, in linear time for huge text."""
    a, b = expected.splitlines(), actual.splitlines()
    start = _common_prefix(a, b)
    end = _common_prefix(a[: start - 1 : -1] if start else a[::-1], b[: start - 1 : -1] if start else b[::-1])
    lo = max(0, start - context)
    a_mid, b_mid = a[lo : len(a) - end + context], b[lo : len(b) - end + context]
    if len(a_mid) + len(b_mid) > DIFF_MAX_LINES or sum(map(len, a_mid)) + sum(map(len, b_mid)) > DIFF_MAX_CHARS:
        lines = ["--- recorded", "+++ re-run", f"@@ the texts part at line {start + 1} (too long to diff) @@"]
        lines += [f"-{a[start]}"] if start < len(a) else []
        lines += [f"+{b[start]}"] if start < len(b) else []
    else:
        lines = [
            _shift_hunk(line, lo)
            for line in difflib.unified_diff(a_mid, b_mid, "recorded", "re-run", n=context, lineterm="")
        ]
    if not lines:  # same lines, so the difference is in line endings or a trailing newline
        lines = [f"- recorded: {expected[-40:]!r}", f"+ re-run:   {actual[-40:]!r}"]
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join(_clip(line) for line in lines)


def _common_prefix(a: list[str], b: list[str]) -> int:
    count = 0
    for left, right in zip(a, b):
        if left != right:
            break
        count += 1
    return count


_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _shift_hunk(line: str, offset: int) -> str:
    """Hunk headers count from the window's start; make them count from the text's."""
    return _HUNK.sub(lambda m: f"@@ -{int(m[1]) + offset}{m[2] or ''} +{int(m[3]) + offset}{m[4] or ''} @@", line)


def _clip(line: str) -> str:
    return line if len(line) <= DIFF_LINE_WIDTH else line[:DIFF_LINE_WIDTH] + f"… ({len(line):,} characters)"
