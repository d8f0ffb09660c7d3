"""Structured output on hostile and ordinary replies: how long extract_structured takes to say yes or no.

Run: uv run python bench/bench_structured_output.py
Targets from issue 21: 150 KB of "{" and "[" * 3000 each become a parse error in well under a second
(the search before the linear rewrite took minutes on the first and crashed on the second).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import BaseModel

from executor.agents.parser import OutputParserException
from executor.agents.structured_output import extract_structured


class Price(BaseModel):
    item: str
    price: float


ANSWER = '{"item": "rose", "price": 26.25}'
REPLIES = {
    "150 KB of {": "{" * 150_000,
    "[ * 3000": "[" * 3000,
    "1 MB of []": "[]" * 500_000,
    "1 MB of {x}": "{x}" * 333_333,
    "balanced, 500,000 deep": "[" * 500_000 + "]" * 500_000,
    "valid, 99 deep, 1 MB wide": "[" * 99 + "1," * 495_000 + "1" + "]" * 99,
    "32 MB of {": "{" * 32_000_000,
    "answer in 10 KB of prose": "The rose costs 25 yuan, plus 5% [1]. " * 270 + ANSWER,
    "answer in a fence": "Here:\n```json\n" + ANSWER + "\n```\nDone.",
}


def main() -> None:
    for name, reply in REPLIES.items():
        start = time.perf_counter()
        try:
            outcome = f"answer {extract_structured(reply, Price)!r}"
        except OutputParserException as error:
            outcome = f"parse error: {str(error)[:60]}"
        print(f"{name:28} {time.perf_counter() - start:7.3f} s  {outcome}")


if __name__ == "__main__":
    main()
