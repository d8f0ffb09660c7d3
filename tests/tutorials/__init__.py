"""Tests of the tutorials: narration notes, fixtures, the printed walk."""
