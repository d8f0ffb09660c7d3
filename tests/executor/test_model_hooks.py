"""ModelHooks: a wrapper written from the protocol keeps what the wrapped model offers, a model without any
hook still runs, and every optional member the code looks up on a model is one the protocol declares."""

import ast
import asyncio

import pytest

from executor import (
    AgentExecutor,
    ChatModel,
    ManualClock,
    ModelHooks,
    ModelReply,
    ScriptedModel,
    ToolCallingModel,
    create_react_agent,
    with_fallbacks,
)
from executor.callee import model_callee
from executor.events import FallbackEvent
from executor.models.chat_model import cut_at_stop, generate_with_retries
from executor.recovery.circuit_breaker import endpoint_of, reset_breakers
from tests.helpers.failing_models import DeadModel
from tests.helpers.loop_builders import echo_tool, finish, kinds, run_collecting
from tests.helpers.paths import ROOT


class LoggingModel:
    """A wrapper written from ModelHooks' docstring: it forwards and passes on what the inner model has."""

    def __init__(self, inner: ChatModel) -> None:
        self.inner, self.model_name, self.asked = inner, inner.model_name, []

    @property
    def live(self) -> bool:
        return getattr(self.inner, "live", False) is True

    @property
    def callee(self):
        return model_callee(self.inner)

    def generate(self, prompt, stop):
        self.asked.append(prompt)
        return self.inner.generate(prompt, stop)


class BareModel:
    """ChatModel's two members and nothing else."""

    model_name = "bare"

    def __init__(self, replies):
        self.replies = list(replies)

    def generate(self, prompt, stop):
        return ModelReply(cut_at_stop(self.replies.pop(0), stop))


class LiveScripted(ScriptedModel):
    live = True


def executor_for(model, **settings):
    tools = [echo_tool()]
    return AgentExecutor(create_react_agent(model, tools), tools, clock=ManualClock(tick=0.001), **settings)


@pytest.fixture(autouse=True)
def fresh_breakers():
    reset_breakers()
    yield
    reset_breakers()


def test_a_wrapper_keeps_the_inner_models_callee_and_live():
    inner = LiveScripted([finish("42")])
    wrapped = LoggingModel(inner)
    result, events, error = run_collecting(executor_for(wrapped))
    assert error is None and result["output"] == "42" and wrapped.asked == inner.prompts
    start = next(e for e in events if e.kind == "llm_start")
    assert start.callee.qualname == "ScriptedModel.generate"  # step-into lands in the inner model's code
    assert executor_for(wrapped).retry_policy is not None  # live passed on: retried by default
    assert executor_for(LoggingModel(ScriptedModel([]))).retry_policy is None


def test_a_model_with_no_hook_runs_with_every_default():
    model = BareModel([finish("7")])
    result, events, error = run_collecting(executor_for(model))
    assert error is None and result["output"] == "7"
    assert executor_for(BareModel([])).retry_policy is None  # not live
    assert "model_chain" not in events[0].settings  # no describe
    assert next(e for e in events if e.kind == "llm_start").callee.qualname == "BareModel.generate"
    assert endpoint_of(model) == "bare"  # no endpoint: the breaker is keyed by the name


def test_chained_wrappers_keep_the_fallback_events_and_the_recorded_chain():
    backup = ScriptedModel([finish("ok")], model_name="backup")
    chain = with_fallbacks(LoggingModel(DeadModel()), [LoggingModel(backup)])
    result, events, error = run_collecting(executor_for(chain))
    assert error is None and result["output"] == "ok"
    assert "fallback" in kinds(events) and isinstance(events[kinds(events).index("fallback")], FallbackEvent)
    assert events[0].settings["model_chain"]["chain"] == [{"model": "primary"}, {"model": "backup"}]


def test_a_narrated_generate_runs_inside_the_model_call_with_its_own_events():
    class Announcing(LoggingModel):
        def narrated_generate(self, run, prompt, stop):
            yield run.emit(FallbackEvent, failed_model="nobody", next_model=self.model_name, error_type="Drill",
                           error="a drill", refused=False)  # fmt: skip
            return (yield from generate_with_retries(run, self.inner, prompt, stop))

    _, events, error = run_collecting(executor_for(Announcing(ScriptedModel([finish("1")]))))
    assert error is None and kinds(events)[1:4] == ["llm_start", "fallback", "llm_end"]
    assert events[2].frames[-2:] == ("call_model", "narrated_generate")


def test_an_agenerate_is_what_ainvoke_awaits():
    class Both(BareModel):
        async def agenerate(self, prompt, stop):
            self.awaited = True
            return self.generate(prompt, stop)

    model = Both([finish("a")])
    result = asyncio.run(executor_for(model).ainvoke({"input": "q"}))
    assert result["output"] == "a" and model.awaited


def members(protocol) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")} | set(protocol.__annotations__)


def declared_members() -> set[str]:
    return members(ChatModel) | members(ToolCallingModel) | members(ModelHooks)


# The replay reads a FallbackModel's own chain (`models`) when it meets one; that is the class's attribute,
# not a hook a model may offer.
OWN_ATTRIBUTES = {"models"}


def probed_on_models() -> dict[str, list[str]]:
    """{name: [where]} for every getattr/hasattr with a literal name on something called a model."""
    found: dict[str, list[str]] = {}
    for folder in ("executor", "tracer"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "bridges" in path.parts:  # LangChain's models there, whose attributes are LangChain's
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr")
                    and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)
                    and "model" in ast.unparse(node.args[0]).lower()
                ):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.setdefault(node.args[1].value, []).append(where)
    return found


def test_every_member_looked_up_on_a_model_is_declared_and_every_hook_is_looked_up():
    probed = probed_on_models()
    assert "narrated_generate" in probed and "describe" in probed  # the scan sees the probes at all
    undeclared = {name: where for name, where in probed.items() if name not in declared_members() | OWN_ATTRIBUTES}
    assert undeclared == {}, f"declare these in executor/models/chat_model.py ModelHooks: {undeclared}"
    assert members(ModelHooks) - set(probed) == set(), "a ModelHooks member nothing looks up"


def test_the_scan_catches_an_undeclared_probe(tmp_path, monkeypatch):
    (tmp_path / "executor").mkdir()
    (tmp_path / "tracer").mkdir()
    (tmp_path / "executor" / "x.py").write_text("def f(model):\n    return getattr(model, 'temperature', 0)\n")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert probed_on_models() == {"temperature": ["executor/x.py:2"]}
