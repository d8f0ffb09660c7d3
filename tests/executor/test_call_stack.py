"""An event's frames are the real call stack, remembered per frame, and a new round lets the old frames go."""

import gc
import sys
import weakref

import pytest

from executor import AgentExecutor, ScriptedModel, Tool, create_react_agent
from executor.call_stack import CallStacks
from executor.events import ToolEndEvent
from executor.run_context import RunContext
from tests.helpers.loop_builders import action, finish


def emit_here(run, seen):
    """Emit from this frame, and walk the same frame afresh: the remembered stack must equal the walk."""
    walked = run.stack_here()
    seen.append((run.emit(ToolEndEvent, tool="t", observation="o").frames, walked))


def leaf(run, seen):
    emit_here(run, seen)
    yield "leaf"
    emit_here(run, seen)


def inner(run, seen):
    for _ in range(2):  # the second pass meets frames already remembered, and new ones under them
        emit_here(run, seen)
        yield from leaf(run, seen)


def outer(run, seen):
    yield from inner(run, seen)
    run.start_round(2)  # keeps outer's own frame: it is still running
    yield from inner(run, seen)
    emit_here(run, seen)


def user_call():
    seen = []
    run = RunContext(outermost=outer.__code__, caller=user_call.__code__)
    list(outer(run, seen))
    return seen


def test_a_remembered_stack_equals_a_fresh_walk_at_every_depth_and_pass():
    seen = user_call()
    assert len(seen) == 13
    assert all(frames == walked for frames, walked in seen), seen
    assert seen[0][0] == ("user_call", "outer", "inner", "emit_here")  # the user's call comes first
    assert seen[1][0] == ("user_call", "outer", "inner", "leaf", "emit_here")
    assert seen[-1][0] == ("user_call", "outer", "emit_here")


def test_without_an_outermost_method_the_stack_ends_where_the_executors_code_does():
    stacks = CallStacks()
    here = stacks.at(_frame())  # this test module is not the executor's: only the emitting frame
    assert here == ("_frame",)
    assert stacks.walk(_frame()) == ("_frame",)


def _frame():
    return sys._getframe(0)


class Marker:
    """Something a tool's frame holds, as a round's prompt is held by the frames that built it."""


def test_a_new_round_lets_the_frames_of_the_last_one_go_with_their_locals():
    held = []

    def probe(text, run):
        marker = Marker()
        held.append(weakref.ref(marker))
        yield run.emit(ToolEndEvent, tool="Probe", observation="inside")
        return f"seen {text}"

    replies = [action("Probe", "a"), action("Probe", "b"), finish("done")]
    tools = [Tool(name="Probe", description="holds a marker while it runs", func=probe)]
    alive_at_checks = []

    def listen(event):
        if event.kind == "finish_check":
            gc.collect()
            alive_at_checks.append([ref() is not None for ref in held])

    executor = AgentExecutor(agent=create_react_agent(ScriptedModel(replies), tools), tools=tools)
    executor.invoke({"input": "q"}, [listen])
    # Round 1's tool frame is remembered until round 2 starts; then only round 2's is held.
    assert alive_at_checks == [[True], [False, True], [False, False]]


def test_iteration_is_read_and_start_round_is_how_it_moves():
    run = RunContext()
    assert run.iteration == 0
    run.start_round(3)
    assert run.iteration == 3 and run.emit(ToolEndEvent, tool="t", observation="o").iteration == 3
    with pytest.raises(AttributeError):
        run.iteration = 4
