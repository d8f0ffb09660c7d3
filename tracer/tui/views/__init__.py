"""Text builders for the panes: a session in, Rich Text out (no widgets here)."""
