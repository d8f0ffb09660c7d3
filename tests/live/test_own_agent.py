"""A user's own agent module outside the repo: a structured, an async and a LangChain-shaped tool, a live model."""

import importlib.util
import textwrap

from tests.live.conftest import API_KEY

AGENT_MODULE = '''
"""my_agent: the kind of module a user writes."""
import asyncio
from pydantic import BaseModel
from executor import AgentExecutor, create_react_agent, tool


@tool
def total(price: float, quantity: int, markup: float = 0.0) -> str:
    """Total cost of `quantity` items at `price`, plus a markup in percent."""
    return f"{price * quantity * (1 + markup / 100):.2f}"


@tool
async def stock(flower: str) -> str:
    """How many of a flower are in stock."""
    await asyncio.sleep(0)
    return f"{flower}: 12 in stock"


class ConvertArgs(BaseModel):
    amount: float
    currency: str


class Convert:
    """Shaped like a LangChain BaseTool: name, description, args_schema, invoke/ainvoke."""

    name = "convert"
    description = "Convert yuan to another currency."
    args_schema = ConvertArgs
    return_direct = False

    def invoke(self, input, config=None):
        return f"{input['amount'] / 7:.2f} {input['currency']}"

    async def ainvoke(self, input, config=None):
        return self.invoke(input) + " (async)"


def build(model):
    tools = [total, stock, Convert()]
    return AgentExecutor(agent=create_react_agent(model, tools), tools=tools, handle_parsing_errors=True)
'''

REPLIES = [
    " I need stock.\\nAction: stock\\nAction Input: roses",
    ' Now the total.\\nAction: total\\nAction Input: {"price": 25, "quantity": 12, "markup": 5}',
    ' Convert it.\\nAction: convert\\nAction Input: {"amount": 315, "currency": "USD"}',
    " I now know the final answer.\\nFinal Answer: 315.00 yuan, 45.00 USD",
]


def load_user_module(tmp_path):
    path = tmp_path / "my_agent.py"
    path.write_text(textwrap.dedent(AGENT_MODULE))
    spec = importlib.util.spec_from_file_location("my_agent", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def test_a_users_agent_runs_live_from_dotenv_with_its_source_in_the_events(fake_openai, tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "LOOPSCOPE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"OPENAI_API_KEY={API_KEY}\nOPENAI_BASE_URL={fake_openai.base_url}\n")
    module, path = load_user_module(tmp_path)
    from executor.models.providers import create_model

    fake_openai.push(*[r.replace("\\n", "\n") for r in REPLIES])
    executor = module.build(create_model("openai:fake-model"))
    assert executor.retry_policy is not None  # a live model gets the CLI's default retries
    events = []
    result = executor.invoke({"input": "What do 12 roses cost with 5% markup, in USD?"}, [events.append])
    assert result["output"] == "315.00 yuan, 45.00 USD"
    observations = [e.observation for e in events if e.kind == "tool_end"]
    assert observations == ["roses: 12 in stock", "315.00", "45.00 USD"]
    prompts = [r.prompt for r in fake_openai.received]
    assert "Observation: roses: 12 in stock\n" in prompts[1] and "coroutine" not in "".join(prompts)
    callees = {e.tool: (e.callee.file, e.callee.qualname) for e in events if e.kind == "tool_start"}
    assert callees == {
        "stock": (path.as_posix(), "stock"),
        "total": (path.as_posix(), "total"),
        "convert": (path.as_posix(), "Convert.invoke"),
    }


async def test_the_same_agent_under_ainvoke_uses_the_async_forms(fake_openai, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    module, _ = load_user_module(tmp_path)
    from executor.models.providers import create_model

    fake_openai.push(*[r.replace("\\n", "\n") for r in REPLIES])
    result = await module.build(create_model("openai:fake-model")).ainvoke({"input": "q"})
    assert result["output"] == "315.00 yuan, 45.00 USD"
    assert "Observation: 45.00 USD (async)\n" in fake_openai.received[3].prompt
