"""Screening where outside text enters: a secret in any field a model, a tool or the user fills never reaches the file."""

from __future__ import annotations

import itertools
import json

import pytest

from executor import AgentExecutor, ManualClock, ModelReply, ScriptedModel, Tool, create_react_agent
from executor.agents.prompt import Scratchpad
from executor.events import LLMStartEvent, SourceRef, ToolEndEvent
from executor.models.messages import render_messages
from executor.schema import AgentAction
from tests.helpers.loop_builders import action, finish
from tracer.trace.line_maker import LineMaker
from tracer.trace.reader import load_trace
from tracer.trace.redact import Redactor
from tracer.trace.writer import TraceWriter

GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
OPENAI_KEY = "sk-" + "proj0123456789abcdefghijklmnop"


def run(tmp_path, replies, observation="fine", question="what is configured?", prompt=None):
    tools = [Tool("Config", "Shows the service configuration.", lambda _: observation)]
    model = ScriptedModel(replies)
    agent = create_react_agent(model, tools, prompt) if prompt else create_react_agent(model, tools)
    executor = AgentExecutor(agent=agent, tools=tools, clock=ManualClock(tick=0.001))
    path = tmp_path / "run.jsonl"
    with TraceWriter(path) as writer:
        executor.invoke({"input": question}, [writer])
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("where", ["observation", "reply", "question", "template"])
@pytest.mark.parametrize("secret", [GITHUB_TOKEN, OPENAI_KEY])
def test_a_secret_arriving_anywhere_is_redacted_in_every_line_that_carries_it(tmp_path, where, secret):
    replies = [action("Config", "show"), finish("done")]
    if where == "reply":
        replies = [action("Config", f"show {secret}"), finish("done")]
    template = None
    if where == "template":
        template = (
            "Answer with tools {tools} ({tool_names}). Deploy key: "
            + secret
            + "\nQuestion: {input}\nThought:{agent_scratchpad}"
        )
    text = run(
        tmp_path,
        replies,
        observation=f"token={secret}" if where == "observation" else "fine",
        question=f"is {secret} valid?" if where == "question" else "what is configured?",
        prompt=template,
    )
    assert secret not in text
    assert "[REDACTED:" in text
    assert load_trace(tmp_path / "run.jsonl")[2] is None  # still a whole, readable trace


def test_a_refusal_or_usage_key_from_the_model_client_is_screened_too(tmp_path):
    class Leaky:
        model_name = "leaky"

        def generate(self, prompt, stop):
            return ModelReply(" Final Answer: no", usage={f"tokens {OPENAI_KEY}": 3}, refusal=f"see {GITHUB_TOKEN}")

    tools = [Tool("Config", "Shows the service configuration.", lambda _: "fine")]
    executor = AgentExecutor(agent=create_react_agent(Leaky(), tools), tools=tools, clock=ManualClock())
    path = tmp_path / "run.jsonl"
    with TraceWriter(path) as writer:
        try:
            executor.invoke({"input": "q"}, [writer])
        except Exception:
            pass  # a refusal ends the run; the trace is what matters here
    text = path.read_text(encoding="utf-8")
    assert OPENAI_KEY not in text and GITHUB_TOKEN not in text


def test_after_a_secret_the_lines_that_repeat_it_are_redacted_too(tmp_path):
    text = run(tmp_path, [action("Config", "show"), finish("done")], observation=f"token={GITHUB_TOKEN}")
    kinds_with_redaction = {
        line.split('"kind":"')[1].split('"')[0] for line in text.splitlines()[1:] if "[REDACTED:" in line
    }
    # tool_end brought it in; step and the next prompt repeat it.
    assert {"tool_end", "step", "llm_start"} <= kinds_with_redaction


def _echo_run(path, rounds=6, lineage=True, monkeypatch=None):
    """One deterministic run (manual clock, fixed run id) written to `path`."""
    if not lineage:  # the writer must then find each prompt's base by comparing the texts
        monkeypatch.setattr("tracer.trace.line_maker.prompt_lineage", lambda prompt: None)
    replies = [action("Echo", f"item {i}") for i in range(rounds - 1)] + [finish("done")]
    tools = [Tool("Echo", "repeats", lambda text: f"echo:{text}")]
    executor = AgentExecutor(
        agent=create_react_agent(ScriptedModel(replies), tools),
        tools=tools,
        clock=ManualClock(tick=0.001),
        run_id_factory=lambda: "fixedrunid01",
    )
    with TraceWriter(path) as writer:
        executor.invoke({"input": "echo"}, [writer])
    return path.read_bytes().split(b"\n", 1)[1]  # the header carries the time of writing


def test_the_scratchpads_word_on_a_prompts_base_writes_the_same_lines_as_comparing(tmp_path, monkeypatch):
    told = _echo_run(tmp_path / "told.jsonl")
    compared = _echo_run(tmp_path / "compared.jsonl", lineage=False, monkeypatch=monkeypatch)
    assert told == compared
    assert told.count(b'"prompt_base"') == 5  # every prompt after the first is written as base + append
    events = load_trace(tmp_path / "told.jsonl")[1]
    prompts = [e.prompt for e in events if e.kind == "llm_start"]
    assert all(later.startswith(earlier) for earlier, later in itertools.pairwise(prompts))


def test_a_prompt_from_another_scratchpad_at_the_same_call_site_is_written_whole(tmp_path):
    """Two agents whose plans emit from the same frames: the lineage of one never splits the other's prompt."""
    first, second = Scratchpad(), Scratchpad()
    steps = [(AgentAction("Echo", "x", "Action: Echo"), "one")]
    prompts = [
        first.render("HEAD A\n", []),
        second.render("HEAD B\n", []),
        second.render("HEAD B\n", steps),
        first.render("HEAD A\n", steps),
    ]
    maker = LineMaker(Redactor(builtin=False))
    lines = [
        maker.make(
            LLMStartEvent(
                seq=seq,
                run_id="r",
                t=0.0,
                iteration=1,
                frames=("plan",),
                model="m",
                source=SourceRef(file="f", line=1, function="plan"),
                prompt=prompt,
                stop=[],
            )
        )
        for seq, prompt in enumerate(prompts)
    ]
    assert b'"prompt_base":1,' in lines[2]  # B's second prompt extends the one just before it, B's first
    # A's second prompt extends A's first, but the previous prompt from these frames was B's: written whole.
    assert b'"prompt_base"' not in lines[3] and b"HEAD A" in lines[3]


def test_a_class_whose_events_change_kind_is_screened_by_each_events_own_kind():
    """Lines are made per class for speed; a class without one fixed kind must still be judged per event."""
    from executor.events import EventBase

    class AnyKind(EventBase):
        kind: str
        note: str = ""

    source = SourceRef(file="f.py", line=1, function="f")
    maker = LineMaker(Redactor())
    quiet = maker.make(AnyKind(seq=0, run_id="r", t=0.0, iteration=0, frames=("f",), source=source, kind="step"))
    loud = maker.make(
        AnyKind(
            seq=1,
            run_id="r",
            t=0.0,
            iteration=0,
            frames=("f",),
            source=source,
            kind="user_note",
            note=f"token {GITHUB_TOKEN}",
        )
    )
    assert b'"kind":"step"' in quiet
    assert GITHUB_TOKEN.encode() not in loud and b"[REDACTED:" in loud


# -- a chat call's history: what was screened clean once is not screened again -------------------
SOURCE = SourceRef(file="f.py", line=1, function="call")


def _chat_start(seq: int, messages: list[dict]) -> LLMStartEvent:
    return LLMStartEvent(
        seq=seq,
        run_id="r",
        t=0.0,
        iteration=1,
        frames=("call",),
        source=SOURCE,
        model="m",
        prompt=render_messages(messages),
        stop=[],
        messages=messages,
    )


def _tool_end(seq: int, observation: str, call_id: str) -> ToolEndEvent:
    return ToolEndEvent(
        seq=seq,
        run_id="r",
        t=0.0,
        iteration=1,
        frames=("tool",),
        source=SOURCE,
        tool="Search",
        observation=observation,
        tool_call_id=call_id,
    )


class _Counting(Redactor):
    """A redactor that keeps every text it was asked to look at."""

    def __init__(self) -> None:
        super().__init__(environ={})
        self.looked_at: list[str] = []

    def might_contain_secret(self, text: str) -> bool:
        self.looked_at.append(text)
        return super().might_contain_secret(text)


def _three_rounds(maker: LineMaker, second_round_extra: dict | None = None) -> list[bytes]:
    history = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Prices?"}]
    lines = [maker.make(_chat_start(0, list(history)))]
    for round_number in (1, 2):
        call = {"id": f"c{round_number}", "type": "function", "function": {"name": "Search", "arguments": "{}"}}
        history.append({"role": "assistant", "content": None, "tool_calls": [call]})
        observation = f"observation {round_number}: roses cost 25 yuan"
        lines.append(maker.make(_tool_end(len(lines), observation, call["id"])))
        history.append({"role": "tool", "tool_call_id": call["id"], "content": observation})
        if round_number == 2 and second_round_extra is not None:
            history.append(second_round_extra)
        lines.append(maker.make(_chat_start(len(lines), list(history))))
    return lines


def test_a_chat_calls_history_is_not_screened_again_for_each_call():
    redactor = _Counting()
    _three_rounds(LineMaker(redactor))
    looked_at = "\n".join(redactor.looked_at)
    # Each observation is looked at in its tool_end line only; the two later calls repeat the first
    # one in their history (and the last repeats both), screening the whole line looked at it 3 times.
    assert looked_at.count("observation 1: roses") == 1
    assert looked_at.count("observation 2: roses") == 1
    assert looked_at.count("Prices?") == 2  # the first call's prompt and its message, new there


@pytest.mark.parametrize(
    "extra",
    [
        {"role": "user", "content": f"and with {OPENAI_KEY}?"},  # new text in the history
        {"role": "tool", "tool_call_id": OPENAI_KEY, "content": "observation 1: roses cost 25 yuan"},
        {"role": "assistant", "content": "Prices?", "name": f"bot {GITHUB_TOKEN}"},
        {
            "role": "assistant",
            "content": "Be brief.",
            "tool_calls": [{"id": "c9", "function": {"name": "Login", "arguments": f'{{"api_key": "{OPENAI_KEY}"}}'}}],
        },
    ],
    ids=["new-content", "call-id", "name", "call-arguments"],
)
def test_a_secret_beside_history_already_screened_is_still_redacted(extra):
    """The message's content was screened clean before; its other fields, or a new message, hold the key."""
    lines = _three_rounds(LineMaker(Redactor(environ={})), second_round_extra=extra)
    last = lines[-1]
    assert OPENAI_KEY.encode() not in last and GITHUB_TOKEN.encode() not in last
    assert b"[REDACTED:" in last
    assert json.loads(last)["messages"][-1]["role"] == extra["role"]  # still the line, readable
