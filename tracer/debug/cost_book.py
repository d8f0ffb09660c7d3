"""Tokens and dollars for the debugger: the call at the current event, and totals for its iteration and the run."""

from __future__ import annotations

from typing import Any

from ..report.cost.prices import CallCost, CostTotal, PriceTable, call_costs

# Totals decode every model call once; past this many the status line shows the current call only,
# so a million-event trace still opens at once (the ledger, `loopscope run`, always counts them all).
TOTALS_LIMIT = 2_000
PAIR_REACH = 400  # how far to look for the other half of a call when there is no index yet


class CostBook:
    """Caches what it decoded; a live store that grows is counted again only when asked after growing."""

    def __init__(self, store: Any, prices: PriceTable | None = None) -> None:
        self.store = store
        self.prices = prices or PriceTable.load()
        self._calls: list[CallCost] | None = None
        self._counted_length = -1

    def call_at(self, position: int) -> CallCost | None:
        """The model call whose llm_start or llm_end is at `position`."""
        kind = self._kind(position)
        if kind == "llm_start":
            end = self._find("llm_end", position + 1, 1)
            pair = [position, end] if end is not None else []
        elif kind == "llm_end":
            start = self._find("llm_start", position - 1, -1)
            pair = [start, position] if start is not None else []
        else:
            return None
        if not pair:
            return None
        costs = call_costs([self.store.event(p) for p in pair], self.prices)
        return costs[0] if costs else None

    def _kind(self, position: int) -> str:
        index = self.store.index
        return index.kind(position) if index is not None else self.store.event(position).kind

    def _find(self, kind: str, start: int, direction: int) -> int | None:
        stop = len(self.store) if direction > 0 else -1
        for position in range(start, stop, direction)[:PAIR_REACH]:
            found = self._kind(position)
            if found == kind:
                return position
            if found in ("llm_start", "llm_end"):
                return None
        return None

    def calls(self) -> list[CallCost] | None:
        """Every model call in the store, or None when the store is too big (or not indexed yet)."""
        index = self.store.index
        if index is None:
            return None
        if len(self.store) != self._counted_length:
            if index.count("llm_end") > TOTALS_LIMIT:
                return None
            wanted = sorted({*index.position_list("llm_start"), *index.position_list("llm_end")})
            self._calls = call_costs((self.store.event(p) for p in wanted), self.prices)
            self._counted_length = len(self.store)
        return self._calls

    def totals(self, iteration: int) -> tuple[CostTotal, CostTotal] | None:
        """(this iteration's total, the run's total) or None when there is nothing to count."""
        calls = self.calls()
        if not calls:
            return None
        return (CostTotal.of([c for c in calls if c.iteration == iteration]), CostTotal.of(calls))
