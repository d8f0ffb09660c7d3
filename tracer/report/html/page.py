"""The HTML report's page: one self-contained file whose policy lets nothing load from anywhere and only our script run."""

from __future__ import annotations

import base64
import hashlib
import html
from pathlib import Path

from ...i18n import say
from ...trace.literal_text import scrub
from ..waterfall.picture import BAR_KINDS, COLOURS

_BAR_COLOURS = "\n".join(f".k{i} {{ background: {colour}; }}" for i, colour in enumerate(COLOURS))

# The page's style and our only script live in files of their own beside this module (read once, at
# import): the script draws an event's detail when its line is opened (from the page's data block, as
# text: textContent, never innerHTML), opens the event a link points at and marks its bar, and zooms the
# waterfall. It writes no HTML: nothing from the trace can become markup through it.
_HERE = Path(__file__).resolve().parent
_CSS = (_HERE / "page.css").read_text(encoding="utf-8")
_MARK = "/* bar colours: .k0 … (from tracer/report/waterfall/picture.py's COLOURS) */\n"
# A moved module once changed the mark in one file only and every bar went colourless: say so at import.
if _MARK not in _CSS:
    raise RuntimeError(f"page.css lost its mark {_MARK.strip()!r}: the bars would have no colours")
STYLE = _CSS.replace(_MARK, _MARK + _BAR_COLOURS + "\n")
SCRIPT = (_HERE / "page.js").read_text(encoding="utf-8")

_SCRIPT_HASH = base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode("ascii")
# Nothing may be fetched (no default-src, no connect-src, no fonts, no images but inline data), no
# form may post, no <base> may redirect links, and of scripts only the one above (by its hash) runs:
# a script that got into the page from a trace would not, even if an escape were ever missed.
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    f"script-src 'sha256-{_SCRIPT_HASH}'; base-uri 'none'; form-action 'none'; frame-src 'none'"
)


def esc(text: object) -> str:
    """Text from a trace as HTML text: control characters made visible, then every markup character escaped."""
    return html.escape(scrub(text), quote=True)


def legend(lang: str = "en") -> str:
    names = [say(f"html.legend.{name}", lang) for name in BAR_KINDS]
    items = "".join(f'<span><i class="k{i}"></i>{esc(name)}</span>' for i, name in enumerate(names))
    return f'<div class="legend muted">{items}<span>{esc(say("html.legend.failed", lang))}</span></div>'


def page(title: str, body: str, lang: str = "en") -> str:
    """The whole document: `body` is HTML built from escaped text only (esc)."""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{"zh" if lang == "zh" else "en"}"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n"
        f"<script>{SCRIPT}</script>\n</body></html>\n"
    )
