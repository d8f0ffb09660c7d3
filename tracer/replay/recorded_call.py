"""One recorded model or tool call with every attempt it took, and the errors replay raises again."""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from executor import ToolError, TransientError
from executor.events import EventBase, LLMEndEvent, LLMStartEvent, ToolEndEvent, ToolErrorEvent, ToolStartEvent

Start = TypeVar("Start", bound=EventBase)
End = TypeVar("End", bound=EventBase)


@dataclass
class RecordedCall(Generic[Start, End]):
    """One model or tool call of the recording, with every attempt it took.

    `failures` are the errors of attempts that were retried (one `retry` event each);
    `end` is llm_end / tool_end / tool_error, or None when the call failed for good;
    `final_error` is then the (type name, message) of its last attempt.
    """

    start: Start
    end: End | None = None
    failures: list[str] = field(default_factory=list)
    final_error: tuple[str, str] | None = None
    final_retryable: bool = False  # rebuilt as a TransientError, so retry policy and breaker count it again

    @property
    def stop(self) -> tuple[str, ...]:
        return tuple(getattr(self.start, "stop", ()))

    @property
    def finished(self) -> bool:
        return self.end is not None or self.final_error is not None

    def fail_for_good(self, error_type: str, message: str, retryable: bool = False) -> None:
        self.final_error, self.final_retryable = (error_type, message), retryable

    def attempt(self, number: int) -> Any:
        """The outcome of attempt `number` (0-based): raises the recorded error, or returns None."""
        if number < len(self.failures):
            raise failure_from_text(self.failures[number], retryable=True)
        if self.final_error is not None:
            error_type, message = self.final_error
            if error_type == "RetriesExhausted" and self.failures:
                raise failure_from_text(self.failures[-1], retryable=True)  # the retry loop gives up again
            raise recorded_exception(error_type, message, self.final_retryable)
        return None


# A model call (llm_start, answered by its llm_end) and a tool call (tool_start, ended by tool_end or tool_error).
ModelCall = RecordedCall[LLMStartEvent, LLMEndEvent]
ToolCall = RecordedCall[ToolStartEvent, ToolEndEvent | ToolErrorEvent]


# Exception types a recorded failure may name that replay can raise as themselves.
def _known_exception(name: str) -> type[Exception] | None:
    known = {"ToolError": ToolError, "TransientError": TransientError}
    found = known.get(name, getattr(builtins, name, None))
    return found if isinstance(found, type) and issubclass(found, Exception) else None


def recorded_exception(error_type: str, message: str, retryable: bool = False) -> Exception:
    """An exception that looks like the recorded one: same type name, same message.

    A type replay cannot import (a provider's RateLimitError) becomes a stand-in class of
    that name; when the recording retried it, the stand-in is a TransientError so the
    retry policy decides the same way again.
    """
    known = _known_exception(error_type)
    if known is not None:
        return known(message)
    base = TransientError if retryable else Exception
    return type(error_type, (base,), {"__module__": "recorded"})(message)


def failure_from_text(text: str, retryable: bool = False) -> Exception:
    """Rebuild an error from a retry event's "Type: message" text."""
    error_type, _, message = text.partition(": ")
    return recorded_exception(error_type or "Exception", message, retryable)
