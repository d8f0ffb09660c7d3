"""`loopscope verify DIR… --html OUT.html`: every run's verdict on one offline page, each divergence's two values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .page import esc, page


def _value(value: Any) -> str:
    return esc(value if isinstance(value, str) else repr(value))


def verify_page(results: Sequence[Any], labels: dict[str, str]) -> str:
    """`results`: VerifyResults (path, status, message, difference, notes), one row each; a diverged run links
    to its difference, the recorded value beside the re-run's."""
    counts: dict[str, int] = {}
    rows, details = [], []
    for number, result in enumerate(results):
        counts[result.status] = counts.get(result.status, 0) + 1
        first = (result.message or f"{result.events} events").splitlines()[0]
        if result.status == "diverged" and result.difference is not None:
            first = f'<a href="#run-{number}">{esc(first)}</a>'
            difference = result.difference
            notes = "".join(f"<p class='muted'>{esc(note)}</p>" for note in result.notes)
            details.append(
                f'<section id="run-{number}"><h2>{esc(result.path)}</h2><p>{esc(difference.headline())}</p>'
                "<table><tr><th>recorded</th><th>re-run</th></tr>"
                f"<tr><td><pre>{_value(difference.expected)}</pre></td>"
                f"<td><pre>{_value(difference.actual)}</pre></td></tr></table>{notes}</section>"
            )
        else:
            first = esc(first)
        rows.append(f"<tr><td>{esc(labels[result.status])}</td><td>{esc(result.path)}</td><td>{first}</td></tr>")
    summary = ", ".join(f"{n} {status}" for status, n in counts.items())
    body = (
        f"<h1>loopscope verify: {len(results)} run{'s' if len(results) != 1 else ''}</h1>"
        f"<p>{esc(summary or 'no runs')}</p>"
        "<table><tr><th>verdict</th><th>run</th><th>what</th></tr>" + "".join(rows) + "</table>" + "".join(details)
    )
    return page("loopscope verify", body)
