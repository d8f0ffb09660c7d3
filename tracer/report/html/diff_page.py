"""`loopscope diff --html`: two runs on one page: where they part, and each run's waterfall and timeline side by side."""

from __future__ import annotations

import os
from pathlib import Path

from ...i18n import say
from ..cost.prices import PriceTable
from ..diff import TraceDiff, render_diff
from .page import esc, page
from .trace_page import Progress, trace_section


def diff_page(
    diff: TraceDiff,
    paths: tuple[str | os.PathLike[str], str | os.PathLike[str]],
    progress: Progress | None = None,
    prices: PriceTable | None = None,
    lang: str = "en",
) -> str:
    """The page: the aligned transitions as `loopscope diff` prints them, then A beside B (anchors a-eN, b-eN)."""
    names = (str(paths[0]), str(paths[1]))
    verdict = say("html.diff.same" if diff.same else "html.diff.part", lang)
    sides = [
        f"<section>{''.join(trace_section(path, run=f'{side}-', progress=progress, prices=prices, lang=lang))}</section>"
        for side, path in zip("ab", paths)
    ]
    body = (
        f"<h1>{esc(Path(names[0]).name)} ↔ {esc(Path(names[1]).name)}</h1>"
        f"<p>{esc(verdict)}</p><pre>{esc(chr(10).join(render_diff(diff, names)))}</pre>"
        f'<div class="diff">{"".join(sides)}</div>'
    )
    return page(f"loopscope diff · {Path(names[0]).name} ↔ {Path(names[1]).name}", body, lang)
