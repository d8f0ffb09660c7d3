"""Pilot and SVG tests of the Textual debugger (marked slow)."""
