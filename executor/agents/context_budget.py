"""A context budget for the message history: keep the last N messages and/or a token budget, trim or summarize."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..awaiting import Narrated
from ..events import ContextTrimmedEvent, SummarizedEvent
from ..models.chat_call import call_chat_model
from ..models.chat_model import ToolCallingModel
from ..models.messages import Message, message_text, render_messages, system_message, user_message
from ..run_context import RunContext

TokenCounter = Callable[[str], int]
MESSAGE_OVERHEAD = 4  # role and separators: OpenAI's cookbook counts 3-4 tokens per message
SUMMARY_PREFIX = "Summary of the earlier steps of this conversation:\n"
SUMMARY_INSTRUCTIONS = (
    "Summarize the conversation below for the assistant that continues it: keep every fact, "
    "number and tool result it will need, drop the rest. Answer with the summary only."
)
_PIECES = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]|[A-Za-z]+|\d|[^\sA-Za-z\d]")


def approx_token_count(text: str) -> int:
    """An offline estimate close to BPE tokenizers: a CJK character or a digit or a symbol is one token,
    a run of letters one per 4 letters. No vocabulary to download (tiktoken fetches one at run time)."""
    return sum(
        math.ceil(len(piece) / 4) if piece.isalpha() and piece.isascii() else 1 for piece in _PIECES.findall(text)
    )


@dataclass(eq=False)  # hashable by identity: it keys its state in run.run_state
class ContextBudget:
    """What the model may be sent: at most `context_window` messages and/or `max_tokens` tokens.

    The system message and the first user message are always kept, and an assistant message
    with tool calls is never separated from its `role: tool` results. Past the budget the
    oldest turns are dropped ("trim", a `context_trimmed` event) or replaced by a summary the
    model writes in a nested call ("summarize", then a `summarized` event).
    """

    context_window: int | None = None
    max_tokens: int | None = None
    strategy: Literal["trim", "summarize"] = "trim"
    token_counter: TokenCounter = approx_token_count

    def __post_init__(self) -> None:
        if self.context_window is None and self.max_tokens is None:
            raise ValueError("ContextBudget needs context_window (messages) and/or max_tokens")
        if self.context_window is not None and self.context_window < 3:
            raise ValueError(
                f"context_window must be at least 3 (system, question, one more), got {self.context_window}"
            )
        if self.strategy not in ("trim", "summarize"):
            raise ValueError(f"strategy must be 'trim' or 'summarize', got {self.strategy!r}")

    def count_tokens(self, messages: Sequence[Message]) -> int:
        return sum(self.token_counter(message_text(m)) + MESSAGE_OVERHEAD for m in messages)

    def fits(self, messages: Sequence[Message], reserve: int = 0) -> bool:
        if self.context_window is not None and len(messages) + (1 if reserve else 0) > self.context_window:
            return False
        return self.max_tokens is None or self.count_tokens(messages) + reserve <= self.max_tokens

    def fit(self, messages: list[Message], run: RunContext, model: ToolCallingModel) -> Narrated[list[Message]]:
        """The messages to send: as they are when they fit, else trimmed or with older turns summarized."""
        head, rest = _split_head(messages)
        # Kept on the run, so a later run of the same agent never inherits this run's summary.
        summarized = run.run_state.get(self)
        if summarized is not None:  # the history only grows: the turns summarized before stay summarized
            rest = [summarized[1]] + rest[summarized[0] :]
        if self.fits(head + rest):
            return head + rest
        if self.strategy == "summarize":
            return (yield from self._summarize(head, rest, run, model, summarized))
        keep = self._kept_tail(head, rest, reserve=0)
        kept = head + rest[keep:]
        yield run.emit(ContextTrimmedEvent, reason=self._reason(head + rest), dropped=rest[:keep],
                       messages_before=len(head + rest), messages_after=len(kept),
                       tokens_before=self.count_tokens(head + rest), tokens_after=self.count_tokens(kept))  # fmt: skip
        return kept

    def _summarize(
        self,
        head: list[Message],
        rest: list[Message],
        run: RunContext,
        model: ToolCallingModel,
        previous: tuple[int, Message] | None,
    ) -> Narrated[list[Message]]:
        # The summary call: a nested, narrated model call (frames ... plan, fit, _summarize, call_chat_model).
        reserve = max(1, (self.max_tokens or 0) // 4)  # room left for the summary itself
        keep = max(self._kept_tail(head, rest, reserve), 1)
        replaced = rest[:keep]
        request = [system_message(SUMMARY_INSTRUCTIONS), user_message(render_messages(replaced))]
        reply = yield from call_chat_model(run, model, request, tools=[])
        summary = user_message(SUMMARY_PREFIX + reply.text.strip())
        # How many messages of the full history the summary stands for (the old summary's, then the new ones).
        covered = previous[0] + len(replaced) - 1 if previous is not None else len(replaced)
        run.run_state[self] = (covered, summary)
        kept = head + [summary] + rest[keep:]
        yield run.emit(SummarizedEvent, replaced=replaced, summary=summary, messages_before=len(head + rest),
                       messages_after=len(kept), tokens_before=self.count_tokens(head + rest),
                       tokens_after=self.count_tokens(kept))  # fmt: skip
        return kept

    def _kept_tail(self, head: list[Message], rest: list[Message], reserve: int) -> int:
        """Where the kept tail of `rest` starts: the earliest turn boundary from which it fits
        (the last turn is kept even when it alone is over the budget)."""
        boundaries = [i for i, m in enumerate(rest) if m.get("role") != "tool"]
        for start in boundaries:
            if self.fits(head + rest[start:], reserve):
                return start
        return boundaries[-1] if boundaries else 0

    def _reason(self, messages: Sequence[Message]) -> Literal["context_window", "max_tokens"]:
        over_window = self.context_window is not None and len(messages) > self.context_window
        return "context_window" if over_window else "max_tokens"


def _split_head(messages: list[Message]) -> tuple[list[Message], list[Message]]:
    """The always-kept head (a leading system message and the first user message) and the rest."""
    first_user = next((i for i, m in enumerate(messages) if m.get("role") == "user"), -1)
    return messages[: first_user + 1], messages[first_user + 1 :]
