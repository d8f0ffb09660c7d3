"""The catalogue is complete: every key in both languages, with the same arguments, and nothing else."""

import string

import pytest

from tracer.i18n import Message, say, templates


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("key", sorted(templates()))
def test_every_key_says_something_in_both_languages_with_the_same_arguments(key: str) -> None:
    english, chinese = templates()[key]
    assert english.strip() and chinese.strip(), f"{key}: a template is empty"
    assert _fields(english) == _fields(chinese), f"{key}: arguments differ between en and zh"
    assert all(name and not name.isdigit() for name in _fields(english)), f"{key}: arguments must be named"


def test_a_value_that_looks_like_a_template_is_inserted_as_it_is() -> None:
    assert say("common.event", "zh", seq="{seq}") == "事件 {seq}"
    assert Message("common.event", {"seq": 3}).text("zh") == "事件 3"
    assert str(Message("common.event", {"seq": 3})) == "event 3"
