"""Every key of the debugger runs a real method: each binding's action resolves, with its arguments, and says what it does."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import partial
from types import MethodType

import pytest
from textual.actions import parse
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

import tracer.tui
from tracer.debug.session import build_session
from tracer.tui.flows.flow import Flow
from tracer.tui.keymap import KEYMAP_OWNERS, binding_ids
from tracer.tui.screens.main_screen import DebuggerScreen


def owners_of_bindings() -> list[type[DOMNode]]:
    """Every app, screen and widget class of tracer.tui that declares BINDINGS itself (all modules imported)."""
    for module in pkgutil.walk_packages(tracer.tui.__path__, "tracer.tui."):
        importlib.import_module(module.name)
    found, pending = [], [DOMNode]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("tracer.tui.") and "BINDINGS" in vars(cls):
            found.append(cls)
    return sorted(set(found), key=lambda cls: cls.__qualname__)


def problems_of(owner: type[DOMNode]) -> list[str]:
    """Why each of `owner`'s own bindings would not run a method (an empty list: every one does)."""
    problems = []
    for binding in vars(owner)["BINDINGS"]:
        if not isinstance(binding, Binding):
            problems.append(f"{owner.__name__}: {binding!r} is a tuple, not a Binding (no id, no description)")
            continue
        where = f"{owner.__name__} {binding.key!r} ({binding.id})"
        if not binding.description.strip():
            problems.append(f"{where}: no description")
        if not binding.id:
            problems.append(f"{where}: no id (a keymap cannot rebind it)")
        namespace, name, arguments = parse(binding.action)
        target = {"app": App, "screen": Screen}.get(namespace, owner)
        method = getattr(target, f"action_{name}", None) or getattr(target, f"_action_{name}", None)
        if not callable(method):
            problems.append(f"{where}: {target.__name__} has no action_{name}")
            continue
        try:
            inspect.signature(method).bind(None, *arguments)  # None stands for self
        except TypeError as error:
            problems.append(f"{where}: action_{name}{arguments} does not fit its method: {error}")
    return problems


def bound_method(action) -> MethodType:
    """The method a flow's key runs, through a partial if the key gives it arguments."""
    return action.func if isinstance(action, partial) else action


OWNERS = owners_of_bindings()


def test_the_owners_found_are_every_screen_the_app_and_the_focusable_panes():
    names = {owner.__name__ for owner in OWNERS}
    assert {"DebuggerApp", "DebuggerScreen", "HelpScreen", "AskScreen", "ForkScreen", "DiffScreen"} <= names
    assert {"PlaygroundScreen", "TutorialPicker", "BreakpointsPane", "SourceView", "EventTimeline"} <= names
    assert set(KEYMAP_OWNERS) <= set(OWNERS)


@pytest.mark.parametrize("owner", OWNERS, ids=lambda owner: owner.__name__)
def test_every_binding_resolves_to_an_action_method_that_takes_its_arguments_and_has_a_description(owner):
    assert problems_of(owner) == []


def test_the_check_fails_on_a_misspelled_action_wrong_arguments_a_tuple_and_no_description():
    class Broken(Screen):
        BINDINGS = [
            Binding("a", "scroll_pain(1)", "scroll", id="misspelled"),
            Binding("b", "help(1, 2)", "help", id="too-many"),
            ("c", "help", "help"),
            Binding("d", "help", "", id="silent"),
        ]

        def action_help(self) -> None: ...

    problems = problems_of(Broken)
    assert len(problems) == 4, problems
    assert "has no action_scroll_pain" in problems[0] and "does not fit its method" in problems[1]
    assert "is a tuple" in problems[2] and "no description" in problems[3]


def test_every_flow_key_runs_a_method_of_the_flow_that_declares_it_and_no_handler_is_left_over(rose):
    session = build_session(rose)
    screen = DebuggerScreen(session)
    declared = {binding.id: flow for flow in screen.flows for binding in type(flow).KEYS}
    bound = [
        binding for binding in screen.BINDINGS if isinstance(binding, Binding) and parse(binding.action)[1] == "flow"
    ]
    assert {parse(binding.action)[2] for binding in bound} == {(binding.id,) for binding in bound}  # flow(ITS OWN ID)
    assert {binding.id for binding in bound} == set(declared) == set(screen.key_actions)
    for key, action in screen.key_actions.items():
        method = bound_method(action)
        assert method.__self__ is declared[key], f"{key} runs {method} of another flow"
        assert isinstance(method.__self__, Flow) and callable(getattr(type(method.__self__), method.__name__))
    session.store.close()


def test_every_id_a_keymap_accepts_belongs_to_a_binding_that_resolves():
    ids = binding_ids()
    assert len(ids) == len(set(ids)) and {"step-forward", "help", "app-quit", "toggle-breakpoint-at-cursor"} <= set(ids)
    resolved = {binding.id for owner in KEYMAP_OWNERS for binding in vars(owner)["BINDINGS"] if not problems_of(owner)}
    assert set(ids) <= resolved


@pytest.mark.parametrize("owner", OWNERS, ids=lambda owner: owner.__name__)
def test_every_binding_says_in_english_what_the_catalogue_says_for_its_id(owner):
    """The footer and the help translate a key by its binding id (tracer/i18n/keys.py): a description
    changed here and not there would leave the Chinese saying something else."""
    from tracer.i18n import say, templates

    for binding in vars(owner)["BINDINGS"]:
        key = f"keys.{binding.id}"
        assert key in templates(), f"{owner.__name__} {binding.id}: no {key} in tracer/i18n/keys.py"
        assert binding.description == say(key, "en"), f"{owner.__name__} {binding.id}"
