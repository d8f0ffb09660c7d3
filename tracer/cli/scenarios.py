"""Looking up scenarios, or a user's MODULE:FUNCTION agent, and their recordings for the command line."""

from __future__ import annotations

import argparse

from ..agents.agent_spec import is_agent_spec
from .language import command_words, usage_error
from .usage_error import UsageError

# Not typing's, and json and pathlib only where used: the parsers that use this module answer --help
# with argparse alone (tests/cli/test_startup_imports.py; see executor/__init__.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from executor import ModelReply

AGENT_HELP = (
    "a scenario name (e.g. rose-pricing), or your own agent as MODULE:FUNCTION or "
    "path/to/file.py:FUNCTION, where FUNCTION(model) returns an AgentExecutor"
)


def agent_spec(text: str) -> str:
    """argparse type for --agent: MODULE:FUNCTION or path/to/file.py:FUNCTION (nothing is imported yet)."""
    if not is_agent_spec(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not MODULE:FUNCTION or path/to/file.py:FUNCTION")
    return text


def add_agent_argument(parser: argparse.ArgumentParser) -> None:
    """--agent: the user's own agent, which a trace's header may name; only agents named so (or in
    pyproject.toml's [tool.loopscope] agents) are ever imported."""
    parser.add_argument(
        "--agent",
        dest="agents",
        action="append",
        default=[],
        type=agent_spec,
        metavar="MODULE:FUNCTION",
        help="your agent, trusted to run when a trace's header names it (repeatable; "
        "also read from [tool.loopscope] agents in pyproject.toml); a trace alone "
        "never makes loopscope import anything",
    )


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """--input / --inputs: what a user's agent is asked (scenarios bring their own question)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--input", metavar="TEXT", help="the question for your agent: invoke({'input': TEXT})")
    group.add_argument("--inputs", metavar="JSON", help="your agent's inputs as a JSON object")
    parser.add_argument(
        "--replies",
        metavar="FILE.json",
        help="your agent's model answers from this file, in order, offline (the built-in scripted model): a JSON "
        'list of replies, each a string or {"text": ..., "tool_calls": [{"name": ..., "arguments": {...}}]}',
    )


def add_max_turns_argument(parser: argparse.ArgumentParser) -> None:
    """--max-turns: a framework agent's own turn limit, as the user's app sets it."""
    parser.add_argument(
        "--max-turns",
        type=_turns,
        metavar="N",
        help="your agent's turn limit as your app sets it: an OpenAI Agents SDK agent's Runner.run(max_turns=N) "
        "(default 10), a pydantic-ai agent's UsageLimits(request_limit=N) (default 50), a LangGraph graph's "
        'config={"recursion_limit": N}; verify and fork re-run with the recorded one',
    )


def _turns(text: str) -> int:
    try:
        turns = int(text)
    except ValueError:
        turns = 0
    if turns < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of turns, 1 or more")
    return turns


def given_limits(args: argparse.Namespace, adapter: object | None) -> dict[str, Any]:
    """record()'s max_turns=N from --max-turns, for an adapter that takes one; one line for any other agent."""
    turns = getattr(args, "max_turns", None)
    if turns is None:
        return {}
    if not getattr(adapter, "takes_max_turns", False):
        raise usage_error("cli.framework.no_max_turns", args, turns=turns)
    return {"max_turns": turns}


def given_inputs(args: argparse.Namespace) -> dict[str, Any] | None:
    if getattr(args, "inputs", None):
        import json  # late: see TYPE_CHECKING above

        try:
            value = json.loads(args.inputs)
        except json.JSONDecodeError as error:
            problem, position = error.msg, error.pos
            raise usage_error("cli.agent.error.inputs_not_json", args, problem=problem, position=position) from None
        if not isinstance(value, dict):
            raise usage_error("cli.agent.error.inputs_not_object", args, type=type(value).__name__)
        return value
    return {"input": args.input} if getattr(args, "input", None) is not None else None


def given_replies(args: argparse.Namespace) -> tuple[str | ModelReply, ...] | None:
    """--replies FILE: the scripted replies for a user's agent, or None; a bad file is one line."""
    path = getattr(args, "replies", None)
    if not path:
        return None
    import json  # late: see TYPE_CHECKING above
    from pathlib import Path

    from ..replay.scripted_replies import scripted_replies  # late: it imports the engine

    try:
        return scripted_replies(json.loads(Path(path).read_text(encoding="utf-8")))
    except OSError as error:
        problem = error.strerror or error
        raise usage_error("cli.agent.error.replies_unreadable", args, path=path, problem=problem) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise usage_error("cli.agent.error.replies_not_json", args, path=path, problem=error) from None
    except ValueError as error:
        raise usage_error("cli.agent.error.replies_unreadable", args, path=path, problem=error) from None


def scenario_named(name: str, args: argparse.Namespace | None = None) -> Any:
    """The scenario, or the user's agent (imported now), that `name` names."""
    # Late: the parsers that use this module (and their --help) load no engine; a scenario needs it.
    from ..agents.scenario_registry import UnknownAgent
    from ..agents.user_agent import resolve_agent

    inputs = given_inputs(args) if args is not None else None
    try:
        agent = resolve_agent(name, inputs)
    except UnknownAgent as error:
        hint = "" if is_agent_spec(name) else command_words("cli.agent.error.own_agent_hint", args)
        raise UsageError(str(error.args[0]) + hint) from None
    if args is not None and getattr(args, "replies", None):
        if not is_agent_spec(name):
            raise usage_error("cli.agent.error.replies_for_scenario", args, name=name)
        agent.replies = given_replies(args)
    if inputs is not None and not is_agent_spec(name):
        raise usage_error("cli.agent.error.inputs_for_scenario", args, name=name)
    if is_agent_spec(name) and inputs is None and args is not None and getattr(args, "needs_inputs", True):
        raise usage_error("cli.agent.error.no_question", args, name=name)
    return agent


def fixture_for(scenario: Any, override: str | None) -> Path:
    from pathlib import Path  # late: see TYPE_CHECKING above

    path = Path(override) if override else scenario.fixture
    if not path.exists():
        raise usage_error("cli.agent.error.no_recording", None, path=path, scenario=scenario.name)
    return path
