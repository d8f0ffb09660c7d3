"""What the user asked of the debugger, as one value: the command builds it, sessions and screens read it."""

from __future__ import annotations

from dataclasses import dataclass

from ..report.cost.prices import PriceTable


@dataclass(frozen=True)
class DebuggerOptions:
    """`loopscope debug`'s options (tracer/cli/options.py builds them from the arguments); a session
    keeps them as they were given, and what it opens from inside (a fork, a tutorial part) inherits them."""

    prices: PriceTable | None = None  # --prices (or $LOOPSCOPE_PRICES) over the shipped table; None: shipped
    lang: str | None = None  # --lang: the debugger's own words; None: a tutorial's language, else English
    agents: tuple[str, ...] = ()  # --agent specs: a trace's agent is re-run for real locals only if named
    breakpoints: tuple[str, ...] = ()  # --break specs, set when the session opens
    model: str | None = None  # --model: who answers a prompt edited in the playground (`e`)
    base_url: str | None = None  # --base-url, with --model
    predict: bool = False  # `tutorial --predict`: ask each predict question before its event is shown

    @property
    def call_model(self) -> tuple[str | None, str | None]:
        """(PROVIDER:NAME, base URL) of the playground's model; (None, None) when none was named."""
        return self.model, self.base_url

    def price_table(self) -> PriceTable:
        return self.prices if self.prices is not None else PriceTable.load()


DEFAULT_OPTIONS = DebuggerOptions()  # nothing asked: the shipped prices, a tutorial's language, no model
