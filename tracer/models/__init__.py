"""Real models for a run or a single call: configured, retried, rate-limited and with secrets hidden."""
