"""Tests of the engine: parser, calculator, the loop, retries, rate limiting."""
