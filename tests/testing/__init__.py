"""Tests of the pytest plugin and snapshot extensions."""
