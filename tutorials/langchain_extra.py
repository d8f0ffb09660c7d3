"""The one-line error for recording a LangChain run without loopscope's langchain extra installed."""

from __future__ import annotations


def langchain_missing(error: ImportError) -> ImportError:
    """Raised `from None` where a tutorial module imports LangChain (tracer/extras.py words it the same
    way for the tracer's modules; tutorials sit below tracer/ and cannot import it)."""
    return ImportError(
        f"recording a LangChain run needs loopscope's langchain extra ({error.name} is not installed): "
        "pip install 'loopscope[langchain]'",
        name=error.name,
    )
