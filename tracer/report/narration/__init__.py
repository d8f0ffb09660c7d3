"""A run told in words: the narrator's running commentary and the ledger's closing tally."""
