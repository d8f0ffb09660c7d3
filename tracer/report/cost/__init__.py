"""Tokens and dollars per model call: the endpoint's usage or an offline estimate, priced from a table."""
