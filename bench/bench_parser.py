"""Parse time of the ReAct parser on the replies that make LangChain's regex backtrack.

Run: uv run python bench/bench_parser.py [--repeat 20] [--regex-kb 4]
Target: every 100 KB+ pathological reply parses in under 50 ms. The backtracking regex (the
old parser) is timed on small copies only, to show how it grows; at 100 KB it takes 39-105 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from executor.agents.parser import OutputParserException, parse_react_output  # noqa: E402
from tests.helpers.parser_regex_reference import parse_with_regex  # noqa: E402

TARGET_MS = 50.0


def pathological(kb: int) -> dict[str, str]:
    n = kb * 1000
    return {
        'repeated "Action:"': "Action:" * (n // 7),
        '"Action: " + spaces + "x"': "Action: " + " " * n + "x",
        '"Action" + spaces + "x"': "Action" + " " * n + "x",
        'repeated "Action 1"': "Action 1" * (n // 8),
        'spaces + repeated "Action Input"': " " * n + "Action Input" * (n // 120),
        "spaced action, then input": "Action: Search" + " " * n + "Action Input:" + " " * n + '"rose"',
    }


def best_ms(parse, text: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            parse(text)
        except OutputParserException:
            pass  # most hostile replies do not parse: the time to say so is what is measured
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--regex-kb", type=int, default=4, help="size of the copies the regex is timed on")
    args = parser.parse_args()
    worst = 0.0
    print(f"{'reply':36} {'size':>9} {'linear parser':>14}   {'regex on ' + str(args.regex_kb) + ' KB copy':>20}")
    small = pathological(args.regex_kb)
    for name, text in pathological(100).items():
        ms = best_ms(parse_react_output, text, args.repeat)
        regex_ms = best_ms(parse_with_regex, small[name], 1)
        worst = max(worst, ms)
        print(f"{name:36} {len(text):>9,} {ms:>11.3f} ms   {regex_ms:>17.1f} ms")
    verdict = "OK" if worst < TARGET_MS else "OVER TARGET"
    print(f"worst linear parse: {worst:.3f} ms (target < {TARGET_MS:.0f} ms per reply): {verdict}")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
