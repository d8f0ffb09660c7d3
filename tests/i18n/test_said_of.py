"""What an error from a user's agent says on loopscope's one line: never two lines, never a crash of its own."""

from __future__ import annotations

from tracer.i18n import Message, Said, said_of


class Unreadable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("a hostile __str__")


def test_a_framework_error_of_several_lines_is_said_on_one():
    error = RecursionError("Recursion limit of 4 reached.\nFor troubleshooting, visit:  https://example.invalid\n\n")
    assert said_of(error) == "Recursion limit of 4 reached. For troubleshooting, visit:  https://example.invalid"


def test_an_error_whose_text_cannot_be_read_is_still_a_sentence():
    assert said_of(Unreadable()) == "(its message could not be read)"


def test_loopscopes_own_refusal_stays_a_catalogue_message():
    refusal = Said(Message("cli.framework.no_model"))
    assert said_of(refusal) is refusal.said
