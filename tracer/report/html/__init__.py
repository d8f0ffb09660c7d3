"""A run (or two) as one self-contained offline HTML page: totals, waterfall, timeline, every event's detail."""
