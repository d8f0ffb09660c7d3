"""The Textual step-through debugger: open a trace (or a live run) and step through its events."""
