"""The loop file is a teaching text: it fits the Source pane, carries no pragmas or debugger plumbing, and each
method reads on one screen; what the debugger needs lives in executor/loop_hooks.py and still reaches the run."""

from __future__ import annotations

import ast
import re
import unicodedata

from executor.agent_executor import AgentExecutor
from executor.loop_hooks import new_run, use_tool_call_gate
from tests.helpers.loop_builders import run_collecting
from tests.helpers.paths import ROOT
from tests.helpers.tool_calling_builders import calls, text_tool, tool_calling_executor

LOOP = ROOT / "executor" / "agent_executor.py"
WIDTH = 72  # the Source pane's code width this file is written for (DESIGN.md, house style)
SCREEN = 40  # lines: one terminal screen at 120x40
PRAGMA = re.compile(r"#\s*(noqa|type:\s*ignore|fmt:|pragma|pyright:|mypy:|ruff:|isort:)", re.IGNORECASE)
# How a debugger reaches into the loop: none of it belongs in what a learner reads.
PLUMBING = ("__code__", "tool_call_gate", "_getframe", "gi_frame", "f_lineno", "f_locals")
LANGCHAIN_METHODS = (
    "invoke",
    "_call",
    "_take_next_step",
    "_iter_next_step",
    "_perform_agent_action",
    "_return",
    "_should_continue",
    "_get_tool_return",
)


def cells(line: str) -> int:
    """Terminal columns: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def too_wide(text: str) -> list[str]:
    return [f"{n}: {cells(line)} columns" for n, line in enumerate(text.splitlines(), 1) if cells(line) > WIDTH]


def pragmas(text: str) -> list[str]:
    return [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1) if PRAGMA.search(line)]


def plumbing(text: str) -> list[str]:
    return [f"{n}: {word}" for n, line in enumerate(text.splitlines(), 1) for word in PLUMBING if word in line]


def longer_than_a_screen(text: str) -> list[str]:
    functions = [n for n in ast.walk(ast.parse(text)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return [
        f"{f.name}: {f.end_lineno - f.lineno + 1} lines"
        for f in functions
        if f.end_lineno is not None and f.end_lineno - f.lineno + 1 > SCREEN
    ]


def test_every_line_fits_the_source_pane():
    assert too_wide(LOOP.read_text(encoding="utf-8")) == []


def test_no_lint_type_or_format_pragma_is_shown_to_the_learner():
    assert pragmas(LOOP.read_text(encoding="utf-8")) == []


def test_no_debugger_plumbing_in_the_loop():
    assert plumbing(LOOP.read_text(encoding="utf-8")) == []


def test_every_method_reads_on_one_screen():
    assert longer_than_a_screen(LOOP.read_text(encoding="utf-8")) == []


def test_the_checks_catch_what_they_are_for():
    # What the file held before: a 120-column line, a formatter pragma, a code object for the stack walk.
    assert too_wide("x = 1\n" + "y = " + "1 + " * 30 + "1\n") == ["2: 125 columns"]
    assert too_wide("s = '" + "玫" * 34 + "'\n") == ["1: 74 columns"]  # 38 characters, 74 columns
    assert pragmas("for a in b:  # noqa: SIM110\n") and pragmas("x = f(y)  # fmt: skip\n")
    assert pragmas("z = q  # type: ignore[attr-defined]\n")
    assert plumbing("outermost=AgentExecutor.iter_events.__code__,\n") == ["1: __code__"]
    body = "\n".join(f"    x{i} = {i}" for i in range(SCREEN))
    assert longer_than_a_screen(f"def f():\n{body}\n") == [f"f: {SCREEN + 1} lines"]


def test_langchains_method_names_and_cross_references_stay():
    text = LOOP.read_text(encoding="utf-8")
    assert all(callable(getattr(AgentExecutor, name, None)) for name in LANGCHAIN_METHODS)
    assert len(re.findall(r"# LangChain: ", text)) >= 6


def test_a_gate_plugged_in_beside_the_loop_reaches_the_runs_parallel_calls():
    seen: list[str] = []

    class Recording:
        def before_event(self, call_id: str) -> None:
            seen.append(f"before {call_id}")

        def after_event(self, event) -> None:
            pass

        def call_done(self, call_id: str) -> None:
            seen.append(f"done {call_id}")

    two = calls(("c1", "first", {"tool_input": "a"}), ("c2", "second", {"tool_input": "b"}))
    tools = [text_tool("first", str.upper), text_tool("second", str.upper)]
    executor, _ = tool_calling_executor([two, "done"], tools)
    assert new_run(executor).tool_call_gate is None  # nothing plugged in: the calls run freely
    use_tool_call_gate(executor, Recording())
    result, _, error = run_collecting(executor)
    assert error is None and result["output"] == "done"
    assert {"before c1", "before c2", "done c1", "done c2"} <= set(seen)
    use_tool_call_gate(executor, None)
    assert new_run(executor).tool_call_gate is None


def test_the_runs_stack_is_bounded_by_the_loops_entry_points():
    def executor():
        return tool_calling_executor(["no tools needed"], [text_tool("first", str.upper)])[0]

    invoked: list = []
    executor().invoke({"input": "q"}, [invoked.append])
    pulled = list(executor().iter_events({"input": "q"}))
    assert invoked[0].frames == ("invoke", "iter_events")  # the user's call, then the run's outermost
    assert pulled[0].frames == ("iter_events",)
