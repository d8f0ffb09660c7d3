"""A fork's later model calls whose prompts changed: what answered each, and how that is said."""

from __future__ import annotations

from dataclasses import dataclass


class PromptChanged(RuntimeError):
    """--stop-at-change: a model call after the fork point was asked something the recording was not."""


# What answers a model call after the fork point whose prompt is not the recorded one (see ForkModel).
AFTER_FORK = ("recording", "stop", "live")


@dataclass
class ChangedPrompt:
    """A model call after the fork point whose prompt differs from the one recorded for it."""

    call: int  # its number among the fork's model calls (1-based)
    recorded_seq: int  # the recorded llm_start it stands in for
    difference: str  # the first difference, one line (untrusted text: print it scrubbed)
    answered: str  # "recording" (the stale recorded reply), "live" (--model) or "stopped" (--stop-at-change)
    seq: int | None = None  # its llm_start in the fork, once the fork is written

    def sentence(self) -> str:
        """One line saying what answered this call and why (its difference quotes the run: print it scrubbed)."""
        where = f"model call #{self.call}" + (f" (event {self.seq})" if self.seq is not None else "")
        why = f"its prompt changed at {self.difference}"
        if self.seq is not None and self.seq != self.recorded_seq:
            why += f" (recorded as event {self.recorded_seq})"
        if self.answered == "stopped":
            return f"the fork stops at {where}: {why}"
        if self.answered == "live":
            return f"{where} went to the live model: {why}"
        return f"{where} got the reply recorded for the old prompt: {why}"


def prompt_difference(recorded: str, now: str, width: int = 60) -> str:
    """Where `now` first differs from `recorded`, in one line: the line number and both texts, shortened."""
    old, new = recorded.splitlines(), now.splitlines()
    for number, (before, after) in enumerate(zip(old, new), start=1):
        if before != after:
            return f"line {number}, {_short(before, width)} → {_short(after, width)}"
    number = min(len(old), len(new)) + 1
    if len(new) > len(old):
        return f"line {number}, which is new: {_short(new[number - 1], width)}"
    if len(old) > len(new):
        return f"line {number}, which is gone: {_short(old[number - 1], width)}"
    return "its line endings"


def _short(text: str, width: int) -> str:
    return repr(text if len(text) <= width else text[: width - 1] + "…")


# How ChangedPrompt.answered names what each after_fork choice did.
ANSWERED = {"recording": "recording", "live": "live", "stop": "stopped"}
