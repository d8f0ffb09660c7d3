"""Text renderers of a run, one job a folder: narration, cost, waterfall, HTML, OTLP; the diff and Mermaid beside them."""
