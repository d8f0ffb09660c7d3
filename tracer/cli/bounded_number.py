"""argparse types for numbers that must be finite and in a sane range (timeouts, rates, counts)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def bounded_float(low: float, high: float, what: str) -> Callable[[str], float]:
    """A parser for a float in [low, high]; inf, nan and 1e-300 are refused with the range in the message."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low:g} and {high:g}, got {text!r}")
        return value

    return parse


def bounded_int(low: int, high: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low} and {high}, got {text!r}")
        return value

    return parse
