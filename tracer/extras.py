"""loopscope's optional extras (otel, serve, langchain, mcp, charts), the modules each installs, and the one-line error when one is missing."""

from __future__ import annotations

# extra -> the top-level modules loopscope imports from what that extra installs (pyproject.toml's
# [project.optional-dependencies]; tests/test_extras.py holds the two equal and finds every import of them).
EXTRAS = {
    "otel": ("opentelemetry", "openinference", "google"),
    "serve": ("textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2"),
    "langchain": ("langchain", "langchain_classic", "langchain_core", "langgraph", "langchain_openai"),
    "openai-agents": ("agents",),
    "pydantic-ai": ("pydantic_ai",),
    "mcp": ("mcp", "mcp_types", "httpx"),  # httpx: what mcp 1.x speaks HTTP with (2.x: httpx2)
    "charts": ("plotext",),
}


class MissingExtra(ImportError):
    """A part of loopscope was used without the optional extra that installs what it needs."""


def missing_extra(extra: str, feature: str, error: ImportError) -> MissingExtra:
    """The error to raise (`from None`) when importing `extra`'s packages failed with `error`:
    one line naming the feature, the missing module and the command that installs the extra."""
    missing = error.name or "a package it needs"
    return MissingExtra(
        f"{feature} needs loopscope's {extra} extra ({missing} is not installed): pip install 'loopscope[{extra}]'",
        name=error.name,
    )
