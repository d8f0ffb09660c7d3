"""Tests of the debugger's Textual-free model: conditions, breakpoints, stepping."""
