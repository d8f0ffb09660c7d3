"""estimate_tokens for a run's growing prompts, counting only what each prompt added to an earlier one."""

from __future__ import annotations

import re

from ..report.cost.tokens import estimate_tokens

# estimate_tokens counts pieces that never span whitespace or punctuation: a run of letters/digits,
# or one other character. Counting a prompt as (its earlier prompt) + (the appended tail) gives the
# same number unless the join falls inside such a run, i.e. both sides of it are letters or digits.
_JOINED_WORD = re.compile(r"[^\W_]{2}")
REMEMBERED = 8  # recent texts kept: the agent's prompt, a nested call's (the calculator's), replies


class TokenCounter:
    """A drop-in for estimate_tokens over one run's texts in order. A ReAct prompt is the previous one
    plus the newest step, so counting every prompt whole is quadratic in the rounds; this counts each
    appended tail once, and the result equals estimate_tokens(text) for every text (a test holds it)."""

    def __init__(self) -> None:
        self._known: list[tuple[str, int]] = []  # (text, its count), newest last

    def __call__(self, text: str) -> int:
        count = None
        for earlier, earlier_count in reversed(self._known):
            if len(earlier) <= len(text) and text.startswith(earlier):
                tail = text[len(earlier) :]
                if not tail:
                    count = earlier_count
                elif not _JOINED_WORD.fullmatch(earlier[-1:] + tail[:1]):
                    count = earlier_count + estimate_tokens(tail)
                if count is not None:
                    break
        if count is None:
            count = estimate_tokens(text)
        self._known.append((text, count))
        del self._known[:-REMEMBERED]
        return count
