"""Where a JSON object or array may sit in prose: one linear, string-aware, depth-bounded bracket scan."""

from __future__ import annotations

import re

CLOSER = {"{": "}", "[": "]"}
# What the scan stops at: brackets, quotes, and a backslash with the character it escapes.
_SPECIAL = re.compile(r'\\.?|[][{}"]', re.DOTALL)


def bracket_spans(text: str, max_depth: int, max_spans: int) -> list[tuple[int, int]]:
    """(start, end) of every `{` or `[` whose matching bracket closes it, ordered by start; the
    reading stops once `max_spans` have closed.

    Decoding JSON from an opening bracket can only succeed with the value ending at its matching
    bracket, counted as the decoder counts (brackets inside strings do not count), so an opening
    bracket without one is never worth decoding. A scan from an opening bracket agrees with every
    earlier scan that reads that bracket outside a string; the scans that read it inside a string
    agree with one another too. So two scans cover all of them at once: the one reading structure
    here (`outside`) and the one inside a string here (`inside`); a quote swaps them. Each is a stack
    of open brackets. A scan stops on a closing bracket of the wrong kind or a backslash outside a
    string (JSON allows neither there), and a bracket nested more than `max_depth` deep under
    another drops that outer one (its value would be too deep to decode), so the work is linear in
    the text and the stacks never hold more than `max_depth` brackets.
    """
    spans: list[tuple[int, int]] = []
    outside: list[tuple[int, str]] | None = None  # open brackets of the scan reading structure here
    inside: list[tuple[int, str]] | None = None  # open brackets of the scan inside a string here
    for match in _SPECIAL.finditer(text):
        token, at = match.group(), match.start()
        char = token[0]
        if char == '"':
            outside, inside = inside, outside
        elif char == "\\":  # inside a string it escapes the next character; outside, no value goes past it
            outside = [(at + 1, token[1])] if token[1:] in CLOSER else None
        elif char in CLOSER:
            outside = outside if outside is not None else []
            outside.append((at, char))
            if len(outside) > max_depth:
                del outside[0]
        elif outside:
            start, opener = outside.pop()
            if CLOSER[opener] != char:
                outside = None  # every value still open here fails to decode: give them all up
                continue
            spans.append((start, at))
            if len(spans) >= max_spans:
                break
            if not outside:
                outside = None  # a whole value ended: what follows is prose again
    spans.sort()
    return spans
