"""pytest integration: the loopscope plugin (cassette fixtures, record modes) and the syrupy snapshot extensions."""
