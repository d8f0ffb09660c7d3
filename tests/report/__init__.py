"""Tests of the text renderers."""
