"""Tests of the trace format: reader, index, redaction, transitions."""
