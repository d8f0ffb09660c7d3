"""The debugger's model, without Textual: conditions, breakpoints, stepping, the event store, the live run, the session, the source map."""
