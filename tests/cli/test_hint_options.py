"""Every `--option` a message of loopscope tells the user to pass exists on the command that shows it."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import grimp
import pytest

from tracer.cli import COMMANDS, MODULES, build_parser

ROOT = Path(__file__).resolve().parents[2]
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
# `loopscope CMD …` (or `CMD …` in backticks) up to the end of the phrase: a quote, a backtick, a ; or a new line.
COMMAND_PHRASE = re.compile(r"(?:`?loopscope |`)([a-z]+)([^`'\"\n;)]*)")
# Options of pytest (the plugin's own and syrupy's), named by the plugin's messages: checked against pytest below.
PYTEST_OPTIONS = {"--loopscope-record", "--loopscope-redact", "--loopscope-model", "--snapshot-update"}


@cache
def options_of(command: str) -> frozenset[str]:
    parser = build_parser([command])
    subparsers = next(action for action in parser._actions if action.choices and command in action.choices)
    return frozenset(o for action in subparsers.choices[command]._actions for o in action.option_strings)


@cache
def commands_reaching(module: str) -> frozenset[str]:
    """The commands whose module imports `module` (directly or not): where its messages can be shown."""
    graph = _graph()
    return frozenset(
        name
        for name in COMMANDS
        if module == (command_module := f"tracer.cli.{MODULES.get(name, name)}")
        or module in graph.find_upstream_modules(command_module)
    )


@cache
def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("tracer", "executor", "tutorials", cache_dir=None)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def hint_strings() -> list[tuple[str, int, str]]:
    """(module, line, text) of every string in tracer/ that is not a docstring; f-strings with {} for values."""
    out = []
    for path in sorted((ROOT / "tracer").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _docstrings(tree) | {
            id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values
        }  # an f-string is read whole, not piece by piece
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
                text = node.value
            else:
                continue
            if "--" in text:
                out.append((module, node.lineno, text))
    return out


def wrong_options(module: str, text: str) -> list[str]:
    """The options `text` names that the command it names (or every command that shows it) does not have."""
    wrong = []
    named = set()
    for phrase in COMMAND_PHRASE.finditer(text):
        command, rest = phrase.groups()
        if command not in COMMANDS:
            continue
        for option in OPTION.findall(rest):
            named.add(option)
            if option not in options_of(command):
                wrong.append(f"`loopscope {command}` has no {option}")
    for option in set(OPTION.findall(text)) - named - PYTEST_OPTIONS:
        # A bare option: the module's own command has it; a shared module's message can be shown by any
        # command that imports it, so at least one must have it, and every one if all of them import it.
        reaching = commands_reaching(module) or frozenset(COMMANDS)  # none: loaded by entry point (a provider)
        having = {command for command in reaching if option in options_of(command)}
        if not having or (commands_reaching(module) == set(COMMANDS) and having != reaching):
            wrong.append(f"{option} is not an option of {', '.join(sorted(reaching - having)) or 'any command'}")
    return wrong


def test_the_scan_sees_the_hints_it_is_meant_to_check():
    texts = [text for _, _, text in hint_strings()]
    assert any("loopscope fixtures --rerecord" in text for text in texts)
    assert any("--loopscope-record=" in text for text in texts)
    without_trace = ", ".join(sorted(set(COMMANDS) - {"run"}))  # only `run` has --trace
    assert wrong_options("tracer.trace.reader", "the file is empty; record a run with --trace FILE") == [
        f"--trace is not an option of {without_trace}"
    ]
    assert wrong_options("tracer.cli.verify", "try `loopscope verify --rerecord`") == [
        "`loopscope verify` has no --rerecord"
    ]


def test_every_option_a_message_names_exists_where_it_is_shown():
    wrong = [
        f"{module}:{line}: {problem}"
        for module, line, text in hint_strings()
        # the command table is checked entry by entry below; the debugger's chrome only in `loopscope …` phrases
        if module != "tracer.cli" and (not module.startswith("tracer.tui") or COMMAND_PHRASE.search(text))
        for problem in wrong_options(module, text)
    ]
    assert wrong == []


def test_each_command_summary_names_options_of_its_own_command():
    for command, summary in COMMANDS.items():  # a bare option is the command's own; `call --x` is call's
        assert wrong_options(f"tracer.cli.{MODULES.get(command, command)}", summary) == [], command


pytest_plugins = ["pytester"]


def test_the_pytest_options_messages_name_are_the_plugins(pytester: pytest.Pytester):
    named = {
        option for _, _, text in hint_strings() for option in OPTION.findall(text) if option.startswith("--loopscope")
    }
    assert named  # the cassette's messages name them
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    help_text = pytester.runpytest("--help").stdout.str()
    assert all(option in help_text for option in named | PYTEST_OPTIONS), named
