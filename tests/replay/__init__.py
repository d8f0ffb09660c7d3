"""Tests of replay: cassettes, verify, fork."""
