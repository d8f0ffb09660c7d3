"""A recorded failure raised again from the class its trace names: the real class when it is loaded and safe to
make, a stand-in of the same name otherwise; a trace never makes anything be imported or run."""

from __future__ import annotations

import sys

import openai
import pytest
from langchain_core.exceptions import ModelRateLimitError

from executor.events import RetryEvent, SourceRef
from tracer.agents.frameworks import recorded_replies
from tracer.bridges.recorded_errors import STAND_IN_MODULE, class_path, loaded_exception_class, recorded_error

HERE = __name__


class QuietError(Exception):
    """Sets an attribute in its __init__, which making it from a recording must not run."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.initialised = True


class MadeItsOwnWayError(Exception):
    """Runs its own __new__: code a trace could pick, so it is refused."""

    made = 0

    def __new__(cls, *args: object) -> MadeItsOwnWayError:
        cls.made += 1
        return super().__new__(cls, *args)


class SaysItselfError(Exception):
    """Prints itself with its own __str__: code a trace could pick, so it is refused."""

    def __str__(self) -> str:
        return "spoken"


def test_a_loaded_class_named_by_a_trace_is_raised_as_itself_with_the_recorded_message():
    error = recorded_error("RateLimitError: Error code: 429 - slow down", "openai:RateLimitError")
    assert type(error) is openai.RateLimitError
    assert str(error) == "Error code: 429 - slow down" and error.args == ("Error code: 429 - slow down",)
    assert error.status_code == 429  # the class's own attribute; its __init__'s (response, body) are not set


def test_langchain_openai_s_classified_error_matches_both_the_sdk_class_and_langchain_s():
    langchain_openai = pytest.importorskip("langchain_openai.chat_models.base")
    path = class_path(langchain_openai.OpenAIRateLimitError)
    error = recorded_error("OpenAIRateLimitError: Error code: 429", path)
    assert isinstance(error, openai.RateLimitError) and isinstance(error, ModelRateLimitError)


def test_the_class_s_init_does_not_run():
    error = recorded_error("QuietError: shh", f"{HERE}:QuietError")
    assert type(error) is QuietError and str(error) == "shh"
    assert not hasattr(error, "initialised")


@pytest.mark.parametrize(
    "path",
    [
        "os:system",  # a function, not a class
        "builtins:int",  # a class, not an exception
        "builtins:KeyboardInterrupt",  # a BaseException that is no Exception
        "builtins:KeyError",  # its __str__ is its own (it would quote the message)
        f"{HERE}:MadeItsOwnWayError",
        f"{HERE}:SaysItselfError",
        "builtins:ValueError.__subclasses__",  # no walking through dunders
        "os:path.sep",  # not a class
        "openai:RateLimitError:extra",
        "openai",  # no class at all
        "tracer.bridges.recorded_errors:sys.modules",  # no walking through a module's imports' attributes
    ],
)
def test_what_is_no_plain_exception_class_is_refused_and_stands_in(path):
    assert loaded_exception_class(path) is None
    name = path.rpartition(":")[2].rpartition(".")[2] or "Error"
    name = name if name.isidentifier() else "Error"
    error = recorded_error(f"{name}: boom", path)
    assert type(error).__module__ == STAND_IN_MODULE and isinstance(error, RuntimeError)
    assert type(error).__name__ == name and str(error) == "boom"
    assert MadeItsOwnWayError.made == 0


def test_a_module_the_process_has_not_loaded_is_not_imported(tmp_path, monkeypatch):
    marker = tmp_path / "imported"
    (tmp_path / "planted_by_a_trace.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nclass Boom(Exception):\n    pass\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    error = recorded_error("Boom: kaboom", "planted_by_a_trace:Boom")
    assert type(error).__module__ == STAND_IN_MODULE and str(error) == "kaboom"
    assert "planted_by_a_trace" not in sys.modules and not marker.exists()


def test_a_class_whose_name_is_not_the_recorded_error_s_stands_in():
    error = recorded_error("RateLimitError: slow down", "builtins:ValueError")
    assert type(error).__module__ == STAND_IN_MODULE and type(error).__name__ == "RateLimitError"


def test_a_class_named_under_another_module_than_its_own_is_refused():
    # openai re-exports its errors under "openai"; the same class reached through another module is not
    # the name the recorder writes, so a trace naming it that way is not following the recorder's rules.
    assert loaded_exception_class("openai._exceptions:RateLimitError") is None


def test_traces_written_before_the_class_was_recorded_replay_as_before():
    error = recorded_error("RateLimitError: slow down")
    assert type(error).__module__ == STAND_IN_MODULE and type(error).__name__ == "RateLimitError"
    assert recorded_error("not a name: x").__class__.__name__ == "RecordedModelError"


def _retry(**fields: object) -> RetryEvent:
    where = SourceRef(file="f.py", line=1, function="f")
    return RetryEvent.model_validate(
        {"seq": 1, "run_id": "r", "t": 0.0, "iteration": 1, "frames": ("f",), "source": where}
        | {"target": "llm", "name": "m", "attempt": 1, "error": "RateLimitError: slow", "delay": 0.0}
        | fields
    )


class _Started:
    """Stands for an llm_start: recorded_replies reads only its kind."""

    kind = "llm_start"


def test_the_reply_a_re_run_gives_carries_the_recorded_class_and_none_for_an_old_trace():
    old, new = _retry(), _retry(error_class="openai:RateLimitError")
    assert "error_class" not in old.model_dump_json()  # an unset class is not written: old and own traces unchanged
    replies = recorded_replies([_Started(), old, _Started(), new])  # type: ignore[list-item]
    assert [(r.error, r.error_class) for r in replies] == [
        ("RateLimitError: slow", None),
        ("RateLimitError: slow", "openai:RateLimitError"),
    ]
