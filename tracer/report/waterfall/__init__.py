"""A run's waterfall: calls and waits as bars on one time axis, in lanes, read from a trace and cut into cells."""
