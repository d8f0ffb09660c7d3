"""What keeps a run going when calls fail: retries, rate limits, fallbacks, circuit breakers and degradation."""
