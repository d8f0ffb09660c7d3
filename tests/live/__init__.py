"""Live-model tests against a fake OpenAI-compatible server on 127.0.0.1."""
