"""loopscope's tests, mirroring the source tree; shared helpers live in tests/helpers."""
