"""Text renderers of a run: the narrator, the ledger, the Mermaid diagram and the trace diff."""
