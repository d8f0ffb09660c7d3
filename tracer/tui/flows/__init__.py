"""The debugger's flows: each owns a group of keys and the work behind them, and reports up by messages."""
