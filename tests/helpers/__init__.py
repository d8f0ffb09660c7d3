"""Shared test helpers: scripted loops, recorded traces, Pilot helpers, the fake OpenAI server."""
