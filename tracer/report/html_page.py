"""The HTML report's page: one self-contained file whose policy lets nothing load from anywhere and only our script run."""

from __future__ import annotations

import base64
import hashlib
import html

from ..trace.literal_text import scrub
from .waterfall import BAR_KINDS, COLOURS

_BAR_COLOURS = "\n".join(f".k{i} {{ background: {colour}; }}" for i, colour in enumerate(COLOURS))

STYLE = (
    """
:root { color-scheme: light dark; --fg: #1d2433; --bg: #fbfbfd; --muted: #667085; --line: #d7dbe3; --hi: #fff3c4; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e4e7ee; --bg: #15181e; --muted: #98a2b3; --line: #2d3340; --hi: #4a3f12; }
}
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 1.5rem 3rem; }
pre, code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0 .5rem; padding: .4rem .6rem;
      border-left: 3px solid var(--line); font-size: 12.5px; }
h1 { font-size: 1.3rem; margin: 1.2rem 0 .3rem; } h2 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
.muted { color: var(--muted); } .totals span { margin-right: 1.4rem; white-space: nowrap; display: inline-block; }
.wf { border: 1px solid var(--line); border-radius: 6px; padding: .4rem .6rem; }
.wf-scroll { overflow-x: auto; } .wf-tracks { width: 100%; min-width: 100%; overflow: hidden; }
.axis, .lane { position: relative; height: 22px; margin: 0 10px 0 7rem; }  /* room for the last bar past 100% */
.axis { height: 18px; border-bottom: 1px solid var(--line); font-size: 11px; color: var(--muted); }
.axis span { position: absolute; top: 0; border-left: 1px solid var(--line); padding-left: 2px; white-space: nowrap; }
.lane { border-bottom: 1px dashed var(--line); }
.lane > .name { position: absolute; left: -7rem; width: 6.6rem; font-size: 12px; color: var(--muted);
                 top: 3px; overflow: hidden; white-space: nowrap; }
.b { position: absolute; top: 3px; height: 16px; min-width: 4px; border-radius: 2px; color: #111;
     font-size: 11px; line-height: 16px; overflow: hidden; white-space: nowrap; text-decoration: none; }
.b.pt { width: 8px !important; min-width: 8px; margin-left: -4px; border-radius: 50%; }
.b.agg { opacity: .55; } .b.fail { box-shadow: inset -4px 0 0 #b00020; outline: 1px solid #b00020; }
.b.cur, .b:target { outline: 2px solid var(--fg); z-index: 2; }
"""
    + _BAR_COLOURS
    + """
.legend span { margin-right: 1rem; font-size: 12px; white-space: nowrap; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 2px; }
.zoom button { font: inherit; margin-right: .3rem; }
.tl details { border-bottom: 1px solid var(--line); content-visibility: auto; contain-intrinsic-size: auto 20px; }
.tl summary { cursor: pointer; font: 12.5px/1.5 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
              white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tl details[open] > summary, .tl details:target > summary { background: var(--hi); }
.tl summary > u { display: inline-block; min-width: 9.5rem; font-weight: 600; text-decoration: none; }
.tl .err u { color: #d92d20; }
.tl summary > b { display: inline-block; min-width: 5rem; color: var(--muted); text-align: right; margin-right: .6rem;
                  font-weight: normal; }
.tl summary > i { display: inline-block; min-width: 2.2rem; color: var(--muted); font-style: normal; }
.tl dl { margin: .3rem 0 .6rem 1rem; } .tl dt { font-weight: 600; font-size: 12px; margin-top: .3rem; }
.tl dd { margin: 0; }
.cost { font-size: 12px; color: var(--muted); }
table.runs { border-collapse: collapse; font-size: 12px; }
table.runs th, table.runs td { border-bottom: 1px solid var(--line); padding: 2px 8px; text-align: left; }
svg { display: block; color: var(--fg); } svg text { fill: currentColor; }
.diff { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.diff > section { min-width: 0; }
"""
)

# Our only script: draws an event's detail when its line is opened (from the page's data block, as text:
# textContent, never innerHTML), opens the event a link points at and marks its bar, and zooms the
# waterfall. It writes no HTML: nothing from the trace can become markup through it.
SCRIPT = """
(() => {
  let details = null;
  const data = () => {
    if (details === null) {
      details = {};
      document.querySelectorAll('script.ev-data').forEach(block => {
        const found = JSON.parse(block.textContent);
        for (const [id, entries] of Object.entries(found.e)) details[id] = [found.s, entries];
      });
    }
    return details;
  };
  const draw = event => {
    if (event.dataset.drawn || !event.open) return;
    event.dataset.drawn = '1';
    const run = event.id.replace(/e\\d+$/, ''), list = document.createElement('dl');
    const [strings, entries] = data()[event.id] || [[], []];
    for (const [label, text, link, words] of entries) {
      const term = document.createElement('dt'), value = document.createElement('dd');
      term.textContent = strings[label];
      if (typeof link === 'number') {
        const to = document.createElement('a');
        to.href = '#' + run + 'e' + link;
        to.textContent = 'event ' + link;
        value.append(strings[words], to);
      }
      if (strings[text]) {
        const pre = document.createElement('pre');
        pre.textContent = strings[text];
        value.append(pre);
      }
      list.append(term, value);
    }
    event.append(list);
  };
  document.addEventListener('toggle', change => { if (change.target.matches('.tl details')) draw(change.target); }, true);
  const mark = () => {
    let id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (error) { return; }
    const target = id ? document.getElementById(id) : null;
    if (target && target.tagName === 'DETAILS') { target.open = true; draw(target); }
    document.querySelectorAll('.b.cur').forEach(bar => bar.classList.remove('cur'));
    const found = /^(.*)e(\\d+)$/.exec(id);
    if (!found) return;
    const run = found[1], at = Number(found[2]);
    document.querySelectorAll('.b[data-f]').forEach(bar => {
      if (bar.dataset.r === run && Number(bar.dataset.f) <= at && at <= Number(bar.dataset.l)) bar.classList.add('cur');
    });
  };
  window.addEventListener('hashchange', mark);
  mark();
  document.querySelectorAll('.wf').forEach(box => {
    const tracks = box.querySelector('.wf-tracks');
    let zoom = 1;
    box.querySelectorAll('button[data-zoom]').forEach(button => button.addEventListener('click', () => {
      const factor = Number(button.dataset.zoom);
      zoom = factor ? Math.min(Math.max(zoom * factor, 1), 4096) : 1;
      tracks.style.width = (zoom * 100) + '%';
    }));
  });
})();
"""

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


def legend() -> str:
    names = [name.replace("_", " ") for name in BAR_KINDS]
    items = "".join(f'<span><i class="k{i}"></i>{name}</span>' for i, name in enumerate(names))
    return f'<div class="legend muted">{items}<span>outlined red: failed</span></div>'


def page(title: str, body: str) -> str:
    """The whole document: `body` is HTML built from escaped text only (esc)."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n"
        f"<script>{SCRIPT}</script>\n</body></html>\n"
    )
